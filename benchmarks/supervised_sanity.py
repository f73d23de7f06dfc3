"""
Supervised sanity benchmark: train ProtoParser on each dataset's train.txt minus a fixed, seeded
10% held out, and report exact match on the held-out part (and seconds per epoch).

    python benchmarks/supervised_sanity.py [--datasets jobs geo atis] [--epochs N] [--out runs/benchmarks/supervised]

The held-out split is the same for everyone: lines of shuffle_0_shot_1/train.txt shuffled with
random.Random(2021), the first 10% held out. Results go to OUT/<dataset>/metrics.json and a
summary table is printed.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import time

HELD_OUT_SEED = 2021
DEFAULT_EPOCHS = {"jobs": 60, "geo": 60, "atis": 30}


def make_split(data_dir: str, dataset: str, out_dir: str):
    with open(os.path.join(data_dir, dataset, "lemma_data", "shuffle_0_shot_1", "train.txt"), encoding="utf-8") as f:
        lines = [line for line in f if line.strip()]
    random.Random(HELD_OUT_SEED).shuffle(lines)
    cut = len(lines) // 10
    os.makedirs(out_dir, exist_ok=True)
    paths = {}
    for name, part in (("heldout", lines[:cut]), ("train", lines[cut:])):
        paths[name] = os.path.join(out_dir, f"{name}.txt")
        with open(paths[name], "w", encoding="utf-8") as f:
            f.writelines(part)
    return paths, len(lines) - cut, cut


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", nargs="*", default=["jobs", "geo", "atis"])
    parser.add_argument("--epochs", type=int, default=None, help="override the per-dataset epochs")
    parser.add_argument("--data-dir", default=os.environ.get("FEWSHOT_DATA_DIR", "data"))
    parser.add_argument("--out", default="runs/benchmarks/supervised")
    args = parser.parse_args()
    rows = []
    for dataset in args.datasets:
        out_dir = os.path.join(args.out, dataset)
        paths, n_train, n_held = make_split(args.data_dir, dataset, os.path.join(out_dir, "split"))
        serialization = os.path.join(out_dir, "model")
        epochs = args.epochs or DEFAULT_EPOCHS[dataset]
        overrides = {"train_data_path": paths["train"], "validation_data_path": paths["heldout"], "trainer": {"num_epochs": epochs}}
        command = [
            sys.executable, "-m", "allennlp", "train", "experiments/supervised.jsonnet", "-s", serialization,
            "-f", "-o", json.dumps(overrides), "--include-package", "fewshot_parser",
        ]
        start = time.time()
        with open(os.path.join(out_dir, "train.log"), "w") as log:
            code = subprocess.call(command, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "FEWSHOT_DATA_DIR": args.data_dir, "FEWSHOT_DATASET": dataset, "FEWSHOT_SHOT": "1"})
        seconds = time.time() - start
        if code != 0:
            print(f"{dataset}: training failed, see {out_dir}/train.log")
            continue
        with open(os.path.join(serialization, "metrics.json")) as f:
            metrics = json.load(f)
        rows.append((dataset, n_train, n_held, epochs, 100 * metrics["best_validation_exact_match"],
                     100 * metrics["validation_exact_match"], seconds / epochs, metrics.get("peak_worker_0_memory_MB")))
    print(f"{'dataset':<8}{'train':>7}{'held':>6}{'epochs':>8}{'best EM':>9}{'last EM':>9}{'s/epoch':>9}{'peak MB':>9}")
    for row in rows:
        print(f"{row[0]:<8}{row[1]:>7}{row[2]:>6}{row[3]:>8}{row[4]:>9.2f}{row[5]:>9.2f}{row[6]:>9.1f}{row[7] or 0:>9.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
