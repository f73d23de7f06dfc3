"""
How often result-type re-ranking (`lab/fewshot_lab/modules/decoding/result_types.py`) would charge a
right answer: per draw of a development suite, the suffix counts of its `train.txt` against the gold
LFs of its `query.txt` (support sample 0, 1-shot: the queries of a draw's other samples are the same
pool). Reads only files made from the official `train.txt`.

    allennlp make-splits --suite dev --out /tmp/devsplits
    python lab/scripts/result_types_check.py /tmp/devsplits --datasets geo atis
"""

import argparse
import glob
import os
import sys
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "lab")]

from fewshot_lab.modules.decoding.result_types import ResultTypeCounts  # noqa: E402

from fewshot_parser.data.examples import read_examples  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", help="a make-splits root (draw_<d>/<dataset>/lemma_data/...)")
    parser.add_argument("--datasets", nargs="+", default=["geo", "atis"])
    parser.add_argument("--min-count", type=int, default=3)
    args = parser.parse_args()
    for dataset in args.datasets:
        queries, charged, where = 0, 0, Counter()
        for split in sorted(glob.glob(os.path.join(args.root, "draw_*", dataset, "lemma_data", "shuffle_0_shot_1"))):
            training = read_examples(os.path.join(split, "train.txt"), "lambda")
            counts = ResultTypeCounts((e.tree for e in training), args.min_count)
            for example in read_examples(os.path.join(split, "query.txt"), "lambda"):
                queries += 1
                found = counts.misplaced(example.tree)
                if found:
                    charged += 1
                    where[found[0]] += 1
        print(f"{dataset}: {charged} of {queries} gold query LFs charged; {where.most_common(5)}")


if __name__ == "__main__":
    main()
