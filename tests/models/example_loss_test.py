"""The authors' loss normalisation: per-example sums averaged over the batch (proto_parser's loss_reduction "example")."""
import copy
import json

import _jsonnet
import pytest
import torch
from allennlp.common import Params
from allennlp.common.testing import ModelTestCase
from allennlp.data import Batch
from allennlp.models import Model

import fewshot_parser  # noqa: F401
from fewshot_parser.models.proto_parser import per_example
from tests import FIXTURES_ROOT, PROJECT_ROOT, fixture_split, rendered_row

CONFIG = FIXTURES_ROOT + "/proto_parser/experiment.jsonnet"


class TestPerExampleLoss(ModelTestCase):
    def setup_method(self):
        super().setup_method()
        self.set_up_model(CONFIG, fixture_split("geo", "train"))

    def parser(self, loss_reduction: str, **switches) -> Model:
        config = json.loads(_jsonnet.evaluate_file(CONFIG))["model"]
        config.update({"loss_reduction": loss_reduction, "attention_regularization": 1.0, "supervised_attention": 1.0,
                       **switches})
        torch.manual_seed(0)
        model = Model.from_params(vocab=self.vocab, params=Params(copy.deepcopy(config)))
        model.set_alignment_statistics([
            ([t.text for t in i["source_tokens"].tokens], i["metadata"].metadata["actions"]) for i in self.instances
        ])
        return model

    def tensors(self, instances):
        batch = Batch(instances)
        batch.index_instances(self.vocab)
        return batch.as_tensor_dict()

    def test_model_can_train_save_and_load(self):
        overrides = {"model.loss_reduction": "example", "model.attention_regularization": 1.0,
                     "model.supervised_attention": 1.0, "model.decoder": {"type": "authors", "input_dim": 6}}
        self.ensure_model_can_train_save_and_load(
            self.param_file, tolerance=1e-3, overrides=json.dumps(overrides),
            gradients_to_ignore={"regularizer.gate.weight", "regularizer.gate.bias"},
        )

    def test_batch_loss_is_the_mean_of_the_examples_losses(self):
        model = self.parser("example").eval()
        steps = [len(i["metadata"].metadata["actions"]) for i in self.instances]
        assert len(set(steps)) > 1  # examples of different lengths, or any normalisation would pass
        batch = model(**self.tensors(self.instances))["loss"]
        alone = torch.stack([model(**self.tensors([i]))["loss"] for i in self.instances])
        assert torch.allclose(batch, alone.mean(), atol=1e-5)
        # Per-step means weigh the examples by their lengths instead.
        steps_model = self.parser("step").eval()
        steps_model.load_state_dict(model.state_dict())
        batch = steps_model(**self.tensors(self.instances))["loss"]
        alone = torch.stack([steps_model(**self.tensors([i]))["loss"] for i in self.instances])
        assert not torch.allclose(batch, alone.mean(), atol=1e-3)

    def test_attention_terms_are_averaged_over_the_examples_that_have_them(self):
        model = self.parser("example")
        model.eval()  # no dropout: one example alone is decoded as in the batch
        terms = []
        for instances in [self.instances] + [[i] for i in self.instances]:
            tensors = self.tensors(instances)
            decoded, _, mask = model.teacher_forced(tensors)
            args = (tensors["actions"], tensors["source_tokens"], mask)
            terms.append(torch.stack([model.regularizer.loss(model, decoded, *args),
                                      model.supervision.loss(model, decoded, *args)]))
        batch, alone = terms[0], torch.stack(terms[1:])
        assert (alone > 0).any(0).all()
        expected = alone.sum(0) / (alone > 0).sum(0)
        assert torch.allclose(batch, expected, atol=1e-5)

    def test_per_example_factor(self):
        counts = torch.tensor([3, 0, 5])
        assert per_example(counts).item() == pytest.approx(8 / 3)
        assert per_example(counts, over_examples_with_steps=True).item() == 4.0
        assert per_example(torch.tensor([0, 0]), over_examples_with_steps=True).item() == 0.0

    def test_faithful_config_sums_per_example_and_the_switch_system_only_changes_that_and_the_slot_states(self):
        faithful = rendered_row("ours", "geo", 2)
        switched = rendered_row("step-loss", "geo", 2)
        assert switched.pop("pretrained_archive") == "p/geo-step-loss/model.tar.gz"
        faithful.pop("pretrained_archive")
        # Both keep the authors' classified entity slots (the switch with our slot states).
        for config in (faithful["model"], faithful["pretraining"]["model"]):
            assert config.pop("loss_reduction") == "example" and config.pop("slot_variant") == {"type": "authors"}
        for config in (switched["model"], switched["pretraining"]["model"]):
            assert "loss_reduction" not in config
            assert config.pop("slot_variant") == {"type": "classified_entities", "readout": "decoder"}
        assert switched == faithful
