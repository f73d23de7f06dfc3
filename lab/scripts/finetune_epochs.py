"""
How many fine-tuning epochs the best row should take, chosen on the development suite. The best row's
epochs (`augmentation.epochs`: jobs 2, geo 1 / 3 for 1- / 2-shot) were set on official shuffle 1;
this sweeps them on the suite's draws instead. Each run fine-tunes a grid system's config from its
pre-trained archive of the draw (made by `allennlp run-grid --suite dev`, so it must exist) with
`trainer.num_epochs` overridden, and reads the query exact match from its `metrics.json`.

    allennlp run-grid --suite dev --systems chosen-fallback-roles --datasets geo --draws 1 2 3 4 5 \\
        --runs-dir runs/components --results lab/results/pretraining_components/runs.csv --jobs 2 --threads 1
    python lab/scripts/finetune_epochs.py --datasets geo --epochs 1 2 3 5 \\
        --out lab/results/finetune_epochs

Reads only the suite (`--suite-root`, default data/dev) and its pre-trained archives. Resumable: a run
whose directory has `metrics.json` is read, not redone (only `trainer.num_epochs` differs between
runs, so a config that changes only its epochs reuses them). Writes `runs.csv` (one row per run, with
the code version that ran it) and `table.md` (mean ± standard error over draws per epoch count, and
the mean paired difference to a reference count: the config's own, or `--reference geo:1=1`).
"""
import argparse
import csv
import json
import os
import shutil
import statistics
import subprocess
import sys
from typing import Dict, List, Optional, Sequence, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

from fewshot_parser.commands.systems import render_config  # noqa: E402
from fewshot_parser.common.provenance import code_version  # noqa: E402
from fewshot_parser.training.pretrain_finetune import read_provenance  # noqa: E402

CONFIG = "experiments/systems.jsonnet#best/{dataset}_{shot}shot"  # a config file or a systems-table row
Key = Tuple[str, int, int, int, int]  # dataset, shot, draw, support sample, epochs


def configured_epochs(config: str, dataset: str, shot: int, suite_root: str, pretrain_root: str) -> int:
    """The fine-tuning epochs the config itself renders (`trainer.num_epochs`)."""
    variables = {"FEWSHOT_SPLIT": "0", "FEWSHOT_SEED": "13", "FEWSHOT_DATA_DIR": os.path.join(suite_root, "draw_1"),
                 "FEWSHOT_PRETRAIN_DIR": os.path.join(pretrain_root, "draw_1")}
    rendered = render_config(config.format(dataset=dataset, shot=shot), variables)
    return int(rendered["trainer"]["num_epochs"])


def run_directory(runs: str, key: Key) -> str:
    """Where one fine-tuning of the sweep lives (sample 0 keeps the name of the sweeps before samples)."""
    dataset, shot, draw, sample, epochs = key
    return os.path.join(runs, f"{dataset}_{shot}shot_d{draw}" + (f"s{sample}" if sample else "") + f"_e{epochs}")


def by_draw(values: Dict[Key, float], dataset: str, shot: int, epochs: int) -> Dict[int, float]:
    """Exact match per draw at an epoch count: the mean over the draw's support samples (a draw's samples
    share its pre-training and its query set, so the draw is the unit the error is taken over)."""
    samples: Dict[int, List[float]] = {}
    for (d, k, draw, _, e), value in values.items():
        if (d, k, e) == (dataset, shot, epochs):
            samples.setdefault(draw, []).append(value)
    return {draw: statistics.mean(found) for draw, found in samples.items()}


def draw_environment(key: Key, suite_root: str, pretrain_root: str) -> Dict[str, str]:
    """The variables a run of the sweep trains and is evaluated with: its draw's data and pre-training, its
    sample as the split (the archive's readers resolve their data files, such as idioms, against them;
    without them they would read the official data)."""
    _, _, draw, sample, _ = key
    return {**os.environ, "FEWSHOT_SPLIT": str(sample), "FEWSHOT_SEED": "13",
            "FEWSHOT_DATA_DIR": os.path.join(suite_root, f"draw_{draw}"),
            "FEWSHOT_PRETRAIN_DIR": os.path.join(pretrain_root, f"draw_{draw}"), "OMP_NUM_THREADS": "1",
            "MKL_NUM_THREADS": "1"}


def run(config: str, key: Key, runs: str, suite_root: str, pretrain_root: str) -> Optional[float]:
    """Exact match (%) of one fine-tuning, run unless its directory already has metrics.json."""
    dataset, shot, draw, sample, epochs = key
    directory = run_directory(runs, key)
    metrics = os.path.join(directory, "metrics.json")
    if not os.path.exists(metrics):
        archive = os.path.join(pretrain_root, f"draw_{draw}")
        if not os.path.isdir(archive):
            sys.exit(f"{archive}: no pre-trained archives of draw {draw}; run the grid of the module docstring first")
        if os.path.isdir(directory):  # an interrupted run: start it again
            shutil.rmtree(directory)
        environment = draw_environment(key, suite_root, pretrain_root)
        rendered = directory + ".json"  # the config (a file or a systems-table row) rendered for this draw and sample
        with open(rendered, "w") as handle:
            json.dump(render_config(config.format(dataset=dataset, shot=shot), environment), handle, indent=1)
        command = [sys.executable, "-m", "allennlp", "train", rendered, "-s", directory,
                   "-o", json.dumps({"trainer": {"num_epochs": epochs}}), "--include-package", "fewshot_parser"]
        with open(directory + ".log", "w") as log:
            if subprocess.call(command, stdout=log, stderr=subprocess.STDOUT, env=environment, cwd=ROOT) != 0:
                print(f"failed: {key} (log {directory}.log)", file=sys.stderr)
                return None
        for name in os.listdir(directory):  # checkpoints (about 0.5 GB a run); model.tar.gz stays
            if name.endswith(".th"):
                os.remove(os.path.join(directory, name))
    with open(metrics) as handle:
        return 100.0 * json.load(handle)["test_exact_match"]


def known(key: Key, runs: str, suite_root: str, pretrain_root: str) -> Optional[float]:
    """
    Exact match (%) of a finished fine-tuning on its draw's held-out known.txt (retention, as `run-grid`
    measures it: `allennlp evaluate`, kept as known_finetuned_metrics.json); None without a known.txt.
    """
    dataset, shot, draw, sample, _ = key
    directory = run_directory(runs, key)
    data = os.path.join(suite_root, f"draw_{draw}", dataset, "lemma_data", f"shuffle_{sample}_shot_{shot}", "known.txt")
    output = os.path.join(directory, "known_finetuned_metrics.json")
    if not os.path.isfile(data) or not os.path.isfile(os.path.join(directory, "model.tar.gz")):
        return None
    if not os.path.exists(output):
        environment = draw_environment(key, suite_root, pretrain_root)
        command = [sys.executable, "-m", "allennlp", "evaluate", os.path.join(directory, "model.tar.gz"), data,
                   "--output-file", output + ".partial", "--include-package", "fewshot_parser"]
        with open(directory + ".known.log", "w") as log:
            if subprocess.call(command, stdout=log, stderr=subprocess.STDOUT, env=environment, cwd=ROOT) != 0:
                print(f"known.txt evaluation failed: {key} (log {directory}.known.log)", file=sys.stderr)
                return None
        os.replace(output + ".partial", output)
    with open(output) as handle:
        return 100.0 * json.load(handle)["exact_match"]


def table(values: Dict[Key, float], retained: Dict[Key, float], configured: Dict[Tuple[str, int], int], reference: Dict[Tuple[str, int], int],
          command: str) -> str:
    lines = [f"# Fine-tuning epochs of the best row on the development suite\n\nGenerated by `{command}`.\n",
             "Exact match (%) over the draws, mean ± standard error; the paired difference is to the",
             "reference epoch count (same draw); a draw with several support samples counts once, with their mean. n = draws.\n",
             "Known: exact match on the draws' held-out known.txt after fine-tuning (retention), mean over the",
             "draws, and its paired difference to the reference count.\n",
             "| dataset | shot | epochs | mean ± s.e. | minus reference (paired) | known | known minus reference | n |",
             "|---|---|---|---|---|---|---|---|"]
    for (dataset, shot), own in sorted(reference.items()):
        for epochs in sorted({k[4] for k in values if k[:2] == (dataset, shot)}):
            scores = by_draw(values, dataset, shot, epochs)
            base = by_draw(values, dataset, shot, own)
            pairs = [scores[d] - base[d] for d in sorted(scores) if d in base]
            mean = statistics.mean(scores.values())
            error = statistics.stdev(scores.values()) / len(scores) ** 0.5 if len(scores) > 1 else float("nan")
            paired = (f"{statistics.mean(pairs):+.2f} ± {statistics.stdev(pairs) / len(pairs) ** 0.5:.2f}"
                      if len(pairs) > 1 and epochs != own else "–")
            mark = "".join(label for label, count in ((" (reference)", own), (" (configured)", configured[(dataset, shot)]))
                           if epochs == count)
            kept, kept_base = by_draw(retained, dataset, shot, epochs), by_draw(retained, dataset, shot, own)
            kept_pairs = [kept[d] - kept_base[d] for d in sorted(kept) if d in kept_base]
            kept_mean = f"{statistics.mean(kept.values()):.2f}" if kept else "–"
            kept_paired = f"{statistics.mean(kept_pairs):+.2f}" if kept_pairs and epochs != own else "–"
            lines.append(f"| {dataset} | {shot} | {epochs}{mark} | {mean:.2f} ± {error:.2f} | {paired} | {kept_mean} | "
                         f"{kept_paired} | {len(scores)} |")
    return "\n".join(lines) + "\n"


def main(argv: Optional[Sequence[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", default=CONFIG, help="config pattern with {dataset} and {shot} (default: the best row)")
    parser.add_argument("--datasets", nargs="+", default=["geo"])
    parser.add_argument("--shots", nargs="+", type=int, default=[1, 2])
    parser.add_argument("--draws", nargs="+", type=int, default=[1, 2, 3, 4, 5])
    parser.add_argument("--samples", nargs="+", type=int, default=[0], help="support samples of each draw (shuffles)")
    parser.add_argument("--epochs", nargs="+", type=int, required=True, help="fine-tuning epoch counts to run")
    parser.add_argument("--suite-root", default=os.path.join("data", "dev"))
    parser.add_argument("--pretrain-root", default=os.path.join("runs", "pretrain", "dev"))
    parser.add_argument("--runs", default=os.path.join("runs", "finetune_epochs"))
    parser.add_argument("--reference", nargs="*", default=[], metavar="DATASET:SHOT=EPOCHS",
                        help="the epoch count paired differences are taken to (default: the config's own)")
    parser.add_argument("--out", required=True, help="folder for runs.csv and table.md")
    args = parser.parse_args(argv)
    os.makedirs(args.runs, exist_ok=True)
    os.makedirs(args.out, exist_ok=True)
    version = code_version()
    configured = {(d, k): configured_epochs(args.config, d, k, args.suite_root, args.pretrain_root)
                  for d in args.datasets for k in args.shots}
    reference = dict(configured)
    for spec in args.reference:
        column, _, count = spec.partition("=")
        dataset, _, shot = column.partition(":")
        if (dataset, int(shot or 0)) not in configured or not count.isdigit():
            sys.exit(f"--reference {spec!r}: expected DATASET:SHOT=EPOCHS for a dataset and shot of this sweep")
        reference[(dataset, int(shot))] = int(count)
    values: Dict[Key, float] = {}
    retained: Dict[Key, float] = {}
    rows: List[Dict[str, str]] = []
    for draw in args.draws:  # draw-major, so that an interrupted sweep leaves whole draws
        for (dataset, shot), own in configured.items():
            for sample in args.samples:
                for epochs in sorted(set(args.epochs) | {own, reference[(dataset, shot)]}):
                    key = (dataset, shot, draw, sample, epochs)
                    value = run(args.config, key, args.runs, args.suite_root, args.pretrain_root)
                    if value is None:
                        continue
                    values[key] = value
                    kept = known(key, args.runs, args.suite_root, args.pretrain_root)
                    if kept is not None:
                        retained[key] = kept
                    rows.append({"config": args.config, "dataset": dataset, "shot": str(shot), "draw": str(draw),
                                 "epochs": str(epochs), "exact_match": f"{value:.2f}",
                                 "code_version": read_provenance(run_directory(args.runs, key)).get("code_version")
                                 or version, "sample": str(sample), "known": "" if kept is None else f"{kept:.2f}"})
                    print(f"{dataset} {shot}-shot d{draw} s{sample} {epochs} epochs: {value:.2f}, known {kept}", flush=True)
    with open(os.path.join(args.out, "runs.csv"), "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]) if rows else ["config"])
        writer.writeheader()
        writer.writerows(rows)
    command = "python lab/scripts/finetune_epochs.py " + " ".join(sys.argv[1:] if argv is None else argv)
    with open(os.path.join(args.out, "table.md"), "w") as handle:
        handle.write(table(values, retained, configured, reference, command))


if __name__ == "__main__":
    main()
