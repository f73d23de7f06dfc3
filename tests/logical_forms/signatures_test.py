import pytest

from fewshot_parser.logical_forms.signatures import PredicateSignatures, SignatureMismatch
from fewshot_parser.logical_forms.tree import parse


def lam(text):
    return parse(text, "lambda")


def test_a_known_predicate_with_another_arity_names_the_expected_signature():
    signatures = PredicateSignatures("lambda")
    signatures.learn(lam("( lambda $0 e ( and ( state:t $0 ) ( next_to:t $0 s0 ) ) )"), "train.txt:1")
    signatures.check(lam("( lambda $0 e ( state:t $0 ) )"), "support.txt:1")
    with pytest.raises(SignatureMismatch) as error:
        signatures.check(lam("( lambda $0 e ( and ( state:t $0 $1 ) ( next_to:t $0 s0 ) ) )"), "support.txt:2")
    expected = "predicate state:t expects 1 argument (variable), got 2 (signature from train.txt:1)"
    assert str(error.value) == expected


def test_variadic_operators_are_not_checked_and_kinds_are_shown_not_enforced():
    signatures = PredicateSignatures("lambda")
    signatures.learn(lam("( lambda $0 e ( and ( loc:t $0 s0 ) ( loc:t s1 $0 ) ) )"))
    signatures.check(lam("( lambda $0 e ( and ( loc:t $0 $0 ) ( loc:t $0 s0 ) ( loc:t s1 $0 ) ) )"))
    expected = r"loc:t expects 2 arguments \(variable/atom, variable/atom\), got 1"
    with pytest.raises(SignatureMismatch, match=expected):
        signatures.check(lam("( lambda $0 e ( loc:t $0 ) )"))


def test_a_new_predicates_first_use_defines_its_signature():
    signatures = PredicateSignatures("prolog")
    signatures.learn(parse("job ( ANS ) , loc ( ANS , locid0 )", "prolog"))
    first = parse("job ( ANS ) , salary_greater_than ( ANS , num_salary , year )", "prolog")
    signatures.check(first, "support.txt:1")
    expected = r"salary_greater_than expects 3 arguments .*, got 2 \(signature from support.txt:1\)"
    with pytest.raises(SignatureMismatch, match=expected):
        signatures.check(parse("job ( ANS ) , salary_greater_than ( ANS , num_salary )", "prolog"))


def test_overloads_seen_in_training_or_declared_are_allowed():
    signatures = PredicateSignatures("lambda")
    signatures.learn(lam("( lambda $0 e ( and ( capital:t $0 ) ( capital:t $0 c0 ) ( departure_time $0 ) ) )"))
    assert list(signatures.multi_arity()) == ["capital:t"]
    # The benchmark overloads `departure_time` in its query files only (BENCHMARK_OVERLOADS).
    signatures.check(lam("( lambda $0 e ( and ( capital:t $0 c0 ) ( departure_time $0 ti0 ) ) )"))
    strict = PredicateSignatures("lambda", overloaded_predicates={})
    strict.learn(lam("( lambda $0 e ( departure_time $0 ) )"))
    with pytest.raises(SignatureMismatch, match="departure_time expects 1 argument"):
        strict.check(lam("( lambda $0 e ( departure_time $0 ti0 ) )"))
    assert signatures.summary()["capital:t"]["2"] == {"kinds": ["variable", "atom"], "first_use": None}


def test_the_shipped_overloads_are_those_of_the_whole_benchmark():
    """resources/overloads.json is what `corpus_overloads` finds in the data (any split of it loads)."""
    import json
    import os

    import pytest

    from fewshot_parser.data.paths import resolve_data_path
    from fewshot_parser.data.signature_check import corpus_overloads
    from fewshot_parser.logical_forms.signatures import BENCHMARK_OVERLOADS

    data = os.path.dirname(os.path.dirname(resolve_data_path("geo/lemma_data")))
    if not os.path.isdir(os.path.join(data, "geo", "lemma_data")):
        pytest.skip("the benchmark data is not set up (make data)")
    found = corpus_overloads(data)
    assert {f: {n: tuple(a) for n, a in names.items()} for f, names in found.items()} == BENCHMARK_OVERLOADS
    assert json.loads(json.dumps(found))["prolog"]["req_exp"] == [1, 2]
