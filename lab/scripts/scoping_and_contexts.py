"""
The counts behind re-parented pairs and variable scoping (docs/results.md, "How many reshaped pairs;
re-parented pairs, variable scoping, more forward pairs"):

* **Contexts**: per split, the query LFs in which a new predicate needs an argument shape its support
  set never gives it (what reshaped pairs add), and, among the others, those in which it needs a
  (shape, parent operator) pair the support never shows with a shape it does show (what re-parented
  pairs add). New predicates are those of the support LFs the training LFs never use.
* **Scoping**: how many gold LFs of the lambda-formalism datasets are ill-scoped
  (`fewshot_parser.modules.decoding.variable_scoping.scoping_errors`), and how many of a system's query predictions are,
  how many of those are wrong, and how many wrong predictions differ from gold in variable names only.

    python lab/scripts/scoping_and_contexts.py --system reshaped-ens5 --out lab/results/scoping_and_contexts.md

Predictions are read (or made and cached) as in `lab/scripts/error_analysis.py`.
"""
import argparse
import glob
import os
import re
import sys
from typing import List, Set, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from compare_predictions import predictions  # noqa: E402  (lab/scripts/, the script's own folder)
from fewshot_parser.data.recombination.trees import atom_calls, call_labels  # noqa: E402
from fewshot_parser.data.examples import Example, read_training_examples  # noqa: E402
from fewshot_parser.data.recombination.trees import argument_shape  # noqa: E402
from fewshot_parser.logical_forms.tree import parse  # noqa: E402
from fewshot_parser.modules.decoding.variable_scoping import scoping_errors  # noqa: E402

FORMALISM = {"jobs": "prolog", "geo": "lambda", "atis": "lambda"}
_VARIABLE = re.compile(r"^\$\d+$")


def split_dir(data_dir: str, dataset: str, shuffle: int, shot: int) -> str:
    return os.path.join(data_dir, dataset, "lemma_data", f"shuffle_{shuffle}_shot_{shot}")


def context_gaps(directory: str, formalism: str) -> Tuple[int, int, int]:
    """(query LFs, those needing an unshown shape, those needing only an unshown (shape, parent))."""
    def read(name: str) -> List[Example]:
        return read_training_examples(os.path.join(directory, name), formalism)

    train, support, query = read("train.txt"), read("support.txt"), read("query.txt")
    known: Set[str] = set().union(*(call_labels(e.tree) for e in train))
    new = set().union(*(call_labels(e.tree) for e in support)) - known

    def contexts(example: Example) -> Set[tuple]:
        return {(o.label, argument_shape(o, o.signature[1], formalism), o.signature[3])
                for o in atom_calls(example.tree, formalism) if o.label in new}

    shown = set().union(*(contexts(e) for e in support))
    shapes = {(label, shape) for label, shape, _ in shown}
    shape_gap = parent_gap = 0
    for example in query:
        needed = contexts(example)
        if any((label, shape) not in shapes for label, shape, _ in needed):
            shape_gap += 1
        elif needed - shown:
            parent_gap += 1
    return len(query), shape_gap, parent_gap


def variables_only(gold: str, predicted: str) -> bool:
    """Whether the two LFs are equal once every `$n` is the same placeholder."""
    def blind(lf: str) -> List[str]:
        return ["$" if _VARIABLE.match(token) else token for token in lf.split()]
    return blind(gold) == blind(predicted)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--system", default="reshaped-ens5", help="a run-grid system (a folder under --runs-dir)")
    parser.add_argument("--runs-dir", default=os.path.join(ROOT, "runs", "grid"))
    parser.add_argument("--data-dir", default=os.path.join(ROOT, "data"))
    parser.add_argument("--context-shuffles", nargs="+", type=int, default=[0])
    parser.add_argument("--shuffles", nargs="+", type=int, default=[1, 2, 3, 4, 5])
    parser.add_argument("--out", default=None, help="also write the tables to this markdown file")
    args = parser.parse_args()

    lines = [f"Command: `python lab/scripts/scoping_and_contexts.py --system {args.system}"
             + (f" --out {os.path.relpath(args.out, ROOT)}" if args.out else "") + "`", "",
             "New predicates' contexts in the query LFs (geo):", "",
             "| split | query LFs | an unshown argument shape | only an unshown (shape, parent) |", "|---|---|---|---|"]
    for shuffle in args.context_shuffles:
        for shot in (1, 2):
            total, shape_gap, parent_gap = context_gaps(split_dir(args.data_dir, "geo", shuffle, shot), "lambda")
            lines.append(f"| geo {shot}-shot shuffle {shuffle} | {total} | {shape_gap} | {parent_gap} |")

    gold_total = gold_bad = 0
    for dataset in ("geo", "atis"):
        for path in sorted(glob.glob(os.path.join(args.data_dir, dataset, "lemma_data", "*", "*.txt"))):
            with open(path, encoding="utf-8") as handle:
                for line in handle:
                    if "\t" in line:
                        gold_total += 1
                        gold_bad += bool(scoping_errors(parse(line.rstrip("\n").split("\t")[1], "lambda")))
    lines += ["", f"Ill-scoped gold LFs in every file of geo and ATIS: {gold_bad} of {gold_total}.", "",
              f"Query predictions of `{args.system}` (geo, shuffles {' '.join(map(str, args.shuffles))}):", "",
              "| column | predictions | ill-scoped | ill-scoped and wrong | wrong in variable names only |",
              "|---|---|---|---|---|"]
    for shot in (1, 2):
        total = bad = bad_wrong = names_only = 0
        for shuffle in args.shuffles:
            directory = split_dir(args.data_dir, "geo", shuffle, shot)
            run = os.path.join(args.runs_dir, args.system, f"geo_{shot}shot_s{shuffle}")
            query = os.path.join(directory, "query.txt")
            with open(query, encoding="utf-8") as handle:
                golds = [line.rstrip("\n").split("\t")[1] for line in handle if "\t" in line]
            for gold, predicted in zip(golds, predictions(run, query)):
                total += 1
                wrong = " ".join(gold.split()) != " ".join(predicted.split())
                ill = bool(predicted) and bool(scoping_errors(parse(predicted, "lambda")))
                bad += ill
                bad_wrong += ill and wrong
                names_only += wrong and variables_only(gold, predicted)
        lines.append(f"| geo {shot}-shot | {total} | {bad} | {bad_wrong} | {names_only} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            handle.write(text)


if __name__ == "__main__":
    main()
