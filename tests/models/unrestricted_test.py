"""The authors' action scoring: every action in the training softmax (restrict_training false), and decoding that can fail (reranker dead_ends)."""
import copy
import json

import _jsonnet
import pytest
import torch
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.common.testing import ModelTestCase
from allennlp.models import Model

import fewshot_parser  # noqa: F401
from fewshot_parser.models.proto_parser import ProtoParser
from fewshot_parser.modules.decoding.dead_ends import first_inapplicable_choice
from fewshot_parser.modules.stack_decoder import applicable_mask
from tests import FIXTURES_ROOT, PROJECT_ROOT, fixture_split, indexed_tensors

CONFIG = FIXTURES_ROOT + "/proto_parser/experiment.jsonnet"


class TestTheAuthorsActionScoring(ModelTestCase):
    def setup_method(self):
        super().setup_method()
        self.set_up_model(CONFIG, fixture_split("geo", "train"))

    def unrestricted(self, training: bool = False, decoding: bool = False) -> ProtoParser:
        config = json.loads(_jsonnet.evaluate_file(CONFIG))["model"]
        config.update(restrict_training=training, rerankers=[] if decoding else [{"type": "dead_ends"}])
        model = Model.from_params(vocab=self.vocab, params=Params(copy.deepcopy(config)))
        model.load_state_dict(self.model.state_dict())
        return model

    def tensors(self):
        return indexed_tensors(self.instances, self.vocab)

    def test_model_can_train_save_and_load(self):
        overrides = json.dumps({"model.restrict_training": False, "model.rerankers": [{"type": "dead_ends"}]})
        self.ensure_model_can_train_save_and_load(
            self.param_file, tolerance=1e-3, overrides=overrides
        )

    def test_the_training_loss_normalises_over_every_action_and_the_restricted_one_matches_proto_parser(self):
        tensors = self.tensors()
        self.model.train()
        torch.manual_seed(0)
        ours = self.model(**tensors)["loss"]
        restricted = self.unrestricted(training=True, decoding=True).train()
        torch.manual_seed(0)
        assert torch.allclose(restricted(**tensors)["loss"], ours)
        every = self.unrestricted().train()
        torch.manual_seed(0)
        # More actions in each step's normaliser: every gold action gets less probability.
        assert every(**tensors)["loss"] > ours

    def test_decoding_fails_exactly_where_the_best_action_of_the_vocabulary_is_not_applicable(self):
        tensors = self.tensors()
        self.model.eval()
        ours = self.model(**tensors)
        model = self.unrestricted(training=True).eval()
        # Make REDUCE actions (arity >= 1) the best action everywhere: at step 0 the stack is empty.
        space = model.space()
        with torch.no_grad():
            model.new_action_bias = 1000.0
            model.new_action_mask.copy_(space["valid"] & (space["arity"] > 0))
        theirs = model(**tensors)
        ours_biased = self.unrestricted(training=True, decoding=True).eval()
        with torch.no_grad():
            ours_biased.new_action_bias = 1000.0
            ours_biased.new_action_mask.copy_(model.new_action_mask)
        restricted = ours_biased(**tensors)
        assert all(form is None for form in theirs["logical_form"])
        assert all(actions == [] for actions in theirs["predicted_actions"])
        assert all(form is not None for form in restricted["logical_form"])
        assert model.get_metrics()["exact_match"] == 0.0
        # Without the bias the check agrees with a step-by-step reading of the scores.
        model.new_action_bias = 0.0
        plain = model(**tensors)
        first = first_inapplicable_choice(model, *model.encode(tensors["source_tokens"]), ours["predicted_actions"])
        for row, step in enumerate(first):
            if step is None:
                assert plain["logical_form"][row] == ours["logical_form"][row]
            else:
                assert plain["logical_form"][row] is None
                assert plain["predicted_actions"][row] == ours["predicted_actions"][row][:step]

    def test_the_check_reads_the_scores_of_each_step_of_the_path(self):
        tensors = self.tensors()
        model = self.unrestricted(training=True).eval()
        encoded, mask = model.encode(tensors["source_tokens"])
        gold = [instance["metadata"]["actions"] for instance in self.instances]
        first = first_inapplicable_choice(model, encoded, mask, gold)
        with torch.no_grad():
            decoded, _, _ = model.teacher_forced(tensors)
            scores = torch.matmul(decoded.projections, model.action_matrix().t())
            space = model.space()
            best = scores.masked_fill(~space["valid"], float("-inf")).argmax(-1)
            takeable = applicable_mask(space, tensors["stack_size"])
        for row, actions in enumerate(gold):
            stuck = [t for t in range(len(actions)) if not takeable[row, t, best[row, t]]]
            assert first[row] == (stuck[0] if stuck else None)

    def test_unrestricted_decoding_is_greedy_only(self):
        config = json.loads(_jsonnet.evaluate_file(CONFIG))["model"]
        config.update(rerankers=[{"type": "dead_ends"}], beam_size=3)
        with pytest.raises(ConfigurationError, match="greedy"):
            Model.from_params(vocab=self.vocab, params=Params(copy.deepcopy(config)))


def test_the_faithful_configs_score_every_action_and_applicable_only_changes_only_that():
    from tests import rendered_row

    faithful, switched = rendered_row("ours", "geo", 1), rendered_row("applicable-only", "geo", 1)
    for config in (faithful["model"], faithful["pretraining"]["model"]):
        assert config["type"] == "proto_parser" and config["slot_variant"] == {"type": "authors"}  # the faithful model
        assert config.pop("restrict_training") is False and config.pop("rerankers") == [{"type": "dead_ends"}]
    for config in (switched["model"], switched["pretraining"]["model"]):
        assert "restrict_training" not in config and "rerankers" not in config
    assert faithful.pop("pretrained_archive") == "p/geo-ours/model.tar.gz"
    assert switched.pop("pretrained_archive") == "p/geo-applicable-only/model.tar.gz"
    assert switched == faithful
