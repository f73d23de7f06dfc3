"""Superlative words for reshaped pairs: "the longest" where the support asks "how long"."""
import pytest

import fewshot_parser  # noqa: F401
from fewshot_parser.data.recombination import ReshapedPairs, SuperlativePairs
from fewshot_parser.data.recombination.superlatives import is_maximum, positive_form, superlative_form
from tests.data.recombination import fixtures

# The recombination fixtures without `len:i`, which the support set teaches with a "how" question, and
# with "largest" said often enough to express `argmax`.
TRAINING = [row for row in fixtures.TRAINING if "len:i" not in row[1]] + [
    ("what is the largest city", "( argmax $0 ( city:t $0 ) ( population:i $0 ) )"),
    ("name the largest state", "( argmax $0 ( state:t $0 ) ( population:i $0 ) )"),
]
SUPPORT = [("how long is r0", "( len:i r0 )")]


@pytest.mark.parametrize("adjective, superlative", [
    ("long", "longest"), ("high", "highest"), ("large", "largest"), ("big", "biggest"), ("hot", "hottest"),
    ("early", "earliest"), ("wide", "widest"), ("deep", "deepest"), ("tall", "tallest"), ("short", "shortest"),
    ("low", "lowest"), ("dense", "densest"), ("good", "best"), ("far", "farthest"),
    ("s0", None), ("Long", None), ("a", None),
])
def test_superlative_form_follows_english_spelling(adjective, superlative):
    assert superlative_form(adjective) == superlative


@pytest.mark.parametrize("adjective", ["long", "high", "large", "big", "hot", "early", "wide", "deep", "dense"])
def test_positive_form_undoes_superlative_form(adjective):
    assert positive_form(superlative_form(adjective)) == adjective


def test_maximum_operators_are_told_by_name():
    assert is_maximum("argmax") and is_maximum("max") and not is_maximum("argmin") and not is_maximum("count")


def pairs(generator_class, support=SUPPORT):
    training, support = fixtures.examples(TRAINING), fixtures.examples(support, source="support.txt")
    return fixtures.synthesize(training, support, generator_class(pairs_per_predicate=10))


def test_a_maximum_is_said_with_the_superlative_of_the_support_adjective():
    mine, plain = pairs(SuperlativePairs), pairs(ReshapedPairs)
    spoken = {(" ".join(p.utterance), p.logical_form) for p in mine if p.direction == "reshaped"}
    assert ("which state has the longest", "( argmax $0 ( state:t $0 ) ( len:i $0 ) )") in spoken
    # The plain reshaped pair keeps the training superlative beside the support words.
    assert not [p for p in plain if "longest" in p.utterance]
    # Only pairs under a maximum change; their LFs, order and number stay those of the reshaped pairs.
    assert [p.logical_form for p in mine] == [p.logical_form for p in plain]
    changed = [(a, b) for a, b in zip(mine, plain) if a != b]
    assert changed
    for a, b in changed:
        assert "argmax" in a.logical_form and "longest" in a.utterance and "how" not in a.utterance
        assert "largest" in b.utterance and "long" in b.utterance


def test_a_support_without_a_measure_adjective_gives_the_reshaped_pairs():
    counted = [("how many people is r0", "( len:i r0 )")]
    named = [("what is the len of r0", "( len:i r0 )")]
    assert pairs(SuperlativePairs, counted) == pairs(ReshapedPairs, counted)
    assert pairs(SuperlativePairs, named) == pairs(ReshapedPairs, named)
