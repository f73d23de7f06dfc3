"""
Does a model write the new predicates? For predictions on a split's query set (`allennlp predict
... --use-dataset-reader` output: one JSON object per line with a `logical_form`), counts the query
examples whose gold LF uses a new predicate (one in support.txt but not in train.txt), the
predictions that use any new predicate, and those whose new predicates are exactly the gold's.

    python lab/scripts/new_predicates.py PREDICTIONS.jsonl data/jobs/lemma_data/shuffle_2_shot_1
"""
import argparse
import json
import os
from typing import List, Set

LAMBDA_OPERATORS = {"lambda", "and", "or", "not", "exists", "argmax", "argmin", "count", "sum", "the", "max", "min", "=", "<", ">"}


def predicates(lf: str) -> Set[str]:
    """Predicate names of an LF as written in the data files: in lambda calculus (LFs that open with
    a bracket) the name after an opening bracket, operators aside, `( state:t $0 )`; in Prolog a
    name followed by a bracket, `job ( ANS )`."""
    tokens = lf.split()
    if tokens and tokens[0] == "(":
        return {b for a, b in zip(tokens, tokens[1:]) if a == "(" and b not in LAMBDA_OPERATORS}
    return {a for a, b in zip(tokens, tokens[1:]) if b == "(" and a not in ("(", ",", ")")}


def logical_forms(path: str) -> List[str]:
    with open(path, encoding="utf-8") as handle:
        return [line.rstrip("\n").split("\t")[1] for line in handle if "\t" in line]


def new_predicate_names(split_dir: str) -> Set[str]:
    """The split's new predicates: those of support.txt's LFs that no LF of train.txt uses."""
    seen = set().union(*map(predicates, logical_forms(os.path.join(split_dir, "train.txt"))))
    return set().union(*map(predicates, logical_forms(os.path.join(split_dir, "support.txt")))) - seen


def _logical_form(prediction: dict, path: str, line: int) -> str:
    """The predicted LF: our models' `logical_form`, or the tokens simple_seq2seq writes as
    `predicted_tokens`, a list holding its best beam's token list."""
    if "logical_form" in prediction:
        return prediction["logical_form"]
    if prediction.get("predicted_tokens"):
        return " ".join(prediction["predicted_tokens"][0])
    raise SystemExit(f"{path}, line {line}: no 'logical_form' or 'predicted_tokens' field")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("predictions")
    parser.add_argument("split_dir")
    args = parser.parse_args()
    new = new_predicate_names(args.split_dir)
    gold = logical_forms(os.path.join(args.split_dir, "query.txt"))
    with open(args.predictions, encoding="utf-8") as handle:
        predicted = [_logical_form(json.loads(line), args.predictions, number)
                     for number, line in enumerate(handle, 1) if line.strip()]
    if len(predicted) != len(gold):
        raise SystemExit(f"{args.predictions}: {len(predicted)} predictions for {len(gold)} query examples")
    wanted = [predicates(g) & new for g in gold]
    written = [predicates(p) & new for p in predicted]
    print(f"new predicates: {' '.join(sorted(new))}")
    print(f"query examples using a new predicate: {sum(map(bool, wanted))} of {len(gold)}")
    print(f"predictions using a new predicate: {sum(map(bool, written))}")
    print(f"predictions whose new predicates are the gold's: {sum(bool(w) and w == p for w, p in zip(wanted, written))}")


if __name__ == "__main__":
    main()
