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
from typing import Dict, List, Optional, Sequence, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "lab"), os.path.join(ROOT, "lab", "scripts")]

from fewshot_lab.code_versions import rows_since  # noqa: E402
from fewshot_lab.commands.suite_report import (  # noqa: E402
    COLUMNS,
    Strata,
    latest_runs,
    paired_difference,
    suite_strata,
)
from fewshot_lab.systems import SYSTEMS  # noqa: E402
from pretraining_minutes import minutes, read_ledger  # noqa: E402

from fewshot_parser.common.errors import UserError  # noqa: E402
from fewshot_parser.common.results_io import read_result_rows  # noqa: E402
from fewshot_parser.common.safe_io import atomic_open  # noqa: E402
from fewshot_parser.data.dev_suite import combinations_available, official_training_file, suite_recipe  # noqa: E402
from fewshot_parser.data.splits import FORMALISMS, eligible_predicates, read_source  # noqa: E402

FAITHFUL = SYSTEMS["ours"][:2]
# The pre-trained archive of each candidate best row: <dataset>-<variant>.
VARIANTS = {"chosen-fallback-roles": "contextual-schema", "best": "contextual-schema-classes"}


class Spread:
    """How a column's paired differences spread: per group between draws, and within a draw."""

    def __init__(
        self,
        between: Dict[int, float],
        within: float,
        samples: float,
        shares: Dict[int, float],
        means: Dict[int, float],
    ):
        self.between, self.within, self.samples, self.shares, self.means = between, within, samples, shares, means

    def error(self, draws: Dict[int, int], samples: Optional[float] = None) -> float:
        """The stratified SE with `draws` per group and `samples` per draw (as now when None)."""
        k = samples or self.samples
        total = sum(self.shares[g] for g in draws)
        return math.sqrt(
            sum((self.shares[g] / total) ** 2 * (self.between[g] + self.within / k) / n for g, n in draws.items())
        )

    def census_error(self, draws: Dict[int, int], possible: Dict[int, int]) -> float:
        """The SE with `draws` per group out of `possible` draws per group (finite-population correction)."""
        total = sum(self.shares[g] for g in draws)
        return math.sqrt(
            sum(
                (self.shares[g] / total) ** 2
                * (max(0.0, 1 - n / possible[g]) * self.between[g] + self.within / self.samples)
                / n
                for g, n in draws.items()
            )
        )

    def draws_needed(self, target: float, samples: Optional[float] = None) -> int:
        """Draws for an SE of `target` with the groups in their shares' proportions."""
        k = samples or self.samples
        total = sum(self.shares.values())
        need = sum(self.shares[g] / total * (self.between[g] + self.within / k) for g in self.between)
        return max(2, math.ceil(need / target**2))


def spread(
    runs: Dict[Tuple[int, int], float], faithful: Dict[Tuple[int, int], float], strata: Optional[Strata]
) -> Optional[Spread]:
    """The `Spread` of `runs` − `faithful` (None with fewer than two draws)."""
    by_draw: Dict[int, List[float]] = defaultdict(list)
    for key in set(runs) & set(faithful):
        by_draw[key[0]].append(runs[key] - faithful[key])
    if len(by_draw) < 2:
        return None
    within = [statistics.variance(v) for v in by_draw.values() if len(v) > 1]
    w = statistics.mean(within) if within else 0.0
    k = statistics.mean(len(v) for v in by_draw.values())
    group_of = {d: (strata[d] if strata and d in strata else (0, 1.0)) for d in by_draw}
    groups: Dict[int, List[float]] = defaultdict(list)
    for draw, values in by_draw.items():
        groups[group_of[draw][0]].append(statistics.mean(values))
    measured = {g: max(0.0, statistics.variance(v) - w / k) for g, v in groups.items() if len(v) > 1}
    pooled = (
        statistics.mean(measured.values())
        if measured
        else max(0.0, statistics.variance([statistics.mean(v) for v in by_draw.values()]) - w / k)
    )
    shares = {g: s for g, s in group_of.values()}
    if strata:
        shares.update({g: s for g, s in strata.values()})
    between = {g: measured.get(g, pooled) for g in shares}
    return Spread(between, w, k, shares, {g: statistics.mean(v) for g, v in groups.items()})


def eligible_count(suite: str, dataset: str) -> Optional[int]:
    """How many predicates the suite's recipe may make new in a dataset; None without the data."""
    recipe = suite_recipe(suite)[dataset]
    try:
        examples = read_source(official_training_file(os.path.join(ROOT, "data"), dataset), FORMALISMS[dataset])
    except UserError:
        return None
    return len(eligible_predicates(examples, recipe["min_examples"], recipe["max_share"], recipe.get("min_share", 0.0)))


def combinations(suite: str, dataset: str) -> Optional[int]:
    """How many different draws the suite has for a dataset: draws cycle through the combinations of
    its eligible predicates (`fewshot_parser.data.splits.choose_predicates`); None without the data."""
    eligible = eligible_count(suite, dataset)
    return None if eligible is None else combinations_available(suite_recipe(suite)[dataset], eligible)


def measured_draws(draws: Sequence[int], strata: Optional[Strata]) -> Dict[int, int]:
    """Draws measured per group (group 0 without strata)."""
    counts: Dict[int, int] = defaultdict(int)
    for draw in draws:
        counts[strata[draw][0] if strata and draw in strata else 0] += 1
    return dict(counts)


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
        eligible = eligible_count(suite, column[0])
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
            f"{parts.draws_needed(target)} | {sum(recipe.values())} | {combinations(suite, column[0]) or '?'} | "
            f"{census} |"
        )
    lines += ["", "Cost on the current code (process hours at one thread):", ""]
    ledger = read_ledger()  # pre-trainings whose logs are gone (lab/scripts/pretraining_minutes.py)
    total = 0.0
    variants = {FAITHFUL: "ours", best_key: VARIANTS[best_row]}
    for key, label in ((FAITHFUL, "faithful"), (best_key, "best")):
        for dataset in ("jobs", "geo", "atis"):
            seconds = [
                float(r["seconds"]) for r in rows if (r["system"], r["setting"]) == key and r["dataset"] == dataset
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
