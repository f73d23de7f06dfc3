"""
Would new actions gain from evidence words too? A decoding-only sweep on the tuning split.

The missing-evidence penalty (`fewshot_parser/modules/decoding/missing_evidence.py`) charges only known
actions: a new one has no training examples to count. This script tries the one source a new action
has, its name and the support set. A new GEN action's *confirmed* words are the utterance words
that lexical linking ties to its predicate names (`LexicalLinking.table`: the names, their parts
and the lexicon) and that its support utterances contain; an action with confirmed words is charged

    new_weight * [the utterance has none of the words linked to the action]

on top of the known actions' penalty (weight `--known-weight`, the `coverage-evidence` setting).
ATIS 2-shot's `( meal $0 dinner:me )`, confirmed by "serve dinner", stops being written into
"flight leave at ti0"; but geo's `elevation:i`, confirmed by "highest" only, is also charged in
"what is the lowest point in s0". Tried on shuffle 0 and not adopted (docs/results.md):

    python lab/scripts/new_action_evidence.py --runs runs/tune_evidence/coverage --shuffle 0 \\
        --weights 0 1 2 --out lab/results/tuning_evidence/new_actions.md
"""
import argparse
import os
import sys
from typing import Dict, List, Tuple

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import torch  # noqa: E402

from evidence_tuning import evidence_scorer, load_with_evidence  # noqa: E402  (lab/scripts/, the script's own folder)
from fewshot_parser.logical_forms.actions import GEN  # noqa: E402
from fewshot_parser.logical_forms.namespaces import ACTION_NAMESPACE  # noqa: E402
from new_action_bias import add_column_arguments, emit_sweep, exact_match_per_setting, sweep_columns  # noqa: E402


def new_action_groups(model, reader, train: str, support: str) -> Tuple[torch.Tensor, torch.Tensor, List[str]]:
    """`(num_actions, num_tokens)` linked words of each confirmed new action, `(num_actions,)` which have them, and a description."""
    vocab = model.vocab
    seen = {a for instance in reader.read(train) for a in instance["metadata"].metadata["actions"]}
    examples = [(i["metadata"].metadata["utterance"], i["metadata"].metadata["actions"]) for i in reader.read(support)]
    links = model.lexical_linking.table(model) > 0
    groups = torch.zeros(links.shape, dtype=torch.bool)
    confirmed = torch.zeros(links.size(0), dtype=torch.bool)
    described = []
    for index, action in enumerate(model.action_space.actions):
        name = vocab.get_token_from_index(index, ACTION_NAMESPACE)
        if action is None or action.kind != GEN or name in seen:
            continue
        support_words = {vocab.get_token_index(t, "tokens") for tokens, actions in examples if name in actions for t in tokens}
        words = sorted(set(torch.nonzero(links[index]).flatten().tolist()) & support_words)
        described.append(f"`{name}`: " + (", ".join(vocab.get_token_from_index(w, "tokens") for w in words) or "none"))
        if words:
            groups[index] = links[index]
            confirmed[index] = True
    return groups, confirmed, described


def sweep(archive_path: str, split: str, weights: List[float], known_weight: float) -> Tuple[Dict[float, float], str]:
    """Exact match (%) on the split's query set per new-action weight, and the confirmed words."""
    train, support, query = (os.path.join(split, f) for f in ("train.txt", "support.txt", "query.txt"))
    archive, model, _ = load_with_evidence(archive_path, train, 0.8, 3.0, 5, "gen")
    reader = archive.validation_dataset_reader
    groups, confirmed, described = new_action_groups(model, reader, train, support)
    scorer = evidence_scorer(model)
    known_penalty = scorer.scores
    scorer.weight = known_weight

    def use_weight(weight: float) -> None:
        def penalty(parser, inputs):
            ids = model.word_ids(inputs.source_tokens)
            present = torch.zeros(ids.size(0), groups.size(1))
            present.scatter_(1, ids, 1.0)
            lacking = confirmed.unsqueeze(0) & ((present @ groups.float().t()) == 0)
            known = known_penalty(parser, inputs)
            new = -weight * lacking.float()
            return new if known is None else known + new

        scorer.scores = penalty

    scores = exact_match_per_setting(model, reader, query, weights, use_weight, f"{archive_path}: new-action weight")
    return scores, "; ".join(described)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", required=True, help="a grid system's directory of runs (runs/<dir>/<system>)")
    parser.add_argument("--shuffle", type=int, required=True,
                        help="the split whose runs to read; choose settings on the development suite (run-grid --suite dev), not on shuffle 0")
    parser.add_argument("--weights", nargs="+", type=float, default=[0.0, 1.0, 2.0])
    parser.add_argument("--known-weight", type=float, default=4.0, help="the known actions' penalty weight")
    add_column_arguments(parser)
    args = parser.parse_args()
    columns, results, notes = sweep_columns(args, lambda archive, split: sweep(archive, split, args.weights, args.known_weight))
    emit_sweep(
        f"Evidence words for new actions on shuffle {args.shuffle}: exact match (%) of `{args.runs}` per weight",
        f"Decoding only, with the known actions' missing-evidence penalty at weight {args.known_weight:g} "
        "throughout; weight 0 is `coverage-evidence`'s own decoding.",
        "new-action weight", args.weights, results, columns, notes, args.out,
        notes_heading="Confirmed words of the new GEN actions:",
    )


if __name__ == "__main__":
    main()
