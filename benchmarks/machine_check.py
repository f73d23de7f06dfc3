"""
Whether a row reproduces on another machine: the same runs (system, setting, dataset, shot, shuffle,
with the same config hash) in two results files, one made here and one committed from elsewhere,
compared run by run. Prints, per column, both means, how many runs gave the identical exact match
and the largest difference, as a Markdown table.

    allennlp run-grid --systems ours --datasets jobs geo --results results/machine_check/runs_ours.csv
    python benchmarks/machine_check.py results/runs.csv results/machine_check/runs_ours.csv
"""
import argparse
import os
import platform
import statistics
import sys
from typing import Dict, List, Tuple

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from fewshot_parser.commands.run_grid import read_rows, row_key  # noqa: E402


def cpu_name() -> str:
    """The CPU model this script runs on (from /proc/cpuinfo where there is one)."""
    try:
        with open("/proc/cpuinfo") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("committed", help="results file made elsewhere (e.g. results/runs.csv)")
    parser.add_argument("here", help="results file of the same runs made on this machine")
    args = parser.parse_args()

    committed = {row_key(r): r for r in read_rows(args.committed)}
    pairs: Dict[Tuple[str, str, str, str], List[Tuple[float, float]]] = {}
    skipped = 0
    for row in read_rows(args.here):
        other = committed.get(row_key(row))
        if other is None or other.get("config_hash") != row.get("config_hash"):
            skipped += 1
            continue
        column = (row["system"], row["setting"], row["dataset"], row["shot"])
        pairs.setdefault(column, []).append((float(other["exact_match"]), float(row["exact_match"])))
    print(f"Runs of `{args.here}` (made on: {cpu_name()}) against the same runs in `{args.committed}`; "
          f"{skipped} run(s) without a counterpart of the same config hash left out.\n")
    print("| system | setting | dataset | shot | runs | mean, committed | mean, here | identical runs | largest difference |")
    print("|---|---|---|---|---|---|---|---|---|")
    for (system, setting, dataset, shot), values in sorted(pairs.items()):
        then = [a for a, _ in values]
        now = [b for _, b in values]
        same = sum(a == b for a, b in values)
        largest = max(abs(a - b) for a, b in values)
        print(f"| {system} | {setting or '-'} | {dataset} | {shot} | {len(values)} | {statistics.mean(then):.2f} | "
              f"{statistics.mean(now):.2f} | {same} of {len(values)} | {largest:.2f} |")


if __name__ == "__main__":
    main()
