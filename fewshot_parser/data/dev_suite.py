"""
The development suite: few-shot splits made from each dataset's official `train.txt` alone, with
other predicates made new by seeded draws, so that choices are made on predicates nobody tuned on.

It never opens an official support or query file: the official training set lacks the official new
predicates, so every predicate a draw makes new is one the official splits keep as known, and the
draws' queries are training examples of the official splits. The files are not committed; the
recipe below is, and `allennlp make-splits --suite dev` (or `run-grid --suite dev`, which makes them
when missing) rebuilds them byte for byte.
"""

import os
from typing import Dict, List

from fewshot_parser.data.splits import make_splits

# Per dataset: the draws (seeds), new predicates per draw, the eligibility of a predicate, and the
# size of the held-out known set. Each draw needs its own pre-training; ATIS pre-trainings cost
# over an hour on 2 cores, so ATIS has fewer draws.
RECIPE: Dict[str, Dict] = {
    "jobs": {"draws": [1, 2, 3, 4, 5, 6], "new": 3, "min_examples": 8, "max_share": 0.15, "known": 40},
    "geo": {"draws": [1, 2, 3, 4, 5, 6], "new": 3, "min_examples": 8, "max_share": 0.15, "known": 50},
    "atis": {"draws": [1, 2], "new": 3, "min_examples": 10, "max_share": 0.05, "known": 200},
}
SHOTS = (1, 2)
SOURCE = "{dataset}/lemma_data/shuffle_0_shot_1/train.txt"  # byte-identical in every official folder


def official_training_file(data_dir: str, dataset: str) -> str:
    return os.path.join(data_dir, SOURCE.format(dataset=dataset))


def build_dev_suite(data_dir: str, out: str, datasets: List[str]) -> List[Dict]:
    """Makes the suite's splits of `datasets` under `out` (idempotent); returns the summaries."""
    summaries = []
    for dataset in datasets:
        recipe = RECIPE[dataset]
        for summary in make_splits(
            official_training_file(data_dir, dataset),
            dataset,
            out,
            recipe["draws"],
            SHOTS,
            new=recipe["new"],
            min_examples=recipe["min_examples"],
            max_share=recipe["max_share"],
            known=recipe["known"],
        ):
            summaries.append({"dataset": dataset, **summary})
    return summaries
