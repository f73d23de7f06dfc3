"""One decoding pass of `proto_parser`: the template search, slot filling, and the LFs of the hypotheses."""

from typing import Any, Callable, Dict, List, Optional

import torch
from allennlp.data import TextFieldTensors

from fewshot_parser.logical_forms.actions import STOP_ACTION
from fewshot_parser.logical_forms.transition_system import Step, TransitionError, execute, instantiate
from fewshot_parser.logical_forms.tree import Tree, to_string
from fewshot_parser.modules.decoding.hypotheses import DecodingInputs, Hypothesis, SlotFilling
from fewshot_parser.modules.loss_terms.reduction import sum_terms


def logical_form(steps: List[Step], formalism: str) -> Optional[str]:
    """The LF of a decoded sequence; without STOP (step limit) the top tree of the stack."""
    try:
        return to_string(execute(steps), formalism)
    except TransitionError:
        stack: List[Tree] = []
        for action, values in steps:
            if action == STOP_ACTION or action.pattern is None or action.arity > len(stack):
                break
            children = stack[len(stack) - action.arity :]
            del stack[len(stack) - action.arity :]
            stack.append(instantiate(action.pattern, children, values))
        return to_string(stack[-1], formalism) if stack else None


def decoding_terms(
    parser: Any, source_tokens: Optional[TextFieldTensors], beams: int
) -> Optional[Callable[[torch.Tensor, torch.Tensor], torch.Tensor]]:
    """
    The decoding counterpart of `parser.action_bonus`: a function of one step's `(hypotheses, dim)`
    projections and `(hypotheses, source_length)` attention (hypotheses = batch x `beams`, in that
    order) giving `(hypotheses, num_actions)` score terms: the `parser.scorers()`'; None when there are none.
    """
    if source_tokens is None:
        return None
    steps = [step for step in (scorer.decoding(parser, source_tokens, beams) for scorer in parser.scorers()) if step]
    if not steps:
        return None

    def terms(projection: torch.Tensor, attention: torch.Tensor) -> torch.Tensor:
        total = sum_terms([step(projection, attention) for step in steps])
        assert total is not None  # `steps` is not empty
        return total

    return terms


def search_templates(parser: Any, inputs: DecodingInputs, beams: int) -> List[List[Hypothesis]]:
    """
    Per example, the finished hypotheses of a beam of `beams` templates (best first) of `parser`'s
    decoder, scored by `parser.action_scores` with its `decoding_terms` and `decoding_scorers`, their
    slots filled by `parser.slots` and revised by its `rerankers`.
    """
    encoded, source_mask, source_types, metadata, source_tokens = inputs
    matrix = parser.action_matrix()
    batch_size = encoded.size(0)
    bonus = decoding_terms(parser, source_tokens, beams)
    terms = [
        term.repeat_interleave(beams, 0)
        for term in (s.scores(parser, inputs) for s in parser.decoding_scorers)
        if term is not None
    ]

    def score(projection: torch.Tensor, attention: torch.Tensor) -> torch.Tensor:
        added = None if bonus is None else bonus(projection, attention)
        for term in terms:
            added = term if added is None else added + term
        return parser.action_scores(projection, matrix, added)

    predicted, scores, projections = parser.decoder.search(
        encoded,
        source_mask,
        matrix,
        parser.space(),
        parser.max_decoding_steps,
        score,
        beams,
    )
    # shape: (batch_size * beams, steps)
    flat = predicted.reshape(batch_size * beams, -1)
    flat_projections = projections.reshape(batch_size * beams, flat.size(1), -1)
    slots = parser.slots
    entity_choice, variable_choice = slots.predict_slots(
        parser,
        flat.clamp(min=0),
        flat >= 0,
        flat_projections,
        encoded.repeat_interleave(beams, 0),
        source_mask.repeat_interleave(beams, 0),
        source_types.repeat_interleave(beams, 0),
    )
    utterances = [metadata[row // beams]["utterance"] for row in range(batch_size * beams)]
    filling = SlotFilling(flat, flat_projections, utterances, entity_choice, variable_choice, {})
    for row in range(batch_size * beams):
        if float(scores[row // beams, row % beams]) != float("-inf"):
            filling.steps[row] = slots.steps(
                parser,
                filling.sequences[row].tolist(),
                row,
                filling.utterances[row],
                filling.entity_choice,
                variable_choice,
            )
    for reranker in parser.rerankers:
        reranker.revise(parser, filling)
    hypotheses: List[List[Hypothesis]] = []
    for b in range(batch_size):
        found = []
        for row in range(b * beams, (b + 1) * beams):
            if row in filling.steps:
                steps = filling.steps[row]
                found.append(
                    Hypothesis(
                        logical_form(steps, metadata[b]["formalism"]),
                        [str(s.action) for s in steps],
                        float(scores[b, row - b * beams]),
                    )
                )
        hypotheses.append(found)
    return hypotheses


def decode_batch(parser: Any, inputs: DecodingInputs) -> Dict[str, Any]:
    """
    Beam search over templates (greedy when `parser.beam_size` is 1), then slot filling, then the
    `rerankers`. Returns the best LF string, its actions and score per example, and with a beam (or a
    reranker that lists its candidates) the n-best LFs.
    """
    parser.slots.start_run(parser)
    hypotheses = parser.search(inputs, parser.beam_size)
    for reranker in parser.rerankers:
        hypotheses = reranker.rerank(parser, inputs, hypotheses)
    output: Dict[str, Any] = {
        "logical_form": [found[0].logical_form for found in hypotheses],
        "predicted_actions": [found[0].actions for found in hypotheses],
        "score": [found[0].score for found in hypotheses],
    }
    if parser.beam_size > 1 or any(reranker.lists_candidates for reranker in parser.rerankers):
        output["n_best"] = [[{"logical_form": h.logical_form, "score": h.score} for h in found] for found in hypotheses]
    return output
