"""
Exact match of fine-tuned ProtoParser archives decoded with the missing-evidence penalty
(`fewshot_parser/modules/decoding/missing_evidence.py`) at several weights. Decoding only: each archive is
loaded once as its `*_missing_evidence` counterpart, given the evidence words of its training set,
and evaluated on its query set per weight; weight 0 is the archive's own decoding.

    python lab/scripts/evidence_tuning.py --runs runs/tune_evidence/coverage --shuffle 0 \\
        --columns atis_1 --weights 0 1 2 4 8 --out lab/results/tuning_evidence/sweep.md

Also lists, per column, how many known actions have evidence words, and those of the most frequent
ones, so that a reader can see what the penalty acts on.
"""
import argparse
import json
import os
import sys
import tarfile
from typing import Dict, List, Tuple

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from allennlp.models.archival import load_archive  # noqa: E402

import fewshot_parser  # noqa: E402,F401
from fewshot_parser.logical_forms.namespaces import ACTION_NAMESPACE  # noqa: E402
from fewshot_lab.modules.decoding.missing_evidence import MissingEvidence  # noqa: E402
from new_action_bias import add_column_arguments, emit_sweep, exact_match_per_setting, sweep_columns  # noqa: E402  (lab/scripts/, the script's own folder)

EVIDENCE_TYPES = {
    "proto_parser": "proto_parser_missing_evidence",
    "irnet_parser": "irnet_parser_missing_evidence",
    "proto_parser_entity_coverage": "proto_parser_entity_coverage_missing_evidence",
    "irnet_parser_entity_coverage": "irnet_parser_entity_coverage_missing_evidence",
}


def load_with_evidence(archive_path: str, train: str, share: float, lift: float, min_count: int, actions: str,
                       type_suffix: str = ""):
    """The archive's model as its missing-evidence counterpart (with `type_suffix`: that type's
    registered extension, e.g. `_slot_types`), with the evidence words of `train`."""
    for path in (archive_path, train):
        if not os.path.isfile(path):
            raise SystemExit(f"{path}: no such file")
    with tarfile.open(archive_path) as tar:
        model_type = json.load(tar.extractfile("config.json"))["model"].get("type", "proto_parser")
    if model_type not in EVIDENCE_TYPES and model_type not in EVIDENCE_TYPES.values():
        raise SystemExit(f"{archive_path}: model type {model_type!r} has no missing-evidence counterpart")
    overrides = {"model.type": EVIDENCE_TYPES.get(model_type, model_type) + type_suffix, "model.evidence_share": share,
                 "model.evidence_lift": lift, "model.evidence_min_count": min_count,
                 "model.evidence_actions": actions}
    archive = load_archive(archive_path, overrides=overrides)
    model = archive.model
    reader = archive.validation_dataset_reader
    examples = [(i["metadata"].metadata["utterance"], i["metadata"].metadata["actions"]) for i in reader.read(train)]
    evidence_scorer(model).set_statistics(model, examples)
    model.eval()
    return archive, model, len(examples)


def evidence_scorer(model) -> MissingEvidence:
    """The model's `missing_evidence` decoding scorer (the old `*_missing_evidence` types translate to one)."""
    return next(s for s in model.decoding_scorers if isinstance(s, MissingEvidence))


def describe(model, train_examples: int, top: int = 8) -> str:
    """How many actions have evidence words, and those of the actions with the most evidence."""
    vocab = model.vocab
    words, shares = evidence_scorer(model)._evidence_words, evidence_scorer(model)._evidence_shares
    with_evidence = [a for a in range(words.size(0)) if (words[a] >= 0).any()]
    rows = []
    for a in sorted(with_evidence, key=lambda a: -float(shares[a].max()))[:top]:
        chosen = [f"{vocab.get_token_from_index(int(w), 'tokens')} ({float(s):.2f})"
                  for w, s in zip(words[a].tolist(), shares[a].tolist()) if w >= 0]
        rows.append(f"`{vocab.get_token_from_index(a, ACTION_NAMESPACE)}`: {', '.join(chosen)}")
    return (f"{len(with_evidence)} of {words.size(0)} actions have evidence words ({train_examples} training examples); "
            "e.g. " + "; ".join(rows))


def sweep(archive_path: str, query: str, train: str, weights: List[float], share: float, lift: float,
          min_count: int, actions: str) -> Tuple[Dict[float, float], str]:
    """Exact match (%) on `query` for each weight, and the description of the evidence words."""
    archive, model, size = load_with_evidence(archive_path, train, share, lift, min_count, actions)
    scores = exact_match_per_setting(model, archive.validation_dataset_reader, query, weights,
                                     lambda weight: setattr(evidence_scorer(model), "weight", weight), f"{archive_path}: weight")
    return scores, describe(model, size)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", required=True, help="a grid system's directory of runs (runs/<dir>/<system>)")
    parser.add_argument("--shuffle", type=int, required=True,
                        help="the split whose runs to read; choose settings on the development suite (run-grid --suite dev), not on shuffle 0")
    parser.add_argument("--weights", nargs="+", type=float, default=[0.0, 1.0, 2.0, 4.0, 8.0])
    parser.add_argument("--share", type=float, default=0.8)
    parser.add_argument("--lift", type=float, default=3.0)
    parser.add_argument("--min-count", type=int, default=5)
    parser.add_argument("--actions", choices=["gen", "all"], default="gen", help="which actions can have evidence words")
    add_column_arguments(parser)
    args = parser.parse_args()
    columns, results, notes = sweep_columns(args, lambda archive, split: sweep(
        archive, os.path.join(split, "query.txt"), os.path.join(split, "train.txt"), args.weights,
        args.share, args.lift, args.min_count, args.actions,
    ))
    emit_sweep(
        f"Missing-evidence penalty on shuffle {args.shuffle}: exact match (%) of `{args.runs}` per weight",
        "Decoding only: the fine-tuned archives are the grid's; weight 0 is their own decoding. Evidence words: "
        f"share >= {args.share:g}, lift >= {args.lift:g}, at least {args.min_count} training examples; actions: {args.actions}.",
        "weight", args.weights, results, columns, notes, args.out,
    )


if __name__ == "__main__":
    main()
