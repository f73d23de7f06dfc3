"""
How often a support file's shot is read right (`fewshot_parser.training.teaching_recipe.shot_of`):
every support.txt of the official shuffles and of the development suites under `--data-dir`, its new
predicates taken as those its logical forms use and its train.txt's do not. Prints the count per
(collection, shot) and the files read as the other shot.

    python lab/scripts/shot_reading.py
"""

import argparse
import glob
import os
import sys
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

from fewshot_parser.data.examples import read_examples  # noqa: E402
from fewshot_parser.logical_forms.template import predicates  # noqa: E402
from fewshot_parser.training.teaching_recipe import shot_of  # noqa: E402

FORMALISM = {"jobs": "prolog", "geo": "lambda", "atis": "lambda"}


def new_by_example(split: str, formalism: str):
    known = set().union(*(set(predicates(e.tree)) for e in read_examples(os.path.join(split, "train.txt"), formalism)))
    return [frozenset(set(predicates(e.tree)) - known) for e in read_examples(os.path.join(split, "support.txt"), formalism)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", default=os.path.join(ROOT, "data"))
    args = parser.parse_args()
    right: Counter = Counter()
    total: Counter = Counter()
    wrong = []
    splits = glob.glob(os.path.join(args.data_dir, "*", "lemma_data", "shuffle_*_shot_*")) + glob.glob(
        os.path.join(args.data_dir, "dev*", "draw_*", "*", "lemma_data", "shuffle_*_shot_*")
    )
    for split in sorted(splits):
        if not os.path.isfile(os.path.join(split, "support.txt")):
            continue
        parts = os.path.relpath(split, args.data_dir).split(os.sep)
        dataset = next(p for p in parts if p in FORMALISM)
        collection = "official" if parts[0] in FORMALISM else parts[0]
        shot = int(split[-1])
        read = shot_of(new_by_example(split, FORMALISM[dataset]))
        total[(collection, shot)] += 1
        right[(collection, shot)] += read == shot
        if read != shot:
            wrong.append(f"{os.path.relpath(split, args.data_dir)}: read as {read}-shot")
    for key in sorted(total):
        print(f"{key[0]} {key[1]}-shot: {right[key]} of {total[key]} read right")
    print(f"all: {sum(right.values())} of {sum(total.values())}")
    print("\n".join(wrong))


if __name__ == "__main__":
    main()
