"""`allennlp train --recover` of an interrupted fine-tuning ends with the weights of an uninterrupted run."""
import json
import os

import _jsonnet
import pytest
import torch
from allennlp.commands.train import train_model
from allennlp.common import Params
from allennlp.common.util import pushd
from allennlp.models.archival import load_archive
from allennlp.training.checkpointer import Checkpointer

import fewshot_parser  # noqa: F401
from tests import FIXTURES_ROOT, PROJECT_ROOT


def _finetuning(pretrained: str, random_state: bool) -> dict:
    """The fixture experiment, fine-tuning 4 epochs with dropout (randomness a resumed run must replay)."""
    config = json.loads(_jsonnet.evaluate_file(os.path.join(FIXTURES_ROOT, "fewshot", "experiment.jsonnet"),
                                               ext_vars={"PRETRAINED": pretrained}))
    config["model"]["dropout"] = 0.3
    config["trainer"]["num_epochs"] = 4
    if not random_state:
        config["trainer"]["callbacks"].remove({"type": "fewshot_random_state"})
    return config


@pytest.fixture(scope="module")
def pretrained(tmp_path_factory):
    """The fixture's pre-trained archive, built once for the tests of this module."""
    from fewshot_parser.training.pretrain_finetune import ensure_pretrained

    path = str(tmp_path_factory.mktemp("pretrain") / "geo" / "model.tar.gz")
    with pushd(PROJECT_ROOT):
        return ensure_pretrained(path, _finetuning(path, True)["pretraining"])


@pytest.mark.parametrize("random_state", [True, False])
def test_an_interrupted_finetuning_resumes_exactly(tmp_path, monkeypatch, pretrained, random_state):
    monkeypatch.chdir(PROJECT_ROOT)
    config = _finetuning(pretrained, random_state)
    train_model(Params(json.loads(json.dumps(config))), str(tmp_path / "whole"))

    save = Checkpointer.save_checkpoint

    def save_then_die(self, trainer):
        save(self, trainer)
        if trainer._epochs_completed == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(Checkpointer, "save_checkpoint", save_then_die)
    with pytest.raises(KeyboardInterrupt):
        train_model(Params(json.loads(json.dumps(config))), str(tmp_path / "resumed"))
    monkeypatch.setattr(Checkpointer, "save_checkpoint", save)
    train_model(Params(json.loads(json.dumps(config))), str(tmp_path / "resumed"), recover=True)

    whole = load_archive(str(tmp_path / "whole" / "model.tar.gz")).model.state_dict()
    resumed = load_archive(str(tmp_path / "resumed" / "model.tar.gz")).model.state_dict()
    same = all(torch.equal(value, resumed[name]) for name, value in whole.items())
    assert same == random_state  # dropout draws what it would have drawn only with the callback
    losses = [json.load(open(tmp_path / run / "metrics_epoch_3.json"))["training_loss"]
              for run in ("whole", "resumed")]
    assert (losses[0] == losses[1]) == random_state
