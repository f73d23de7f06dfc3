"""
Exact match on the query questions that open with given words, per split, for grid systems: how
often each system gets "how high ..." right, say, beside how often it gets the whole query set right.

    python lab/scripts/question_openings.py --systems reshaped40-ens5 adjectives-subtrees-ens5 \\
        --dataset geo --shot 2 --openings "how high" "where is the"

Reads `<runs-dir>/<system>/<dataset>_<shot>shot_s<shuffle>/model.tar.gz`; the query predictions are
cached beside it as `query_predictions.jsonl` (`allennlp predict`, one process per run).
"""
import argparse
import os
import sys
from typing import Dict, List, Sequence, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_predictions import predictions  # noqa: E402  (lab/scripts/, the script's own folder)


def opening_counts(query: Sequence[Tuple[List[str], str]], predicted: Sequence[str],
                   openings: Sequence[str]) -> Dict[str, Tuple[int, int]]:
    """Per opening: (right, total) over the query questions whose words start with it."""
    normal = lambda text: " ".join(text.split())  # noqa: E731
    counts = {}
    for opening in openings:
        words = opening.split()
        hits = [normal(p) == normal(lf) for (utterance, lf), p in zip(query, predicted)
                if list(utterance[: len(words)]) == words]
        counts[opening] = (sum(hits), len(hits))
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--systems", nargs="+", required=True)
    parser.add_argument("--dataset", required=True)
    parser.add_argument("--shot", type=int, required=True, choices=(1, 2))
    parser.add_argument("--openings", nargs="+", required=True, help="question openings, e.g. \"how high\"")
    parser.add_argument("--shuffles", nargs="+", type=int, default=[1, 2, 3, 4, 5])
    parser.add_argument("--runs-dir", default=os.path.join(ROOT, "runs", "grid"))
    parser.add_argument("--data-dir", default=os.path.join(ROOT, "data"))
    args = parser.parse_args()
    from fewshot_parser.data.examples import read_examples

    formalism = "prolog" if args.dataset == "jobs" else "lambda"
    print(f"| system | {' | '.join(args.openings)} | all queries |\n|---" + "|---" * (len(args.openings) + 1) + "|")
    for system in args.systems:
        totals = {opening: [0, 0] for opening in args.openings + ["all"]}
        for shuffle in args.shuffles:
            query_path = os.path.join(args.data_dir, args.dataset, "lemma_data", f"shuffle_{shuffle}_shot_{args.shot}", "query.txt")
            query = [(e.utterance, e.logical_form) for e in read_examples(query_path, formalism)]
            run = os.path.join(args.runs_dir, system, f"{args.dataset}_{args.shot}shot_s{shuffle}")
            counts = opening_counts(query, predictions(run, query_path), args.openings + [""])
            counts["all"] = counts.pop("")
            for opening, (right, total) in counts.items():
                totals[opening][0] += right
                totals[opening][1] += total
        cells = [f"{right} of {total}" for right, total in totals.values()]
        print(f"| `{system}` | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
