from collections import Counter

import pytest
from allennlp.common.checks import ConfigurationError
from fake_decoding import FakeParser, inputs
from fewshot_lab.modules.decoding.argument_types import ArgumentTypes, fillings, misplaced

import fewshot_parser  # noqa: F401
from fewshot_parser.logical_forms.tree import parse
from fewshot_parser.modules.decoding.hypotheses import Hypothesis

TRAINING = (
    ["what state border s0\t( lambda $0 e ( and ( state:t $0 ) ( next_to:t $0 s0 ) ) )"]
    + ["what city are in s0\t( lambda $0 e ( and ( city:t $0 ) ( loc:t $0 s0 ) ) )"] * 12
    + ["what state doe r0 run through\t( lambda $0 e ( and ( state:t $0 ) ( loc:t r0 $0 ) ) )"] * 6
    + ["where is s0\t( lambda $0 e ( loc:t s0 $0 ) )"]
    + ["job in locid0\tjob ( ANS ) , loc ( ANS , locid0 )"]
)
WRONG = "( lambda $0 e ( and ( river:t $0 ) ( loc:t s0 $0 ) ) )"
RIGHT = "( lambda $0 e ( and ( river:t $0 ) ( loc:t $0 s0 ) ) )"


def test_fillings_are_predicate_argument_and_entity_type():
    assert sorted(fillings(parse(RIGHT, "lambda"))) == [("loc:t", 1, "s")]
    assert fillings(
        parse("job ( ANS ) , loc ( ANS , locid0 ) , salary_greater_than ( ANS , num_salary , year )", "prolog")
    ) == [("salary_greater_than", 1, "num_salary"), ("loc", 1, "locid")]


def test_a_type_is_misplaced_where_it_fills_another_argument_far_more_often():
    counts = Counter({("loc:t", 1, "s"): 38, ("loc:t", 0, "s"): 2, ("loc:t", 0, "r"): 30})
    assert misplaced(counts, ("loc:t", 0, "s"), ratio=10, min_count=5)
    assert not misplaced(counts, ("loc:t", 1, "s"), ratio=10, min_count=5)
    assert not misplaced(counts, ("loc:t", 0, "r"), ratio=10, min_count=5)
    assert misplaced(counts, ("loc:t", 1, "r"), ratio=10, min_count=5)  # never seen there, 30 times elsewhere
    assert not misplaced(counts, ("river:t", 0, "r"), ratio=10, min_count=5)  # a predicate without counts
    assert not misplaced(counts, ("loc:t", 0, "s"), ratio=10, min_count=50)


@pytest.fixture
def reranker(tmp_path):
    path = tmp_path / "train.txt"
    path.write_text("\n".join(TRAINING[:-1]) + "\n")
    return ArgumentTypes(training_data=str(path), formalism="lambda", weight=5.0, ratio=10.0, min_count=5)


def test_counts_come_from_the_training_file(reranker):
    assert reranker.counts[("loc:t", 1, "s")] == 12 and reranker.counts[("loc:t", 0, "s")] == 1
    assert reranker.violations(WRONG, "lambda") == 1 and reranker.violations(RIGHT, "lambda") == 0
    assert reranker.violations(None, "lambda") == 0 and reranker.violations("( and (", "lambda") == 0


def test_a_misplaced_entity_gives_way_when_the_penalty_outweighs_the_score(reranker):
    parser = FakeParser([Hypothesis(WRONG, [], -0.5), Hypothesis(RIGHT, [], -2.0), Hypothesis(None, [], -0.1)])
    found = [[Hypothesis(WRONG, [], -0.5)], [Hypothesis(RIGHT, [], -0.3)]]
    reranked = reranker.rerank(parser, inputs(2), found)
    assert parser.asked == [1]
    assert reranked[0][0].logical_form == RIGHT and reranked[1] == found[1]
    far = FakeParser([Hypothesis(RIGHT, [], -9.0)])  # 8.5 worse: more than one penalty of 5
    assert reranker.rerank(far, inputs(1), found[:1])[0][0].logical_form == WRONG


def test_bad_settings_are_configuration_errors(tmp_path):
    path = tmp_path / "train.txt"
    path.write_text(TRAINING[0] + "\n")
    with pytest.raises(ConfigurationError, match="beam_size must be at least 2"):
        ArgumentTypes(training_data=str(path), formalism="lambda", beam_size=1)
    with pytest.raises(ConfigurationError, match="ratio >= 1"):
        ArgumentTypes(training_data=str(path), formalism="lambda", ratio=0.5)


def test_unknown_atoms_are_plain_words_in_argument_places(tmp_path):
    train, support = tmp_path / "train.txt", tmp_path / "support.txt"
    train.write_text("\n".join(TRAINING[:-1]) + "\n")
    support.write_text("how big is s0\t( size:i s0 big_constant )\n")
    copied = "( lambda $0 e ( and ( city:t $0 ) ( loc:t $0 city ) ) )"
    plain = ArgumentTypes(training_data=str(train), formalism="lambda")
    charged = ArgumentTypes(training_data=str(train), formalism="lambda", unknown_atoms=True, support_data=str(support))
    assert plain.violations(copied, "lambda") == 0 and charged.violations(copied, "lambda") == 1
    assert charged.violations(RIGHT, "lambda") == 0 and charged.violations(WRONG, "lambda") == 1
    assert charged.violations("( size:i s0 big_constant )", "lambda") == 0  # the support's atoms are known
