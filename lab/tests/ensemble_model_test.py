"""The ensemble's vote and its combination of members' decodings (tiny models, no training run)."""
import copy

import pytest
import torch
from allennlp.common.checks import ConfigurationError
from allennlp.common.testing import ModelTestCase
from allennlp.data import Batch, Vocabulary

import fewshot_parser  # noqa: F401
from fewshot_lab.models.ensemble import FewShotEnsemble, Vote, vote
from fewshot_lab.models.path_scoring import path_log_probs, rescore_choice
from tests import FIXTURES_ROOT, fixture_split


def test_the_majority_wins_whatever_the_scores():
    assert vote(["(a)", "(b)", "(a)"], [-9.0, -0.1, -8.0]) == Vote("(a)", 0, 2, -8.5)


def test_lfs_that_differ_only_in_whitespace_are_one_candidate():
    assert vote(["( a  b )", "(c)", "( a b )"], [-1.0, -0.5, -2.0]) == Vote("( a  b )", 0, 2, -1.5)


def test_a_tie_goes_to_the_higher_mean_score():
    result = vote(["(a)", "(b)", "(b)", "(a)"], [-1.0, -0.5, -0.7, -3.0])
    assert result == Vote("(b)", 1, 2, pytest.approx(-0.6))


def test_an_exact_tie_goes_to_the_lf_of_the_lowest_numbered_member():
    assert vote(["(b)", "(a)"], [-1.0, -1.0]) == Vote("(b)", 0, 1, -1.0)
    assert vote(["(a)", "(b)"], [-1.0, -1.0]) == Vote("(a)", 0, 1, -1.0)
    assert vote(["(c)", "(b)", "(a)", "(a)", "(b)"], [0.0, -1.0, -2.0, 0.0, -1.0]).logical_form == "(b)"


def test_a_member_without_an_lf_abstains():
    assert vote([None, None, "(a)"], [-0.1, -0.1, -5.0]) == Vote("(a)", 2, 1, -5.0)
    assert vote([None, None], [-0.1, -0.2]) == Vote(None, 0, 0, -0.1)
    with pytest.raises(ValueError):
        vote([], [])


def test_rescore_choice_takes_the_best_mean_less_the_penalty_and_the_first_of_equals():
    assert rescore_choice([[-1.0, -5.0], [-2.0, -2.0]], [0.0, 0.0]) == 1
    assert rescore_choice([[-1.0, -5.0], [-2.0, -2.0]], [0.0, 2.0]) == 0
    assert rescore_choice([[-2.0], [-2.0]], [0.0, 0.0]) == 0


class TestFewShotEnsemble(ModelTestCase):
    def setup_method(self):
        super().setup_method()
        self.set_up_model(FIXTURES_ROOT + "/proto_parser/experiment.jsonnet", fixture_split("geo", "train"))

    def members(self):
        """Member 0 is the fixture model; member 1 a copy with other action rows; member 2 like 0."""
        other = copy.deepcopy(self.model)
        torch.manual_seed(3)
        with torch.no_grad():
            other.action_embedding.normal_(0, 1.0)
        return [self.model, other, copy.deepcopy(self.model)]

    def test_forward_combines_the_members_decodings_by_vote(self):
        members = self.members()
        ensemble = FewShotEnsemble(self.vocab, members)
        ensemble.eval()
        outputs = ensemble.forward_on_instances(self.instances)
        singles = [member.forward_on_instances(self.instances) for member in members]
        for index, output in enumerate(outputs):
            forms = [single[index]["logical_form"] for single in singles]
            expected = vote(forms, [single[index]["score"] for single in singles])
            assert output["logical_form"] == expected.logical_form == forms[0]  # members 0 and 2 agree
            assert output["votes"] == expected.votes >= 2
            assert output["member_logical_forms"] == forms
            assert output["predicted_actions"] == singles[expected.member][index]["predicted_actions"]
        metrics = ensemble.get_metrics(reset=True)
        assert set(metrics) == {"exact_match", "exact_match_unordered", "member_exact_match", "any_member_exact_match"}
        assert 0.0 <= metrics["member_exact_match"] <= metrics["any_member_exact_match"] <= 1.0
        assert metrics["exact_match"] <= metrics["any_member_exact_match"]

    def test_identical_members_give_the_members_metrics(self):
        single = copy.deepcopy(self.model)
        single.eval()
        single.forward_on_instances(self.instances)
        expected = single.get_metrics(reset=True)
        ensemble = FewShotEnsemble(self.vocab, [copy.deepcopy(self.model) for _ in range(3)])
        ensemble.eval()
        ensemble.forward_on_instances(self.instances)
        metrics = ensemble.get_metrics(reset=True)
        assert metrics["exact_match"] == metrics["member_exact_match"] == expected["exact_match"]
        assert metrics["exact_match_unordered"] == expected["exact_match_unordered"]

    def test_bad_ensembles_are_configuration_errors(self):
        with pytest.raises(ConfigurationError, match="at least one member"):
            FewShotEnsemble(self.vocab, [])
        with pytest.raises(ConfigurationError, match="combine must be one of vote, rescore, not 'average'"):
            FewShotEnsemble(self.vocab, [self.model], combine="average")
        other = Vocabulary.from_instances(self.instances[:2])
        with pytest.raises(ConfigurationError, match="member 0 has another vocabulary than the ensemble"):
            FewShotEnsemble(other, [self.model])

    def test_a_parser_scores_its_own_greedy_path_as_its_search_did(self):
        self.model.eval()
        batch = Batch(self.instances)
        batch.index_instances(self.vocab)
        tensors = batch.as_tensor_dict()
        output = self.model(**tensors)
        paths = output["predicted_actions"]
        with torch.no_grad():
            scores = path_log_probs(self.model, tensors["source_tokens"], list(range(len(paths))), paths)
        assert torch.allclose(scores, torch.tensor(output["score"]), atol=1e-4)
        # The same paths for other utterances score differently.
        with torch.no_grad():
            shifted = path_log_probs(self.model, tensors["source_tokens"], [len(paths) - 1] + list(range(len(paths) - 1)), paths)
        assert not torch.allclose(shifted, scores)

    def test_rescore_picks_the_template_the_members_like_best_on_average(self):
        members = self.members()
        ensemble = FewShotEnsemble(self.vocab, members, combine="rescore")
        ensemble.eval()
        outputs = ensemble.forward_on_instances(self.instances)
        singles = [member.forward_on_instances(self.instances) for member in members]
        batch = Batch(self.instances)
        batch.index_instances(self.vocab)
        tokens = batch.as_tensor_dict()["source_tokens"]
        disagreements = 0
        for index, output in enumerate(outputs):
            candidates = []
            for single in singles:
                if single[index]["predicted_actions"] not in candidates:
                    candidates.append(single[index]["predicted_actions"])
            disagreements += len(candidates) > 1
            with torch.no_grad():
                judged = torch.stack([path_log_probs(m, tokens, [index] * len(candidates), candidates) for m in members]).mean(0)
            assert output["predicted_actions"] == candidates[int(judged.argmax())]
            assert output["score"] == pytest.approx(float(judged.max()), abs=1e-4)
            proposers = [s[index]["logical_form"] for s in singles if s[index]["predicted_actions"] == output["predicted_actions"]]
            assert output["votes"] == len(proposers) and output["logical_form"] in proposers
        assert disagreements > 0  # member 1 decodes other templates, so there was something to choose

    def test_rescore_with_one_member_is_the_member(self):
        ensemble = FewShotEnsemble(self.vocab, [copy.deepcopy(self.model)], combine="rescore")
        ensemble.eval()
        self.model.eval()
        combined = ensemble.forward_on_instances(self.instances)
        single = self.model.forward_on_instances(self.instances)
        assert [o["logical_form"] for o in combined] == [o["logical_form"] for o in single]
