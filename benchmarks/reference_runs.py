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
``--freq 0`` (or 50) fine-tunes and tests on the other preprocessing than the scripts use, from the
completed pre-training on it, to measure what the rule type alone costs (e.g. geo 2-shot on freq_0):

    python benchmarks/reference_runs.py --datasets geo --shots 2 --freq 0 --results results/reference_runs_freq0.csv

``--seed N`` measures the authors' code's own seed spread: the scripts' seeds (pre-training 0,
fine-tuning 123) become N and 123 + N, in a work directory and a results file of their own
(``allennlp report`` lists a ``reference_runs_<name>.csv`` beside the reference file as its own line):

    python benchmarks/reference_runs.py --datasets jobs --shots 1 --seed 1 \
        --work runs/reference_impl_seed1 --results results/reference_runs_seed1.csv

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


def set_script_seeds(reference: str, work: str, dataset: str, shot: int, seed: int) -> None:
    """
    Sets the seeds of the authors' pre-training and fine-tuning scripts for ``dataset`` and ``shot``
    in the work copy to ``seed`` and ``123 + seed`` (the scripts have 0 and 123). The work copy is
    made here first when it does not exist yet, by running the reference driver's own set-up: it
    copies the code only when ``.ready`` is missing, so the seeds must be in place before it trains.
    """
    if not os.path.exists(os.path.join(work, ".ready")):
        setup = os.path.join(reference, "run_reference.sh")
        with open(setup, encoding="utf-8") as handle:
            text = handle.read()
        # Everything up to the preprocessing: the copy, the patch, the data links and the interpreter.
        head = text[: text.index("\ncd \"$work\"\n")]
        head = head.replace('here=$(cd "$(dirname "$0")" && pwd)', f"here={reference!r}")
        subprocess.run(["bash", "-c", head, "run_reference.sh", dataset, str(shot)], cwd=ROOT,
                       env=dict(os.environ, WORK=work), check=True)
    values = {"train.sh": seed, "fine_tune.sh": 123 + seed}
    for name, value in values.items():
        path = os.path.join(work, "scripts", dataset, SHOT_DIRS[shot], name)
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        if not re.search(r"^seed=\d+$", text, re.M):
            raise SystemExit(f"reference_runs: {path} has no 'seed=<n>' line to set")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(re.sub(r"^seed=\d+$", f"seed={value}", text, flags=re.M))


def fine_tuned_model_dir(work: str, dataset: str, shot: int, split: int) -> str:
    """Where the authors' fine-tuning script of ``dataset`` and ``shot`` saves its model for ``split``
    (its ``model_dir`` line, which also says which preprocessing the scripts use)."""
    script = os.path.join(work, "scripts", dataset, SHOT_DIRS[shot], "fine_tune_run.sh")
    if not os.path.exists(script):
        raise SystemExit(f"reference_runs: {script} not found; run the driver on {dataset} {shot}-shot first")
    with open(script, encoding="utf-8") as handle:
        found = re.search(r'^model_dir="(.*)"', handle.read(), re.M)
    if not found:
        raise SystemExit(f"reference_runs: {script} has no model_dir line")
    return os.path.join(work, found.group(1).replace("${shuffle}", str(split)).replace("${k_shot_num}", str(shot)))


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


SHOT_DIRS = {1: "one_shot", 2: "two_shot"}


def _script_with_freq(source: str, target: str, freq: int, test_from: str = "", test_to: str = "") -> None:
    """Copies one of the driver's CPU run scripts with every ``freq_<n>`` data and model path set to ``freq``."""
    with open(source, encoding="utf-8") as handle:
        text = re.sub(r"freq_\d+", f"freq_{freq}", handle.read())
    if test_from:
        text = text.replace(test_from, test_to)
    with open(target, "w", encoding="utf-8") as handle:
        handle.write(text)


def pretrained_with_freq(work: str, dataset: str, freq: int) -> str:
    """
    The completed pre-trained model of ``dataset`` on the ``freq_<freq>`` preprocessing, made by the
    driver for the shot whose scripts use that preprocessing; a clear error when there is none.
    """
    for shot, shot_dir in SHOT_DIRS.items():
        train = os.path.join(work, "scripts", dataset, shot_dir, "train_run.sh")
        if not os.path.exists(train):
            continue
        with open(train, encoding="utf-8") as handle:
            text = handle.read()
        model_dir = re.search(r'^model_dir="(.*)"', text, re.M)
        epochs = re.search(r"^max_epoch=(\d+)", text, re.M)
        if not model_dir or f"freq_{freq}/" not in model_dir.group(1) or not epochs:
            continue
        log = os.path.join(work, f"pretrain_{dataset}_{shot}.log")
        folder = os.path.join(work, model_dir.group(1))
        models = sorted(
            name for name in (os.listdir(folder) if os.path.isdir(folder) else [])
            if "pre_train" in name and f"max_ep{epochs.group(1)}" in name and name.endswith(".bin") and ".optim." not in name
        )
        if models and os.path.exists(log) and "reached max epoch" in open(log, encoding="utf-8", errors="replace").read():
            return os.path.join(folder, models[0])
    raise SystemExit(f"reference_runs: no completed {dataset} pre-training on freq_{freq} in {work}; run the shot "
                     f"whose scripts use freq_{freq} first (e.g. --datasets {dataset} --shots 1 for freq_0)")


def run_split_with_freq(work: str, dataset: str, shot: int, split: int, freq: int) -> Tuple[str, str]:
    """
    Fine-tunes and tests one split with the authors' scripts for ``dataset`` and ``shot`` on the
    ``freq_<freq>`` preprocessing (support, query and pre-trained model alike), every other
    hyper-parameter as the scripts have it. Needs the work directory the plain driver made.
    Returns (accuracy, pre-trained model name).
    """
    scripts = os.path.join(work, "scripts", dataset, SHOT_DIRS[shot])
    fine_tune, test = os.path.join(scripts, "fine_tune_run.sh"), os.path.join(scripts, "test_run.sh")
    if not (os.path.exists(fine_tune) and os.path.exists(test)):
        raise SystemExit(f"reference_runs: {scripts} has no fine_tune_run.sh / test_run.sh; run the driver on "
                         f"{dataset} {shot}-shot without --freq first")
    pretrained = pretrained_with_freq(work, dataset, freq)
    test_name = f"test_freq{freq}_run.sh"
    _script_with_freq(test, os.path.join(scripts, test_name), freq)
    _script_with_freq(fine_tune, os.path.join(scripts, f"fine_tune_freq{freq}_run.sh"), freq,
                      "test_run.sh", test_name)
    model_dir = f"saved_models/{dataset}/freq_{freq}/shuffle_{split}_shot_{shot}/"
    os.makedirs(os.path.join(work, model_dir), exist_ok=True)
    log = os.path.join(work, f"finetune_{dataset}_{shot}_s{split}_freq{freq}.log")
    env = dict(os.environ, PATH=os.path.join(work, "bin") + os.pathsep + os.environ.get("PATH", ""),
               OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "1"))
    with open(log, "w", encoding="utf-8") as handle:
        subprocess.run(["bash", os.path.relpath(os.path.join(scripts, f"fine_tune_freq{freq}_run.sh"), work),
                        pretrained, str(split), str(shot), "ft"], cwd=work, env=env, stdout=handle,
                       stderr=subprocess.STDOUT, check=True)
    with open(log, encoding="utf-8", errors="replace") as handle:
        found = re.findall(r"'accuracy': np\.float64\(([0-9.e-]+)\)", handle.read())
    return (found[-1] if found else "FAILED"), os.path.basename(pretrained)


def system_name(freq: "int | None", seed: "int | None") -> str:
    """The results row's system: the scripts' setting, or the one thing changed from it."""
    if freq is not None:
        return f"{SYSTEM[:-1]}, freq_{freq})"
    if seed is not None:
        return f"{SYSTEM[:-1]}, seed {seed})"
    return SYSTEM


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reference", default=os.path.join(ROOT, "..", "shared", "reference_impl"))
    parser.add_argument("--work", default=os.path.join(ROOT, "runs", "reference_impl"))
    parser.add_argument("--results", default=os.path.join(ROOT, "results", "reference_runs.csv"))
    parser.add_argument("--datasets", nargs="+", default=["jobs", "geo"], choices=["jobs", "geo", "atis"])
    parser.add_argument("--shots", nargs="+", type=int, default=[1, 2], choices=[1, 2])
    parser.add_argument("--splits", nargs="+", type=int, default=[1, 2, 3, 4, 5])
    parser.add_argument("--epochs", default="", help="pre-training epochs (default: the authors' script)")
    parser.add_argument("--freq", type=int, choices=(0, 50), default=None,
                        help="fine-tune and test on this preprocessing (freq_0: rule type BLB, freq_50: BL) instead of "
                             "the one the scripts use, from the completed pre-training on it; every other setting as "
                             "the scripts have it. Write these rows to their own --results file.")
    parser.add_argument("--seed", type=int, default=None,
                        help="pre-train with seed N and fine-tune with 123 + N instead of the scripts' 0 and 123; "
                             "needs its own --work and --results")
    args = parser.parse_args()
    if args.freq is not None and os.path.abspath(args.results) == os.path.abspath(parser.get_default("results")):
        parser.error("--freq rows are not the scripts' setting: give them their own --results file")
    if args.seed is not None:
        for option in ("results", "work"):
            if os.path.abspath(getattr(args, option)) == os.path.abspath(parser.get_default(option)):
                parser.error(f"--seed runs are not the scripts' seeds: give them their own --{option}")
        if args.freq is not None:
            parser.error("--seed and --freq are separate measurements: give one of them")

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
                start = time.time()
                if args.freq is not None:
                    accuracy, model = run_split_with_freq(os.path.abspath(args.work), dataset, shot, split, args.freq)
                else:
                    if args.seed is not None:
                        set_script_seeds(os.path.abspath(args.reference), os.path.abspath(args.work), dataset, shot,
                                         args.seed)
                    for path in discard_unfinished_pretraining(os.path.abspath(args.work), dataset, shot):
                        print(f"reference_runs: {path} is from an interrupted pre-training; deleted, pre-training "
                              "again", flush=True)
                    accuracy, model = run_split(script, os.path.abspath(args.work), dataset, shot, split, args.epochs)
                seconds = time.time() - start
                if accuracy == "FAILED":
                    print(f"reference_runs: {dataset} {shot}-shot split {split} failed; see {args.work}", flush=True)
                    continue
                append_row(args.results, {
                    "system": system_name(args.freq, args.seed), "dataset": dataset, "shot": shot, "shuffle": split,
                    "exact_match": f"{100 * float(accuracy):.2f}", "seconds": f"{seconds:.1f}",
                    "epochs": args.epochs or "script", "vectors": "glove.6B.50d",
                    "authors_commit": AUTHORS_COMMIT, "pretrained_model": model,
                    "code_version": code_version(ROOT),
                })
                print(f"reference_runs: {dataset} {shot}-shot split {split}: {100 * float(accuracy):.2f} "
                      f"({seconds:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
