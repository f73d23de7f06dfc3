"""
Re-parented pairs: a new predicate under operators its support set never puts it under. Not in the
paper.

A support example shows a new predicate inside one construction: `elevation:i` as the key of an
`argmax` ("the highest point"). Its GEN action `( elevation:i <v> )` is the same under `argmin`,
but forward pairs keep the support's parent operator and reshaped pairs change the argument shape
only, so fine-tuning never sees the predicate under `argmin`, and the parser writes "the lowest
point" as it writes any phrase it has no template for. On geo shuffle 0 a new predicate needs a
(shape, parent) context its support does not show, with a shape it does show, in 73 of 211 query
LFs (1-shot) and 53 of 206 (2-shot).

A *re-parented* pair takes a training example whose LF calls, once and on atoms only, a known
predicate `q` with the new predicate `p`'s type suffix, arity and argument kinds, under a parent
that no support call of `p` with that argument shape has; `q` becomes `p`, its values become the
support call's, and `q`'s words become `p`'s support words without those that express the support's
operator (`wording.words_under`): "what state has the smallest population" -> "what state has the
smallest elevation", `( argmin $0 ( state:t $0 ) ( elevation:i $0 ) )`. Candidates take turns over
the new parents, best first. Predicates without a type suffix get none, as with reshaped pairs.
"""

import collections
from typing import Iterable, Sequence, Set, Tuple, Union, cast

from fewshot_parser.data.examples import Example
from fewshot_parser.data.recombination.context import RecombinationContext, Support
from fewshot_parser.data.recombination.generator import PairGenerator, SyntheticPair
from fewshot_parser.data.recombination.pipeline import Candidate, in_turns
from fewshot_parser.data.recombination.trees import Shape, argument_shape, atom_calls, call_labels, substitute
from fewshot_parser.data.recombination.wording import known_span, replace_words, support_entries, words_under


def support_contexts(context: RecombinationContext, support: Support, predicate: str) -> Set[Tuple[Shape, str]]:
    """Every (argument shape, parent operator) the support set gives `predicate` (atom-argument calls only)."""
    return {
        (argument_shape(o, o.signature[1], context.formalism), o.signature[3])
        for example in support.examples
        for o in atom_calls(example.tree, context.formalism)
        if o.label == predicate
    }


@PairGenerator.register("reparented")
class ReparentedPairs(PairGenerator):
    """
    The new predicate under the operators its support set lacks (see the module docstring).

    Registered as a `PairGenerator` with name "reparented".

    # Parameters

    pairs_per_predicate : `int`, optional (default = `10`)
        Re-parented pairs per new predicate (at most).
    """

    def __init__(self, pairs_per_predicate: int = 10) -> None:
        super().__init__(pairs_per_predicate)

    def pairs(
        self,
        context: RecombinationContext,
        support: Support,
        unit: Union[str, Example],
        earlier: Sequence[SyntheticPair],
    ) -> Iterable[SyntheticPair]:
        predicate = cast(str, unit)
        shown = support_contexts(context, support, predicate)
        candidates = []
        for entry in support_entries(context, support, predicate):
            suffix, arity, kinds, support_parent = entry.occurrence.signature
            if not suffix:
                continue
            span_words = entry.example.utterance[entry.span.start : entry.span.end]
            shape = argument_shape(entry.occurrence, arity, context.formalism)
            values = dict(entry.occurrence.values)
            in_utterance = {v for v in values.values() if v in entry.example.utterance}
            for example in context.training:
                if call_labels(example.tree) & support.new:
                    continue
                occurrences = collections.Counter(o.label for o in atom_calls(example.tree, context.formalism))
                for known in atom_calls(example.tree, context.formalism):
                    parent = known.signature[3]
                    if known.signature[:3] != (suffix, arity, kinds) or (shape, parent) in shown:
                        continue
                    if (
                        occurrences[known.label] != 1
                        or sum(1 for c in example.tree.calls() if c.label == known.label) != 1
                    ):
                        continue
                    # Values must be spoken in both utterances or in neither, as in a forward pair.
                    if any((old in example.utterance) != (values[i] in in_utterance) for i, old in known.values):
                        continue
                    span = known_span(context, example.utterance, example.tree, known.label)
                    if span is None:
                        continue
                    words = words_under(context, predicate, span_words, support_parent, parent)
                    utterance = replace_words(example.utterance, span, words, known.values, values)
                    tree = substitute(example.tree, known.label, predicate, values)
                    candidates.append(
                        Candidate(
                            span.confidence * entry.span.confidence, parent, example, utterance, tree, known.label
                        )
                    )
        yield from in_turns(candidates, predicate, "reparented", context.formalism)
