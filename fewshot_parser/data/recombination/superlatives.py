"""
Reshaped pairs that say a maximum of a new measure with the superlative of its support adjective.
Not in the paper.

A support set often teaches a measure predicate with a "how" question: "how long is the r0" ->
`( len:i r0 )`. Queries then ask for its maximum with the adjective's superlative: "what is the
longest river" -> `( argmax $0 ( river:t $0 ) ( len:i $0 ) )`. Reshaped pairs do put the predicate
under `argmax`, but they keep the training superlative and add the support words ("which state has
the largest how long"), which no query resembles.

These pairs say it as English does: where a reshaped pair puts the predicate under a maximum (an
operator whose name says "max") and the training utterance has a superlative that expresses that
operator, the superlative becomes the one of the support adjective and the known predicate's words
go ("which state has the largest population" -> "which state has the longest"). The support adjective
is the word after "how" among the support words of the predicate ("how long", "how high", "how big";
not "how many" or "how much", which count). Superlatives are made and undone by English spelling
rules (`superlative_form`, `positive_form`), so nothing depends on a dataset's words or on which
predicates are new. Other reshaped pairs (minimum, no superlative, no adjective) keep the reshaped
pairs' words.
"""

from typing import Dict, List, Optional, Sequence, Tuple

from fewshot_parser.data.examples import Example
from fewshot_parser.data.predicate_names import predicate_name
from fewshot_parser.data.recombination.context import RecombinationContext
from fewshot_parser.data.recombination.generator import PairGenerator
from fewshot_parser.data.recombination.reshaped import ReshapedPairs
from fewshot_parser.data.recombination.wording import Entry, Span, replace_words

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


def positive_form(word: str) -> Optional[str]:
    """
    The adjective of an English superlative ("highest" -> "high", "largest" -> "large", "biggest" ->
    "big", "earliest" -> "early", "widest" -> "wide"), or None when `word` does not look like one.
    Short words ("best", "most", "least") have irregular or no adjectives and give None.
    """
    if len(word) < 6 or not word.endswith("est") or not word.isalpha():
        return None
    stem = word[:-3]
    if stem.endswith("i"):  # earliest -> early
        return stem[:-1] + "y"
    if stem[-1] == stem[-2] and stem[-1] in "bdgmnprt":  # biggest -> big, hottest -> hot
        return stem[:-1]
    if stem[-1] in "csvz" or (stem[-1] == "g" and stem[-2] != "n"):  # largest -> large, densest -> dense
        return stem + "e"
    if (
        len(stem) >= 3 and stem[-1] not in _VOWELS | set("wxy") and stem[-2] in _VOWELS and stem[-3] not in _VOWELS
    ):  # widest -> wide (a doubled consonant would have marked a short vowel)
        return stem + "e"
    return stem


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
    return min(
        positions, key=lambda i: 0 if span.start <= i < span.end else min(abs(i - span.start), abs(i - span.end))
    )


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
