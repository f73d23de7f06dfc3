"""
What recombination knows before it makes a pair, built once per fine-tuning: the training set with its
word-predicate statistics, known predicates and the settings of the wording helpers
(`RecombinationContext`), and the support set with its new predicates (`Support`).

**New predicates** are the predicates of the support LFs that no training LF uses; nothing else says
which predicates are new.
"""

from typing import Any, Callable, Dict, FrozenSet, List, NamedTuple, Optional, Sequence, Set, TypeVar

from fewshot_parser.data.examples import Example
from fewshot_parser.data.recombination.statistics import Statistics
from fewshot_parser.data.recombination.trees import call_labels

T = TypeVar("T")


class Support(NamedTuple):
    """A support set and its new predicates (in the order the support LFs first use them)."""

    examples: List[Example]
    new_predicates: List[str]
    new: FrozenSet[str]


class RecombinationContext:
    """
    The training set as recombination sees it. Everything a generator derives from it (the spans of
    known predicates, the words of each known predicate, ...) is computed once per context through
    `derived`, so a fine-tuning builds its statistics once, whatever reads the support set.

    # Parameters

    training : `Sequence[Example]`
        The training set (known predicates).
    formalism : `str`
        `"lambda"` or `"prolog"`.
    lexicon : `Dict[str, List[str]]`, optional (default = `None`)
        Predicate -> words, used besides names and counts to find a predicate's words.
    min_association : `float`, optional (default = `0.1`)
        Association a word needs with a known predicate to count as expressing it.
    common_word : `float`, optional (default = `0.25`)
        Words in more than this fraction of training utterances never express a new predicate.
    max_explained : `float`, optional (default = `0.5`)
        A support word predicts a known predicate of its LF with at least this probability (in the
        training set): it expresses that predicate, not the new one.
    max_span : `int`, optional (default = `3`)
        Longest word span taken to express one predicate.
    """

    def __init__(
        self,
        training: Sequence[Example],
        formalism: str,
        lexicon: Optional[Dict[str, List[str]]] = None,
        min_association: float = 0.1,
        common_word: float = 0.25,
        max_explained: float = 0.5,
        max_span: int = 3,
    ) -> None:
        self.training = list(training)
        self.formalism = formalism
        self.statistics = Statistics(self.training, lexicon)
        self.min_association = min_association
        self.common_word = common_word
        self.max_explained = max_explained
        self.max_span = max_span
        self.known: Set[str] = set()
        for example in self.training:
            self.known |= call_labels(example.tree)
        self._derived: Dict[str, Any] = {}

    def new_predicates(self, support: Sequence[Example]) -> List[str]:
        """The predicates of the support LFs that no training LF uses, in order of first use."""
        found: List[str] = []
        for example in support:
            for label in sorted(call_labels(example.tree) - self.known):
                if label not in found:
                    found.append(label)
        return found

    def support(self, examples: Sequence[Example]) -> Support:
        new = self.new_predicates(examples)
        return Support(list(examples), new, frozenset(new))

    def derived(self, name: str, make: Callable[[], T]) -> T:
        """`make()`, computed the first time `name` is asked for and kept for the life of the context."""
        if name not in self._derived:
            self._derived[name] = make()
        return self._derived[name]
