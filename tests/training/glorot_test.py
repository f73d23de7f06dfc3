"""The `fewshot_glorot_init` callback: which parameters it redraws, and that a resumed run does not redraw."""
import json
import os
import re
from types import SimpleNamespace

import _jsonnet
import torch
from allennlp.models.archival import load_archive

import fewshot_parser  # noqa: F401
from fewshot_parser.training.callbacks.glorot import GlorotInitCallback
from tests import PROJECT_ROOT
from tests.training.fewshot_test import _die_after_checkpoint, _fixture_pretraining


class _Tiny(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self._source_embedder = torch.nn.Embedding(5, 3)
        self.projection = torch.nn.Linear(3, 4)
        self.table = torch.nn.Parameter(torch.zeros(6, 2))


def test_matrices_are_redrawn_and_vectors_and_word_rows_kept(tmp_path):
    torch.manual_seed(0)
    model = _Tiny()
    before = {name: value.clone() for name, value in model.state_dict().items()}
    callback = GlorotInitCallback(str(tmp_path))
    callback.on_start(SimpleNamespace(model=model))
    after = model.state_dict()
    assert not torch.equal(before["projection.weight"], after["projection.weight"])
    assert not torch.equal(before["table"], after["table"])  # all zeros before
    assert torch.equal(before["projection.bias"], after["projection.bias"])  # 1-d
    assert torch.equal(before["_source_embedder.weight"], after["_source_embedder.weight"])  # excluded
    assert callback.state_dict() == {"done": True}


def test_a_restored_callback_leaves_the_weights_alone(tmp_path):
    model = _Tiny()
    before = {name: value.clone() for name, value in model.state_dict().items()}
    callback = GlorotInitCallback(str(tmp_path), exclude=[])
    callback.load_state_dict({"done": True})
    callback.on_start(SimpleNamespace(model=model))
    assert all(torch.equal(value, model.state_dict()[name]) for name, value in before.items())


def test_nothing_to_initialise_is_an_error(tmp_path):
    callback = GlorotInitCallback(str(tmp_path), exclude=[".*"])
    try:
        callback.on_start(SimpleNamespace(model=_Tiny()))
    except ValueError as error:
        assert "fewshot_glorot_init" in str(error)
    else:
        raise AssertionError("expected a ValueError")


def test_an_interrupted_pretraining_with_glorot_init_resumes_exactly(tmp_path, monkeypatch):
    from allennlp.training.checkpointer import Checkpointer

    from fewshot_parser.training.pretrain_finetune import ensure_pretrained

    monkeypatch.chdir(PROJECT_ROOT)
    pretraining = _fixture_pretraining(epochs=3, random_state=True)
    pretraining["trainer"]["callbacks"].insert(0, {"type": "fewshot_glorot_init"})
    whole = ensure_pretrained(str(tmp_path / "whole" / "model.tar.gz"), pretraining)

    save = _die_after_checkpoint(monkeypatch, epoch=1)
    target = str(tmp_path / "resumed" / "model.tar.gz")
    try:
        ensure_pretrained(target, pretraining)
    except KeyboardInterrupt:
        pass
    monkeypatch.setattr(Checkpointer, "save_checkpoint", save)
    ensure_pretrained(target, pretraining)

    first = load_archive(whole).model.state_dict()
    resumed = load_archive(target).model.state_dict()
    assert all(torch.equal(value, resumed[name]) for name, value in first.items())


def test_the_faithful_configs_start_pretraining_with_glorot_init_and_no_glorot_drops_only_that():
    ext = {"FEWSHOT_SPLIT": "2", "FEWSHOT_SEED": "13", "FEWSHOT_PRETRAIN_DIR": "runs/pretrain"}

    from fewshot_parser.commands.systems import read_systems, render_config

    rows = read_systems(["experiments/systems.jsonnet", "lab/systems.jsonnet"])

    def render(name):
        config = render_config(rows[name][2].format(dataset="jobs", shot=1), ext)
        config.pop("teaching_recipe", None)  # which run's fine-tuning the archive keeps for `teach`
        return config

    faithful, switched = render("ours"), render("no-glorot")
    assert faithful["pretraining"]["trainer"]["callbacks"][0] == {"type": "fewshot_glorot_init"}
    assert {"type": "fewshot_glorot_init"} not in switched["pretraining"]["trainer"]["callbacks"]
    assert {"type": "fewshot_glorot_init"} not in faithful["trainer"]["callbacks"]  # pre-training only
    assert re.search(r"jobs-no-glorot/model\.tar\.gz$", switched["pretrained_archive"])
    for config in (switched, faithful):
        config.pop("pretrained_archive")
        config["pretraining"]["trainer"]["callbacks"] = [
            c for c in config["pretraining"]["trainer"]["callbacks"] if c["type"] != "fewshot_glorot_init"]
    assert switched == faithful
