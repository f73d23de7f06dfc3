import pytest

from fewshot_parser.logical_forms.tree import LogicalFormError, Tree, parse, to_string

LAMBDA_FORMS = [
    "( lambda $0 e ( and ( flight $0 ) ( from $0 ci0 ) ( to $0 ci1 ) ) )",
    "( count $0 ( and ( river:t $0 ) ( loc:t $0 s0 ) ) )",
    "( argmax $0 ( and ( city:t $0 ) ( loc:t $0 s0 ) ) ( population:i $0 ) )",
    "( argmin $0 ( flight $0 ) ( fare $0 ) )",
    "( lambda $0 e ( and ( state:t $0 ) ( not ( next_to:t $0 s0 ) ) ) )",
    "( lambda $0 e ( exists $1 ( and ( flight $1 ) ( = ( airline:e $1 ) $0 ) ) ) )",
    "( lambda $0 e ( and ( flight $0 ) ( < ( departure_time $0 ) ti0 ) ( > ( arrival_time $0 ) ti1 ) ) )",
    "( sum $0 ( state:t $0 ) ( area:i $0 ) )",
    "( the $0 ( capital:t $0 ) )",
    "( max $0 ( flight $0 ) ( capacity $0 ) )",
    "( min $0 ( flight $0 ) ( fare $0 ) )",
    "( lambda $0 e ( or ( to $0 ci0 ) ( to $0 ci1 ) ) )",
    "( lambda $0 e ( lambda $1 e ( and ( flight $0 ) ( class_type $0 first:cl ) ) ) )",
    "( population:i c0 )",
]

PROLOG_FORMS = [
    "job ( ANS )",
    "job ( ANS ) , language ( ANS , languageid0 ) , loc ( ANS , locid0 )",
    "job ( ANS ) , \\+ req_exp ( ANS )",
    "title ( ANS , titleid0 ) , job ( ANS ) , \\+ ( req_exp ( ANS ) , platform ( ANS , platformid0 ) )",
    "job ( ANS ) , salary_greater_than ( ANS , num_salary , year )",
    "job ( ANS ) , \\+ ( req_deg ( ANS ) )",
]


@pytest.mark.parametrize("form", LAMBDA_FORMS)
def test_lambda_round_trip(form):
    assert to_string(parse(form, "lambda"), "lambda") == form


@pytest.mark.parametrize("form", PROLOG_FORMS)
def test_prolog_round_trip(form):
    assert to_string(parse(form, "prolog"), "prolog") == form


def test_lambda_structure():
    tree = parse("( lambda $0 e ( and ( flight $0 ) ( from $0 ci0 ) ) )", "lambda")
    assert tree.label == "lambda" and [c.label for c in tree.children] == ["$0", "e", "and"]
    conjunction = tree.children[2]
    assert conjunction.is_call and [c.label for c in conjunction.children] == ["flight", "from"]
    assert tree.children[0].is_leaf


def test_prolog_structure_with_negated_conjunction():
    tree = parse("job ( ANS ) , \\+ ( req_exp ( ANS ) , loc ( ANS , locid0 ) )", "prolog")
    assert tree.label == "," and [c.label for c in tree.children] == ["job", "\\+"]
    negation = tree.children[1]
    assert negation.children[0].label == "," and len(negation.children[0].children) == 2


def test_trees_compare_by_value():
    assert parse("( f $0 )", "lambda") == Tree("f", (Tree("$0"),))
    assert len({parse("( f $0 )", "lambda"), parse("( f $0 )", "lambda")}) == 1
    assert Tree("f", (), is_call=True) != Tree("f")


@pytest.mark.parametrize(
    "form, formalism, message",
    [
        ("( lambda $0 e ( flight $0 )", "lambda", "unbalanced"),
        ("( flight $0 ) )", "lambda", "unbalanced"),
        ("( ( flight ) )", "lambda", "expected a predicate"),
        ("( flight $0 ) ( to $0 )", "lambda", "unexpected tokens"),
        ("", "lambda", "empty"),
        ("job ( ANS", "prolog", "unbalanced"),
        ("job ( ANS ) ,", "prolog", "expected a goal"),
        ("job ( ANS ) language ( ANS )", "prolog", "unexpected tokens"),
    ],
)
def test_malformed_forms_raise_clear_errors(form, formalism, message):
    with pytest.raises(LogicalFormError, match=message):
        parse(form, formalism)


def test_unknown_formalism():
    with pytest.raises(ValueError, match="unknown formalism 'sql'"):
        parse("( f )", "sql")
