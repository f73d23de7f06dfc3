"""Modifier pairs: a new modifier inserted beside the type it modifies, in the training templates."""
import pytest
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError

import fewshot_parser  # noqa: F401
from fewshot_parser.data.recombination import ModifierPairs, PairGenerator, RecombinationContext, recombine
from tests.data.recombination import fixtures

TRAINING = [
    ("what are the city in s0", "( lambda $0 e ( and ( city:t $0 ) ( loc:t $0 s0 ) ) )"),
    ("name the city in s0", "( lambda $0 e ( and ( city:t $0 ) ( loc:t $0 s0 ) ) )"),
    ("which city in s0 has the largest population", "( argmax $0 ( and ( city:t $0 ) ( loc:t $0 s0 ) ) ( population:i $0 ) )"),
    ("how many river are in s0", "( count $0 ( and ( river:t $0 ) ( loc:t $0 s0 ) ) )"),
    ("how many river are there", "( count $0 ( river:t $0 ) )"),
    ("what river run through s0", "( lambda $0 e ( and ( river:t $0 ) ( loc:t $0 s0 ) ) )"),
    ("how long is r0", "( len:i r0 )"),
    ("what is the longest river", "( argmax $0 ( river:t $0 ) ( len:i $0 ) )"),
]
SUPPORT = [("how many big city are in s0", "( count $0 ( and ( major:t $0 ) ( city:t $0 ) ( loc:t $0 s0 ) ) )")]


def modifier_pairs(support, same_type: bool = True, limit: int = 20, name_words: bool = False):
    training = fixtures.examples(TRAINING)
    context = RecombinationContext(training, "lambda")
    generator = ModifierPairs(limit, same_type, name_words)
    pairs = recombine(context, fixtures.examples(support, source="support.txt"), [[generator]])
    return [(" ".join(pair.utterance), pair.logical_form) for pair in pairs if pair.direction == "modifier"]


def test_the_modifier_goes_beside_its_type_in_the_templates_of_other_operators():
    pairs = modifier_pairs(SUPPORT)
    assert ("what are the big city in s0", "( lambda $0 e ( and ( major:t $0 ) ( city:t $0 ) ( loc:t $0 s0 ) ) )") in pairs
    assert ("which big city in s0 has the largest population",
            "( argmax $0 ( and ( major:t $0 ) ( city:t $0 ) ( loc:t $0 s0 ) ) ( population:i $0 ) )") in pairs
    # Only beside the type the support shows it modifying, and never the support pair itself.
    assert all("river" not in utterance for utterance, _ in pairs)
    assert all(utterance != SUPPORT[0][0] for utterance, _ in pairs)
    # The operators take turns: the first pairs come from different templates.
    assert {lf.split()[1] for _, lf in pairs[:2]} == {"lambda", "argmax"}


def test_the_pairs_take_turns_between_the_support_word_and_the_predicates_name():
    pairs = modifier_pairs(SUPPORT, name_words=True)
    lambda_lf = "( lambda $0 e ( and ( major:t $0 ) ( city:t $0 ) ( loc:t $0 s0 ) ) )"
    assert ("what are the big city in s0", lambda_lf) in pairs and ("what are the major city in s0", lambda_lf) in pairs
    # The first two pairs: one template in both wordings.
    assert sorted(("big" in u.split(), "major" in u.split()) for u, _ in pairs[:2]) == [(False, True), (True, False)]
    # A support that already says the name has one wording.
    named = [("how many major city are in s0", SUPPORT[0][1])]
    assert modifier_pairs(named, name_words=True) == modifier_pairs(named)


def test_any_condition_of_the_type_suffix_takes_it_without_same_type():
    pairs = modifier_pairs(SUPPORT, same_type=False)
    assert ("how many big river are in s0", "( count $0 ( and ( major:t $0 ) ( river:t $0 ) ( loc:t $0 s0 ) ) )") in pairs
    # A type outside a conjunction is left alone: nothing says how this formalism would join them.
    assert all(lf != "( count $0 ( river:t $0 ) )" and "are there" not in u for u, lf in pairs)
    assert len(modifier_pairs(SUPPORT, same_type=False, limit=1)) == 1
    # The types and operators take turns, smallest template first.
    firsts = modifier_pairs(SUPPORT, same_type=False)[:3]
    assert {lf.split()[1] for _, lf in firsts} == {"lambda", "count"} and {"city", "river"} <= {w for u, _ in firsts for w in u.split()}
    assert not ModifierPairs().same_type and ModifierPairs().name_words


def test_the_support_lf_order_and_word_side_are_kept():
    support = [("how many city big are in s0", "( count $0 ( and ( city:t $0 ) ( major:t $0 ) ( loc:t $0 s0 ) ) )")]
    assert ("what are the city big in s0", "( lambda $0 e ( and ( city:t $0 ) ( major:t $0 ) ( loc:t $0 s0 ) ) )") in \
        modifier_pairs(support)


def test_predicates_that_are_no_modifier_get_none():
    measure = [("what is the area of s0", "( area:i s0 )")]
    only_type = [("how many lake are in s0", "( count $0 ( and ( lake:t $0 ) ( loc:t $0 s0 ) ) )")]
    relation = [("what city border s0", "( lambda $0 e ( and ( city:t $0 ) ( next_to:t $0 s0 ) ) )")]
    for support in (measure, only_type, relation):
        assert modifier_pairs(support) == []


def test_it_is_a_registered_generator_with_a_checked_limit():
    generator = PairGenerator.from_params(Params({"type": "modifiers", "pairs_per_predicate": 5, "same_type": False}))
    assert isinstance(generator, ModifierPairs) and generator.limit == 5 and not generator.same_type
    with pytest.raises(ConfigurationError, match="pairs_per_predicate must be at least 0"):
        ModifierPairs(pairs_per_predicate=-1)


# Jobs-like training: `job ( ANS )` in every LF (the domain), `senior ( ANS )` in some (a type-like condition).
PROLOG_TRAINING = [
    ("what job use languageid0", "job ( ANS ) , language ( ANS , languageid0 )"),
    ("show me job in locid0", "job ( ANS ) , loc ( ANS , locid0 )"),
    ("what senior job are in locid0", "job ( ANS ) , senior ( ANS ) , loc ( ANS , locid0 )"),
    ("list senior job that use languageid0", "job ( ANS ) , senior ( ANS ) , language ( ANS , languageid0 )"),
]


def prolog_modifier_pairs(support):
    context = RecombinationContext(fixtures.examples(PROLOG_TRAINING, "prolog"), "prolog")
    pairs = recombine(context, fixtures.examples(support, "prolog", source="support.txt"), [[ModifierPairs()]])
    return [(" ".join(pair.utterance), pair.logical_form) for pair in pairs if pair.direction == "modifier"]


def test_a_condition_every_training_lf_calls_is_no_type():
    from fewshot_parser.data.recombination.modifiers import domain_conditions

    context = RecombinationContext(fixtures.examples(PROLOG_TRAINING, "prolog"), "prolog")
    assert "job" in domain_conditions(context) and "senior" not in domain_conditions(context)
    assert domain_conditions(RecombinationContext(fixtures.examples(TRAINING), "lambda")) == frozenset()
    # Beside the domain only: no pair; beside a condition that sets some questions apart: pairs, never beside `job`.
    assert prolog_modifier_pairs([("what remote job use languageid0", "job ( ANS ) , remote ( ANS ) , language ( ANS , languageid0 )")]) == []
    pairs = prolog_modifier_pairs(
        [("what remote senior job use languageid0", "job ( ANS ) , remote ( ANS ) , senior ( ANS ) , language ( ANS , languageid0 )")]
    )
    assert pairs and all("remote ( ANS ) , senior ( ANS )" in lf for _, lf in pairs)
    assert ("what remote senior job are in locid0", "job ( ANS ) , remote ( ANS ) , senior ( ANS ) , loc ( ANS , locid0 )") in pairs


# `city:t` new: the known `major:t` only ever comes beside another condition (no type), `river:t` also alone.
NO_CITY = [
    ("what are the major river in s0", "( lambda $0 e ( and ( major:t $0 ) ( river:t $0 ) ( loc:t $0 s0 ) ) )"),
    ("how many river are in s0", "( count $0 ( and ( river:t $0 ) ( loc:t $0 s0 ) ) )"),
    ("name the lake in s0", "( lambda $0 e ( and ( lake:t $0 ) ( loc:t $0 s0 ) ) )"),
    ("how long is r0", "( len:i r0 )"),
]


def test_with_types_asked_alone_a_new_type_beside_a_known_modifier_is_no_modifier():
    from fewshot_parser.data.recombination.modifiers import asked_alone

    def pairs(training, support, alone):
        context = RecombinationContext(fixtures.examples(training), "lambda")
        made = recombine(context, fixtures.examples(support, source="support.txt"), [[ModifierPairs(types_asked_alone=alone)]])
        return [(" ".join(p.utterance), p.logical_form) for p in made if p.direction == "modifier"]

    context = RecombinationContext(fixtures.examples(NO_CITY), "lambda")
    assert asked_alone(context) == {"river:t", "lake:t"}
    new_type = [("how many major city are in s0", "( count $0 ( and ( major:t $0 ) ( city:t $0 ) ( loc:t $0 s0 ) ) )")]
    # By default `city:t` goes beside rivers and lakes as if it modified them; asked alone, never.
    assert ("how many river city are in s0", "( count $0 ( and ( river:t $0 ) ( city:t $0 ) ( loc:t $0 s0 ) ) )") in \
        pairs(NO_CITY, new_type, False)
    assert pairs(NO_CITY, new_type, True) == []
    # A new modifier of a type asked alone keeps its pairs.
    assert pairs(TRAINING, SUPPORT, True) == pairs(TRAINING, SUPPORT, False) != []
    assert not ModifierPairs().types_asked_alone
