"""
Adjective words for reshaped pairs. Not in the paper; an extension of `fewshot_parser.data.reshaping`.

A support set often shows a measure predicate only inside a superlative: "which state has the
highest point" is `argmax` with the key `elevation:i`, and the word "highest" speaks for both. A
reshaped pair that puts the predicate outside the `argmax` ("how long is r0" -> `( elevation:i r0 )`)
must drop "highest", which expresses the operator, and `ReshapingRecombiner.words_under` then falls
back to the predicate's name: "how elevation is r0". The queries say "how high is m0". An English
superlative is its adjective plus "-est", and the adjective expresses the measure alone.

`AdjectiveRecombiner` keeps that adjective: where a reshaped pair replaces training words that are
themselves an adjective (a word whose superlative the training utterances use, such as "long" beside
"longest"), each support word that expresses the support's operator and is a superlative gives way
to its adjective ("highest" -> "high", "largest" -> "large", "biggest" -> "big"), which takes the
place of the training adjective in the training phrase ("how long" -> "how high"). Where the training words are not an adjective ("what is the length of r0"), or the support
words besides the operator's name the predicate ("population density"), the words stay as `ReshapingRecombiner` chooses them. The superlative is undone by English spelling rules (`positive_form`), so nothing
depends on a dataset's words or on which predicates are new.
"""
from typing import Any, List, Optional, Sequence, Set

from fewshot_parser.data.examples import Example
from fewshot_parser.data.reshaping import ReshapingRecombiner
from fewshot_parser.logical_forms.tree import Tree

_VOWELS = set("aeiou")


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
    if len(stem) >= 3 and stem[-1] not in _VOWELS | set("wxy") and stem[-2] in _VOWELS \
            and stem[-3] not in _VOWELS:  # widest -> wide (a doubled consonant would have marked a short vowel)
        return stem + "e"
    return stem


class AdjectiveRecombiner(ReshapingRecombiner):
    """
    A `ReshapingRecombiner` whose reshaped pairs speak a new predicate with the adjective of its
    support superlative where the replaced training words are an adjective (see the module docstring).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        superlatives = {word for example in self.training for word in example.utterance}
        self.adjectives: Set[str] = {form for form in map(positive_form, superlatives) if form}
        self._replaced: Sequence[str] = ()
        self._support_adjectives: List[str] = []

    def support_adjectives(self, example: Example, parent: str) -> List[str]:
        """The adjectives of the superlatives of a support utterance that express its operator `parent`."""
        if not parent:
            return []
        return [form for word in example.utterance
                if (form := positive_form(word)) and self.statistics.predictiveness(word, parent) >= self.max_explained]

    def _support_entries(self, predicate: str, support: Sequence[Example], new: Set[str]):
        # `ReshapingRecombiner._reshaped` makes all the pairs of one support entry before it takes
        # the next, and finds the training span it replaces right before it asks `words_under` for
        # the new words: remember the entry's adjectives and that span's words for `words_under`.
        for example, occurrence, span in super()._support_entries(predicate, support, new):
            self._support_adjectives = self.support_adjectives(example, occurrence.signature[3])
            yield example, occurrence, span
        self._support_adjectives = []

    def known_span(self, tokens: Sequence[str], tree: Tree, predicate: str):
        span = super().known_span(tokens, tree, predicate)
        self._replaced = tuple(tokens[span.start: span.end]) if span is not None else ()
        return span

    def words_under(self, predicate: str, words: Sequence[str], support_parent: str, parent: str) -> List[str]:
        if parent != support_parent and self._support_adjectives and any(w in self.adjectives for w in self._replaced) \
                and not any(self.statistics.names(word, predicate) for word in words
                            if self.statistics.predictiveness(word, support_parent) < self.max_explained):
            # The training phrase with its adjective swapped: "how long" -> "how high".
            words = []
            for word in self._replaced:
                words.extend(self._support_adjectives if word in self.adjectives else [word])
            return words
        return super().words_under(predicate, words, support_parent, parent)
