"""
Which suite cells the shorter-span rule of `wording.support_entries` moves: a support example where two
new predicates take the same word gives it to the one with the shorter span, so the other's span (and
every pair made from it) changes. For each draw, support sample and shot of the suites, this renders a
row's config (the best row by default) for the cell, builds its fine-tuning reader's recombination
context (training statistics and lexicon) and compares each new predicate's span alone (the best run of
its word scores, what the code did before the rule) with its span under the rule. A cell none of whose
spans changes fine-tunes on the same data as before; the others are the runs to make again.

    python lab/scripts/span_ownership.py --out lab/results/span_ownership.csv
    python lab/scripts/span_ownership.py --drop best best-unknown ours-unknown --results results/dev-frequent/runs.csv \
        --runs-dir runs/dev-frequent-82

`--drop` reads the list (`--out`) instead and deletes the rows of those grid rows in the moved cells from a
results file, and their finished runs from the runs directory, so that `run-grid` makes them again (the
old numbers stay in git history, `lab/scripts/moved_rows.py` compares them).
"""

import argparse
import csv
import os
import shutil
import sys
from typing import Dict, Iterator, List, Optional

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "lab")]

import fewshot_lab  # noqa: E402,F401  (registers the lab's components)
from allennlp.common import Params  # noqa: E402
from allennlp.data import DatasetReader  # noqa: E402

from fewshot_parser.commands.systems import external_variables, row_config  # noqa: E402
from fewshot_parser.common.safe_io import atomic_open  # noqa: E402
from fewshot_parser.data.examples import read_examples  # noqa: E402
from fewshot_parser.data.paths import resolve_data_path  # noqa: E402
from fewshot_parser.data.recombination.wording import best_run, call_scores, single_calls, support_entries  # noqa: E402
from fewshot_parser.data.splits import find_draws, find_samples  # noqa: E402

FIELDS = ["suite", "dataset", "draw", "sample", "shot", "predicate", "example", "alone", "under_the_rule"]


def changed_spans(reader) -> Iterator[Dict[str, str]]:
    """The spans of a reader's support set that the rule changes: predicate, example line, words before/after."""
    context = reader.context()
    support = context.support(list(read_examples(reader.support_data_path, reader.formalism)))
    for predicate in support.new_predicates:
        ruled = {
            (e.example.source, e.example.line_number): e.span for e in support_entries(context, support, predicate)
        }
        for example in support.examples:
            calls = single_calls(example, context.formalism)
            if predicate not in calls:
                continue
            alone = best_run(call_scores(context, example, calls[predicate], support.new), context.max_span)
            after = ruled.get((example.source, example.line_number))
            if (alone and alone[:2]) != (after and after[:2]):
                words = example.utterance
                yield {
                    "predicate": predicate,
                    "example": str(example.line_number),
                    "alone": " ".join(words[alone.start : alone.end]) if alone else "",
                    "under_the_rule": " ".join(words[after.start : after.end]) if after else "",
                }


def drop_moved(listing: str, results: str, systems: List[str], runs_dir: Optional[str] = None) -> None:
    """Deletes from `results` the rows of `systems` (grid row names) in the cells `listing` names, and
    their finished runs under `runs_dir` (which `run-grid` would otherwise record again as they are)."""
    from fewshot_lab.systems import SYSTEMS

    keys = {SYSTEMS[name][:2] for name in systems}
    with open(listing, newline="", encoding="utf-8") as handle:
        moved = {(r["suite"], r["dataset"], r["draw"], r["sample"], r["shot"]) for r in csv.DictReader(handle)}
    suite = os.path.basename(os.path.dirname(os.path.abspath(results)))
    with open(results, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        fields, rows = reader.fieldnames or [], list(reader)
    kept = [
        row
        for row in rows
        if (row["system"], row["setting"]) not in keys
        or (suite, row["dataset"], row["shuffle"], row.get("sample") or "0", row["shot"]) not in moved
    ]
    with atomic_open(results, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields)
        writer.writeheader()
        writer.writerows(kept)
    print(f"{results}: deleted {len(rows) - len(kept)} rows of {', '.join(systems)} in moved cells")
    if runs_dir is None:
        return
    removed = 0
    for name in systems:
        for cell in sorted(c for c in moved if c[0] == suite):
            _, dataset, draw, sample, shot = cell
            cell_name = f"{dataset}_{shot}shot_d{draw}" + (f"s{sample}" if sample != "0" else "")
            run = os.path.join(runs_dir, name, cell_name)
            for path in (run, run + ".log", run + ".lock"):
                if os.path.isdir(path):
                    shutil.rmtree(path)
                    removed += 1
                elif os.path.exists(path):
                    os.remove(path)
    print(f"{runs_dir}: deleted {removed} finished runs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--suites", nargs="+", default=["dev", "dev-frequent"])
    parser.add_argument("--datasets", nargs="+", default=["jobs", "geo", "atis"])
    parser.add_argument("--system", default="best", help="the row whose fine-tuning reader is compared")
    parser.add_argument("--out", default="lab/results/span_ownership.csv")
    parser.add_argument("--drop", nargs="+", default=None, metavar="SYSTEM", help="delete these rows' moved runs")
    parser.add_argument("--results", default=None, help="with --drop: the results file (a suite's runs.csv)")
    parser.add_argument("--runs-dir", default=None, help="with --drop: the grid's runs directory of that suite")
    args = parser.parse_args()
    if args.drop:
        if not args.results:
            raise SystemExit("--drop needs --results")
        drop_moved(os.path.join(ROOT, args.out), args.results, args.drop, args.runs_dir)
        return
    rows: List[Dict[str, str]] = []
    cells = moved = 0
    for suite in args.suites:
        root = os.path.join(ROOT, "data", suite)
        for dataset in args.datasets:
            for draw in find_draws(root, dataset):
                for shot in (1, 2):
                    for sample in find_samples(root, draw, dataset, shot):
                        # The reader resolves its data paths against $FEWSHOT_DATA_DIR, as a grid run's does.
                        os.environ["FEWSHOT_DATA_DIR"] = os.path.join(root, f"draw_{draw}")
                        variables = external_variables(13, sample)
                        config = row_config(args.system, dataset, shot, variables)
                        reader = DatasetReader.from_params(Params(config["dataset_reader"]))
                        if not resolve_data_path(reader.support_data_path).startswith(os.environ["FEWSHOT_DATA_DIR"]):
                            raise SystemExit(f"{reader.support_data_path}: not a file of the draw")
                        found = list(changed_spans(reader))
                        cells += 1
                        moved += bool(found)
                        cell = {"suite": suite, "dataset": dataset, "draw": draw, "sample": sample, "shot": shot}
                        rows += [{**cell, **change} for change in found]
            print(f"{suite} {dataset}: {cells} cells so far, {moved} moved", flush=True)
    with atomic_open(os.path.join(ROOT, args.out), "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=FIELDS)
        writer.writeheader()
        writer.writerows(rows)
    print(f"{moved} of {cells} cells move ({len(rows)} spans); wrote {args.out}")


if __name__ == "__main__":
    main()
