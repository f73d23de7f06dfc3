"""
Which words express a predicate, as counts over the training set: how often a word and a predicate
occur in the same example (a Jaccard association, and how much the word raises the predicate's
probability), plus name matching (`elev` names `elevation:i`) and, optionally, a predicate lexicon.
"""

import collections
from typing import Dict, List, Optional, Sequence, Set

from fewshot_parser.data.examples import Example
from fewshot_parser.data.predicate_names import link_names, link_similarity
from fewshot_parser.data.recombination.trees import call_labels


class Statistics:
    """
    Word-predicate co-occurrence counts over a set of examples (the training set).

    # Parameters

    examples : `Sequence[Example]`
        The examples counted.
    lexicon : `Dict[str, List[str]]`, optional (default = `None`)
        Predicate -> words, which name a predicate besides the parts of its name.
    """

    def __init__(self, examples: Sequence[Example], lexicon: Optional[Dict[str, List[str]]] = None) -> None:
        self.size = max(1, len(examples))
        self.document_frequency: collections.Counter = collections.Counter()
        self.predicate_frequency: collections.Counter = collections.Counter()
        self.joint: collections.Counter = collections.Counter()
        self.cooccurring: Dict[str, Set[str]] = {}
        for example in examples:
            words, predicates = set(example.utterance), call_labels(example.tree)
            self.document_frequency.update(words)
            self.predicate_frequency.update(predicates)
            self.joint.update((w, p) for w in words for p in predicates)
            for word in words:
                self.cooccurring.setdefault(word, set()).update(predicates)
        self.lexicon = lexicon or {}
        self._names: Dict[str, List[str]] = {}  # a memo of `link_names`, per predicate

    def association(self, word: str, predicate: str) -> float:
        """Jaccard association of a word and a predicate over the examples (0 when never together)."""
        joint = self.joint[(word, predicate)]
        if not joint:
            return 0.0
        return joint / (self.document_frequency[word] + self.predicate_frequency[predicate] - joint)

    def predictiveness(self, word: str, predicate: str) -> float:
        """How much a word raises the probability of a predicate: (P(q | w) - P(q)) / (1 - P(q)), with
        P(q | w) smoothed by one unseen example (rare words predict little); 0 when it does not."""
        prior = self.predicate_frequency[predicate] / self.size
        if prior >= 1.0:
            return 0.0
        given = self.joint[(word, predicate)] / (self.document_frequency[word] + 1)
        return max(0.0, (given - prior) / (1.0 - prior))

    def strongest(self, word: str, excluded: Set[str]) -> float:
        """The highest `predictiveness` of a word for a predicate outside `excluded`."""
        return max(
            (self.predictiveness(word, q) for q in self.cooccurring.get(word, ()) if q not in excluded), default=0.0
        )

    def names(self, word: str, predicate: str) -> bool:
        """Whether a word names a predicate: its name, a part of it or a lexicon word (stemmed prefix match)."""
        if predicate not in self._names:
            self._names[predicate] = link_names([predicate], self.lexicon)
        return any(link_similarity(name, word) >= 0.85 for name in self._names[predicate])

    def is_common(self, word: str, threshold: float) -> bool:
        """Function words: in more than `threshold` of the utterances."""
        return self.document_frequency[word] / self.size > threshold
