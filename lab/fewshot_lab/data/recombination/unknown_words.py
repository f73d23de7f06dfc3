"""
Unknown-word pairs: the new predicate's examples with its words replaced by the unknown word.

A new predicate's support shows one wording ("states adjacent to s0"); its queries use others
("states that border s0"). When the predicate is new, the examples that used it are out of the
training set, and with them the words that named it, so a query's other wording is a word the parser
has never seen: its word id is the vocabulary's unknown id. These pairs teach that an unknown word
where the support has the predicate's words may name the new predicate: each support example of the
predicate, then each pair of an earlier pass that shows it, with the predicate's words replaced (a
run of them by one `placeholder`, by default AllenNLP's unknown token, so that the word-id namespace
reads it as any unseen word). The predicate's words are those of its span in the support
(`wording.support_entries`) that no training utterance has and that no other new predicate's span covers
as tightly; a support whose words for it are all training words gives no pairs. The LF stays as it is.
"""

from typing import Dict, Iterable, List, Sequence, Set, Tuple, Union, cast

from fewshot_parser.data.examples import Example
from fewshot_parser.data.recombination.context import RecombinationContext, Support
from fewshot_parser.data.recombination.generator import PairGenerator, SyntheticPair
from fewshot_parser.data.recombination.wording import support_entries

UNKNOWN = "@@UNKNOWN@@"  # allennlp.common.util.DEFAULT_OOV_TOKEN


def masked(utterance: Sequence[str], words: Set[str], placeholder: str) -> List[str]:
    """`utterance` with each run of `words` replaced by one `placeholder`."""
    result: List[str] = []
    for token in utterance:
        if token in words:
            if not result or result[-1] != placeholder:
                result.append(placeholder)
        else:
            result.append(token)
    return result


def owned_words(context: RecombinationContext, support: Support, predicate: str) -> Set[str]:
    """The words of `predicate`'s support spans that no other new predicate's shorter or equal span covers."""
    spans: Dict[Tuple[str, int], List[Tuple[str, int, int]]] = {}  # support example -> (predicate, start, end)
    for other in support.new_predicates:
        for entry in support_entries(context, support, other):
            key = (entry.example.source, entry.example.line_number)
            spans.setdefault(key, []).append((other, entry.span.start, entry.span.end))
    owned: Set[str] = set()
    for entry in support_entries(context, support, predicate):
        covering = spans[(entry.example.source, entry.example.line_number)]
        for position in range(entry.span.start, entry.span.end):
            lengths = sorted((end - start, name) for name, start, end in covering if start <= position < end)
            if lengths[0][1] == predicate and (len(lengths) == 1 or lengths[1][0] > lengths[0][0]):
                owned.add(entry.example.utterance[position])
    return owned


@PairGenerator.register("unknown_words")
class UnknownWordPairs(PairGenerator):
    """
    The new predicate's support examples and earlier pairs with its words unknown (see the module
    docstring). Put it in a pass after the generators whose pairs it should also mask.

    Registered as a `PairGenerator` with name "unknown_words".

    # Parameters

    pairs_per_predicate : `int`, optional (default = `10`)
        Pairs per new predicate (at most): support examples first, then earlier pairs in their order.
    placeholder : `str`, optional (default = `"@@UNKNOWN@@"`)
        The word put in place of the predicate's words.
    """

    def __init__(self, pairs_per_predicate: int = 10, placeholder: str = UNKNOWN) -> None:
        super().__init__(pairs_per_predicate)
        self.placeholder = placeholder

    def pairs(
        self,
        context: RecombinationContext,
        support: Support,
        unit: Union[str, Example],
        earlier: Sequence[SyntheticPair],
    ) -> Iterable[SyntheticPair]:
        predicate = cast(str, unit)
        entries = list(support_entries(context, support, predicate))
        # The predicate's words: those of its span in a support example that no training utterance
        # has (the words a query's other wording would stand in for; `the`, `of` stay). A word in the
        # spans of several new predicates belongs to the one whose span is shortest ("what state border
        # s0" with state:t and next_to:t new: state:t's span may be `state border`, next_to:t's
        # `border`), to none on a tie.
        training_words = context.derived("training words", lambda: {w for e in context.training for w in e.utterance})
        words = owned_words(context, support, predicate) - training_words
        if not words:
            return
        for entry in entries:
            example = entry.example
            yield SyntheticPair(
                masked(example.utterance, words, self.placeholder),
                example.logical_form,
                predicate,
                "unknown",
                f"{example.source}:{example.line_number}",
                "",
                round(entry.span.confidence, 4),
            )
        for pair in earlier:
            if pair.predicate == predicate and words & set(pair.utterance):
                yield pair._replace(
                    utterance=masked(pair.utterance, words, self.placeholder), direction="unknown", replaced=""
                )
