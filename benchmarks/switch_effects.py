"""
What switching one behaviour of the faithful configuration does, measured against a faithful row
made on the same machine (a row's single runs depend on the CPU: docs/results.md, "Determinism").
For each switch row (a `setting` of ProtoParser), its mean per column over shuffles 1-5, its
difference to the baseline's mean and the two-sided Wilcoxon p-value over the paired runs, as a
Markdown table.

    python benchmarks/switch_effects.py --baseline results/machine_check/runs_ours.csv \\
        --runs results/runs.csv --code cf98bee --settings "occurrence counts for P(a | x)"
    python benchmarks/switch_effects.py --baseline results/runs.csv --baseline-code 04c11ec \\
        --runs results/runs.csv --settings "authors' REDUCE input and h_0"

With `--baseline-at REV` the baseline file is read as committed at REV (a faithful row that a later
rerun replaced in results/runs.csv); the setting "" then names the current faithful row:

    python benchmarks/switch_effects.py --baseline results/runs.csv --baseline-at 41a7af7 \
        --runs results/runs.csv --code 622e192 --settings ""

With `--authors results/reference_runs.csv` a second table gives each row (the faithful one and each
switch) against the authors' code run on the same splits: the difference of the means per column and
the Wilcoxon p-value over the evaluation sets both have.
"""
import argparse
import os
import sys
from typing import Dict, List, Tuple

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from fewshot_parser.commands.report import OURS, reference_rows, wilcoxon_p  # noqa: E402
from fewshot_parser.commands.run_grid import read_rows  # noqa: E402
from fewshot_parser.common.results_io import committed_rows  # noqa: E402

COLUMNS = [("jobs", "1"), ("geo", "1"), ("jobs", "2"), ("geo", "2")]


def runs(rows: List[Dict[str, str]], setting: str, code: str) -> Dict[Tuple[str, str, str], float]:
    """(dataset, shot, shuffle) -> exact match of a ProtoParser setting's runs made at `code` (a commit prefix)."""
    return {(r["dataset"], r["shot"], r["shuffle"]): float(r["exact_match"]) for r in rows
            if (r["system"], r["setting"]) == (OURS[0], setting) and r["shuffle"] in "12345"
            and (r.get("code_version") or "").startswith(code)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", required=True, help="results file with the faithful row made on this machine")
    parser.add_argument("--runs", required=True, help="results file with the switch rows")
    parser.add_argument("--code", default="", help="only switch runs made at this commit (prefix)")
    parser.add_argument("--baseline-code", default="", help="only faithful runs made at this commit (prefix)")
    parser.add_argument("--baseline-at", default=None, help="read --baseline as committed at this revision")
    parser.add_argument("--settings", nargs="+", required=True)
    parser.add_argument("--authors", default=None, help="rows of the authors' code (results/reference_runs.csv)")
    args = parser.parse_args()

    baseline_rows = read_rows(args.baseline) if args.baseline_at is None else committed_rows(args.baseline, args.baseline_at)
    baseline = runs(baseline_rows, "", args.baseline_code)
    rows = read_rows(args.runs)
    # a pipe in a setting would end the Markdown cell
    switched = [(setting.replace("|", "\\|") or "faithful row", runs(rows, setting, args.code)) for setting in args.settings]
    header = ["| row | " + " | ".join(f"{d} {s}-shot" for d, s in COLUMNS) + " | p (paired runs) |",
              "|---|" + "---|" * (len(COLUMNS) + 1)]

    def cell(values: Dict[Tuple[str, str, str], float], dataset: str, shot: str, reference=None) -> str:
        shared = [k for k in values if k[:2] == (dataset, shot)]
        if len(shared) < 5:
            return "–"
        mean = sum(values[k] for k in shared) / len(shared)
        if reference is None:
            return f"{mean:.2f}"
        return f"{mean:.2f} ({mean - sum(reference[k] for k in shared) / len(shared):+.2f})"

    def compared(label: str, values: Dict[Tuple[str, str, str], float], reference: Dict[Tuple[str, str, str], float]) -> str:
        """A row's means, each with its difference to `reference`, and the p-value over the runs both have."""
        shared = {k: v for k, v in values.items() if k in reference}
        p = wilcoxon_p(shared, {k: reference[k] for k in shared})
        return (f"| {label} | " + " | ".join(cell(shared, d, s, reference) for d, s in COLUMNS)
                + f" | {'–' if p is None else f'{p:.3f}'} |")

    print(*header, sep="\n")
    print("| faithful, same machine | " + " | ".join(cell(baseline, d, s) for d, s in COLUMNS) + " | |")
    for label, values in switched:
        print(compared(label, values, baseline))
    if args.authors:
        authors = {(r["dataset"], r["shot"], r["shuffle"]): float(r["exact_match"])
                   for r in reference_rows(args.authors) if r["shuffle"] in "12345"}
        print("\nAgainst the authors' code on the same splits (row minus authors' code; p over shared sets):\n")
        print(*header, sep="\n")
        for label, values in [("faithful, same machine", baseline)] + switched:
            print(compared(label, values, authors))


if __name__ == "__main__":
    main()
