"""
Runs the authors' published code (``../shared/reference_impl``, their pinned commit plus a small
CPU / Python 3.11 patch) on the official splits and records one row per (dataset, shot, split) in
``results/reference_runs.csv``, so that ``allennlp report`` can put it beside our faithful row.

    python benchmarks/reference_runs.py --datasets jobs geo --shots 1 2 --splits 1 2 3 4 5

Resumable at split granularity: a (dataset, shot, split) already in the results file is skipped,
and the authors' pre-trained model is kept in ``--work`` (default ``runs/reference_impl``), so a
rerun after an interruption only fine-tunes what is missing (their code cannot resume an
interrupted pre-training; it starts that one over). Each row records the driver's git commit,
the authors' commit, the word vectors, the pre-training epochs and the seconds the split took.
When the reference code is not present the script says so and exits 0 (a user's clone has no
``../shared``).
"""
import argparse
import csv
import os
import re
import subprocess
import sys
import time
from typing import Dict, List, Set, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from fewshot_parser.common.provenance import code_version  # noqa: E402

AUTHORS_COMMIT = "2c7a7c173e570cdc534bda927993d253324949f0"
FIELDS = [
    "system", "dataset", "shot", "shuffle", "exact_match", "seconds", "epochs", "vectors",
    "authors_commit", "pretrained_model", "code_version",
]
SYSTEM = "ProtoParser (authors' code, GloVe 50d)"


def recorded(path: str) -> Set[Tuple[str, int, int]]:
    """The (dataset, shot, split) keys already in the results file."""
    if not os.path.exists(path):
        return set()
    with open(path, newline="", encoding="utf-8") as handle:
        return {(r["dataset"], int(r["shot"]), int(r["shuffle"])) for r in csv.DictReader(handle)}


def append_row(path: str, row: Dict[str, object]) -> None:
    """Appends one row (the header first when the file is new); flushed before returning."""
    new = not os.path.exists(path) or os.path.getsize(path) == 0
    with open(path, "a", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=FIELDS)
        if new:
            writer.writeheader()
        writer.writerow(row)
        handle.flush()
        os.fsync(handle.fileno())


def discard_unfinished_pretraining(work: str, dataset: str, shot: int) -> List[str]:
    """
    Deletes the model files of an interrupted pre-training, so that the driver pre-trains again.

    The authors' trainer saves its model file after every improving epoch, and the driver reuses any
    model file it finds, so a pre-training killed at epoch 5 would otherwise be fine-tuned from as if
    it were complete. A pre-training is complete when its log says it reached the last epoch.
    Returns the deleted paths.
    """
    log = os.path.join(work, f"pretrain_{dataset}_{shot}.log")
    if not os.path.exists(log):
        return []
    with open(log, encoding="utf-8", errors="replace") as handle:
        text = handle.read()
    if "reached max epoch" in text:
        return []
    deleted = []
    for saved in sorted(set(re.findall(r"save model to \[(.*?)\]", text))):
        model = os.path.join(work, saved)
        for path in (model, model[: -len(".bin")] + ".optim.bin" if model.endswith(".bin") else None):
            if path and os.path.exists(path):
                os.remove(path)
                deleted.append(path)
    return deleted


def run_split(script: str, work: str, dataset: str, shot: int, split: int, epochs: str) -> Tuple[str, str]:
    """Runs the reference driver for one split; returns (accuracy, pre-trained model name)."""
    before = 0
    results = os.path.join(work, "results.csv")
    if os.path.exists(results):
        with open(results, encoding="utf-8") as handle:
            before = len(handle.readlines())
    env = dict(os.environ, WORK=work, OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "1"))
    if epochs:
        env["EPOCHS"] = epochs
    subprocess.run(["bash", script, dataset, str(shot), str(split)], cwd=ROOT, env=env, check=True)
    with open(results, encoding="utf-8") as handle:
        lines = handle.readlines()[before:]
    if not lines:
        raise RuntimeError(f"{results}: the reference driver wrote no line for {dataset} {shot}-shot split {split}")
    fields = lines[-1].strip().split(",")
    return fields[3], fields[4]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reference", default=os.path.join(ROOT, "..", "shared", "reference_impl"))
    parser.add_argument("--work", default=os.path.join(ROOT, "runs", "reference_impl"))
    parser.add_argument("--results", default=os.path.join(ROOT, "results", "reference_runs.csv"))
    parser.add_argument("--datasets", nargs="+", default=["jobs", "geo"], choices=["jobs", "geo", "atis"])
    parser.add_argument("--shots", nargs="+", type=int, default=[1, 2], choices=[1, 2])
    parser.add_argument("--splits", nargs="+", type=int, default=[1, 2, 3, 4, 5])
    parser.add_argument("--epochs", default="", help="pre-training epochs (default: the authors' script)")
    args = parser.parse_args()

    script = os.path.join(args.reference, "run_reference.sh")
    if not os.path.exists(script):
        print(f"reference_runs: {script} not found; the authors' code is not on this machine, nothing to run")
        return
    done = recorded(args.results)
    for dataset in args.datasets:
        for shot in args.shots:
            for split in args.splits:
                if (dataset, shot, split) in done:
                    print(f"reference_runs: {dataset} {shot}-shot split {split} already recorded", flush=True)
                    continue
                for path in discard_unfinished_pretraining(os.path.abspath(args.work), dataset, shot):
                    print(f"reference_runs: {path} is from an interrupted pre-training; deleted, pre-training again",
                          flush=True)
                start = time.time()
                accuracy, model = run_split(script, os.path.abspath(args.work), dataset, shot, split, args.epochs)
                seconds = time.time() - start
                if accuracy == "FAILED":
                    print(f"reference_runs: {dataset} {shot}-shot split {split} failed; see {args.work}", flush=True)
                    continue
                append_row(args.results, {
                    "system": SYSTEM, "dataset": dataset, "shot": shot, "shuffle": split,
                    "exact_match": f"{100 * float(accuracy):.2f}", "seconds": f"{seconds:.1f}",
                    "epochs": args.epochs or "script", "vectors": "glove.6B.50d",
                    "authors_commit": AUTHORS_COMMIT, "pretrained_model": model,
                    "code_version": code_version(ROOT),
                })
                print(f"reference_runs: {dataset} {shot}-shot split {split}: {100 * float(accuracy):.2f} "
                      f"({seconds:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
