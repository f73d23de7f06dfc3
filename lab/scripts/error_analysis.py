"""
Error analysis of one `run-grid` system over its runs: for every dataset and shot, what share of the
query LFs each run gets wrong, and why, by comparing each wrong prediction with its gold LF.

    python lab/scripts/error_analysis.py --system augmented --out lab/results/error_analysis_augmented.md

A predicate is *new* in a split when the split's query LFs use it and its train.txt does not. Each
wrong prediction falls in the first class that applies:

- `no LF`: the parser wrote nothing, or nothing that parses;
- `new missing`: the gold LF has new predicates, the prediction none (it wrote known ones instead);
- `new confused`: the gold LF has new predicates, the prediction others of the split's new ones;
- `new partial`: the prediction has some of the gold LF's new predicates, not all, or extra ones;
- `new spurious`: the gold LF has no new predicate, the prediction has one;
- `known differ`: the new predicates agree, the known predicates (as a multiset) do not;
- `structure`: the same predicates, composed differently (another template);
- `slots`: the same template, another entity or variable in a slot.

Reads `<runs-dir>/<system>/<dataset>_<shot>shot_s<shuffle>/model.tar.gz`; the query predictions are
cached beside it as `query_predictions.jsonl` (`allennlp predict`, one process per run), so they outlast
the archive. With `--suite NAME --draws ...` it reads a development suite's runs instead
(`<dataset>_<shot>shot_d<draw>[s<sample>]`, the splits under `<data-dir>/<suite>/draw_<draw>/`), every
support sample of each draw:

    python lab/scripts/error_analysis.py --system best --suite dev-frequent --draws 6 7 \
        --runs-dir runs/dev-frequent-82 --datasets geo
"""
import argparse
import os
import sys
from collections import Counter
from typing import Dict, List, Optional, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

from compare_predictions import predictions  # noqa: E402  (lab/scripts/, the script's own folder)
from fewshot_parser.data.recombination.trees import call_labels  # noqa: E402
from fewshot_parser.data.examples import read_examples  # noqa: E402
from fewshot_parser.logical_forms.template import Abstractor, predicates  # noqa: E402
from fewshot_parser.logical_forms.tree import Tree, parse  # noqa: E402

CLASSES = ["no LF", "new missing", "new confused", "new partial", "new spurious", "known differ", "structure",
           "slots"]
FORMALISM = {"jobs": "prolog", "geo": "lambda", "atis": "lambda"}


def parsed(predicted: str, formalism: str) -> Optional[Tree]:
    """The predicted LF as a tree, or None when the parser wrote nothing that parses."""
    try:
        return parse(predicted, formalism)
    except Exception:  # an unparseable string is one of the outcomes being counted
        return None


def classify(predicted: str, tree: Optional[Tree], gold, new: set, abstractor: Abstractor) -> Optional[str]:
    """The error class of one prediction (see the module docstring), or None when it is right."""
    if " ".join(predicted.split()) == " ".join(gold.logical_form.split()):
        return None
    if tree is None:
        return "no LF"
    gold_predicates, predicted_predicates = predicates(gold.tree), predicates(tree)
    gold_new, predicted_new = set(gold_predicates) & new, set(predicted_predicates) & new
    if gold_new and not predicted_new:
        return "new missing"
    if gold_new and not (predicted_new & gold_new):
        return "new confused"
    if gold_new != predicted_new:
        return "new partial" if gold_new else "new spurious"
    if Counter(p for p in gold_predicates if p not in new) != Counter(p for p in predicted_predicates if p not in new):
        return "known differ"
    gold_template, _ = abstractor.abstract(gold.tree, gold.utterance)
    predicted_template, _ = abstractor.abstract(tree, gold.utterance)
    return "slots" if gold_template == predicted_template else "structure"


def swaps(tree: Optional[Tree], gold, new: set) -> List[Tuple[str, str]]:
    """(gold new predicate the prediction lacks, predicate the prediction has instead) pairs of one LF."""
    if tree is None:  # no LF: nothing written instead
        return []
    written, wanted = Counter(predicates(tree)), Counter(predicates(gold.tree))
    lacking = [p for p in (wanted - written) if p in new]
    instead = list(written - wanted) or ["(nothing)"]
    return [(a, b) for a in lacking for b in instead]


def analyse_run(run: str, split_dir: str, formalism: str, pairs: Counter) -> Tuple[Counter, int, int, int]:
    """Error classes of one run, the number of queries, and (right, total) over queries with a new predicate;
    adds the run's (missing new predicate, written instead) pairs to `pairs`."""
    query_path = os.path.join(split_dir, "query.txt")
    query = list(read_examples(query_path, formalism))
    known = set().union(*(call_labels(e.tree) for e in read_examples(os.path.join(split_dir, "train.txt"), formalism)))
    new = set().union(*(set(predicates(e.tree)) for e in query)) - known
    lfs = predictions(run, query_path)
    if len(lfs) != len(query):
        raise SystemExit(f"{run}/query_predictions.jsonl: {len(lfs)} predictions for {len(query)} queries in "
                         f"{query_path}; delete it and run again")
    abstractor = Abstractor(formalism)
    classes: Counter = Counter()
    with_new = right_with_new = 0
    for predicted, gold in zip(lfs, query):
        tree = parsed(predicted, formalism)
        label = classify(predicted, tree, gold, new, abstractor)
        classes[label or "right"] += 1
        if label in ("new missing", "new confused", "new partial"):
            pairs.update(swaps(tree, gold, new))
        if set(predicates(gold.tree)) & new:
            with_new += 1
            right_with_new += label is None
    return classes, len(query), right_with_new, with_new


def run_folders(args: argparse.Namespace, dataset: str, shot: int) -> List[Tuple[str, str, str]]:
    """(label, run folder, split folder) of every run of a column: official shuffles, or a suite's draws."""
    folders = []
    if args.suite:
        for draw in args.draws:
            for sample in args.samples:
                run = os.path.join(args.runs_dir, args.system, f"{dataset}_{shot}shot_d{draw}" + (f"s{sample}" if sample else ""))
                split = os.path.join(args.data_dir, args.suite, f"draw_{draw}", dataset, "lemma_data",
                                     f"shuffle_{sample}_shot_{shot}")
                folders.append((f"d{draw} sample {sample}", run, split))
        return folders
    for shuffle in args.shuffles:
        run = os.path.join(args.runs_dir, args.system, f"{dataset}_{shot}shot_s{shuffle}")
        folders.append((f"s{shuffle}", run, os.path.join(args.data_dir, dataset, "lemma_data", f"shuffle_{shuffle}_shot_{shot}")))
    return folders


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--system", required=True, help="a run-grid system name (a folder under --runs-dir)")
    parser.add_argument("--runs-dir", default=os.path.join(ROOT, "runs", "grid"))
    parser.add_argument("--data-dir", default=os.path.join(ROOT, "data"))
    parser.add_argument("--datasets", nargs="+", default=["jobs", "geo", "atis"], choices=sorted(FORMALISM))
    parser.add_argument("--shots", nargs="+", type=int, default=[1, 2], choices=(1, 2))
    parser.add_argument("--shuffles", nargs="+", type=int, default=[1, 2, 3, 4, 5])
    parser.add_argument("--suite", default=None, help="a development suite (run-grid --suite) instead of shuffles")
    parser.add_argument("--draws", nargs="+", type=int, default=[], help="with --suite: its draws to read")
    parser.add_argument("--samples", nargs="+", type=int, default=[0, 1, 2], help="with --suite: support samples")
    parser.add_argument("--out", default=None, help="also write the table to this markdown file")
    args = parser.parse_args()
    if args.suite and not args.draws:
        parser.error("--suite needs --draws")

    header = ("| column | runs | queries | right % | right % with a new predicate | "
              + " | ".join(CLASSES) + " |\n|" + "---|" * (5 + len(CLASSES)))
    swapped: Dict[str, Counter] = {}
    over = (f"suite `{args.suite}` draws {' '.join(map(str, args.draws))} (support samples "
            f"{' '.join(map(str, args.samples))})" if args.suite else f"shuffles {' '.join(map(str, args.shuffles))}")
    lines = [f"Error classes of `{args.system}` over {over}, as % of all queries (the classes sum to 100 - right %).",
             "", header]
    for dataset in args.datasets:
        for shot in args.shots:
            totals: Counter = Counter()
            pairs: Counter = Counter()
            queries = runs = right_new = with_new = 0
            for label, run, split_dir in run_folders(args, dataset, shot):
                if not os.path.isfile(os.path.join(run, "query_predictions.jsonl")) and not os.path.isfile(
                    os.path.join(run, "model.tar.gz")
                ):
                    print(f"error_analysis: {run}/model.tar.gz missing; skipped", file=sys.stderr)
                    continue
                classes, n, r, w = analyse_run(run, split_dir, FORMALISM[dataset], pairs)
                totals.update(classes)
                queries, runs, right_new, with_new = queries + n, runs + 1, right_new + r, with_new + w
                print(f"error_analysis: {dataset} {shot}-shot {label}: {100 * classes['right'] / n:.2f} right",
                      file=sys.stderr, flush=True)
            if not runs:
                continue
            share = lambda count: f"{100 * count / queries:.1f}"  # noqa: E731
            lines.append(f"| {dataset} {shot}-shot | {runs} | {queries} | {share(totals['right'])} | "
                         f"{100 * right_new / max(with_new, 1):.1f} ({with_new}) | "
                         + " | ".join(share(totals[c]) for c in CLASSES) + " |")
            swapped[f"{dataset} {shot}-shot"] = pairs
    lines += ["", "The most frequent swaps in the `new ...` classes: a new predicate of the gold LF that the "
              "prediction lacks, and a predicate the prediction has in its place (count over the runs):", "",
              "| column | swaps |", "|---|---|"]
    for column, pairs in swapped.items():
        lines.append(f"| {column} | " + "; ".join(f"`{a}` -> `{b}` {n}" for (a, b), n in pairs.most_common(6)) + " |")
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            # The command as given, with a runs directory outside the checkout named by its role only.
            given = " ".join("<the grid's runs directory>" if a == args.runs_dir and not os.path.abspath(a).startswith(ROOT) else a
                             for a in sys.argv[1:])
            handle.write(f"Command: `python lab/scripts/error_analysis.py {given}`\n\n{text}\n")


if __name__ == "__main__":
    main()
