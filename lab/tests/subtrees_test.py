"""Subtree recombination: a support LF that denotes an entity, placed whole where a template has an entity."""
import pytest
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.data import DatasetReader

import fewshot_parser  # noqa: F401
from fewshot_lab.data import SubtreePairs
from fewshot_parser.data.recombination import ReshapedPairs
from fewshot_parser.data.recombination.trees import renumbered, subject_types, variable_count
from fewshot_parser.logical_forms.tree import parse
from tests import PROJECT_ROOT
import adjectives_test
import reshaping_test
from tests.data.recombination import fixtures

TRAINING = adjectives_test.TRAINING + [
    ("where is m0", "( lambda $0 e ( loc:t m0 $0 ) )"),
    ("where is the longest river", "( lambda $0 e ( loc:t ( argmax $1 ( river:t $1 ) ( len:i $1 ) ) $0 ) )"),
    ("how long is the longest river in s0", "( len:i ( argmax $0 ( and ( river:t $0 ) ( loc:t $0 s0 ) ) ( len:i $0 ) ) )"),
]
SUPPORT = [("what is the highest point in s0", "( argmax $0 ( and ( place:t $0 ) ( loc:t $0 s0 ) ) ( elevation:i $0 ) )")]
WHERE = ("where is the highest point in s0",
         "( lambda $0 e ( loc:t ( argmax $1 ( and ( place:t $1 ) ( loc:t $1 s0 ) ) ( elevation:i $1 ) ) $0 ) )")


def test_tree_helpers():
    tree = parse("( argmax $0 ( and ( river:t $0 ) ( loc:t $0 s0 ) ( major:t $1 ) ) ( len:i $0 ) )", "lambda")
    assert variable_count(tree) == 2 and variable_count(parse("( len:i r0 )", "lambda")) == 0
    assert renumbered(tree, 2) == parse("( argmax $2 ( and ( river:t $2 ) ( loc:t $2 s0 ) ( major:t $3 ) ) ( len:i $2 ) )", "lambda")
    assert subject_types(tree) == {"river:t"}


def synthesize(support=SUPPORT, training=TRAINING, subtree_pairs_per_example=10):
    """The old `SubtreeRecombiner`: forward, reverse and 10 reshaped pairs, then subtree pairs."""
    return fixtures.synthesize(fixtures.examples(training), fixtures.examples(support, source="support.txt"),
                               ReshapedPairs(), SubtreePairs(pairs_per_example=subtree_pairs_per_example))


def test_the_support_lf_goes_where_templates_have_an_entity():
    pairs = synthesize()
    subtree = [p for p in pairs if p.direction == "subtree"]
    assert WHERE in [(" ".join(p.utterance), p.logical_form) for p in subtree]
    support_tree = parse(SUPPORT[0][1], "lambda")
    for pair in subtree:
        tree = parse(pair.logical_form, "lambda")
        assert pair.predicate == "elevation:i" and "the highest point in s0" in " ".join(pair.utterance)
        assert any(renumbered(support_tree, k) in list(tree.calls()) for k in range(3))
        # Templates that use an entity of the support LF (s0) are left out: ids would clash.
        assert pair.logical_form.count("s0") == 1
    # The other pairs come first, unchanged; 0 makes none; the limit holds.
    plain = fixtures.synthesize(fixtures.examples(TRAINING), fixtures.examples(SUPPORT, source="s"), ReshapedPairs())
    assert pairs[: len(plain)] == plain and len(pairs) == len(plain) + len(subtree)
    assert synthesize(subtree_pairs_per_example=0) == plain
    assert sum(p.direction == "subtree" for p in synthesize(subtree_pairs_per_example=1)) == 1
    with pytest.raises(ConfigurationError, match="pairs_per_example must be at least 0"):
        synthesize(subtree_pairs_per_example=-1)


def test_no_pair_when_the_opening_speaks_the_lf_or_the_type_does_not_fit():
    # "state" names `state:t`, a predicate of the LF: the words before "smallest" are not a question opening.
    named = [("which state has the smallest area", "( argmin $0 ( state:t $0 ) ( area:i $0 ) )")]
    assert not [p for p in synthesize(named) if p.direction == "subtree"]
    # A known type that no template position takes (`city:t`: the training set puts only rivers there).
    city = [("what is the highest city", "( argmax $0 ( city:t $0 ) ( elevation:i $0 ) )")]
    assert not [p for p in synthesize(city) if p.direction == "subtree"]
    # Without type suffixes nothing says what the support LF denotes.
    untyped = synthesize(fixtures.untyped(SUPPORT), fixtures.untyped(TRAINING))
    assert untyped and not [p for p in untyped if p.direction == "subtree"]


def test_prolog_gets_no_subtree_pairs():
    training = fixtures.examples([("what jobs use c0", "answer(A,(job(A),language(A,c0)))")], formalism="prolog")
    support = fixtures.examples([("what jobs pay s0", "answer(A,(job(A),salary_greater_than(A,s0)))")],
                                formalism="prolog", source="support.txt")
    pairs = fixtures.synthesize(training, support, ReshapedPairs(), SubtreePairs(), formalism="prolog")
    assert not [p for p in pairs if p.direction == "subtree"]


def test_the_reader_and_the_jsonnet_switch(tmp_path, monkeypatch):
    train = fixtures.write(tmp_path / "train.txt", TRAINING)
    support = fixtures.write(tmp_path / "support.txt", SUPPORT)

    def reader(subtrees: int = 10) -> DatasetReader:
        return DatasetReader.from_params(Params({
            "type": "fewshot_augmented",
            "reader": {"type": "fewshot_geoquery", "idiom_source": train, "min_support": 2},
            "support_data_path": support, "training_data_path": train,
            "generators": [fixtures.forward_reverse(), [{"type": "reshaped", "pairs_per_predicate": 10}],
                           [{"type": "subtrees", "pairs_per_example": subtrees}]]}))

    assert WHERE[0].split() in [p.utterance for p in reader().synthetic_pairs()]
    assert not [p for p in reader(0).synthetic_pairs() if p.direction == "subtree"]
    with pytest.raises(ConfigurationError, match="pairs_per_example must be at least 0"):
        reader(-1)

    monkeypatch.chdir(PROJECT_ROOT)
    new_subtrees = reshaping_test.rendered_reader("adjectives-subtrees-ens5", "geo", 1)
    new_reshaped = reshaping_test.rendered_reader("reshaped40-ens5", "geo", 1)
    assert new_subtrees["generators"][1:] == [[{"type": "adjectives", "pairs_per_predicate": 40}],
                                              [{"type": "subtrees", "pairs_per_example": 10}]]
    assert new_subtrees.pop("generators")[1:2] == [[{"type": "adjectives", "pairs_per_predicate": 40}]]
    assert new_reshaped.pop("generators")[1:] == [[{"type": "reshaped", "pairs_per_predicate": 40}]]
    assert new_subtrees == new_reshaped


FUNCTION_TRAINING = [
    ("how many people live in c0", "( population:i c0 )"),
    ("where is c0", "( lambda $0 e ( loc:t c0 $0 ) )"),
    ("how many people live in s0", "( population:i s0 )"),
    ("what rivers are in s0", "( lambda $0 e ( and ( river:t $0 ) ( loc:t $0 s0 ) ) )"),
    ("what is the population of the largest city", "( population:i ( argmax $0 ( city:t $0 ) ( size:i $0 ) ) )"),
]


def test_a_new_function_goes_where_the_training_set_puts_entities_of_its_kind():
    support = [("what is the capital of s1", "( capital:c s1 )")]
    pairs = fixtures.synthesize(fixtures.examples(FUNCTION_TRAINING), fixtures.examples(support, source="support.txt"),
                                SubtreePairs())
    subtree = {(" ".join(p.utterance), p.logical_form) for p in pairs if p.direction == "subtree"}
    # `c` atoms go in `population:i`'s argument and `loc:t`'s first: the capital goes there, not where
    # only states go (the river template), and the templates that use its entity are left out.
    assert ("how many people live in the capital of s1", "( population:i ( capital:c s1 ) )") in subtree
    assert ("where is the capital of s1", "( lambda $0 e ( loc:t ( capital:c s1 ) $0 ) )") in subtree
    assert not [lf for _, lf in subtree if "river:t" in lf]
    assert all(p.predicate == "capital:c" for p in pairs if p.direction == "subtree")


def test_no_function_pairs_without_an_entity_kind_or_an_opening():
    # `:i` names no kind of entity atom: a new measure is not placed as an entity.
    measure = [("how big is s1", "( area:i s1 )")]
    pairs = fixtures.synthesize(fixtures.examples(FUNCTION_TRAINING), fixtures.examples(measure, source="s"),
                                SubtreePairs())
    assert not [p for p in pairs if p.direction == "subtree"]
    # The entity spoken before the function's words: no noun phrase speaks the whole LF.
    before = [("s1 has which capital", "( capital:c s1 )")]
    pairs = fixtures.synthesize(fixtures.examples(FUNCTION_TRAINING), fixtures.examples(before, source="s"),
                                SubtreePairs())
    assert not [p for p in pairs if p.direction == "subtree"]


ARGUMENT_TRAINING = FUNCTION_TRAINING + [
    ("what state border s0", "( lambda $0 e ( and ( state:t $0 ) ( next_to:t $0 s0 ) ) )"),
    ("what river run through s0", "( lambda $0 e ( and ( river:t $0 ) ( loc:t $0 s0 ) ) )"),
    ("what state border the state with the most city",
     "( lambda $0 e ( and ( state:t $0 ) ( next_to:t $0 ( argmax $1 ( state:t $1 ) ( count $2 ( and ( city:t $2 ) ( loc:t $2 $1 ) ) ) ) ) ) )"),
    ("what state ha the most city", "( argmax $0 ( state:t $0 ) ( count $1 ( and ( city:t $1 ) ( loc:t $1 $0 ) ) ) )"),
    ("what is the state with the largest area", "( argmax $0 ( state:t $0 ) ( area:i $0 ) )"),
    ("how many state border s0", "( count $0 ( and ( state:t $0 ) ( next_to:t $0 s0 ) ) )"),
]


def test_a_training_lf_that_denotes_a_state_goes_in_the_support_s_state_argument():
    from fewshot_lab.data import SubtreeArguments

    support = [("what is the capital of s1", "( capital:c s1 )")]
    pairs = fixtures.synthesize(fixtures.examples(ARGUMENT_TRAINING), fixtures.examples(support, source="support.txt"),
                                SubtreeArguments())
    made = {(" ".join(p.utterance), p.logical_form) for p in pairs if p.direction == "subtree"}
    # `next_to:t`'s second argument takes states and the state with the most cities: argmax over
    # `state:t` denotes a state. The question gives the noun phrase, as a relative clause or after "what is".
    assert made == {
        ("what is the capital of the state that ha the most city",
         "( capital:c ( argmax $0 ( state:t $0 ) ( count $1 ( and ( city:t $1 ) ( loc:t $1 $0 ) ) ) ) )"),
        ("what is the capital of the state with the largest area", "( capital:c ( argmax $0 ( state:t $0 ) ( area:i $0 ) ) )"),
    }  # `count` denotes a number: "how many state border s0" is never put there
    # Only an entity in an argument of a new predicate, spoken once, is replaced.
    known = [("what river run through s1", "( lambda $0 e ( and ( river:t $0 ) ( loc:t $0 s1 ) ) )")]
    assert not [p for p in fixtures.synthesize(fixtures.examples(ARGUMENT_TRAINING), fixtures.examples(known, source="s"),
                                               SubtreeArguments()) if p.direction == "subtree"]
    assert sum(p.direction == "subtree" for p in fixtures.synthesize(
        fixtures.examples(ARGUMENT_TRAINING), fixtures.examples(support, source="s"), SubtreeArguments(1))) == 1
