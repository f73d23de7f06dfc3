"""
Exact match of fine-tuned ProtoParser archives decoded with the slot-type check
(`fewshot_parser/modules/decoding/slot_type_check.py`) at several weights, on top of the missing-evidence
penalty at its chosen weight. Decoding only: each archive is loaded once as its
`*_missing_evidence_slot_types` counterpart and evaluated on its query set per weight; weight 0 is the
missing-evidence row's own decoding.

    python lab/scripts/slot_type_tuning.py --runs runs/tune_evidence/coverage --shuffle 0 \\
        --weights 0 1 2 8 --out lab/results/tuning_slot_types/sweep.md

Also counts, per column, the query predictions of weight 0 that write an action whose entity slot
has a type the utterance lacks, and how many of those the largest weight turns right.
"""
import argparse
import os
import sys
from typing import Dict, List, Tuple

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


from evidence_tuning import evidence_scorer, load_with_evidence  # noqa: E402  (lab/scripts/, the script's own folder)
from fewshot_parser.logical_forms.actions import GEN, REDUCE, Action  # noqa: E402
from fewshot_parser.logical_forms.template import ENTITY_SLOT_PREFIX, slot_type  # noqa: E402
from new_action_bias import add_column_arguments, emit_sweep, exact_match_per_setting, sweep_columns  # noqa: E402


def untyped_slots(actions: List[str], types: set) -> bool:
    """Whether some action has an entity slot of a type not in `types`."""
    for action in actions:
        if action.split(" ", 1)[0] in (GEN, REDUCE):
            if any(s.startswith(ENTITY_SLOT_PREFIX) and slot_type(s) not in types for s in Action.from_string(action).slots):
                return True
    return False


def predictions(model, reader, query: str, batch_size: int = 64) -> List[Tuple[bool, bool]]:
    """Per query example: (the prediction writes an untyped slot, the prediction is right)."""
    examples = [line.rstrip("\n").split("\t") for line in open(query, encoding="utf-8") if line.strip()]
    flags = []
    for start in range(0, len(examples), batch_size):
        chunk = examples[start:start + batch_size]
        instances = [reader.text_to_instance(utterance) for utterance, _ in chunk]
        for instance in instances:
            reader.apply_token_indexers(instance)
        for (_, gold), instance, output in zip(chunk, instances, model.forward_on_instances(instances)):
            types = set(instance["source_entity_types"].labels)
            flags.append((untyped_slots(output["predicted_actions"], types), (output["logical_form"] or "").split() == gold.split()))
    return flags


def sweep(archive_path: str, split: str, weights: List[float], evidence_weight: float) -> Tuple[Dict[float, float], str]:
    """Exact match (%) on the split's query set per weight, and what the check acts on."""
    query, train = os.path.join(split, "query.txt"), os.path.join(split, "train.txt")
    archive, model, _ = load_with_evidence(archive_path, train, 0.8, 3.0, 5, "gen", type_suffix="_slot_types")
    evidence_scorer(model).weight = evidence_weight
    check = model.decoding_scorers[0]  # the slot-type check comes first
    reader = archive.validation_dataset_reader
    scores = exact_match_per_setting(model, reader, query, weights,
                                     lambda weight: setattr(check, "weight", weight), f"{archive_path}: slot-type weight")
    check.weight = 0.0
    before = predictions(model, reader, query)
    check.weight = max(weights)
    after = predictions(model, reader, query)
    flagged = [i for i, (untyped, _) in enumerate(before) if untyped]
    note = (f"{len(flagged)} of {len(before)} predictions at weight 0 fill an entity slot whose type the utterance lacks; "
            f"weight {max(weights):g} makes {sum(after[i][1] for i in flagged)} of them right and leaves "
            f"{sum(untyped for untyped, _ in after)} such predictions")
    return scores, note


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", required=True, help="a grid system's directory of runs (runs/<dir>/<system>)")
    parser.add_argument("--shuffle", type=int, required=True,
                        help="the split whose runs to read; choose settings on the development suite (run-grid --suite dev), not on shuffle 0")
    parser.add_argument("--weights", nargs="+", type=float, default=[0.0, 1.0, 2.0, 8.0])
    parser.add_argument("--evidence-weight", type=float, default=4.0, help="the missing-evidence penalty's weight")
    add_column_arguments(parser)
    args = parser.parse_args()
    columns, results, notes = sweep_columns(args, lambda archive, split: sweep(archive, split, args.weights, args.evidence_weight))
    emit_sweep(
        f"Slot-type check on shuffle {args.shuffle}: exact match (%) of `{args.runs}` per weight",
        f"Decoding only, with the missing-evidence penalty at weight {args.evidence_weight:g} throughout; "
        "weight 0 is `coverage-evidence`'s own decoding.",
        "weight", args.weights, results, columns, notes, args.out,
    )


if __name__ == "__main__":
    main()
