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


def test_a_new_predicate_takes_any_arity_and_a_known_one_is_checked():
    """Nothing before the queries says how many arguments a new predicate takes (the benchmark's query
    files use `departure_time`, new in ATIS, with an arity its support sets never show)."""
    signatures = PredicateSignatures("prolog", overloaded_predicates={})
    signatures.learn(parse("job ( ANS ) , loc ( ANS , locid0 )", "prolog"), "train.txt:1")
    signatures.check(parse("job ( ANS ) , salary_greater_than ( ANS , num_salary , year )", "prolog"), "support.txt:1")
    signatures.check(parse("job ( ANS ) , salary_greater_than ( ANS , num_salary )", "prolog"), "query.txt:1")
    assert sorted(signatures.summary()["salary_greater_than"]) == ["2", "3"]
    with pytest.raises(SignatureMismatch, match=r"job expects 1 argument .*, got 2 \(signature from train.txt:1\)"):
        signatures.check(parse("job ( ANS , ANS )", "prolog"), "query.txt:2")


def test_overloads_seen_in_training_or_declared_are_allowed():
    signatures = PredicateSignatures("lambda")
    signatures.learn(lam("( lambda $0 e ( and ( capital:t $0 ) ( capital:t $0 c0 ) ( airline $0 ) ) )"))
    assert list(signatures.multi_arity()) == ["capital:t"]
    # Other training and support files of the benchmark overload `airline` (BENCHMARK_OVERLOADS).
    signatures.check(lam("( lambda $0 e ( and ( capital:t $0 c0 ) ( airline $0 al0 ) ) )"))
    strict = PredicateSignatures("lambda", overloaded_predicates={})
    strict.learn(lam("( lambda $0 e ( departure_time $0 ) )"))
    with pytest.raises(SignatureMismatch, match="departure_time expects 1 argument"):
        strict.check(lam("( lambda $0 e ( departure_time $0 ti0 ) )"))
    assert signatures.summary()["capital:t"]["2"] == {"kinds": ["variable", "atom"], "first_use": None}


def write_split(root, dataset: str, split: str, files: dict) -> None:
    directory = root / dataset / "lemma_data" / split
    directory.mkdir(parents=True)
    for name, lines in files.items():
        (directory / f"{name}.txt").write_text("".join(f"{u}\t{lf}\n" for u, lf in lines))


def test_overloads_come_from_training_and_support_files_only(tmp_path):
    """An arity that only a query file shows is not an overload (issue 52: query files are never read)."""
    from fewshot_parser.data.signature_check import corpus_overloads

    train = [("river in s0", "( lambda $0 e ( and ( river:t $0 ) ( loc:t $0 s0 ) ) )")]
    write_split(tmp_path, "geo", "shuffle_0_shot_1", {
        "train": train,
        "support": [("capital", "( lambda $0 e ( capital:t $0 ) )"), ("capital of s0", "( lambda $0 e ( capital:t $0 s0 ) )")],
        "query": [("big river", "( lambda $0 e ( river:t $0 big ) )"), ("count", "( lambda $0 e ( size:i $0 ) )")],
    })
    write_split(tmp_path, "geo", "shuffle_1_shot_1", {
        "train": train, "support": [("size", "( lambda $0 e ( size:i $0 ) )")],
        "query": [("size of s0", "( lambda $0 e ( size:i $0 s0 ) )")],
    })
    assert corpus_overloads(str(tmp_path)) == {"lambda": {"capital:t": [1, 2]}}


def benchmark_root():
    import os

    from fewshot_parser.data.paths import resolve_data_path

    data = os.path.dirname(os.path.dirname(resolve_data_path("geo/lemma_data")))
    if not os.path.isdir(os.path.join(data, "geo", "lemma_data")):
        pytest.skip("the benchmark data is not set up (make data)")
    return data


def test_the_shipped_overloads_are_those_of_the_benchmarks_training_and_support_files():
    """resources/overloads.json is what `corpus_overloads` finds in train.txt and support.txt files."""
    from fewshot_parser.data.signature_check import OVERLOADS_PATH, corpus_overloads, overloads_json
    from fewshot_parser.logical_forms.signatures import BENCHMARK_OVERLOADS

    data = benchmark_root()
    with open(OVERLOADS_PATH, encoding="utf-8") as handle:
        assert handle.read() == overloads_json(data)
    found = corpus_overloads(data)
    assert {f: {n: tuple(a) for n, a in names.items()} for f, names in found.items()} == BENCHMARK_OVERLOADS
    assert found["prolog"]["req_exp"] == [1, 2]
    # ATIS query files use `departure_time` and `meal` with arities no training or support file has.
    assert "departure_time" not in found["lambda"] and "meal" not in found["lambda"]


@pytest.mark.parametrize("dataset", ["jobs", "geo", "atis"])
def test_every_benchmark_file_passes_the_check_of_its_split(dataset):
    """Reading a split's files in order (support, then query) raises no arity error with the shipped overloads."""
    import glob
    import os

    from fewshot_parser.data.examples import read_examples
    from fewshot_parser.data.signature_check import BENCHMARK_FORMALISMS, learned_signatures

    formalism = BENCHMARK_FORMALISMS[dataset]
    for split in sorted(glob.glob(os.path.join(benchmark_root(), dataset, "lemma_data", "shuffle_*_shot_*"))):
        signatures = learned_signatures(os.path.join(split, "train.txt"), formalism)
        for name in ("support", "query"):
            assert list(read_examples(os.path.join(split, f"{name}.txt"), formalism, signatures=signatures))
