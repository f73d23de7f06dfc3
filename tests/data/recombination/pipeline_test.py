"""The one place that dedups, limits and interleaves synthetic pairs, and runs the passes of generators."""
from typing import Iterable, List, Sequence, Union

import pytest
from allennlp.common.checks import ConfigurationError

from fewshot_parser.data.examples import Example
from fewshot_parser.data.recombination import PairGenerator, RecombinationContext, Support, SyntheticPair, recombine
from fewshot_parser.data.recombination.pipeline import Candidate, in_turns, round_robin, take
from fewshot_parser.logical_forms.tree import parse
from tests.data.recombination import fixtures


def pair(utterance: str, lf: str = "( a:t $0 )", predicate: str = "p", direction: str = "test") -> SyntheticPair:
    return SyntheticPair(utterance.split(), lf, predicate, direction, "f:1", "q", 1.0)


def test_round_robin_takes_one_of_each_group_in_turn():
    assert list(round_robin([[1, 2, 3], [4], [], [5, 6]])) == [1, 4, 5, 2, 6, 3]
    assert list(round_robin([])) == []


def test_take_drops_what_was_seen_stops_at_the_limit_and_reads_no_further():
    read: List[str] = []

    def stream() -> Iterable[SyntheticPair]:
        for utterance in ("a", "b", "a", "c", "d", "e"):
            read.append(utterance)
            yield pair(utterance)

    seen = {(("b",), "( a:t $0 )")}
    chosen = take(stream(), 2, seen)
    assert [p.utterance for p in chosen] == [["a"], ["c"]]  # "b" was seen, the second "a" is a duplicate
    assert read == ["a", "b", "a", "c"] and (("c",), "( a:t $0 )") in seen
    assert take(stream(), 0, seen) == [] and len(read) == 4  # limit 0: not read at all
    assert [p.utterance for p in take(stream(), 10, seen)] == [["d"], ["e"]]


def test_in_turns_orders_best_first_and_takes_turns_over_groups():
    example = Example("train.txt", 3, ["x"], "( a:t $0 )", parse("( a:t $0 )", "lambda"))
    earlier = example._replace(line_number=1)
    tree = parse("( b:t $0 )", "lambda")
    candidates = [
        Candidate(0.5, "g1", example, ["one"], tree, "q1"),
        Candidate(0.9, "g2", example, ["two"], tree, "q2"),
        Candidate(0.9, "g1", example, ["three"], tree, "q1"),
        Candidate(0.9, "g1", earlier, ["four"], tree, "q1"),  # same confidence, earlier line: first
        Candidate(0.2, "g3", example, ["five"], tree, "q3"),
    ]
    pairs = list(in_turns(candidates, "b:t", "forward", "lambda"))
    # g1 and g2 tie on their best (0.9): the group name decides; g3's best is lowest.
    assert [p.utterance[0] for p in pairs] == ["four", "two", "five", "three", "one"]
    assert pairs[0] == SyntheticPair(["four"], "( b:t $0 )", "b:t", "forward", "train.txt:1", "q1", 0.9)


class Named(PairGenerator):
    """Yields `name unit k` for k = 0, 1, ... (a few), and records what it was asked."""

    def __init__(self, name: str, limit: int = 2, per: str = "predicate", asked: list = None) -> None:
        super().__init__(limit)
        self.name, self.per, self.asked = name, per, asked if asked is not None else []

    def pairs(self, context: RecombinationContext, support: Support, unit: Union[str, Example],
              earlier: Sequence[SyntheticPair]) -> Iterable[SyntheticPair]:
        label = unit if isinstance(unit, str) else str(unit.line_number)
        self.asked.append((self.name, label, len(earlier)))
        for k in range(3):
            yield pair(f"{self.name} {label} {k}", predicate=label)


def test_recombine_runs_passes_in_order_and_the_generators_of_a_pass_in_turn():
    training = fixtures.examples(fixtures.TRAINING)
    support = fixtures.examples(fixtures.SUPPORT + [("how dense is s0", "( density:i s0 )")], source="support.txt")
    context = RecombinationContext(training, "lambda")
    asked: list = []
    passes = [[Named("a", asked=asked), Named("b", limit=1, asked=asked)], [Named("c", limit=0, asked=asked)],
              [Named("d", limit=1, per="example", asked=asked)]]
    pairs = recombine(context, support, passes)
    assert [" ".join(p.utterance) for p in pairs] == [
        "a area:i 0", "a area:i 1", "b area:i 0", "a density:i 0", "a density:i 1", "b density:i 0",
        "d 1 0", "d 2 0"]
    # "c" has limit 0 and is never asked; the per-example pass sees the 6 pairs made before it.
    assert [name for name, _, _ in asked] == ["a", "b", "a", "b", "d", "d"] and asked[-1][2] == 6


def test_a_pair_already_in_the_data_or_made_before_is_not_made_again():
    training = fixtures.examples(fixtures.TRAINING)
    support = fixtures.examples(fixtures.SUPPORT, source="support.txt")
    context = RecombinationContext(training, "lambda")

    class Copies(PairGenerator):
        def pairs(self, context, support, unit, earlier):
            yield SyntheticPair(training[0].utterance, training[0].logical_form, unit, "copy", "", "", 1.0)
            yield pair("fresh")

    pairs = recombine(context, support, [[Copies(5)], [Copies(5)]])
    assert [p.utterance for p in pairs] == [["fresh"]]


def test_a_generator_refuses_a_negative_limit():
    with pytest.raises(ConfigurationError, match="pairs_per_predicate must be at least 0"):
        Named("x", limit=-1)
