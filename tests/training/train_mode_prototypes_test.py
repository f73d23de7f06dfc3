"""Prototypes computed with dropout, as the authors' fine-tuning does (`prototype_mode: 'train'`, docs/reproduction.md row 34)."""
import json

import torch
from allennlp.common import Params
from allennlp.common.testing import ModelTestCase
from allennlp.data import DataLoader, DatasetReader
from allennlp.models.archival import load_archive

import fewshot_parser  # noqa: F401
from fewshot_parser.training.callbacks.prototypes import PrototypeInitCallback
from fewshot_parser.training.callbacks.train_mode_prototypes import TrainModePrototypeInitCallback
from tests import FIXTURES_ROOT, fixture_split, rendered_experiment, rendered_row, train_fixture_experiment


class TestTrainModePrototypes(ModelTestCase):
    def setup_method(self):
        super().setup_method()
        self.set_up_model(FIXTURES_ROOT + "/proto_parser/experiment.jsonnet", fixture_split("geo", "train"))

    def extended(self, dropout: float):
        """The fixture model with dropout `dropout`, its vocabulary extended with the support set, and a support loader."""
        for module in self.model.modules():
            if isinstance(module, torch.nn.Dropout):
                module.p = dropout
        reader = DatasetReader.from_params(Params({"type": "fewshot_geoquery", "idiom_source": fixture_split("geo", "train"), "min_support": 2}))
        self.vocab.extend_from_instances(list(reader.read(fixture_split("geo", "support"))))
        self.model.extend_embedder_vocab()
        loader = DataLoader.from_params(Params({"batch_size": 2}), reader=reader, data_path=fixture_split("geo", "support"))
        loader.index_with(self.vocab)

        class Trainer:
            pass

        trainer = Trainer()
        trainer.model, trainer.data_loader = self.model, loader
        return trainer

    def rows_after(self, callback_type, trainer, seed: int = 3) -> torch.Tensor:
        before = trainer.model.action_embedding.data.clone()
        torch.manual_seed(seed)
        callback_type(self.TEST_DIR).on_start(trainer)
        rows = trainer.model.action_embedding.data.clone()
        trainer.model.action_embedding.data.copy_(before)
        return rows

    def test_without_dropout_the_prototypes_are_those_of_eval_mode_and_with_it_they_differ(self):
        trainer = self.extended(0.0)
        new = self.model.new_actions
        eval_rows = self.rows_after(PrototypeInitCallback, trainer)
        train_rows = self.rows_after(TrainModePrototypeInitCallback, trainer)
        assert torch.allclose(eval_rows, train_rows, atol=1e-5)
        for module in self.model.modules():
            if isinstance(module, torch.nn.Dropout):
                module.p = 0.5
        self.model.train()
        train_rows = self.rows_after(TrainModePrototypeInitCallback, trainer)
        assert self.model.training  # the mode the trainer had is kept
        assert not torch.allclose(eval_rows[new], train_rows[new], atol=1e-3)
        old = [i for i in range(eval_rows.size(0)) if i not in set(new)]
        assert torch.equal(train_rows[old], eval_rows[old])  # only the new rows are set
        # Seeded: the same random numbers give the same rows.
        assert torch.equal(train_rows, self.rows_after(TrainModePrototypeInitCallback, trainer))


def test_a_tiny_experiment_finetunes_with_train_mode_prototypes_and_its_archive_loads(tmp_path, monkeypatch):
    overrides = {"model.dropout": 0.3, "trainer.callbacks": [
        {"type": "fewshot_alignment_statistics"}, {"type": "fewshot_prototype_init_train_mode"}, {"type": "fewshot_random_state"}]}
    pretrained = train_fixture_experiment(tmp_path, monkeypatch, overrides)
    assert "test_exact_match" in json.load(open(tmp_path / "run" / "metrics.json"))
    archive = load_archive(str(tmp_path / "run" / "model.tar.gz"))
    assert archive.config["trainer"]["callbacks"][1]["type"] == "fewshot_prototype_init_train_mode"


def test_faithful_config_uses_train_mode_prototypes_and_the_switch_system_only_changes_that_callback():
    faithful = rendered_row("ours", "jobs", 1)
    switched = rendered_row("eval-prototypes", "jobs", 1)
    assert switched["pretrained_archive"] == faithful["pretrained_archive"]  # fine-tuning only: the faithful archive
    assert faithful["trainer"]["callbacks"][1] == {"type": "fewshot_prototype_init_train_mode"}
    assert switched["trainer"]["callbacks"][1] == {"type": "fewshot_prototype_init"}
    switched["trainer"]["callbacks"][1] = {"type": "fewshot_prototype_init_train_mode"}
    assert switched == faithful
