"""
Error analysis of two fine-tuned runs on one query set: how many queries each gets right (and which
only one of them), and how often each writes every new predicate (a predicate of the query LFs that
the split's training set never uses) against how often the gold LFs do.

    python lab/scripts/compare_predictions.py runs/tune_augmentation/jobs_1shot_s0_base \\
        runs/tune_augmentation/jobs_1shot_s0_default --split-dir data/jobs/lemma_data/shuffle_0_shot_1

Each run directory must hold `model.tar.gz`; its predictions are cached as `query_predictions.jsonl`.
"""
import argparse
import json
import os
import subprocess
import sys
from collections import Counter
from typing import Dict, List

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)


def predictions(run: str, query: str) -> List[str]:
    """The run's LFs for the query file, in order ("" where it wrote none); cached in the run folder as
    `query_predictions.jsonl` (written under another name first, so an interrupted run leaves no cache)."""
    path = os.path.join(run, "query_predictions.jsonl")
    if not os.path.isfile(path):
        partial = path + ".partial"
        # The data root is the query's <root>/<dataset>/lemma_data/<split>/: a suite draw's own folder, whose
        # train.txt the archive's config names (the lexicon's and the idioms' data) as the grid's run read it.
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(query)))))
        subprocess.run([sys.executable, "-m", "allennlp", "predict", os.path.join(run, "model.tar.gz"), query,
                        "--use-dataset-reader", "--output-file", partial, "--silent", "--batch-size", "64",
                        "--include-package", "fewshot_parser"], check=True, cwd=ROOT,
                       env=dict(os.environ, FEWSHOT_DATA_DIR=root),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.replace(partial, path)
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line).get("logical_form") or "" for line in handle]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--split-dir", required=True, help="the split's folder (train.txt, query.txt)")
    args = parser.parse_args()
    from fewshot_parser.data.recombination.trees import call_labels
    from fewshot_parser.data.examples import read_examples

    formalism = "prolog" if "/jobs/" in os.path.abspath(args.split_dir) + "/" else "lambda"
    query_path = os.path.join(args.split_dir, "query.txt")
    query = list(read_examples(query_path, formalism))
    known = set().union(*(call_labels(e.tree) for e in read_examples(os.path.join(args.split_dir, "train.txt"), formalism)))
    new = sorted(set().union(*(call_labels(e.tree) for e in query)) - known)
    runs = {name: predictions(name, query_path) for name in (args.first, args.second)}
    normal = lambda text: " ".join(text.split())  # noqa: E731
    right: Dict[str, List[bool]] = {name: [normal(p) == normal(e.logical_form) for p, e in zip(lfs, query)]
                                    for name, lfs in runs.items()}
    a, b = args.first, args.second
    pairs = Counter(zip(right[a], right[b]))
    print(f"{len(query)} queries; right in both {pairs[(True, True)]}, only {a}: {pairs[(True, False)]}, "
          f"only {b}: {pairs[(False, True)]}, neither {pairs[(False, False)]}")
    print(f"\n| new predicate | gold | {a} | {b} |\n|---|---|---|---|")
    for predicate in new:
        gold = sum(predicate in e.logical_form.split() for e in query)
        counts = [sum(predicate in lf.split() for lf in runs[name]) for name in (a, b)]
        print(f"| `{predicate}` | {gold} | {counts[0]} | {counts[1]} |")


if __name__ == "__main__":
    main()
