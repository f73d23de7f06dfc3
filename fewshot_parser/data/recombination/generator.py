"""
The registrable base of the ways of making synthetic pairs (`PairGenerator`), and the pair they make
(`SyntheticPair`).
"""

from typing import ClassVar, Iterable, List, NamedTuple, Sequence, Union

from allennlp.common import Registrable
from allennlp.common.checks import ConfigurationError

from fewshot_parser.data.examples import Example
from fewshot_parser.data.recombination.context import RecombinationContext, Support


class SyntheticPair(NamedTuple):
    """One synthetic example and how it was made (for `augment-data` and `inspect-data --augment`)."""

    utterance: List[str]
    logical_form: str
    predicate: str  # the new predicate it shows
    direction: str  # how it was made: "forward", "reverse", "reshaped", "reparented" or "subtree"
    source: str  # file:line of the example it was made from
    replaced: str  # the known predicate (or atom) that was replaced
    confidence: float


class PairGenerator(Registrable):
    """
    One way of making synthetic (utterance, LF) pairs from a support set and the training set.

    A generator proposes the pairs of one *unit* at a time, best first: a new predicate (`per =
    "predicate"`) or a support example (`per = "example"`). `pipeline.recombine` takes at most
    `limit` of them that no example or earlier pair already has; the generators of one pass take turns
    per unit. A generator keeps no state between calls: what it derives from the training set is
    kept by the `RecombinationContext` (`context.derived`), which is built once per fine-tuning.

    # Parameters

    limit : `int`
        Pairs per unit (at most); 0 makes none.
    """

    per: ClassVar[str] = "predicate"
    # What the limit is called in a generator's config, for error messages.
    limit_name: ClassVar[str] = "pairs_per_predicate"

    def __init__(self, limit: int) -> None:
        if limit < 0:
            raise ConfigurationError(f"{type(self).__name__}: {self.limit_name} must be at least 0, got {limit}")
        self.limit = limit

    def pairs(
        self,
        context: RecombinationContext,
        support: Support,
        unit: Union[str, Example],
        earlier: Sequence[SyntheticPair],
    ) -> Iterable[SyntheticPair]:
        """
        Candidate pairs for `unit` (a new predicate, or a support example when `per` is "example"),
        best first, duplicates allowed; `earlier` holds the pairs of the passes before this one.
        """
        raise NotImplementedError
