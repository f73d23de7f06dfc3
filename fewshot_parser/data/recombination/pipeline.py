"""
The one place that turns candidate pairs into synthetic data: it orders candidates best first taking
turns over their groups (`in_turns`, `round_robin`), drops the pairs an example or an earlier pair
already has and stops at each generator's limit (`take`), and runs the generators pass by pass
(`recombine`). Every choice is deterministic.
"""

import collections
from typing import Any, Dict, Iterable, Iterator, List, NamedTuple, Sequence, Set, Tuple, TypeVar

from fewshot_parser.data.examples import Example
from fewshot_parser.data.recombination.context import RecombinationContext
from fewshot_parser.data.recombination.generator import PairGenerator, SyntheticPair
from fewshot_parser.logical_forms.tree import Tree, to_string

T = TypeVar("T")
Key = Tuple[Tuple[str, ...], str]


class Candidate(NamedTuple):
    """A substitution pair before it is chosen."""

    confidence: float
    group: Any  # what the turns go over: the replaced predicate, the argument shape, the new parent
    example: Example  # the example it was made from
    utterance: List[str]
    tree: Tree
    replaced: str


def round_robin(groups: Iterable[Iterable[T]]) -> Iterator[T]:
    """The first item of each group in turn, then the second of each, and so on."""
    queues = [iter(group) for group in groups]
    while queues:
        remaining = []
        for queue in queues:
            for item in queue:
                remaining.append(queue)
                yield item
                break
        queues = remaining


def in_turns(
    candidates: Iterable[Candidate], predicate: str, direction: str, formalism: str
) -> Iterator[SyntheticPair]:
    """Candidates best first, taking turns over their groups (the group with the best candidate
    first), so that many templates, shapes or parents appear within a limit."""
    by_group: Dict[Any, List[Candidate]] = collections.defaultdict(list)
    for candidate in sorted(
        candidates, key=lambda c: (-c.confidence, c.example.source, c.example.line_number, c.replaced, c.group)
    ):
        by_group[candidate.group].append(candidate)
    order = sorted(by_group, key=lambda group: (-by_group[group][0].confidence, group))
    for candidate in round_robin(by_group[group] for group in order):
        yield SyntheticPair(
            candidate.utterance,
            to_string(candidate.tree, formalism),
            predicate,
            direction,
            f"{candidate.example.source}:{candidate.example.line_number}",
            candidate.replaced,
            round(candidate.confidence, 4),
        )


def key(utterance: Sequence[str], logical_form: str) -> Key:
    return tuple(utterance), logical_form


def take(pairs: Iterable[SyntheticPair], limit: int, seen: Set[Key]) -> List[SyntheticPair]:
    """At most `limit` of `pairs` that are not in `seen`, in order (each added to `seen`); reads
    `pairs` no further than that."""
    chosen: List[SyntheticPair] = []
    if limit <= 0:
        return chosen
    for pair in pairs:
        made = key(pair.utterance, pair.logical_form)
        if made in seen:
            continue
        seen.add(made)
        chosen.append(pair)
        if len(chosen) >= limit:
            break
    return chosen


def recombine(
    context: RecombinationContext, support: Sequence[Example], passes: Sequence[Sequence[PairGenerator]]
) -> List[SyntheticPair]:
    """
    The synthetic pairs of a support set. Passes run one after the other; in a pass, for each new
    predicate (or each support example, for generators `per` example) in turn, each generator gives
    at most its limit of pairs that neither the support set, the training set nor an earlier pair has.
    A generator with limit 0 is never asked.
    """
    found = context.support(support)
    seen = {key(e.utterance, e.logical_form) for e in [*found.examples, *context.training]}
    pairs: List[SyntheticPair] = []
    for generators in passes:
        earlier = list(pairs)
        per_example = bool(generators) and generators[0].per == "example"
        units: Sequence[Any] = found.examples if per_example else found.new_predicates
        for unit in units:
            for generator in generators:
                if generator.limit > 0:
                    pairs += take(generator.pairs(context, found, unit, earlier), generator.limit, seen)
    return pairs
