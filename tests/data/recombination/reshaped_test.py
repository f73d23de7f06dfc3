"""Reshaped recombination: new predicates in argument shapes their support set does not show."""
import re

import pytest
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.data import DatasetReader

import fewshot_parser  # noqa: F401
from fewshot_parser.commands.augment_data import is_augmented_reader
from fewshot_parser.data.recombination import RecombinationContext, ReshapedPairs
from fewshot_parser.data.recombination.trees import argument_shape, atom_calls
from fewshot_parser.logical_forms.tree import parse
from tests import PROJECT_ROOT
from tests.data.recombination.fixtures import SUPPORT, TRAINING, examples, forward_reverse, synthesize, untyped, write

def test_argument_shapes_tell_variables_entities_and_constants_apart():
    calls = {c.label: c for c in atom_calls(parse("( and ( loc:t $0 s0 ) ( next_to:t usa:co c12 ) )", "lambda"), "lambda")}
    assert argument_shape(calls["loc:t"], 2, "lambda") == ("v", "e:s")
    assert argument_shape(calls["next_to:t"], 2, "lambda") == ("usa:co", "e:c")


def test_reshaped_pairs_show_the_new_predicate_in_the_shapes_its_support_lacks():
    training, support = examples(TRAINING), examples(SUPPORT, source="support.txt")
    pairs = synthesize(training, support, ReshapedPairs(pairs_per_predicate=10))
    reshaped = [pair for pair in pairs if pair.direction == "reshaped"]
    assert reshaped
    shapes = set()
    for pair in reshaped:
        calls = [c for c in atom_calls(parse(pair.logical_form, "lambda"), "lambda") if c.label == "area:i"]
        assert len(calls) == 1 and pair.predicate == "area:i" and pair.replaced in ("population:i", "len:i")
        shapes.add(argument_shape(calls[0], 1, "lambda"))
        assert "area" in pair.utterance  # the support's word for the new predicate ...
        assert "smallest" not in pair.utterance  # ... without the word of its support operator (argmin)
    # Every shape the training set gives a `:i` predicate of arity 1, none the support already shows.
    assert shapes == {("e:s",), ("e:c",), ("e:r",)}
    assert ["what", "is", "the", "area", "s0"] in [pair.utterance for pair in reshaped]
    # The forward and reverse pairs are the plain recombination's, first and unchanged.
    plain = synthesize(training, support)
    assert pairs[: len(plain)] == plain and len(pairs) == len(plain) + len(reshaped)


def test_the_limit_takes_turns_over_shapes_and_zero_is_the_plain_recombination():
    training, support = examples(TRAINING), examples(SUPPORT, source="support.txt")
    two = [p for p in synthesize(training, support, ReshapedPairs(pairs_per_predicate=2)) if p.direction == "reshaped"]
    assert len(two) == 2 and len({p.logical_form.split()[2][:-1] for p in two}) == 2
    assert synthesize(training, support, ReshapedPairs(pairs_per_predicate=0)) == synthesize(training, support)
    with pytest.raises(ConfigurationError, match="pairs_per_predicate must be at least 0"):
        ReshapedPairs(pairs_per_predicate=-1)


def test_predicates_without_a_type_suffix_get_no_reshaped_pairs():
    training, support = examples(untyped(TRAINING)), examples(untyped(SUPPORT), source="support.txt")
    assert RecombinationContext(training, "lambda").new_predicates(support) == ["area"]
    assert not [p for p in synthesize(training, support, ReshapedPairs(pairs_per_predicate=10)) if p.direction == "reshaped"]



def test_the_reader_feeds_reshaped_pairs_to_fine_tuning(tmp_path):
    train, support = write(tmp_path / "train.txt", TRAINING), write(tmp_path / "support.txt", SUPPORT)

    def reader(reshaped: int) -> DatasetReader:
        return DatasetReader.from_params(Params({
            "type": "fewshot_augmented",
            "reader": {"type": "fewshot_geoquery", "idiom_source": train, "min_support": 2},
            "support_data_path": support, "training_data_path": train,
            "generators": [forward_reverse(), [{"type": "reshaped", "pairs_per_predicate": reshaped}]]}))

    pairs = reader(3).synthetic_pairs()
    assert sum(p.direction == "reshaped" for p in pairs) == 3
    origins = [i["metadata"].metadata["location"] for i in reader(3).read(support)]
    assert sum(o.startswith("synthetic reshaped area:i") for o in origins) == 3
    with pytest.raises(ConfigurationError, match="pairs_per_predicate must be at least 0"):
        reader(-1)
    assert is_augmented_reader("fewshot_augmented")
    assert not is_augmented_reader("fewshot_geoquery") and not is_augmented_reader("no_such_reader")


# `len:i` new, shown as the key of a maximum and on a river: reshaped pairs from `( population:i s0 )`
# either keep the state (`( len:i s0 )`) or, with `support_kinds`, take the support's river.
KINDS_TRAINING = [row for row in TRAINING if "len:i" not in row[1]]
KINDS_SUPPORT = [
    ("what is the length of the longest river", "( argmax $0 ( river:t $0 ) ( len:i $0 ) )"),
    ("how long is r0", "( len:i r0 )"),
]


def reshaped_lfs(support_rows, **kwargs):
    training, support = examples(KINDS_TRAINING), examples(support_rows, source="support.txt")
    pairs = synthesize(training, support, ReshapedPairs(pairs_per_predicate=10, **kwargs))
    return [(" ".join(p.utterance), p.logical_form) for p in pairs if p.direction == "reshaped"]


def test_support_kinds_give_the_new_predicate_the_entity_kind_its_support_shows():
    plain = reshaped_lfs(KINDS_SUPPORT)
    assert ("what is the length of s0", "( len:i s0 )") in plain and ("what is the length of c0", "( len:i c0 )") in plain
    # With the support's river every value becomes r0, and `( len:i r0 )` is a shape the support
    # already shows (as the maximum's key is): nothing is left to reshape.
    assert reshaped_lfs(KINDS_SUPPORT, support_kinds=True) == []
    # A support that shows the predicate only with a variable has no kind to give: the same pairs.
    variable_only = KINDS_SUPPORT[:1]
    assert reshaped_lfs(variable_only, support_kinds=True) == reshaped_lfs(variable_only)


def test_support_kinds_keep_a_unary_and_a_binary_predicate_of_one_name_apart():
    # `capital:t` as a relation with a city second and as a unary predicate of a city: the unary
    # call's first-argument value says nothing of the relation's first argument.
    support_rows = [
        ("what state is c0 the capital of", "( lambda $0 e ( and ( state:t $0 ) ( capital:t $0 c0 ) ) )"),
        ("is c0 a capital", "( capital:t c0 )"),
    ]
    training = [row for row in TRAINING if "loc:t" not in row[1]] + [
        ("which state is c0 located in", "( lambda $0 e ( and ( state:t $0 ) ( loc:t c0 $0 ) ) )"),
        ("what river is located in s0", "( lambda $0 e ( and ( river:t $0 ) ( loc:t $0 s0 ) ) )"),
        ("what city is located in s0", "( lambda $0 e ( and ( city:t $0 ) ( loc:t $0 s0 ) ) )"),
        ("is s0 a state", "( state:t s0 )"),
        ("name the cities", "( lambda $0 e ( city:t $0 ) )"),
        ("name the major cities", "( lambda $0 e ( and ( major:t $0 ) ( city:t $0 ) ) )"),
        ("name the major rivers", "( lambda $0 e ( and ( major:t $0 ) ( river:t $0 ) ) )"),
        ("which states are big", "( lambda $0 e ( and ( state:t $0 ) ( major:t $0 ) ) )"),
    ]

    def lfs(**kwargs):
        pairs = synthesize(examples(training), examples(support_rows, source="support.txt"),
                           ReshapedPairs(pairs_per_predicate=10, **kwargs))
        return [p.logical_form for p in pairs if p.direction == "reshaped"]
    plain, kinds = lfs(), lfs(support_kinds=True)
    reversed_relation = "( lambda $0 e ( and ( state:t $0 ) ( capital:t c0 $0 ) ) )"
    assert reversed_relation in plain and reversed_relation not in kinds
    # `max_arity: 1` reshapes the unary `capital:t` only; the relation gets no pair.
    unary_only = lfs(max_arity=1)
    assert unary_only and all("capital:t" in lf for lf in unary_only)
    assert not [lf for lf in unary_only if re.search(r"\( capital:t [^()\s]+ [^()\s]+ \)", lf)]
    assert [lf for lf in plain if re.search(r"\( capital:t [^()\s]+ [^()\s]+ \)", lf)]
    with pytest.raises(ConfigurationError, match="max_arity must be at least 1"):
        ReshapedPairs(max_arity=0)
