"""
A decoding-only component measured where the suite's fine-tuned archives are gone but the draws'
pre-trained archives are kept: each (draw, shot, support sample) is taught again from the best row's
pre-trained archive with the component among its rerankers (`allennlp teach -o`), and the same
fine-tuned parser decodes the query file again without it (`allennlp evaluate -o`). Rerankers do not
take part in training, so the two differ in decoding only, and the run without the component gives
the exact match the grid recorded for the best row.

    python lab/scripts/teach_probe.py measure --component typed_variables --draws 21 22 23 24 25 26 27 28 \\
        --out lab/results/teach_probe/typed_variables.csv
    python lab/scripts/teach_probe.py table lab/results/teach_probe/typed_variables.csv

Pre-trained archives: `$FEWSHOT_PRETRAIN_DIR/<suite>/draw_<d>/<dataset>-contextual-schema-classes/`
(the best row's, `run-grid --suite`); splits under `$FEWSHOT_DATA_DIR/<suite>`. Rows already in the
CSV are skipped, so a stopped measurement resumes. Fine-tuned archives are deleted once measured.
"""

import argparse
import csv
import json
import os
import shutil
import statistics
import subprocess
import sys
from collections import defaultdict
from typing import Any, Dict, List

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIELDS = ["suite", "dataset", "shot", "draw", "sample", "with_component", "without", "code_version"]
ENTITY_COVERAGE = {"type": "entity_coverage", "beam_size": 10, "weight": 5}  # the best row's own reranker
COMPONENTS: Dict[str, Dict[str, Any]] = {"typed_variables": {"type": "typed_variables", "training_data": "{train}"}}


def allennlp(*arguments: str) -> None:
    command = [
        os.path.join(os.path.dirname(sys.executable), "allennlp"),
        *arguments,
        "--include-package",
        "fewshot_lab",
    ]
    environment = {**os.environ, "OMP_NUM_THREADS": "1"}
    result = subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"error: {' '.join(command[:3])} failed:\n{result.stderr[-2000:]}")


def exact_match(metrics_file: str) -> float:
    with open(metrics_file, encoding="utf-8") as handle:
        metrics = json.load(handle)
    return 100 * float(next(value for key, value in metrics.items() if "exact" in key.lower()))


def measure(args: argparse.Namespace) -> None:
    done = set()
    if os.path.isfile(args.out):
        with open(args.out, newline="", encoding="utf-8") as handle:
            done = {(r["dataset"], r["shot"], r["draw"], r["sample"]) for r in csv.DictReader(handle)}
    version = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    pretrain_root = os.path.join(os.environ.get("FEWSHOT_PRETRAIN_DIR", "runs/pretrain"), args.suite)
    data_root = os.path.join(os.environ.get("FEWSHOT_DATA_DIR", "data"), args.suite)
    work = os.path.join("runs", "teach_probe", args.component)
    for draw in args.draws:
        for shot in args.shots:
            for sample in range(args.samples):
                key = (args.dataset, str(shot), str(draw), str(sample))
                if key in done:
                    continue
                split = os.path.join(
                    data_root, f"draw_{draw}", args.dataset, "lemma_data", f"shuffle_{sample}_shot_{shot}"
                )
                archive = os.path.join(
                    pretrain_root, f"draw_{draw}", f"{args.dataset}-contextual-schema-classes", "model.tar.gz"
                )
                component = json.loads(
                    json.dumps(COMPONENTS[args.component]).replace("{train}", os.path.join(split, "train.txt"))
                )
                run = os.path.join(work, f"{args.dataset}_{shot}shot_d{draw}s{sample}")
                shutil.rmtree(run, ignore_errors=True)
                teach = {"model": {"rerankers": [component, ENTITY_COVERAGE]}}
                allennlp(
                    "teach",
                    archive,
                    os.path.join(split, "support.txt"),
                    "-s",
                    run,
                    "--shot",
                    str(shot),
                    "--threads",
                    "1",
                    "-o",
                    json.dumps(teach),
                )
                query = os.path.join(split, "query.txt")
                plain = {"model": {"parser": {"rerankers": [ENTITY_COVERAGE]}}}
                allennlp("evaluate", os.path.join(run, "model.tar.gz"), query, "--output-file", run + ".with.json")
                allennlp(
                    "evaluate",
                    os.path.join(run, "model.tar.gz"),
                    query,
                    "--output-file",
                    run + ".without.json",
                    "-o",
                    json.dumps(plain),
                )
                row = dict(
                    zip(
                        FIELDS,
                        [
                            args.suite,
                            *key,
                            f"{exact_match(run + '.with.json'):.2f}",
                            f"{exact_match(run + '.without.json'):.2f}",
                            version.stdout.strip(),
                        ],
                    )
                )
                new = not os.path.isfile(args.out)
                os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
                with open(args.out, "a", newline="", encoding="utf-8") as handle:
                    writer = csv.DictWriter(handle, fieldnames=FIELDS)
                    if new:
                        writer.writeheader()
                    writer.writerow(row)
                shutil.rmtree(run, ignore_errors=True)
                print(json.dumps(row), flush=True)


def table(args: argparse.Namespace) -> None:
    with open(args.csv, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    by_draw: Dict[tuple, Dict[str, List[float]]] = defaultdict(lambda: defaultdict(list))
    for r in rows:
        by_draw[(r["dataset"], r["shot"])][r["draw"]].append(float(r["with_component"]) - float(r["without"]))
    print(
        f"Generated by `python lab/scripts/teach_probe.py table {args.csv}`: with the component − without, "
        "exact-match points, same fine-tuned parser; mean ± SE over draws (draws/runs; changed runs).\n"
    )
    print("| dataset | shot | difference | runs changed | per draw |")
    print("|---|---|---|---|---|")
    for (dataset, shot), draws in sorted(by_draw.items()):
        means = [statistics.mean(v) for v in draws.values()]
        error = statistics.stdev(means) / len(means) ** 0.5 if len(means) > 1 else float("nan")
        changed = sum(d != 0 for v in draws.values() for d in v)
        runs = sum(len(v) for v in draws.values())
        per = ", ".join(f"{d}: {statistics.mean(v):+.1f}" for d, v in sorted(draws.items(), key=lambda x: int(x[0])))
        print(
            f"| {dataset} | {shot} | {statistics.mean(means):+.2f} ± {error:.2f} ({len(means)}/{runs}) | "
            f"{changed} | {per} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("measure")
    run.add_argument("--component", choices=sorted(COMPONENTS), required=True)
    run.add_argument("--suite", default="dev")
    run.add_argument("--dataset", default="geo")
    run.add_argument("--draws", type=int, nargs="+", required=True)
    run.add_argument("--shots", type=int, nargs="+", default=[1, 2])
    run.add_argument("--samples", type=int, default=3)
    run.add_argument("--out", required=True)
    show = commands.add_parser("table")
    show.add_argument("csv")
    args = parser.parse_args()
    measure(args) if args.command == "measure" else table(args)


if __name__ == "__main__":
    main()
