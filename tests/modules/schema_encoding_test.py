import json
import os

import pytest
import torch
from allennlp.common.checks import ConfigurationError
from allennlp.common.testing import ModelTestCase
from allennlp.data import Batch

import fewshot_parser  # noqa: F401
from fewshot_parser.models.proto_parser import ProtoParser
from fewshot_parser.modules.action_scorers import SchemaEncoding
from fewshot_parser.modules.schema_linking import EXACT
from tests import FIXTURES_ROOT, PROJECT_ROOT, fixture_split


class TestSchemaEncoding(ModelTestCase):
    """`proto_parser` with the `schema_encoding` action scorer: the paper's IRNet baseline."""

    def setup_method(self):
        super().setup_method()
        self.set_up_model(FIXTURES_ROOT + "/irnet/experiment.jsonnet", fixture_split("geo", "train"))

    def test_model_can_train_save_and_load(self):
        self.ensure_model_can_train_save_and_load(self.param_file, tolerance=1e-3)

    def test_batch_predictions_are_consistent(self):
        self.ensure_batch_predictions_are_consistent()

    def test_schema_scores_depend_on_how_the_utterance_mentions_a_predicate(self):
        """A predicate named in the utterance gets its 'exact' type, and the action's schema score changes with it."""
        batch = Batch(self.instances)
        batch.index_instances(self.vocab)
        tensors = batch.as_tensor_dict()
        self.model.eval()
        scorer = self.model.action_scorers[0]
        _, predicate_types = scorer.link(self.model, tensors["source_tokens"])
        assert (predicate_types == EXACT).any()
        with torch.no_grad():
            schema = scorer.schema_actions(self.model, tensors["source_tokens"])
            scorer._predicate_type_embedding.weight[EXACT] += 1.0
            changed = scorer.schema_actions(self.model, tensors["source_tokens"])
        assert schema.shape == (len(self.instances), self.model.action_embedding.size(0), self.model.action_embedding.size(1))
        assert not torch.allclose(schema, changed)

    def test_needs_word_embeddings_named_tokens(self):
        from allennlp.common import Params
        from allennlp.models import Model

        config = Params.from_file(self.param_file).as_dict()["model"]
        config["source_embedder"] = {"token_embedders": {"tokens": {"type": "empty"}}}
        with pytest.raises(ConfigurationError, match="'embedding' token embedder named 'tokens'"):
            Model.from_params(vocab=self.vocab, params=Params(config))

    def test_pt_setting_adds_new_actions_that_score_from_their_names(self, tmp_path, monkeypatch):
        from allennlp.commands.train import train_model_from_file
        from allennlp.models.archival import load_archive

        monkeypatch.chdir(PROJECT_ROOT)
        pretrained = str(tmp_path / "pretrain" / "model.tar.gz")
        monkeypatch.setenv("PRETRAINED", pretrained)
        train_model_from_file(os.path.join(FIXTURES_ROOT, "irnet", "pt.jsonnet"), str(tmp_path / "run"))
        before = load_archive(pretrained).model
        after = load_archive(str(tmp_path / "run" / "model.tar.gz")).model
        assert after.action_embedding.size(0) > before.action_embedding.size(0)
        assert len(after.action_scorers[0].schema(after).action_predicates) == after.action_embedding.size(0)
        assert "test_exact_match" in json.load(open(tmp_path / "run" / "metrics.json"))
