"""Entity-coverage re-ranking of the beam (tiny untrained models on the fixture, no training run)."""
import json

import _jsonnet
import pytest
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.common.testing import ModelTestCase
from allennlp.models import Model

import fewshot_parser  # noqa: F401
from fewshot_parser.models.entity_coverage import EntityCoverageProtoParser, rerank, uncovered_entities
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

    def coverage_model(self, weight: float, beam: int = 4) -> EntityCoverageProtoParser:
        config = json.loads(_jsonnet.evaluate_file(FIXTURES_ROOT + "/proto_parser/experiment.jsonnet"))["model"]
        config.update(type="proto_parser_entity_coverage", coverage_weight=weight, beam_size=beam)
        model = Model.from_params(vocab=self.vocab, params=Params(config))
        model.load_state_dict(self.model.state_dict())
        model.eval()
        return model

    def test_weight_zero_decodes_as_the_plain_beam(self):
        self.model.eval()
        self.model.beam_size = 4
        plain = self.model.forward_on_instances(self.instances)
        reranked = self.coverage_model(0.0).forward_on_instances(self.instances)
        for a, b in zip(plain, reranked):
            assert a["logical_form"] == b["logical_form"] and a["predicted_actions"] == b["predicted_actions"]
            assert a["n_best"] == b["n_best"]

    def test_a_large_weight_picks_the_most_complete_hypothesis_of_the_beam(self):
        self.model.eval()
        self.model.beam_size = 4
        plain = self.model.forward_on_instances(self.instances)
        reranked = self.coverage_model(1000.0).forward_on_instances(self.instances)
        for instance, a, b in zip(self.instances, plain, reranked):
            utterance = instance["metadata"]["utterance"]
            entities = [t.text for t, kind in zip(instance["source_tokens"], instance["source_entity_types"].labels)
                        if kind != "@none@"]
            assert b["logical_form"] in [h["logical_form"] for h in a["n_best"]]
            assert sorted(h["logical_form"] for h in a["n_best"]) == sorted(h["logical_form"] for h in b["n_best"])
            fewest = min(uncovered_entities(h["logical_form"], entities) for h in a["n_best"])
            assert uncovered_entities(b["logical_form"], entities) == fewest, utterance
            if b["logical_form"] == a["logical_form"]:
                assert b["predicted_actions"] == a["predicted_actions"]

    def test_bad_settings_are_configuration_errors(self):
        with pytest.raises(ConfigurationError, match="beam_size must be at least 2"):
            self.coverage_model(5.0, beam=1)
        with pytest.raises(ConfigurationError, match="coverage_weight must be >= 0"):
            self.coverage_model(-1.0)

    def test_a_reranked_choice_reports_the_actions_of_its_own_hypothesis(self, monkeypatch):
        from fewshot_parser.models import entity_coverage
        from fewshot_parser.models.proto_parser import ProtoParser

        # Every hypothesis's actions, as the plain beam builds them (one `_steps` call per finite one).
        built = []
        steps = ProtoParser._steps

        def spy(model, sequence, row, *args):
            result = steps(model, sequence, row, *args)
            built.append((row, [str(step.action) for step in result]))
            return result

        monkeypatch.setattr(ProtoParser, "_steps", spy)
        self.model.eval()
        self.model.beam_size = 4
        plain = self.model.forward_on_instances(self.instances)
        plain_actions = [[actions for row, actions in built if row // 4 == b] for b in range(len(plain))]
        assert [len(a) for a in plain_actions] == [len(o["n_best"]) for o in plain]
        # Make the ranking pick the beam's last hypothesis (an untrained model rarely leaves an entity out).
        monkeypatch.setattr(entity_coverage, "rerank", lambda hypotheses, entities, weight: len(hypotheses) - 1)
        reranked = self.coverage_model(5.0).forward_on_instances(self.instances)
        for a, b, actions in zip(plain, reranked, plain_actions):
            assert b["logical_form"] == a["n_best"][-1]["logical_form"] and b["score"] == a["n_best"][-1]["score"]
            assert b["n_best"][0] == a["n_best"][-1] and b["n_best"][1:] == a["n_best"][:-1]
            assert b["predicted_actions"] == actions[-1]
        assert any(len(a) > 1 and a[-1] != a[0] for a in plain_actions)  # the test saw real choices
