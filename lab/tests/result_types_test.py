"""Result-type re-ranking: a call goes only where the training file puts calls of its suffix."""

import pytest
from allennlp.common.checks import ConfigurationError
from fake_decoding import FakeParser, FixtureParserTest, inputs
from fewshot_lab.modules.decoding.result_types import ResultTypeCounts, ResultTypes, argument_calls

import fewshot_parser  # noqa: F401
from fewshot_parser.logical_forms.tree import parse
from fewshot_parser.modules.decoding.hypotheses import Hypothesis
from tests import fixture_split

TRAINING = [
    "( lambda $0 e ( and ( state:t $0 ) ( next_to:t $0 s0 ) ) )",
    "( lambda $0 e ( and ( city:t $0 ) ( loc:t $0 s0 ) ) )",
    "( population:i ( argmax $0 ( state:t $0 ) ( area:i $0 ) ) )",
    "( count $0 ( and ( river:t $0 ) ( loc:t $0 s0 ) ) )",
]
FUNCTION_AS_CONDITION = "( lambda $0 e ( and ( capital:c s0 ) ( loc:t $0 s0 ) ) )"
CONDITION = "( lambda $0 e ( and ( capital:t $0 ) ( loc:t $0 s0 ) ) )"


def counts(min_count=3):
    return ResultTypeCounts([parse(lf, "lambda") for lf in TRAINING], min_count)


def test_calls_are_counted_per_argument_with_and_or_as_one():
    found = sorted(argument_calls(parse("( argmax $0 ( and ( state:t $0 ) ( river:t $0 ) ) ( len:i $0 ) )", "lambda")))
    assert found == [(("and", 0), "t"), (("and", 0), "t"), (("argmax", 1), ""), (("argmax", 2), "i")]


def test_a_call_whose_suffix_its_argument_never_takes_is_misplaced():
    # `and` takes 6 calls in training, all `:t`: a city there is misplaced, a new `:t` condition is not.
    assert counts().misplaced(parse(FUNCTION_AS_CONDITION, "lambda")) == [(("and", 0), "c")]
    assert counts().misplaced(parse(CONDITION, "lambda")) == []
    # An argument shown fewer than min_count times, or never (a new predicate's), is not charged.
    assert counts().misplaced(parse("( population:i ( capital:c s0 ) )", "lambda")) == []
    assert counts(min_count=1).misplaced(parse("( population:i ( capital:t $0 ) )", "lambda")) == [
        (("population:i", 0), "t")
    ]
    assert counts().misplaced(parse("( capital:c ( capital:c s0 ) )", "lambda")) == []
    # Calls without a suffix are never charged.
    assert counts().misplaced(parse("( lambda $0 e ( and ( exists $1 ( state:t $1 ) ) ) )", "lambda")) == []


def reranker(tmp_path, beam_size=3):
    path = tmp_path / "train.txt"
    path.write_text("".join(f"question {i}\t{lf}\n" for i, lf in enumerate(TRAINING)))
    return ResultTypes(str(path), beam_size=beam_size)


def test_a_misplaced_call_gives_way_to_the_best_beam_lf_without_one(tmp_path):
    beam = [
        Hypothesis(FUNCTION_AS_CONDITION, [], -0.5),
        Hypothesis(CONDITION, [], -1.0),
        Hypothesis("( x:c s0 )", [], -2),
    ]
    parser = FakeParser(beam)
    found = [[Hypothesis(FUNCTION_AS_CONDITION, [], -0.5)], [Hypothesis(CONDITION, [], -0.1)]]
    reranked = reranker(tmp_path).rerank(parser, inputs(2), found)
    assert parser.asked == [1]  # the well-typed first LF is not decoded again
    assert reranked[0][0].logical_form == CONDITION
    assert {h.logical_form for h in reranked[0]} == {FUNCTION_AS_CONDITION, CONDITION, "( x:c s0 )"}
    assert reranked[1] == found[1]
    # The first LF stays when every hypothesis has a misplaced call.
    only = FakeParser([Hypothesis(FUNCTION_AS_CONDITION, [], -0.5)])
    kept = reranker(tmp_path).rerank(only, inputs(1), [[Hypothesis(FUNCTION_AS_CONDITION, [], -0.5)]])
    assert kept[0][0].logical_form == FUNCTION_AS_CONDITION


def test_bad_settings_are_configuration_errors(tmp_path):
    with pytest.raises(ConfigurationError, match="beam_size must be at least 2"):
        reranker(tmp_path, beam_size=1)
    with pytest.raises(ConfigurationError, match="min_count must be at least 1"):
        ResultTypes(fixture_split("geo", "train"), min_count=0)


class TestInTheParser(FixtureParserTest):
    def test_the_parser_builds_it_and_changes_only_lfs_with_a_misplaced_call(self):
        model = self.parser([{"type": "result_types", "training_data": fixture_split("geo", "train"), "beam_size": 4}])
        assert isinstance(model.rerankers[0], ResultTypes)
        self.assert_only_flagged_lfs_change(model, model.rerankers[0].violates)
