from fewshot_parser.logical_forms.template import Abstractor, SlotValue, fill, predicates, slot_labels
from fewshot_parser.logical_forms.tree import parse, to_string


def test_entities_and_variables_become_slots():
    abstractor = Abstractor("lambda")
    tree = parse("( lambda $0 e ( and ( flight $0 ) ( class_type $0 first:cl ) ( from $0 ci0 ) ) )", "lambda")
    template, values = abstractor.abstract(tree, "first class flight from ci0".split())
    assert to_string(template, "lambda") == (
        "( lambda <v> e ( and ( flight <v> ) ( class_type <v> first:cl ) ( from <v> <e:ci> ) ) )"
    )
    assert values == [
        SlotValue("variable", "$0"), SlotValue("variable", "$0"), SlotValue("variable", "$0"),
        SlotValue("variable", "$0"), SlotValue("entity", "ci0"),
    ]
    assert fill(template, values) == tree


def test_atoms_absent_from_the_utterance_stay_in_the_template():
    abstractor = Abstractor("prolog")
    tree = parse("job ( ANS ) , salary_greater_than ( ANS , num_salary , year )", "prolog")
    template, values = abstractor.abstract(tree, "job pay num_salary a year".split())
    # `year` occurs in the utterance but is not an anonymized entity: it is a template constant.
    assert to_string(template, "prolog") == "job ( <v> ) , salary_greater_than ( <v> , <e:num_salary> , year )"
    assert [v.value for v in values] == ["ANS", "ANS", "num_salary"]
    template, values = abstractor.abstract(parse("loc ( ANS , locid0 )", "prolog"), "job".split())
    assert to_string(template, "prolog") == "loc ( <v> , locid0 )"


def test_untyped_entities():
    abstractor = Abstractor("lambda", typed_entities=False)
    template, _ = abstractor.abstract(parse("( to $0 ci1 )", "lambda"), ["ci1"])
    assert slot_labels(template) == ["<v>", "<e:entity>"]


def test_predicates_exclude_the_prolog_conjunction():
    tree = parse("job ( ANS ) , \\+ req_exp ( ANS )", "prolog")
    assert predicates(tree) == ["job", "\\+", "req_exp"]


def test_unified_slots_share_one_label_and_keep_the_kind_of_each_value():
    abstractor = Abstractor("lambda", unify_slots=True)
    tree = parse("( sum $0 ( state:t $0 ) ( area:i $0 ) )", "lambda")
    template, values = abstractor.abstract(tree, "combined area of all state".split())
    assert to_string(template, "lambda") == "( sum <s> ( state:t <s> ) ( area:i <s> ) )"
    entity_template, entity_values = abstractor.abstract(parse("( area:i s0 )", "lambda"), ["area", "s0"])
    # The same action pattern serves a variable and an entity argument.
    assert to_string(entity_template, "lambda") == "( area:i <s> )"
    assert to_string(template.children[2], "lambda") == "( area:i <s> )"
    assert entity_values == [SlotValue("entity", "s0")] and values[0] == SlotValue("variable", "$0")
    assert fill(template, values) == tree
