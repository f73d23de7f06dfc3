from fewshot_parser.logical_forms.actions import Action
from fewshot_parser.logical_forms.normalize import TemplateNormalizer, idioms_from_patterns
from fewshot_parser.logical_forms.template import Abstractor
from fewshot_parser.logical_forms.transition_system import TransitionSystem
from fewshot_parser.logical_forms.tree import parse

TRAIN = [
    ("( lambda $0 e ( and ( flight $0 ) ( from $0 ci0 ) ( to $0 ci1 ) ) )", "flight from ci0 to ci1"),
    ("( lambda $0 e ( and ( flight $0 ) ( from $0 ci0 ) ( to $0 ci1 ) ) )", "show flight ci0 ci1"),
    ("( lambda $0 e ( and ( flight $0 ) ( from $0 ci0 ) ) )", "flight from ci0"),
    ("( count $0 ( and ( flight $0 ) ( from $0 ci0 ) ) )", "how many flight from ci0"),
    ("( argmin $0 ( flight $0 ) ( fare $0 ) )", "cheapest flight"),
]


def templates():
    abstractor = Abstractor("lambda")
    return [abstractor.abstract(parse(lf, "lambda"), u.split())[0] for lf, u in TRAIN]


def test_min_support_above_the_data_disables_normalization():
    assert TemplateNormalizer(min_support=100).learn(templates()) == []


def test_completeness_controls_merging():
    strict = TemplateNormalizer(min_support=2, completeness=1.0).learn(templates())
    loose = TemplateNormalizer(min_support=2, completeness=0.0).learn(templates())
    assert len(loose) > len(strict)


def test_learning_is_deterministic():
    first = TemplateNormalizer(min_support=2, completeness=0.0).learn(templates())
    second = TemplateNormalizer(min_support=2, completeness=0.0).learn(list(reversed(templates())))
    assert first == second


def test_idioms_can_be_recovered_from_the_action_vocabulary():
    abstractor = Abstractor("lambda")
    normalizer = TemplateNormalizer(min_support=2, completeness=0.0)
    normalizer.learn(templates())
    system = TransitionSystem("lambda", normalizer, abstractor)
    vocabulary = {str(s.action) for lf, u in TRAIN for s in system.oracle_for_string(lf, u.split())}
    patterns = [Action.from_string(a).pattern for a in vocabulary if a != "STOP"]
    recovered = TemplateNormalizer(idioms=idioms_from_patterns(patterns))
    assert recovered.idioms == normalizer.idioms
    again = TransitionSystem("lambda", recovered, abstractor)
    for lf, u in TRAIN:
        assert again.oracle_for_string(lf, u.split()) == system.oracle_for_string(lf, u.split())
