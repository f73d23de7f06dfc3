"""
Reshaped pairs that speak a measure under a superlative with the superlative of the support's
adjective. Not in the paper.

A support set often teaches a measure predicate with a "how" question: "how long is the r0" ->
`( len:i r0 )`. Queries then ask for its maximum with the adjective's superlative: "what is the
longest river" -> `( argmax $0 ( river:t $0 ) ( len:i $0 ) )`. Reshaped pairs do put the predicate
under `argmax`, but they keep the training superlative and add the support words ("which state has
the largest how long"), which no query resembles (lab/results/error_analysis_suite_geo_d1.md).

These pairs say it as English does: where a reshaped pair puts the predicate under a maximum (an
operator whose name says "max") and the training utterance has a superlative that expresses that
operator, the superlative becomes the one of the support adjective and the known predicate's words
go ("which state has the largest population" -> "which state has the longest"). The support adjective
is the word after "how" among the support words of the predicate ("how long", "how high", "how big";
not "how many" or "how much", which count). The superlative is made by English spelling rules
(`superlative_form`), so nothing depends on a dataset's words or on which predicates are new. Other
reshaped pairs (minimum, no superlative, no adjective) keep the reshaped pairs' words.

`superlative_forward` does the same for forward pairs, whose calls have the support call's operator:
where a support example shows the predicate under `argmax` in other words ("what is the length of the
longest river") and another asks "how long", forward pairs say "the longest" rather than "the largest
length of".
"""

from typing import Dict, List, Optional, Sequence, Tuple

from fewshot_parser.data.examples import Example
from fewshot_parser.data.predicate_names import predicate_name
from fewshot_parser.data.recombination.context import RecombinationContext, Support
from fewshot_parser.data.recombination.forward import ForwardPairs
from fewshot_parser.data.recombination.generator import PairGenerator
from fewshot_parser.data.recombination.wording import Entry, Span, replace_words, support_entries
from fewshot_lab.data.recombination.adjectives import positive_form
from fewshot_lab.data.recombination.reshaped import ReshapedPairs

_VOWELS = set("aeiou")
# Adjectives whose superlative is not made by the rules.
_IRREGULAR = {"good": "best", "bad": "worst", "far": "farthest", "little": "least"}
# Question words after "how" that are not a measure's adjective.
_NOT_MEASURES = {"many", "much", "do", "does", "did", "is", "are", "about", "come", "to"}


def superlative_form(adjective: str) -> Optional[str]:
    """
    The English superlative of an adjective ("long" -> "longest", "large" -> "largest", "big" ->
    "biggest", "early" -> "earliest"), or None for a word that is not a plain lowercase word.
    """
    if not adjective.isalpha() or not adjective.islower() or len(adjective) < 2:
        return None
    if adjective in _IRREGULAR:
        return _IRREGULAR[adjective]
    if adjective.endswith("e"):
        return adjective + "st"
    if adjective.endswith("y") and adjective[-2] not in _VOWELS:
        return adjective[:-1] + "iest"
    if (
        len(adjective) <= 4
        and adjective[-1] not in _VOWELS | set("wxy")
        and adjective[-2] in _VOWELS
        and (len(adjective) == 2 or adjective[-3] not in _VOWELS)
    ):  # big -> biggest, hot -> hottest (one short vowel before one consonant)
        return adjective + adjective[-1] + "est"
    return adjective + "est"


def support_adjective(entry: Entry) -> Optional[str]:
    """The adjective of a "how" question among the support words of the new predicate, if any."""
    tokens = entry.example.utterance
    for i in range(max(entry.span.start, 1), entry.span.end):
        if tokens[i - 1] == "how" and tokens[i] not in _NOT_MEASURES and superlative_form(tokens[i]):
            return tokens[i]
    return None


def is_maximum(operator: str) -> bool:
    """Whether an operator's name says it takes a maximum (`argmax`, `max`)."""
    return "max" in predicate_name(operator).lower()


def operator_superlative(
    context: RecombinationContext, tokens: Sequence[str], parent: str, span: Span
) -> Optional[int]:
    """The position of the superlative (or "most") of `tokens` that expresses the operator `parent`,
    nearest to `span`."""
    positions = [
        i
        for i, word in enumerate(tokens)
        if (positive_form(word) or word == "most")
        and context.statistics.predictiveness(word, parent) >= context.max_explained
    ]
    if not positions:
        return None
    return min(positions, key=lambda i: 0 if span.start <= i < span.end else min(abs(i - span.start), abs(i - span.end)))


def said_with_superlative(
    context: RecombinationContext,
    example: Example,
    span: Span,
    parent: str,
    adjective: Optional[str],
    replaced: Sequence[Tuple[int, str]],
    values: Dict[int, str],
) -> Optional[List[str]]:
    """
    The training utterance with its superlative of the maximum `parent` replaced by the superlative of
    `adjective` and the known predicate's words `span` dropped (value atoms replaced as in the other
    pairs); None where there is no adjective, `parent` is no maximum or the utterance has no such
    superlative.
    """
    if adjective is None or not is_maximum(parent):
        return None
    position = operator_superlative(context, example.utterance, parent, span)
    superlative = superlative_form(adjective)
    if position is None or superlative is None:
        return None
    tokens: List[str] = []
    for i, word in enumerate(example.utterance):
        if i == position:
            tokens.append(superlative)
        elif not span.start <= i < span.end:
            tokens.append(word)
    return replace_words(tokens, Span(0, 0, 1.0), [], replaced, values)


def measure_adjective(context: RecombinationContext, support: Support, predicate: str) -> Optional[str]:
    """The adjective of a "how" question that any support example of `predicate` asks with its words."""
    for entry in support_entries(context, support, predicate):
        adjective = support_adjective(entry)
        if adjective:
            return adjective
    return None


@PairGenerator.register("superlatives")
class SuperlativePairs(ReshapedPairs):
    """
    Reshaped pairs whose utterance says a maximum of the new measure with the superlative of its
    support adjective (see the module docstring); their direction stays "reshaped".

    Registered as a `PairGenerator` with name "superlatives".

    # Parameters

    pairs_per_predicate : `int`, optional (default = `10`)
        Reshaped pairs per new predicate (at most).
    support_kinds : `bool`, optional (default = `False`)
        As `ReshapedPairs`': values the support gives the new predicate fill its arguments everywhere.
    max_arity : `int`, optional (default = `None`)
        As `ReshapedPairs`': reshape only predicates of at most this many arguments.
    """

    def utterance(
        self,
        context: RecombinationContext,
        predicate: str,
        entry: Entry,
        example: Example,
        span: Span,
        parent: str,
        replaced: Sequence[Tuple[int, str]],
        values: Dict[int, str],
    ) -> List[str]:
        said = said_with_superlative(context, example, span, parent, support_adjective(entry), replaced, values)
        if said is None:
            return super().utterance(context, predicate, entry, example, span, parent, replaced, values)
        return said


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
