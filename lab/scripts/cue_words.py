"""
How much a new predicate's queries depend on repeating its support's wording.

For every run of a system over a development suite's draws (the query predictions `error_analysis.py`
caches), each query whose gold LF uses a new predicate p is put in one group:

- `shares a cue`: the query has a *cue word* of p: a word of p's support utterances that no training
  utterance has (the words only p's examples used, which the draw took out of the training set);
- `no shared cue`: p's support has cue words, the query none of them (it names p another way:
  "border" against a support that says "adjacent to");
- `support without cues`: every word of p's support utterances is also a training word.

A query with several new predicates counts once per predicate. Exact match per group, per system and
shot, and the same split by the new predicate (the ones with the most queries):

    python lab/scripts/cue_words.py --systems best ours --suite dev-frequent --draws 6 7 8 9 10 11 12 13 14 15 \\
        --runs-dir runs/dev-frequent-82 --datasets geo --out lab/results/cue_words_frequent_geo.md
"""

import argparse
import os
import sys
from collections import Counter, defaultdict
from typing import Dict, List, Sequence, Set, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

from compare_predictions import predictions  # noqa: E402  (lab/scripts/, the script's own folder)
from error_analysis import FORMALISM, classify, parsed, run_folders  # noqa: E402
from fewshot_parser.data.examples import read_examples  # noqa: E402
from fewshot_parser.data.recombination.trees import call_labels  # noqa: E402
from fewshot_parser.logical_forms.template import Abstractor, predicates  # noqa: E402

GROUPS = ("shares a cue", "no shared cue", "support without cues")


def cue_words(support: Sequence, training_words: Set[str], predicate: str) -> Set[str]:
    """Words of the support utterances using `predicate` that no training utterance has."""
    return {w for e in support if predicate in predicates(e.tree) for w in e.utterance} - training_words


def group_of(query_words: Set[str], cues: Set[str]) -> str:
    if not cues:
        return "support without cues"
    return "shares a cue" if query_words & cues else "no shared cue"


def analyse_run(run: str, split_dir: str, formalism: str, counts: Dict, by_predicate: Dict) -> None:
    """Adds the run's (right, total) per group to `counts[group]` and per (predicate, group) to `by_predicate`."""
    train = list(read_examples(os.path.join(split_dir, "train.txt"), formalism))
    support = list(read_examples(os.path.join(split_dir, "support.txt"), formalism))
    query_path = os.path.join(split_dir, "query.txt")
    query = list(read_examples(query_path, formalism))
    known = set().union(*(call_labels(e.tree) for e in train))
    training_words = {w for e in train for w in e.utterance}
    new = set().union(*(set(predicates(e.tree)) for e in query)) - known
    cues = {p: cue_words(support, training_words, p) for p in new}
    lfs = predictions(run, query_path)
    abstractor = Abstractor(formalism)
    for predicted, gold in zip(lfs, query):
        right = classify(predicted, parsed(predicted, formalism), gold, new, abstractor) is None
        for p in sorted(set(predicates(gold.tree)) & new):
            group = group_of(set(gold.utterance), cues[p])
            counts[group][0] += right
            counts[group][1] += 1
            by_predicate[(p, group)][0] += right
            by_predicate[(p, group)][1] += 1


def cell(pair: List[int]) -> str:
    right, total = pair
    return f"{100 * right / total:.1f} ({total})" if total else "–"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--systems", nargs="+", required=True)
    parser.add_argument("--suite", required=True)
    parser.add_argument("--draws", nargs="+", type=int, required=True)
    parser.add_argument("--samples", nargs="+", type=int, default=[0, 1, 2])
    parser.add_argument("--runs-dir", required=True)
    parser.add_argument("--data-dir", default=os.path.join(ROOT, "data"))
    parser.add_argument("--datasets", nargs="+", default=["geo"], choices=sorted(FORMALISM))
    parser.add_argument("--shots", nargs="+", type=int, default=[1, 2], choices=(1, 2))
    parser.add_argument("--predicates", type=int, default=6, help="the new predicates with the most queries to list")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()

    lines = [
        f"Exact match (%, with the number of query-predicate pairs) of new-predicate queries by whether they "
        f"repeat a cue word of the predicate's support, suite `{args.suite}` draws {' '.join(map(str, args.draws))}, "
        f"support samples {' '.join(map(str, args.samples))}.",
        "",
        "| system | column | runs | " + " | ".join(GROUPS) + " |",
        "|---|---|---|" + "---|" * len(GROUPS),
    ]
    detail: List[str] = []
    for dataset in args.datasets:
        for shot in args.shots:
            for system in args.systems:
                counts: Dict[str, List[int]] = defaultdict(lambda: [0, 0])
                by_predicate: Dict[Tuple[str, str], List[int]] = defaultdict(lambda: [0, 0])
                runs = 0
                folders = run_folders(argparse.Namespace(**{**vars(args), "system": system}), dataset, shot)
                for _, run, split_dir in folders:
                    if not os.path.isfile(os.path.join(run, "query_predictions.jsonl")) and not os.path.isfile(
                        os.path.join(run, "model.tar.gz")
                    ):
                        print(f"cue_words: {run} has no predictions; skipped", file=sys.stderr)
                        continue
                    analyse_run(run, split_dir, FORMALISM[dataset], counts, by_predicate)
                    runs += 1
                if not runs:
                    continue
                column = f"{dataset} {shot}-shot"
                lines.append(f"| {system} | {column} | {runs} | " + " | ".join(cell(counts[g]) for g in GROUPS) + " |")
                sizes: Counter = Counter()
                for (p, _), pair in by_predicate.items():
                    sizes[p] += pair[1]
                for p, _ in sizes.most_common(args.predicates):
                    detail.append(
                        f"| {system} | {column} | `{p}` | " + " | ".join(cell(by_predicate[(p, g)]) for g in GROUPS) + " |"
                    )
    lines += ["", "By new predicate:", "", "| system | column | predicate | " + " | ".join(GROUPS) + " |",
              "|---|---|---|" + "---|" * len(GROUPS)] + detail
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            given = " ".join(
                "<the grid's runs directory>" if a == args.runs_dir and not os.path.abspath(a).startswith(ROOT) else a
                for a in sys.argv[1:]
            )
            handle.write(f"Command: `python lab/scripts/cue_words.py {given}`\n\n{text}\n")


if __name__ == "__main__":
    main()
