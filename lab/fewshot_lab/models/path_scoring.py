"""
Scores given action paths under a ProtoParser: the log-probability its decoder gives each path,
teacher-forced in one batched pass. Not in the paper; the ensemble's `rescore` rule uses it to let
every member judge every member's template.
"""

from typing import List, Sequence, Tuple

import torch
from allennlp.data import TextFieldTensors

from fewshot_parser.logical_forms.namespaces import ACTION_NAMESPACE
from fewshot_parser.logical_forms.transition_system import Action, teacher_forcing
from fewshot_parser.models.proto_parser import ProtoParser
from fewshot_parser.modules.decoding.hypotheses import select_rows
from fewshot_parser.modules.stack_decoder import applicable_mask


def forced_inputs(parser: ProtoParser, paths: Sequence[Sequence[str]]) -> Tuple[torch.Tensor, ...]:
    """
    The decoder inputs of teacher forcing along `paths` (action strings): `(actions, previous_state,
    stack_size, popped_states)`, padded with -1 actions (and 0 / -1 pointers).
    """
    sequences = [[parser.vocab.get_token_index(a, ACTION_NAMESPACE) for a in path] for path in paths]
    path_actions = [known_actions(parser, path, sequence) for path, sequence in zip(paths, sequences, strict=True)]
    steps = max([1] + [len(s) for s in sequences])
    batch = len(sequences)
    actions = torch.full((batch, steps), -1, dtype=torch.long)
    previous = torch.zeros(batch, steps, dtype=torch.long)
    stack_size = torch.zeros(batch, steps, dtype=torch.long)
    arity = max([1] + [action.arity for actions_of_path in path_actions for action in actions_of_path])
    popped = torch.full((batch, steps, arity), -1, dtype=torch.long)
    for row, sequence in enumerate(sequences):
        if not sequence:
            continue
        pointers = teacher_forcing(path_actions[row])
        actions[row, : len(sequence)] = torch.tensor(sequence)
        previous[row, : len(sequence)] = torch.tensor(pointers.previous_state)
        stack_size[row, : len(sequence)] = torch.tensor(pointers.stack_size)
        for t, children in enumerate(pointers.popped_states):
            popped[row, t, : len(children)] = torch.tensor(children, dtype=torch.long)
    return actions, previous, stack_size, popped


def known_actions(parser: ProtoParser, path: Sequence[str], indices: Sequence[int]) -> List[Action]:
    """The parser's actions of `path` (its action strings at vocabulary `indices`); one it does not know raises."""
    actions = []
    for name, index in zip(path, indices, strict=True):
        action = parser.action_space.actions[index]
        if action is None:
            raise ValueError(f"{name!r} is not an action of the parser")
        actions.append(action)
    return actions


def path_log_probs(
    parser: ProtoParser, source_tokens: TextFieldTensors, rows: Sequence[int], paths: Sequence[Sequence[str]]
) -> torch.Tensor:
    """
    `(len(paths),)`: log P(path | utterance) under `parser`'s greedy-search scores (action rows,
    decoding bonus, new-action bias, softmax over the applicable actions), for the utterance `rows[i]`
    of the batch `source_tokens` and the template `paths[i]`. An empty path scores -inf.
    """
    if len(rows) != len(paths):
        raise ValueError(f"path_log_probs needs one utterance row per path, got {len(rows)} and {len(paths)}")
    if not paths:
        return torch.zeros(0)
    encoded, source_mask = parser.encode(source_tokens)
    index = torch.tensor(list(rows), dtype=torch.long, device=encoded.device)
    encoded, source_mask = encoded[index], source_mask[index]
    actions, previous, stack_size, popped = (x.to(encoded.device) for x in forced_inputs(parser, paths))
    matrix = parser.action_matrix()
    decoded = parser.decoder(encoded, source_mask, matrix, actions, previous, popped)
    logits = torch.matmul(decoded.projections, matrix.t())
    bonus = parser.action_bonus(decoded.projections, decoded.attention, select_rows(source_tokens, index))
    if bonus is not None:
        logits = logits + bonus
    if parser.new_action_bias:
        logits = logits + parser.new_action_mask.to(logits.dtype) * parser.new_action_bias
    space = parser.space()
    mask = applicable_mask(space, stack_size)
    last = parser.max_decoding_steps - 1
    if actions.size(1) > last:
        # The search's last step allows only the actions that finish the tree, when there are any.
        closing = mask[:, last] & space["is_stop"]
        mask[:, last] = torch.where(closing.any(-1, keepdim=True), closing, mask[:, last])
    log_probs = torch.log_softmax(logits.masked_fill(~mask, float("-inf")), dim=-1)
    gold = log_probs.gather(-1, actions.clamp(min=0).unsqueeze(-1)).squeeze(-1)
    steps = actions >= 0
    total = gold.masked_fill(~steps, 0.0).sum(-1)
    return total.masked_fill(~steps.any(-1), float("-inf"))


def rescore_choice(candidates: List[List[float]], penalties: Sequence[float]) -> int:
    """
    The candidate with the best mean log-probability over the members (`candidates[c][m]`), minus its
    penalty; the first among equals, so the order of the candidates (that of the members that
    proposed them) breaks ties.
    """
    totals = [sum(scores) / len(scores) - penalty for scores, penalty in zip(candidates, penalties)]
    return max(range(len(totals)), key=lambda c: (totals[c], -c))
