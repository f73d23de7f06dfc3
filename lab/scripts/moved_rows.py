"""
How far rerunning moved the recorded results: compares `results/runs.csv` at a git commit with the
file now, per (system, setting, dataset, shot) cell: how many runs were rerun (their provenance
changed), how many of those changed their number, and the cell mean before and after. With several
`--results` files a run's row may move from one to another (a stale row of a lent machine's file
rerun here): "before" is the run's row in any of the files at the commit (the last file's, as in
`allennlp report`), "after" its row now whose provenance differs from it, in whichever file.

    python lab/scripts/moved_rows.py aebc0ca                  # every cell with a rerun run
    python lab/scripts/moved_rows.py aebc0ca --markdown       # as a Markdown table
    python lab/scripts/moved_rows.py 933afc4 --results results/runs.csv results/runs_lent_machine.csv
"""
import argparse
import csv
import os
import statistics
import sys
from collections import defaultdict
from typing import Dict, List, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

from fewshot_parser.common.results_io import committed_rows  # noqa: E402

Key = Tuple[str, str, str, str, str]


def rows_at(commit: str, path: str) -> Dict[Key, Dict[str, str]]:
    return {key(row): row for row in committed_rows(path, commit)}


def rows_now(path: str) -> List[Dict[str, str]]:
    with open(os.path.join(ROOT, path), newline="") as handle:
        return list(csv.DictReader(handle))


def provenance(row: Dict[str, str]) -> Tuple[str, str]:
    return row.get("code_version") or "", row.get("config_hash") or ""


def key(row: Dict[str, str]) -> Key:
    return (row["system"], row["setting"], row["dataset"], row["shot"], row["shuffle"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("commit", help="the commit whose results file is the 'before'")
    parser.add_argument("--results", nargs="+", default=["results/runs.csv"])
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    before: Dict[Key, Dict[str, str]] = {}
    for path in args.results:
        before.update(rows_at(args.commit, path))
    after: Dict[Key, Dict[str, str]] = {}
    for row in (row for path in args.results for row in rows_now(path)):
        old = before.get(key(row))
        if old is not None and provenance(old) != provenance(row):
            after[key(row)] = row
    cells: Dict[Tuple, List[Tuple[float, float]]] = defaultdict(list)
    for k, row in after.items():
        cells[k[:4]].append((float(before[k]["exact_match"]), float(row["exact_match"])))
    lines = []
    if args.markdown:
        lines += ["| cell | rerun | changed | mean before | mean after | change |", "|---|---|---|---|---|---|"]
    total = changed = 0
    for cell in sorted(cells):
        pairs = cells[cell]
        moved = sum(1 for old, new in pairs if abs(old - new) > 0.005)
        total, changed = total + len(pairs), changed + moved
        first, second = statistics.mean(p[0] for p in pairs), statistics.mean(p[1] for p in pairs)
        name = f"{cell[0]}{f' ({cell[1]})' if cell[1] else ''} {cell[2]} {cell[3]}-shot"
        if args.markdown:
            lines.append(f"| {name} | {len(pairs)} | {moved} | {first:.2f} | {second:.2f} | {second - first:+.2f} |")
        else:
            lines.append(f"{name:<100} rerun {len(pairs)}, changed {moved}: {first:.2f} -> {second:.2f} ({second - first:+.2f})")
    lines.append(f"\n{total} runs rerun since {args.commit}, {changed} changed their number")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
