"""
How long teaching a parser new predicates takes: `allennlp teach` of one split's support set with
the faithful row (`ours`) and the best row (`best`), seconds per phase and in total, then
decoding throughput of each fine-tuned archive on the split's query set (utterances per second; the
faithful archive decodes greedily; the best row's decodes with a beam for entity coverage, and its
pre-trained parser answers where no new predicate is used).

    python benchmarks/teach_speed.py [--datasets geo jobs atis] [--shot 1] [--split 1] [--threads 1] \\
        [--out results/speed]

Each teaching runs in its own process (`allennlp teach ... --threads N`), from the row's pre-trained
archive under `$FEWSHOT_PRETRAIN_DIR` (default runs/pretrain; `make run SYSTEM=<row> DATASET=<d>
SHOT=<k> SPLITS=<split>` makes it). The phases are the ones `teach` prints (`fewshot_parser/common/
phases.py`): loading the pre-trained archive, recombination (synthetic pairs), reading the support
and query sets, building the model, prototypes, training, decoding the query set, archiving.
Throughput is measured on the fine-tuned archive loaded afresh (so the frozen MiniLM's cache starts
empty), with `allennlp predict`'s batching of 64, best of two passes. Writes `<out>/teach.md` and
`<out>/teach.csv` with the code version, machine and thread count. Timing only: splits are not
chosen or tuned on here.
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys
import time
from typing import Dict, List, Optional, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

ROWS = {"ours": "faithful", "best": "best"}
# The phases in the order a teaching runs them (`teach`'s summary lists them as they first start).
PHASES = ["loading the pre-trained archive", "reading the support set", "recombination", "building the model",
          "reading the query set", "prototypes", "training", "decoding the query set", "archiving"]
PHASE_LINE = re.compile(r"^teach: time per phase: (.*)$")
DONE_LINE = re.compile(r"^teach: done in ([0-9.]+) s")
MATCH_LINE = re.compile(r"^teach: exact match on .*: ([0-9.]+)%")


def pretrained_archive(system: str, dataset: str, shot: int) -> str:
    """Where the row's recipe for `dataset` and `shot` keeps its pre-trained archive."""
    from fewshot_lab.recipes import experiment_path, render

    return render(experiment_path(system, dataset, shot), 13)["pretrained_archive"]


def split_files(dataset: str, shot: int, split: int) -> Tuple[str, str]:
    from fewshot_parser.data.paths import data_root

    folder = os.path.join(data_root(), dataset, "lemma_data", f"shuffle_{split}_shot_{shot}")
    return os.path.join(folder, "support.txt"), os.path.join(folder, "query.txt")


def teach(system: str, archive: str, support: str, query: Optional[str], out: str, threads: int) -> Dict[str, object]:
    """Runs `allennlp teach` in a fresh process; its phases, total seconds and exact match (0 without `query`)."""
    command = [sys.executable, "-m", "allennlp", "teach", archive, support, "-s", out] + (["--query", query] if query else []) + [
               "--threads", str(threads), "--force", "--include-package", "fewshot_parser"]
    started = time.time()
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True,
                            env={**os.environ, "OMP_NUM_THREADS": str(threads)})
    wall = time.time() - started
    if result.returncode != 0:
        tail = (result.stderr.strip().splitlines() or ["no output"])[-1]
        raise SystemExit(f"teach_speed: {system} on {support}: allennlp teach failed: {tail}")
    phases: Dict[str, float] = {}
    total = exact = 0.0
    for line in result.stdout.splitlines():
        phase_line, done, match = PHASE_LINE.match(line), DONE_LINE.match(line), MATCH_LINE.match(line)
        if phase_line:
            for part in phase_line.group(1).split(", "):
                name, seconds, _ = part.rsplit(" ", 2)
                phases[name] = float(seconds)
        elif done:
            total = float(done.group(1))
        elif match:
            exact = float(match.group(1))
    return {"phases": phases, "teach_seconds": total, "process_seconds": wall, "exact_match": exact}


def throughput(archive: str, query: str, threads: int) -> float:
    """Utterances per second of the archive's predictor over the query utterances, batches of 64, best of two."""
    import torch
    from allennlp.predictors import Predictor

    torch.set_num_threads(threads)
    predictor = Predictor.from_path(archive, predictor_name="proto_parser")
    with open(query, encoding="utf-8") as handle:
        inputs = [{"utterance": line.split("\t")[0]} for line in handle if line.strip()]
    best = 0.0
    for _ in range(2):
        started = time.perf_counter()
        for start in range(0, len(inputs), 64):
            predictor.predict_batch_json(inputs[start:start + 64])
        best = max(best, len(inputs) / (time.perf_counter() - started))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", nargs="+", default=["geo", "jobs", "atis"], choices=["jobs", "geo", "atis"])
    parser.add_argument("--shot", type=int, default=1, choices=[1, 2])
    parser.add_argument("--split", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--systems", nargs="+", default=list(ROWS), choices=list(ROWS))
    parser.add_argument("--runs-dir", default="runs/teach_speed")
    parser.add_argument("--out", default="results/speed")
    args = parser.parse_args()

    import fewshot_parser  # noqa: F401  (registers the plugin)
    from fewshot_parser.common.provenance import code_version, machine_name

    rows: List[Dict[str, object]] = []
    for dataset in args.datasets:
        support, query = split_files(dataset, args.shot, args.split)
        for system in args.systems:
            archive = pretrained_archive(system, dataset, args.shot)
            if not os.path.isfile(archive):
                raise SystemExit(f"teach_speed: {archive}: no pre-trained archive for {system} on {dataset} "
                                 f"(make run SYSTEM={system} DATASET={dataset} SHOT={args.shot} SPLITS={args.split})")
            out = os.path.join(args.runs_dir, f"{system}_{dataset}_{args.shot}shot_s{args.split}")
            measured = teach(system, archive, support, query, out, args.threads)
            measured["utterances_per_second"] = throughput(os.path.join(out, "model.tar.gz"), query, args.threads)
            rows.append({"system": system, "row": ROWS[system], "dataset": dataset, **measured})
            print(f"{system} {dataset} {args.shot}-shot split {args.split}: teach {measured['teach_seconds']:.1f} s "
                  f"({json.dumps(measured['phases'])}), {measured['utterances_per_second']:.1f} utterances/s",
                  flush=True)
    write(rows, args, code_version(), machine_name())


def write(rows: List[Dict[str, object]], args: argparse.Namespace, version: str, machine: str) -> None:
    """teach.md (a table per phase) and teach.csv under `args.out`."""
    phases: List[str] = list(PHASES)
    for row in rows:
        phases += [name for name in row["phases"] if name not in phases]  # type: ignore[union-attr]
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "teach.csv"), "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["system", "dataset", "shot", "split", "threads", "teach_seconds", "process_seconds",
                         "exact_match", "utterances_per_second", *phases, "code_version", "machine"])
        for row in rows:
            writer.writerow([row["system"], row["dataset"], args.shot, args.split, args.threads,
                             row["teach_seconds"], round(row["process_seconds"], 1), row["exact_match"],
                             round(row["utterances_per_second"], 1),
                             *[row["phases"].get(name, 0.0) for name in phases], version, machine])  # type: ignore
    lines = [f"# Teaching one split: seconds per phase ({args.shot}-shot, split {args.split}, {args.threads} torch thread(s))",
             "",
             f"Generated by `python benchmarks/teach_speed.py --datasets {' '.join(args.datasets)} --shot {args.shot} "
             f"--split {args.split} --threads {args.threads}` at {version} on {machine}. `teach` is the time "
             "`allennlp teach` reports (from its start to the archive written); throughput is the fine-tuned "
             "archive's, on the query utterances.",
             "",
             "| row | dataset | " + " | ".join(phases) + " | teach (s) | exact match | utterances/s |",
             "|---|---|" + "---|" * len(phases) + "---|---|---|"]
    for row in rows:
        cells = " | ".join(f"{row['phases'].get(name, 0.0):.1f}" for name in phases)  # type: ignore[union-attr]
        lines.append(f"| {row['row']} (`{row['system']}`) | {row['dataset']} | {cells} | {row['teach_seconds']:.1f} "
                     f"| {row['exact_match']:.2f} | {row['utterances_per_second']:.1f} |")
    with open(os.path.join(args.out, "teach.md"), "w") as handle:
        handle.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
