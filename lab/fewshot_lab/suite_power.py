"""
How a development suite's paired difference spreads, and what its standard error is read two ways.

A suite's draws come in groups with a fixed number of new predicates (`suite_report.suite_strata`).
With draw means d_i of the paired differences (each the mean of k support samples), a group's
between-draw variance is var(d_i) − w / k, where w is the mean within-draw variance of the samples'
differences (pooled over the groups). With group shares s_h and N_h draws measured, the stratified mean
has SE^2 = sum s_h^2 (between_h + w / k) / N_h: the error for predicates drawn from a larger population
than the dataset's own (a user's other predicates). Read as a census of the recipe's own draws (group h
has C_h possible draws, every combination of its number of new predicates among the eligible ones), the
finite-population correction gives SE^2 = sum s_h^2 ((1 − N_h / C_h) between_h + w / k) / N_h: once a
group's draws are all of its combinations, only the support samples' noise is left.
"""

import functools
import math
import statistics
from collections import defaultdict
from typing import Dict, List, Optional, Sequence, Tuple

from fewshot_parser.common.errors import UserError
from fewshot_parser.data.dev_suite import combinations_available, official_training_file, suite_recipe
from fewshot_parser.data.splits import FORMALISMS, eligible_predicates, read_source

# draw -> (its group: new predicates per draw, the group's share of the recipe's draws)
Strata = Dict[int, Tuple[int, float]]


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


@functools.lru_cache(maxsize=None)
def eligible_count(suite: str, dataset: str, data_dir: str) -> Optional[int]:
    """How many predicates the suite's recipe may make new in a dataset; None without the data (read once
    per process: the census and the combination count of each column both ask)."""
    recipe = suite_recipe(suite)[dataset]
    try:
        examples = read_source(official_training_file(data_dir, dataset), FORMALISMS[dataset])
    except UserError:
        return None
    return len(eligible_predicates(examples, recipe["min_examples"], recipe["max_share"], recipe.get("min_share", 0.0)))


def combinations(suite: str, dataset: str, data_dir: str) -> Optional[int]:
    """How many different draws the suite has for a dataset: draws cycle through the combinations of
    its eligible predicates (`fewshot_parser.data.splits.choose_predicates`); None without the data."""
    eligible = eligible_count(suite, dataset, data_dir)
    return None if eligible is None else combinations_available(suite_recipe(suite)[dataset], eligible)


def measured_draws(draws: Sequence[int], strata: Optional[Strata]) -> Dict[int, int]:
    """Draws measured per group (group 0 without strata)."""
    counts: Dict[int, int] = defaultdict(int)
    for draw in draws:
        counts[strata[draw][0] if strata and draw in strata else 0] += 1
    return dict(counts)


def census_error(
    runs: Dict[Tuple[int, int], float],
    faithful: Dict[Tuple[int, int], float],
    suite: str,
    dataset: str,
    strata: Optional[Strata],
    data_dir: str,
) -> Optional[float]:
    """The census SE of `runs` − `faithful` (None without strata, data or two paired draws)."""
    parts = spread(runs, faithful, strata)
    eligible = eligible_count(suite, dataset, data_dir)
    if parts is None or eligible is None or not strata:
        return None
    measured = measured_draws(sorted({d for d, _ in set(runs) & set(faithful)}), strata)
    return parts.census_error(measured, {g: math.comb(eligible, g) for g in measured})
