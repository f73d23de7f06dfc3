"""
Each decoding-time component of a fine-tuned ensemble, removed one at a time, on the development
suite: exact match of the same fine-tuned members decoded without it. Nothing is retrained, so the
comparison is paired (the members' weights are identical) and costs one evaluation per run and setting.

The components measured are those that act only at decoding: the new-action bias, entity-coverage
re-ranking (its beam goes with it), the missing-evidence penalty, the slot-type check, all four
together, and the ensemble's size (its first 1 or 3 members voting). Components that act in
training as well (words, lexicon, linking, schema encoding, recombination) need their own runs.

    # the best row's dev-suite runs (run-grid --suite dev --systems reshaped40-ens5 --runs-dir R)
    python lab/scripts/decoding_components.py --runs R/reshaped40-ens5 --data-dir data/dev \\
        --out lab/results/dev_decoding_components.csv
"""
import argparse
import csv
import os
import re
import sys
from typing import Any, Callable, Dict, List, Tuple

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import torch  # noqa: E402
from allennlp.common import logging as common_logging  # noqa: E402
from allennlp.data.data_loaders import MultiProcessDataLoader  # noqa: E402
from allennlp.models.archival import load_archive  # noqa: E402
from allennlp.training.util import evaluate  # noqa: E402

import fewshot_parser  # noqa: E402,F401
from fewshot_parser.common.provenance import code_version  # noqa: E402

RUN = re.compile(r"^(?P<dataset>[a-z]+)_(?P<shot>\d)shot_d(?P<draw>\d+)$")
FIELDS = ["dataset", "shot", "draw", "setting", "exact_match", "full_exact_match", "recorded_exact_match", "code_version"]


def settings() -> Dict[str, Callable[[Any], None]]:
    """Each setting's change to a freshly loaded ensemble (`None`: the full model)."""

    def members(model: Any) -> List[Any]:
        return list(model.members) if hasattr(model, "members") else [model]

    def without_scorer(name: str) -> Callable[[Any], None]:
        def apply(model: Any) -> None:
            for member in members(model):
                kept = [s for s in member.decoding_scorers if type(s).__name__ != name]
                member.decoding_scorers = torch.nn.ModuleList(kept)
        return apply

    def without_coverage(model: Any) -> None:
        for member in members(model):
            member.rerankers = [r for r in member.rerankers if type(r).__name__ != "EntityCoverage"]

    def without_bias(model: Any) -> None:
        for member in members(model):
            member.new_action_bias = 0.0

    def without_all(model: Any) -> None:
        for apply in (without_bias, without_coverage, without_scorer("MissingEvidence"), without_scorer("SlotTypeCheck")):
            apply(model)

    def first(size: int) -> Callable[[Any], None]:
        def apply(model: Any) -> None:
            model.members = torch.nn.ModuleList(list(model.members)[:size])
        return apply

    return {
        "full": lambda model: None,
        "- new-action bias": without_bias,
        "- entity coverage": without_coverage,
        "- missing evidence": without_scorer("MissingEvidence"),
        "- slot-type check": without_scorer("SlotTypeCheck"),
        "- all four": without_all,
        "1 member": first(1),
        "3 members": first(3),
    }


def runs(directory: str) -> List[Tuple[str, int, int, str]]:
    """(dataset, shot, draw, run directory) of every finished run under a grid system's directory."""
    found = []
    for name in sorted(os.listdir(directory)):
        match = RUN.match(name)
        if match and os.path.isfile(os.path.join(directory, name, "model.tar.gz")):
            found.append((match["dataset"], int(match["shot"]), int(match["draw"]), os.path.join(directory, name)))
    return found


def recorded(run: str) -> float:
    """The exact match the grid recorded for a run (its metrics.json), in %."""
    import json
    with open(os.path.join(run, "metrics.json")) as handle:
        return 100 * json.load(handle)["test_exact_match"]


def measure(run: str, query: str) -> Dict[str, float]:
    """Exact match (%) on `query` of the run's archive under each setting (the archive reloaded for each)."""
    scores = {}
    for name, apply in settings().items():
        archive = load_archive(os.path.join(run, "model.tar.gz"))
        model = archive.model
        model.eval()
        apply(model)
        loader = MultiProcessDataLoader(archive.validation_dataset_reader, query, batch_size=64)
        loader.index_with(model.vocab)
        scores[name] = 100 * evaluate(model, loader, cuda_device=-1)["exact_match"]
        print(f"{run} {name}: {scores[name]:.2f}", file=sys.stderr, flush=True)
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", required=True, help="a grid system's directory of dev-suite runs")
    parser.add_argument("--data-dir", default="data/dev", help="the suite's root (draw_<d>/<dataset>/lemma_data/...)")
    parser.add_argument("--out", required=True, help="CSV to append rows to (runs already in it are skipped)")
    args = parser.parse_args()
    torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", "1")))
    common_logging.FILE_FRIENDLY_LOGGING = True
    done = set()
    if os.path.isfile(args.out):
        with open(args.out, newline="") as handle:
            done = {(r["dataset"], r["shot"], r["draw"]) for r in csv.DictReader(handle)}
    version = code_version()
    for dataset, shot, draw, run in runs(args.runs):
        if (dataset, str(shot), str(draw)) in done:
            continue
        query = os.path.join(args.data_dir, f"draw_{draw}", dataset, "lemma_data", f"shuffle_0_shot_{shot}", "query.txt")
        scores = measure(run, query)
        rows = [{"dataset": dataset, "shot": shot, "draw": draw, "setting": name, "exact_match": f"{value:.2f}",
                 "full_exact_match": f"{scores['full']:.2f}", "recorded_exact_match": f"{recorded(run):.2f}",
                 "code_version": version} for name, value in scores.items()]
        new_file = not os.path.isfile(args.out)
        with open(args.out, "a", newline="") as handle:  # one run's rows at a time: a killed sweep resumes
            writer = csv.DictWriter(handle, fieldnames=FIELDS)
            if new_file:
                writer.writeheader()
            writer.writerows(rows)


if __name__ == "__main__":
    main()
