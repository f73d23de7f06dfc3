"""
The development suites: few-shot splits made from each dataset's official `train.txt` alone, with
other predicates made new by seeded draws, so that choices are made on predicates nobody tuned on.

Two strata, each a suite of its own (`allennlp run-grid --suite NAME`, results in
`results/NAME/runs.csv`):

* `dev`: three new predicates per draw among those of moderate frequency (at most `max_share` of the
  examples), as a new product feature usually is, and, where three alone give too few draws to tell
  two rows apart, further draws with two and four (and on jobs with one);
* `dev-frequent`: one new predicate per draw among the frequent ones (more than the `dev` limit), the
  case of a flight assistant's new `ground_fare` that users ask about often, and on jobs and geo
  further draws with two; it takes much of the training set with it, so retention (`known.txt`)
  matters most here.

Each draw has several support samples (`samples`: shuffles 0..n-1 of the draw, seeded by draw, shot and
shuffle); they share the draw's training set and so its pre-training, and cost fine-tunings only.
Shuffle 0 is the same file whatever the number of samples, so adding samples keeps every recorded run.

A suite never opens an official support or query file: the official training set lacks the official
new predicates, so every predicate a draw makes new is one the official splits keep as known, and the
draws' queries are training examples of the official splits. The files are not committed; the recipe
below is, and `allennlp make-splits --suite NAME` (or `run-grid --suite NAME`, which makes them when
missing) rebuilds them byte for byte.
"""

import math
import os
from typing import Dict, List, Tuple

from fewshot_parser.common.errors import UserError
from fewshot_parser.data.splits import make_splits

# Per suite and dataset: the draws (seeds), new predicates per draw (a number, or {number: draws}),
# the eligibility of a predicate (at least `min_examples` examples, a share of the file above
# `min_share` and at most `max_share`), the size of the held-out known set and the support samples per
# draw. Draws cycle through the combinations of eligible predicates (`choose_predicates`), so a run of
# consecutive draws as long as their number takes each once: jobs' `dev` draws 1-10, 11-20, 21-25 and
# 26-30 are every combination of three, two, four and one of its 5 eligible predicates (one new
# predicate leaves 7-45 queries a draw, four 68-101), geo's 1-20, 21-35 and 36-50 every three, two and
# four of its 6 (a paired difference's spread between draws asks for about 42 geo 1-shot draws and 28
# jobs ones for a standard error of 2.5 points, more than the combinations of two and three:
# lab/results/suite_size.md); their `dev-frequent` draws 1-5 are every one of their 5 frequent
# predicates and 6-15 every two. ATIS has 26 (2,600 combinations of three) and 9.
# Each draw needs its own pre-training (an ATIS one costs up to an hour and a half at one thread);
# `run-grid --draws` runs a subset.
SUITES: Dict[str, Dict[str, Dict]] = {
    "dev": {
        "jobs": {
            "draws": list(range(1, 31)),
            "new": {3: list(range(1, 11)), 2: list(range(11, 21)), 4: list(range(21, 26)), 1: list(range(26, 31))},
            "min_examples": 8,
            "max_share": 0.15,
            "known": 40,
        },
        "geo": {
            "draws": list(range(1, 51)),
            "new": {3: list(range(1, 21)), 2: list(range(21, 36)), 4: list(range(36, 51))},
            "min_examples": 8,
            "max_share": 0.15,
            "known": 50,
        },
        "atis": {"draws": [1, 2, 3, 4, 5], "new": 3, "min_examples": 10, "max_share": 0.05, "known": 200},
    },
    "dev-frequent": {
        "jobs": {
            "draws": list(range(1, 16)),
            "new": {1: [1, 2, 3, 4, 5], 2: list(range(6, 16))},
            "min_examples": 8,
            "min_share": 0.15,
            "max_share": 0.45,
            "known": 40,
        },
        "geo": {
            "draws": list(range(1, 16)),
            "new": {1: [1, 2, 3, 4, 5], 2: list(range(6, 16))},
            "min_examples": 8,
            "min_share": 0.15,
            "max_share": 0.45,
            "known": 50,
        },
        "atis": {
            "draws": [1, 2, 3, 4, 5],
            "new": 1,
            "min_examples": 10,
            "min_share": 0.05,
            "max_share": 0.45,
            "known": 200,
        },
    },
}
SAMPLES = 3  # support samples per draw in every suite
RECIPE = SUITES["dev"]
SHOTS = (1, 2)
SOURCE = "{dataset}/lemma_data/shuffle_0_shot_1/train.txt"  # byte-identical in every official folder


def official_training_file(data_dir: str, dataset: str) -> str:
    return os.path.join(data_dir, SOURCE.format(dataset=dataset))


def suite_recipe(suite: str) -> Dict[str, Dict]:
    """The recipe of a suite by name; an unknown name is a `UserError` listing the known ones."""
    if suite not in SUITES:
        raise UserError(f"unknown suite {suite!r}; known: {', '.join(SUITES)}")
    return SUITES[suite]


def draw_groups(recipe: Dict) -> List[Tuple[int, List[int]]]:
    """(new predicates per draw, draws) of a dataset's recipe, in the recipe's order."""
    new = recipe["new"]
    if isinstance(new, int):
        return [(new, list(recipe["draws"]))]
    groups = [(count, list(draws)) for count, draws in new.items()]
    assigned = sorted(d for _, draws in groups for d in draws)
    if assigned != sorted(recipe["draws"]):
        raise ValueError(f"the recipe's 'new' assigns draws {assigned}, its 'draws' are {sorted(recipe['draws'])}")
    return groups


def combinations_available(recipe: Dict, eligible: int) -> int:
    """How many different draws the recipe can make from `eligible` eligible predicates."""
    return sum(math.comb(eligible, count) for count, _ in draw_groups(recipe))


def build_dev_suite(data_dir: str, out: str, datasets: List[str], suite: str = "dev") -> List[Dict]:
    """Makes the splits of suite `suite` for `datasets` under `out` (idempotent); returns the summaries."""
    recipes = suite_recipe(suite)
    summaries = []
    for dataset in datasets:
        recipe = recipes[dataset]
        for new, draws in draw_groups(recipe):
            for summary in make_splits(
                official_training_file(data_dir, dataset),
                dataset,
                out,
                draws,
                SHOTS,
                shuffles=range(recipe.get("samples", SAMPLES)),
                new=new,
                min_examples=recipe["min_examples"],
                max_share=recipe["max_share"],
                known=recipe["known"],
                min_share=recipe.get("min_share", 0.0),
            ):
                summaries.append({"dataset": dataset, **summary})
    return summaries
