"""
Forward pairs that say a maximum of a new measure with the superlative of its support adjective. Not
in the paper; a probe beside the product's `superlatives` reshaped pairs.

Forward pairs have the support call's operator: where a support example shows the predicate under
`argmax` in other words ("what is the length of the longest river") and another asks "how long",
these forward pairs say "the longest" rather than "the largest length of".
"""

from typing import Dict, List, Optional, Sequence, Tuple

from fewshot_parser.data.examples import Example
from fewshot_parser.data.recombination.context import RecombinationContext, Support
from fewshot_parser.data.recombination.forward import ForwardPairs
from fewshot_parser.data.recombination.generator import PairGenerator
from fewshot_parser.data.recombination.superlatives import said_with_superlative, support_adjective
from fewshot_parser.data.recombination.wording import Entry, Span, support_entries


def measure_adjective(context: RecombinationContext, support: Support, predicate: str) -> Optional[str]:
    """The adjective of a "how" question that any support example of `predicate` asks with its words."""
    for entry in support_entries(context, support, predicate):
        adjective = support_adjective(entry)
        if adjective:
            return adjective
    return None


@PairGenerator.register("superlative_forward")
class SuperlativeForwardPairs(ForwardPairs):
    """
    Forward pairs that say a maximum of the new measure with the superlative of the adjective one of
    its support examples asks "how" with ("how long" -> "the longest", where the support also shows the
    predicate under `argmax` in other words, "the length of the longest river"); other pairs are the
    forward pairs'. Their direction stays "forward".

    Registered as a `PairGenerator` with name "superlative_forward".

    # Parameters

    pairs_per_predicate : `int`, optional (default = `20`)
        Forward pairs per new predicate (at most).
    same_roles : `bool`, optional (default = `False`)
        As for the forward pairs.
    """

    def utterance(
        self,
        context: RecombinationContext,
        support: Support,
        entry: Entry,
        example: Example,
        span: Span,
        old_values: Sequence[Tuple[int, str]],
        values: Dict[int, str],
    ) -> List[str]:
        adjective = measure_adjective(context, support, entry.occurrence.label)
        parent = entry.occurrence.signature[3]
        said = said_with_superlative(context, example, span, parent, adjective, old_values, values)
        if said is None:
            return super().utterance(context, support, entry, example, span, old_values, values)
        return said
