import pytest

from fewshot_parser.logical_forms.actions import STOP_ACTION, Action
from fewshot_parser.logical_forms.normalize import TemplateNormalizer
from fewshot_parser.logical_forms.template import Abstractor, SlotValue
from fewshot_parser.logical_forms.transition_system import (
    Step,
    TransitionError,
    TransitionSystem,
    execute,
    is_applicable,
    teacher_forcing,
)
from fewshot_parser.logical_forms.tree import parse, to_string

GROUND_FARE = (
    "( lambda $0 e ( exists $1 ( and ( ground_transport $1 ) ( to_city $1 ci0 ) "
    "( from_airport $1 ap0 ) ( = ( ground_fare $1 ) $0 ) ) ) )"
)
GROUND_FARE_UTTERANCE = "how much is ground transport from ap0 to ci0".split()


def test_base_action_sequence_of_the_papers_example():
    system = TransitionSystem("lambda")
    steps = system.oracle_for_string(GROUND_FARE, GROUND_FARE_UTTERANCE)
    assert [str(s.action) for s in steps] == [
        "GEN ( ground_transport <v> )",
        "GEN ( to_city <v> <e:ci> )",
        "GEN ( from_airport <v> <e:ap> )",
        "GEN ( ground_fare <v> )",
        "REDUCE ( = <NT> <v> )",
        "REDUCE ( and <NT> <NT> <NT> <NT> )",
        "REDUCE ( exists <v> <NT> )",
        "REDUCE ( lambda <v> e <NT> )",
        "STOP",
    ]
    assert steps[1].values == (SlotValue("variable", "$1"), SlotValue("entity", "ci0"))
    assert system.to_logical_form(steps) == GROUND_FARE


def test_normalization_collapses_a_complete_subtree_as_in_the_paper():
    abstractor = Abstractor("lambda")
    training = [
        ("( lambda $0 e ( exists $1 ( and ( ground_transport $1 ) ( = ( ground_fare $1 ) $0 ) ) ) )", "fare"),
        ("( lambda $0 e ( exists $1 ( and ( flight $1 ) ( = ( ground_fare $1 ) $0 ) ) ) )", "fare"),
        ("( lambda $0 e ( and ( flight $0 ) ( to $0 ci0 ) ) )", "ci0"),
    ]
    templates = [abstractor.abstract(parse(lf, "lambda"), u.split())[0] for lf, u in training]
    normalizer = TemplateNormalizer(min_support=2)
    idioms = normalizer.learn(templates)
    assert "( = ( ground_fare <v> ) <v> )" in {to_string(i, "lambda") for i in idioms}
    system = TransitionSystem("lambda", normalizer, abstractor)
    steps = system.oracle_for_string(GROUND_FARE, GROUND_FARE_UTTERANCE)
    assert "GEN ( = ( ground_fare <v> ) <v> )" in [str(s.action) for s in steps]
    assert system.to_logical_form(steps) == GROUND_FARE


def test_multi_slot_node_after_normalization():
    abstractor = Abstractor("lambda")
    lf = "( lambda $0 e ( and ( flight $0 ) ( from $0 ci0 ) ( to $0 ci1 ) ) )"
    utterance = "flight from ci0 to ci1".split()
    templates = [abstractor.abstract(parse(lf, "lambda"), utterance)[0]] * 3
    normalizer = TemplateNormalizer(min_support=2, completeness=0.0)
    normalizer.learn(templates)
    system = TransitionSystem("lambda", normalizer, abstractor)
    steps = system.oracle_for_string(lf, utterance)
    assert len(steps) == 2  # the whole template is one idiom, then STOP
    assert steps[0].action.slots == ("<v>", "<v>", "<v>", "<e:ci>", "<v>", "<e:ci>")
    assert [v.value for v in steps[0].values] == ["$0", "$0", "$0", "ci0", "$0", "ci1"]
    assert system.to_logical_form(steps) == lf


def test_new_predicates_still_get_valid_sequences():
    abstractor = Abstractor("lambda")
    train = "( lambda $0 e ( and ( state:t $0 ) ( next_to:t $0 s0 ) ) )"
    templates = [abstractor.abstract(parse(train, "lambda"), ["s0"])[0]] * 5
    normalizer = TemplateNormalizer(min_support=2, completeness=0.0)
    normalizer.learn(templates)
    system = TransitionSystem("lambda", normalizer, abstractor)
    new = "( lambda $0 e ( and ( state:t $0 ) ( not ( next_to:t $0 s0 ) ) ) )"
    steps = system.oracle_for_string(new, ["s0"])
    assert system.to_logical_form(steps) == new
    assert any("not" in s.action.predicates for s in steps)
    assert all("not" not in idiom.label for idiom in normalizer.idioms)


def test_prolog_negation_and_conjunction():
    system = TransitionSystem("prolog")
    lf = "job ( ANS ) , \\+ ( req_exp ( ANS ) , loc ( ANS , locid0 ) )"
    steps = system.oracle_for_string(lf, "job not in locid0".split())
    assert [str(s.action) for s in steps] == [
        "GEN ( job <v> )",
        "GEN ( req_exp <v> )",
        "GEN ( loc <v> <e:locid> )",
        "REDUCE ( , <NT> <NT> )",
        "REDUCE ( \\+ <NT> )",
        "REDUCE ( , <NT> <NT> )",
        "STOP",
    ]
    assert system.to_logical_form(steps) == lf


def test_teacher_forcing_pointers():
    # GEN a, GEN b, REDUCE(2), GEN c, REDUCE(2), STOP
    actions = [
        Action.from_string("GEN ( a <v> )"),
        Action.from_string("GEN ( b <v> )"),
        Action.from_string("REDUCE ( and <NT> <NT> )"),
        Action.from_string("GEN ( c <v> )"),
        Action.from_string("REDUCE ( or <NT> <NT> )"),
        STOP_ACTION,
    ]
    pointers = teacher_forcing(actions)
    # State 0 is the encoder state; step t produces state t + 1.
    assert pointers.previous_state == [0, 1, 2, 1, 4, 1]
    assert pointers.stack_size == [0, 1, 2, 1, 2, 1]
    assert pointers.popped_states == [[], [], [], [2, 3], [], [4, 5]]
    for action, size in zip(actions, pointers.stack_size):
        assert is_applicable(action, size)
    assert not is_applicable(STOP_ACTION, 2)
    assert not is_applicable(actions[2], 1)


def test_action_strings_round_trip():
    for string in ["GEN ( flight <v> )", "REDUCE ( lambda <v> e <NT> )", "STOP", "GEN ( = ( ground_fare <v> ) <v> )"]:
        action = Action.from_string(string)
        assert str(action) == string and Action.from_string(str(action)) == action
    assert Action.from_string("REDUCE ( and <NT> <NT> )").arity == 2
    with pytest.raises(ValueError):
        Action.from_string("JUMP ( x )")


def test_execute_rejects_invalid_sequences():
    gen = Step(Action.from_string("GEN ( a )"))
    with pytest.raises(TransitionError, match="STOP"):
        execute([gen])
    with pytest.raises(TransitionError, match="2 trees on the stack"):
        execute([gen, gen, Step(STOP_ACTION)])
    with pytest.raises(TransitionError, match="needs 2 trees"):
        execute([gen, Step(Action.from_string("REDUCE ( and <NT> <NT> )")), Step(STOP_ACTION)])


@pytest.mark.parametrize("formalism, lf, utterance", [
    ("lambda", GROUND_FARE, " ".join(GROUND_FARE_UTTERANCE)),
    ("prolog", "job ( ANS ) , \\+ ( req_exp ( ANS ) , loc ( ANS , locid0 ) )", "job not in locid0"),
])
def test_unified_slots_round_trip_with_value_kinds(formalism, lf, utterance):
    system = TransitionSystem(formalism, abstractor=Abstractor(formalism, unify_slots=True))
    steps = system.oracle_for_string(lf, utterance.split())
    assert all(slot == "<s>" for s in steps for slot in s.action.slots)
    kinds = {v.value: v.kind for s in steps for v in s.values}
    assert all(kind == ("variable" if value.startswith(("$", "ANS")) else "entity") for value, kind in kinds.items())
    assert system.to_logical_form(steps) == lf
