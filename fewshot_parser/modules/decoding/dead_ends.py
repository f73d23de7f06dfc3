"""
The authors' decoder scores every action of the vocabulary (docs/reproduction.md row 12): it takes the
best action of the whole vocabulary at each step and drops the hypothesis when that action cannot be
applied to the stack. `proto_parser` chooses among the applicable actions only; with greedy decoding
the two take the same path up to the first step whose overall best action is not applicable, where the
authors' decoder has no answer. This reranker checks that on the parser's greedy path (one teacher-forced
pass over the decoded actions, batched) and drops the answer there, keeping the actions decoded before
that step. An answer without a logical form counts as wrong.
"""

from typing import Any, List, Optional

import torch

from fewshot_parser.logical_forms.namespaces import ACTION_NAMESPACE
from fewshot_parser.logical_forms.transition_system import teacher_forcing
from fewshot_parser.modules.decoding.hypotheses import DecodingInputs, Hypothesis
from fewshot_parser.modules.decoding.reranker import Reranker
from fewshot_parser.modules.stack_decoder import applicable_mask


@Reranker.register("dead_ends")
class DeadEnds(Reranker):
    """
    Drops a greedy answer whose path meets a step where the best action of the whole vocabulary is not
    applicable, as the authors' decoder does. Greedy decoding only (`beam_size` 1).

    Registered as a `Reranker` with name "dead_ends".
    """

    greedy_only = True

    def rerank(self, parser: Any, inputs: DecodingInputs, hypotheses: List[List[Hypothesis]]) -> List[List[Hypothesis]]:
        paths = [found[0].actions if found else [] for found in hypotheses]
        steps = first_inapplicable_choice(parser, inputs.encoded, inputs.source_mask, paths, inputs.source_tokens)
        return [
            found if step is None else [Hypothesis(None, found[0].actions[:step], float("-inf"))] + found[1:]
            for found, step in zip(hypotheses, steps)
        ]


@torch.no_grad()
def first_inapplicable_choice(
    parser: Any,
    encoded: torch.Tensor,
    source_mask: torch.Tensor,
    paths: List[List[str]],
    source_tokens: Optional[Any] = None,
) -> List[Optional[int]]:
    """
    For each decoded path (action strings), the first step at which the best action of the whole
    vocabulary is not applicable to the stack, or None. The decoder is run once, teacher-forced along
    the paths, with the scores the search used (`ProtoParser.action_scores`; decoding scorers are not
    applied, as the authors' decoder has none).
    """
    vocab, space_actions = parser.vocab, parser.action_space.actions
    sequences = [[vocab.get_token_index(a, ACTION_NAMESPACE) for a in path] for path in paths]
    steps = max((len(s) for s in sequences), default=0)
    if steps == 0:
        return [None] * len(paths)
    batch = len(sequences)
    actions = torch.full((batch, steps), -1, dtype=torch.long)
    previous = torch.zeros(batch, steps, dtype=torch.long)
    stack_size = torch.zeros(batch, steps, dtype=torch.long)
    arity = max([1] + [space_actions[i].arity for s in sequences for i in s])
    popped = torch.full((batch, steps, arity), -1, dtype=torch.long)
    for row, sequence in enumerate(sequences):
        if not sequence:
            continue
        pointers = teacher_forcing([space_actions[i] for i in sequence])
        actions[row, : len(sequence)] = torch.tensor(sequence)
        previous[row, : len(sequence)] = torch.tensor(pointers.previous_state)
        stack_size[row, : len(sequence)] = torch.tensor(pointers.stack_size)
        for t, children in enumerate(pointers.popped_states):
            popped[row, t, : len(children)] = torch.tensor(children, dtype=torch.long)
    device = encoded.device
    actions, previous, stack_size, popped = (x.to(device) for x in (actions, previous, stack_size, popped))
    matrix = parser.action_matrix()
    decoded = parser.decoder(encoded, source_mask, matrix, actions, previous, popped)
    bonus = (
        None if source_tokens is None else parser.action_bonus(decoded.projections, decoded.attention, source_tokens)
    )
    scores = parser.action_scores(decoded.projections, matrix, bonus)
    space = parser.space()
    best = scores.masked_fill(~space["valid"], float("-inf")).argmax(-1)
    takeable = applicable_mask(space, stack_size).gather(-1, best.unsqueeze(-1)).squeeze(-1)
    stuck = (actions >= 0) & ~takeable
    return [int(row.nonzero()[0]) if bool(row.any()) else None for row in stuck]
