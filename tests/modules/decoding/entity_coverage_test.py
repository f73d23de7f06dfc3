"""The `entity_coverage` reranker of the beam (tiny untrained models on the fixture, no training run)."""
import json

import _jsonnet
import pytest
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.common.testing import ModelTestCase
from allennlp.models import Model

import fewshot_parser  # noqa: F401
from fewshot_parser.models.proto_parser import ProtoParser
from fewshot_parser.modules.slot_variants import SlotVariant
from fewshot_parser.modules.decoding.entity_coverage import EntityCoverage, coverage_weight, rerank, uncovered_entities
from tests import FIXTURES_ROOT, fixture_split


def test_uncovered_entities_counts_distinct_entity_tokens_missing_from_the_lf():
    assert uncovered_entities("( population:i s0 )", ["s0", "c0", "c0"]) == 1
    assert uncovered_entities("( population:i s0 )", []) == 0
    assert uncovered_entities(None, ["s0"]) == 1


def test_rerank_trades_log_probability_against_left_out_entities():
    hypotheses = [{"logical_form": "job ( ANS )", "score": -1.0},
                  {"logical_form": "job ( ANS ) , salary ( ANS , num_salary )", "score": -3.0},
                  {"logical_form": "job ( ANS ) , loc ( ANS , num_salary )", "score": -3.0}]
    assert rerank(hypotheses, ["num_salary"], 0.0) == 0  # the parser's own order
    assert rerank(hypotheses, ["num_salary"], 1.5) == 0  # -1 - 1.5 > -3
    assert rerank(hypotheses, ["num_salary"], 5.0) == 1  # complete, and the first of two equals
    assert rerank(hypotheses, [], 5.0) == 0


class TestEntityCoverageParser(ModelTestCase):
    def setup_method(self):
        super().setup_method()
        self.set_up_model(FIXTURES_ROOT + "/proto_parser/experiment.jsonnet", fixture_split("geo", "train"))

    def coverage_model(self, weight: float, beam: int = 4) -> ProtoParser:
        config = json.loads(_jsonnet.evaluate_file(FIXTURES_ROOT + "/proto_parser/experiment.jsonnet"))["model"]
        config.update(rerankers=[{"type": "entity_coverage", "weight": weight, "beam_size": beam}])
        model = Model.from_params(vocab=self.vocab, params=Params(config))
        model.load_state_dict(self.model.state_dict())
        model.eval()
        return model

    def plain_decodings(self, monkeypatch):
        """The fixture model's greedy outputs, and per example its beam's n-best with each hypothesis's actions."""
        built = []
        steps = SlotVariant.steps

        def spy(variant, model, sequence, row, *args):
            result = steps(variant, model, sequence, row, *args)
            built.append((row, [str(step.action) for step in result]))
            return result

        self.model.eval()
        self.model.beam_size = 1
        greedy = self.model.forward_on_instances(self.instances)
        monkeypatch.setattr(SlotVariant, "steps", spy)
        self.model.beam_size = 4
        beam = self.model.forward_on_instances(self.instances)  # one batch; `steps` runs example by example
        monkeypatch.undo()
        actions, index = [], 0
        for output in beam:
            actions.append([a for _, a in built[index:index + len(output["n_best"])]])
            index += len(output["n_best"])
        assert index == len(built)
        return greedy, beam, actions

    @staticmethod
    def entities(instance):
        return [t.text for t, kind in zip(instance["source_tokens"], instance["source_entity_types"].labels)
                if kind != "@none@"]

    def test_the_greedy_lf_is_kept_when_complete_and_otherwise_the_best_penalised_candidate_wins(self, monkeypatch):
        greedy, beam, actions = self.plain_decodings(monkeypatch)
        for weight in (0.0, 1000.0):
            reranked = self.coverage_model(weight).forward_on_instances(self.instances)
            for instance, g, b, acts, out in zip(self.instances, greedy, beam, actions, reranked):
                entities = self.entities(instance)
                candidates = [{"logical_form": g["logical_form"], "score": g["score"]}] + b["n_best"]
                chosen = 0 if uncovered_entities(g["logical_form"], entities) == 0 else rerank(candidates, entities, weight)
                assert out["logical_form"] == candidates[chosen]["logical_form"]
                assert out["predicted_actions"] == (g["predicted_actions"] if chosen == 0 else acts[chosen - 1])
                assert out["n_best"][0] == candidates[chosen]

    def test_a_large_weight_leaves_out_no_more_entities_than_any_candidate(self, monkeypatch):
        greedy, beam, _ = self.plain_decodings(monkeypatch)
        reranked = self.coverage_model(1000.0).forward_on_instances(self.instances)
        for instance, g, b, out in zip(self.instances, greedy, beam, reranked):
            entities = self.entities(instance)
            fewest = min(uncovered_entities(h["logical_form"], entities) for h in [g] + b["n_best"])
            assert uncovered_entities(out["logical_form"], entities) == fewest

    def test_bad_settings_are_configuration_errors(self):
        with pytest.raises(ConfigurationError, match="beam_size must be at least 2"):
            self.coverage_model(5.0, beam=1)
        with pytest.raises(ConfigurationError, match="weight must be >= 0"):
            self.coverage_model(-1.0)

    def test_a_reranked_choice_reports_the_actions_of_its_own_hypothesis(self, monkeypatch):
        from fewshot_parser.modules.decoding import entity_coverage

        greedy, beam, actions = self.plain_decodings(monkeypatch)
        # An untrained fixture model rarely leaves an entity out: call every greedy LF incomplete and
        # make the ranking pick the beam's last hypothesis, so that the bookkeeping is exercised.
        monkeypatch.setattr(entity_coverage, "uncovered_entities", lambda logical_form, entities: 1)
        monkeypatch.setattr(entity_coverage, "rerank", lambda candidates, entities, weight: len(candidates) - 1)
        reranked = self.coverage_model(5.0).forward_on_instances(self.instances)
        for b, acts, out in zip(beam, actions, reranked):
            assert out["logical_form"] == b["n_best"][-1]["logical_form"] and out["score"] == b["n_best"][-1]["score"]
            assert out["predicted_actions"] == acts[-1]
        assert any(out["predicted_actions"] != g["predicted_actions"] for g, out in zip(greedy, reranked))

    def test_the_ensemble_finds_the_coverage_weight_of_its_members(self):
        assert coverage_weight(self.coverage_model(7.0)) == 7.0
        assert coverage_weight(self.model) == 0.0
        assert isinstance(self.coverage_model(7.0).rerankers[0], EntityCoverage)
