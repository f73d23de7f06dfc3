"""
Renames the grid rows named in results files' `same_inputs_as` column, after a row of the systems tables
was renamed: a row recorded from another row's run (`run-grid --same-inputs-as`) names that row, and the
name must follow it. Renames apply together, not one after the other, so two rows can swap or shift names
(`best=best-no-modifiers best-modifiers-types=best`). Each file is rewritten whole under the grid's lock
(`<file>.lock`), so a grid that is recording rows waits; nothing else in a row changes.

    python lab/scripts/rename_same_inputs.py --rename best=best-no-modifiers best-modifiers-types=best \\
        --files results/runs.csv results/dev/runs.csv results/dev-frequent/runs.csv
"""

import argparse
import csv
import fcntl
import os
import sys
from typing import Dict, List, Sequence

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT]

from fewshot_parser.common.safe_io import atomic_open  # noqa: E402

COLUMN = "same_inputs_as"


def parse_renames(pairs: Sequence[str]) -> Dict[str, str]:
    """`OLD=NEW` pairs as a mapping; a malformed pair or a name renamed twice is a one-line error."""
    renames: Dict[str, str] = {}
    for pair in pairs:
        old, sep, new = pair.partition("=")
        if not sep or not old or not new:
            sys.exit(f"--rename {pair!r}: expected OLD=NEW")
        if old in renames:
            sys.exit(f"--rename: {old!r} is renamed twice")
        renames[old] = new
    return renames


def rename_file(path: str, renames: Dict[str, str]) -> int:
    """Rewrites `path` with its `same_inputs_as` names renamed; returns how many rows changed."""
    with open(path + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        with open(path, newline="") as handle:
            reader = csv.DictReader(handle)
            fields: List[str] = list(reader.fieldnames or [])
            rows = list(reader)
        if COLUMN not in fields:
            return 0
        changed = 0
        for row in rows:
            name = row.get(COLUMN) or ""
            if name in renames:
                row[COLUMN] = renames[name]
                changed += 1
        if changed:
            with atomic_open(path, newline="") as handle:
                writer = csv.DictWriter(handle, fieldnames=fields)  # the grid's own format (csv's defaults)
                writer.writeheader()
                writer.writerows(rows)
        return changed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rename", nargs="+", required=True, metavar="OLD=NEW")
    parser.add_argument("--files", nargs="+", required=True)
    args = parser.parse_args()
    renames = parse_renames(args.rename)
    for path in args.files:
        if not os.path.isfile(path):
            sys.exit(f"{path}: no such results file")
        print(f"{path}: {rename_file(path, renames)} row(s) renamed")


if __name__ == "__main__":
    main()
