"""
How the faithful row moved as the faithful configuration took on the authors' behaviours: for each
given commit of this repository, the mean exact match (shuffles 1-5) of a row of `results/runs.csv`
as committed there, with the code version its runs recorded, as a Markdown table.

    python lab/scripts/faithful_history.py 997c973 2573cdd HEAD [--setting ""] [--reference results/reference_runs.csv]

The last line is the authors' code run here (`benchmarks/reference_runs.py`), when its file exists.
"""
import argparse
import csv
import os
import statistics
import sys
from typing import Dict, List, Optional, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

from fewshot_parser.common.results_io import committed_rows  # noqa: E402

COLUMNS: List[Tuple[str, int]] = [("jobs", 1), ("geo", 1), ("atis", 1), ("jobs", 2), ("geo", 2), ("atis", 2)]


def line(label: str, rows: List[Dict[str, str]], system: str, setting: Optional[str]) -> str:
    cells = []
    for dataset, shot in COLUMNS:
        values = [float(r["exact_match"]) for r in rows
                  if r["system"] == system and (setting is None or r.get("setting", "") == setting)
                  and r["dataset"] == dataset and int(r["shot"]) == shot and 1 <= int(r["shuffle"]) <= 5]
        cells.append("–" if not values else f"{statistics.mean(values):.2f}" + ("" if len(values) == 5 else f" (n={len(values)})"))
    return f"| {label} | " + " | ".join(cells) + " |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("commits", nargs="+")
    parser.add_argument("--system", default="ProtoParser")
    parser.add_argument("--setting", default="")
    parser.add_argument("--reference", default=os.path.join(ROOT, "results", "reference_runs.csv"))
    args = parser.parse_args()
    print("| results/runs.csv at | code of the runs | " + " | ".join(f"{d} {k}" for d, k in COLUMNS) + " |")
    print("|---|---|" + "---|" * len(COLUMNS))
    for commit in args.commits:
        rows = committed_rows("results/runs.csv", commit)
        versions = sorted({r.get("code_version", "")[:7] or "none recorded" for r in rows
                           if r["system"] == args.system and r.get("setting", "") == args.setting})
        print(line(f"{commit} | {', '.join(versions) or '–'}", rows, args.system, args.setting))
    if os.path.isfile(args.reference):
        with open(args.reference, newline="", encoding="utf-8") as handle:
            print(line("authors' code | –", list(csv.DictReader(handle)), "ProtoParser (authors' code, GloVe 50d)", None))


if __name__ == "__main__":
    main()
