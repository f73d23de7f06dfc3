"""
Where a development suite stands on power: for two rows (the faithful and the best, by default), the
paired difference of each column with its cluster standard error (`suite_report.paired_difference`),
how the spread splits between draws and the support samples of a draw, and how many draws a standard
error of `--target` points needs; then what the suite cost, in process hours at one thread.

    python lab/scripts/suite_size.py --suites dev dev-frequent --since 62ec330 \\
        --pretrain-dir runs/pretrain-82 --out lab/results/suite_size.md

Spread, per group of draws (`suite_report.suite_strata`: draws with the same number of new
predicates): with draw means d_i of the paired differences (each the mean of k samples), the group's
between-draw variance is var(d_i) − w / k, where w is the mean within-draw variance of the samples'
differences (pooled over the groups). With group shares s_h and N_h draws measured, the stratified
mean has SE^2 = sum s_h^2 (between_h + w / k) / N_h; the table projects it to every draw of the
recipe, with the samples per draw as now and with 5, and gives the draws a standard error of
`--target` needs with the groups in the recipe's proportions, sum s_h (between_h + w / k) / target^2.
With unlimited samples per draw (k -> infinity) only the between-draw part is left: the floor a
recipe's draws allow, whatever the number of support samples.
The last error column reads the same measurements as a census of the recipe's own draws: group h has
C_h possible draws (every combination of its number of new predicates among the eligible ones), and
the finite-population correction gives SE^2 = sum s_h^2 ((1 − N_h / C_h) between_h + w / k) / N_h. When
a group's draws are all of its combinations, only the support samples' noise is left. That is the
error of the mean over the predicates this dataset can make new; the other columns are the error for
predicates drawn from a larger population (a user's other predicates), which no further draw of a
dataset whose combinations are all measured can lower.
A group with one draw measured takes the pooled between-draw variance. Only rows whose
`code_version` is `--since` or a later commit count (runs on the current code). Pre-training minutes come
from the logs under `--pretrain-dir`, else from lab/results/pretraining_minutes.csv (the queue's ledger,
`pretraining_minutes.py`), so they outlast the archives; pre-trainings in neither are not counted.
"""

import argparse
import math
import os
import statistics
import sys
from collections import defaultdict
from typing import Dict, List, Sequence

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "lab"), os.path.join(ROOT, "lab", "scripts")]

from fewshot_lab.code_versions import rows_since  # noqa: E402
from fewshot_lab.commands.suite_report import (  # noqa: E402
    COLUMNS,
    latest_runs,
    paired_difference,
    suite_strata,
)
from fewshot_lab.suite_power import combinations, eligible_count, measured_draws, spread  # noqa: E402
from fewshot_lab.systems import SYSTEMS  # noqa: E402
from pretraining_minutes import minutes, read_ledger  # noqa: E402

from fewshot_parser.common.results_io import read_result_rows  # noqa: E402
from fewshot_parser.common.safe_io import atomic_open  # noqa: E402

FAITHFUL = SYSTEMS["ours"][:2]
DATA = os.path.join(ROOT, "data")
# The pre-trained archive of each candidate best row: <dataset>-<variant>.
VARIANTS = {"chosen-fallback-roles": "contextual-schema", "best": "contextual-schema-classes"}


def suite_lines(
    suite: str, rows: Sequence[Dict[str, str]], pretrain_dir: str, target: float, best_row: str
) -> List[str]:
    runs = latest_runs(rows)
    best_key = SYSTEMS[best_row][:2]
    best, faithful = runs.get(best_key, {}), runs.get(FAITHFUL, {})
    lines = [
        f"## Suite `{suite}`: best (`{best_row}`) − faithful",
        "",
        "| column | draws | pairs | difference (mean ± SE) | by new predicates per draw: mean (sd between draws) | "
        f"within-draw sd | SE with every recipe draw (samples as now) | the same with 5 samples | the same with "
        f"unlimited samples (floor) | draws for SE {target:g} (samples as now) | recipe draws | different draws | "
        "SE as a census of the possible draws (finite population) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for column in COLUMNS:
        strata = suite_strata(suite, column[0])
        paired = paired_difference(best.get(column, {}), faithful.get(column, {}), strata)
        if paired is None:
            continue
        mean, error, draws, pairs = paired
        parts = spread(best.get(column, {}), faithful.get(column, {}), strata)
        if parts is None or error is None:
            lines.append(
                f"| {column[0]} {column[1]} | {draws} | {pairs} | {mean:+.2f} ± n/a | – | – | – | – | – | – | – | – | – |"
            )
            continue
        recipe: Dict[int, int] = defaultdict(int)
        for group, _ in strata.values() if strata else []:
            recipe[group] += 1
        if not recipe:  # no recipe: the draws measured
            recipe[0] = draws
        by_group = ", ".join(
            f"{g} new: {parts.means[g]:+.1f} ({math.sqrt(b):.1f})" if g in parts.means else f"{g} new: –"
            for g, b in sorted(parts.between.items(), reverse=True)
        )
        eligible = eligible_count(suite, column[0], DATA)
        census = "?"
        if eligible is not None and strata:
            measured = measured_draws(
                sorted({d for d, _ in set(best.get(column, {})) & set(faithful.get(column, {}))}), strata
            )
            census = f"{parts.census_error(measured, {g: math.comb(eligible, g) for g in measured}):.2f}"
        lines.append(
            f"| {column[0]} {column[1]} | {draws} | {pairs} | {mean:+.2f} ± {error:.2f} | {by_group} | "
            f"{math.sqrt(parts.within):.1f} | {parts.error(recipe):.2f} | {parts.error(recipe, 5):.2f} | "
            f"{parts.error(recipe, math.inf):.2f} | "
            f"{parts.draws_needed(target)} | {sum(recipe.values())} | {combinations(suite, column[0], DATA) or '?'} | "
            f"{census} |"
        )
    lines += ["", "Cost on the current code (process hours at one thread):", ""]
    ledger = read_ledger()  # pre-trainings whose logs are gone (lab/scripts/pretraining_minutes.py)
    total = 0.0
    variants = {FAITHFUL: "ours", best_key: VARIANTS[best_row]}
    cells = {cell(r): r for r in rows}
    for key, label in ((FAITHFUL, "faithful"), (best_key, "best")):
        for dataset in ("jobs", "geo", "atis"):
            seconds = [
                run_seconds(r, cells) for r in rows if (r["system"], r["setting"]) == key and r["dataset"] == dataset
            ]
            draws = sorted(
                {int(r["shuffle"]) for r in rows if (r["system"], r["setting"]) == key and r["dataset"] == dataset}
            )
            if not seconds:
                continue
            pre = [
                m
                for m in (
                    minutes(os.path.join(pretrain_dir, suite, f"draw_{d}", f"{dataset}-{variants[key]}.log"))
                    or ledger.get((suite, d, dataset, variants[key]))
                    for d in draws
                )
                if m is not None
            ]
            # The grid pre-trains in a task of its own: a run's seconds are its fine-tuning and evaluations.
            fine = sum(seconds) / 3600
            pre_hours = sum(pre) / 60
            total += fine + pre_hours
            lines.append(
                f"- {label}, {dataset}: {len(draws)} draws, {len(seconds)} fine-tunings {fine:.2f} h, "
                f"{len(pre)} pre-trainings {pre_hours:.2f} h"
                + (f" (mean {statistics.mean(pre):.1f} min)" if pre else "")
            )
    lines += ["", f"Total: {total:.2f} process hours.", ""]
    return lines


def cell(row: Dict[str, str], setting: Sequence[str] = ()) -> tuple:
    """A results row's system, setting, dataset, shot, draw and support sample (`setting` replaces its own two)."""
    system = tuple(setting) or (row["system"], row["setting"])
    return system + (row["dataset"], row["shot"], row["shuffle"], row.get("sample") or "0")


def run_seconds(row: Dict[str, str], cells: Dict[tuple, Dict[str, str]]) -> float:
    """A run's fine-tuning seconds. A row recorded from the same inputs as another row's run
    (`same_inputs_as`, 0 seconds) costs what that run did: the suite needs it made once."""
    for _ in range(len(SYSTEMS)):  # a chain of copies ends at a trained run
        source = row.get("same_inputs_as")
        if not source or source not in SYSTEMS or cell(row, SYSTEMS[source][:2]) not in cells:
            break
        row = cells[cell(row, SYSTEMS[source][:2])]
    return float(row["seconds"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--suites", nargs="+", default=["dev", "dev-frequent"])
    parser.add_argument("--since", required=True, help="count the runs of this commit and later ones only")
    parser.add_argument("--pretrain-dir", default=os.environ.get("FEWSHOT_PRETRAIN_DIR", "runs/pretrain"))
    parser.add_argument("--target", type=float, default=2.5)
    parser.add_argument("--best", default="chosen-fallback-roles", choices=sorted(VARIANTS), help="the best row")
    parser.add_argument("--out", default="lab/results/suite_size.md")
    args = parser.parse_args()
    lines = [
        "# Where the development suites stand on power",
        "",
        f"Generated by `python lab/scripts/suite_size.py --suites {' '.join(args.suites)} --since "
        f"{args.since} --pretrain-dir {args.pretrain_dir} --best {args.best} --out {args.out}`; how each figure is "
        "computed: the script's docstring. Differences in exact-match points, paired by draw and support sample.",
        "",
    ]
    for suite in args.suites:
        path = os.path.join(ROOT, "results", suite, "runs.csv")
        if not os.path.isfile(path):
            continue
        rows = rows_since(read_result_rows(path), args.since, ROOT)
        lines += suite_lines(suite, rows, os.path.join(ROOT, args.pretrain_dir), args.target, args.best)
    with atomic_open(os.path.join(ROOT, args.out)) as handle:
        handle.write("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
