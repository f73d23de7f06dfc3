"""
Reshaped pairs that speak a new predicate with the adjective of its support superlative. Not in the
paper.

A support set often shows a measure predicate only inside a superlative: "which state has the
highest point" is `argmax` with the key `elevation:i`, and the word "highest" speaks for both. A
reshaped pair that puts the predicate outside the `argmax` ("how long is r0" -> `( elevation:i r0 )`)
must drop "highest", which expresses the operator, and `wording.words_under` then falls back to the
predicate's name: "how elevation is r0". The queries say "how high is m0". An English superlative is
its adjective plus "-est", and the adjective expresses the measure alone.

These pairs keep that adjective: where a reshaped pair replaces training words that are themselves an
adjective (a word whose superlative the training utterances use, such as "long" beside "longest"),
each support word that expresses the support's operator and is a superlative gives way to its
adjective ("highest" -> "high", "largest" -> "large", "biggest" -> "big"), which takes the place of
the training adjective in the training phrase ("how long" -> "how high"). Where the training words
are not an adjective ("what is the length of r0"), or the support words besides the operator's name
the predicate ("population density"), the words are the reshaped pairs'. The superlative is undone
by English spelling rules (`positive_form`), so nothing depends on a dataset's words or on which
predicates are new.
"""

from typing import List, Sequence, Set

from fewshot_parser.data.examples import Example
from fewshot_parser.data.recombination.context import RecombinationContext
from fewshot_parser.data.recombination.generator import PairGenerator
from fewshot_parser.data.recombination.reshaped import ReshapedPairs
from fewshot_parser.data.recombination.superlatives import positive_form
from fewshot_parser.data.recombination.wording import Entry


def training_adjectives(context: RecombinationContext) -> Set[str]:
    """The adjectives whose superlatives the training utterances use."""
    superlatives = {word for example in context.training for word in example.utterance}
    return {form for form in map(positive_form, superlatives) if form}


def support_adjectives(context: RecombinationContext, example: Example, parent: str) -> List[str]:
    """The adjectives of the superlatives of a support utterance that express its operator `parent`."""
    if not parent:
        return []
    statistics = context.statistics
    return [
        form
        for word in example.utterance
        if (form := positive_form(word)) and statistics.predictiveness(word, parent) >= context.max_explained
    ]


@PairGenerator.register("adjectives")
class AdjectivePairs(ReshapedPairs):
    """
    Reshaped pairs whose words are the adjective of the support superlative where the replaced
    training words are an adjective (see the module docstring); their direction stays "reshaped".

    Registered as a `PairGenerator` with name "adjectives".

    # Parameters

    pairs_per_predicate : `int`, optional (default = `10`)
        Reshaped pairs per new predicate (at most).
    """

    def words(
        self, context: RecombinationContext, predicate: str, entry: Entry, replaced: Sequence[str], parent: str
    ) -> List[str]:
        support_parent = entry.occurrence.signature[3]
        span_words = entry.example.utterance[entry.span.start : entry.span.end]
        adjectives = context.derived("training adjectives", lambda: training_adjectives(context))
        mine = support_adjectives(context, entry.example, support_parent)
        statistics = context.statistics
        if (
            parent != support_parent
            and mine
            and any(w in adjectives for w in replaced)
            and not any(
                statistics.names(word, predicate)
                for word in span_words
                if statistics.predictiveness(word, support_parent) < context.max_explained
            )
        ):
            # The training phrase with its adjective swapped: "how long" -> "how high".
            words: List[str] = []
            for word in replaced:
                words.extend(mine if word in adjectives else [word])
            return words
        return super().words(context, predicate, entry, replaced, parent)
