import pytest
from allennlp.common.checks import ConfigurationError
from fake_decoding import FakeParser, FixtureParserTest, inputs
from fewshot_lab.modules.decoding.repeated_subtrees import RepeatedSubtrees, repeats_a_subtree

import fewshot_parser  # noqa: F401
from fewshot_parser.modules.decoding.hypotheses import Hypothesis

REPEATED = "( lambda $0 e ( and ( river:t $0 ) ( river:t $0 ) ( loc:t $0 s0 ) ) )"
CLEAN = "( lambda $0 e ( and ( river:t $0 ) ( loc:t $0 s0 ) ) )"


def test_a_repeated_subtree_is_two_equal_children_that_are_not_leaves():
    assert repeats_a_subtree(REPEATED, "lambda")
    assert not repeats_a_subtree(CLEAN, "lambda")
    assert repeats_a_subtree("( count $0 ( or ( state:t $0 ) ( city:t $0 ) ( state:t $0 ) ) )", "lambda")
    # Equal leaves are arguments (a variable used twice), not repeated subtrees.
    assert not repeats_a_subtree("( next_to:t $0 $0 )", "lambda")
    assert repeats_a_subtree("job ( ANS ) , language ( ANS , languageid0 ) , language ( ANS , languageid0 )", "prolog")
    assert not repeats_a_subtree("job ( ANS ) , language ( ANS , languageid0 ) , loc ( ANS , locid0 )", "prolog")
    assert not repeats_a_subtree(None, "lambda") and not repeats_a_subtree("( and (", "lambda")


def test_a_repeating_lf_gives_way_to_the_best_beam_lf_that_repeats_none():
    beam = [Hypothesis(REPEATED, [], -0.5), Hypothesis(CLEAN, [], -1.0), Hypothesis("( river:t s0 )", [], -2.0)]
    parser = FakeParser(beam)
    found = [[Hypothesis(REPEATED, [], -0.5)], [Hypothesis(CLEAN, [], -0.1)]]
    reranked = RepeatedSubtrees(beam_size=3).rerank(parser, inputs(2), found)
    assert parser.asked == [1]  # the clean first LF is not re-decoded
    assert reranked[0][0].logical_form == CLEAN and {h.logical_form for h in reranked[0]} == {
        REPEATED,
        CLEAN,
        "( river:t s0 )",
    }
    assert reranked[1] == found[1]


def test_the_first_lf_stays_when_every_hypothesis_repeats_a_subtree():
    parser = FakeParser([Hypothesis(REPEATED, [], -0.5)])
    found = [[Hypothesis(REPEATED, [], -0.5)]]
    assert RepeatedSubtrees().rerank(parser, inputs(1), found)[0][0].logical_form == REPEATED


def test_bad_settings_are_configuration_errors():
    with pytest.raises(ConfigurationError, match="beam_size must be at least 2"):
        RepeatedSubtrees(beam_size=1)


class TestInTheParser(FixtureParserTest):
    def test_the_parser_builds_it_and_changes_only_lfs_that_repeat_a_subtree(self):
        model = self.parser([{"type": "repeated_subtrees", "beam_size": 4}])
        assert isinstance(model.rerankers[0], RepeatedSubtrees)
        self.assert_only_flagged_lfs_change(model, repeats_a_subtree)
