"""
How many query logical forms a token-level decoder could write at all: the share of query LFs
(%) whose every whitespace token occurs in the LFs of train + support, per dataset, shot and
shuffle. It bounds Seq2Seq's exact match from above (it has no copying), and tells a missing
output vocabulary apart from a decoder that does not use the vocabulary it has.

    python lab/scripts/output_coverage.py [--data-dir data] [--shuffles 1 2 3 4 5]
"""
import argparse
import os
from typing import List, Set


def lf_tokens(path: str) -> List[List[str]]:
    """The whitespace tokens of each example's LF (`utterance<TAB>LF` lines)."""
    with open(path, encoding="utf-8") as handle:
        return [line.rstrip("\n").split("\t")[1].split() for line in handle if "\t" in line]


def coverage(split_dir: str) -> float:
    """% of the split's query LFs made only of tokens seen in its train and support LFs."""
    seen: Set[str] = set()
    for name in ("train.txt", "support.txt"):
        for tokens in lf_tokens(os.path.join(split_dir, name)):
            seen.update(tokens)
    queries = lf_tokens(os.path.join(split_dir, "query.txt"))
    return 100.0 * sum(all(t in seen for t in tokens) for tokens in queries) / len(queries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", default=os.environ.get("FEWSHOT_DATA_DIR", "data"))
    parser.add_argument("--shuffles", type=int, nargs="*", default=[1, 2, 3, 4, 5])
    args = parser.parse_args()
    print("| dataset | shot | " + " | ".join(f"s{s}" for s in args.shuffles) + " | mean |")
    print("|---|---|" + "---|" * (len(args.shuffles) + 1))
    for dataset in ("jobs", "geo", "atis"):
        for shot in (1, 2):
            values = [
                coverage(os.path.join(args.data_dir, dataset, "lemma_data", f"shuffle_{s}_shot_{shot}"))
                for s in args.shuffles
            ]
            cells = " | ".join(f"{v:.1f}" for v in values)
            print(f"| {dataset} | {shot} | {cells} | {sum(values) / len(values):.1f} |")


if __name__ == "__main__":
    main()
