"""
Loss terms build their layers only when they can use them (the attention regularizer's gate), and fine-tuning
loads a pre-training's weights strictly but for the layers of loss terms one of the two models does not build.
"""
import copy
import json
import logging
import os

import _jsonnet
import pytest
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.data import DatasetReader, Vocabulary
from allennlp.models import Model
from allennlp.models.archival import load_archive

import fewshot_parser  # noqa: F401
from fewshot_parser.modules.loss_terms import AttentionRegularizer
from fewshot_parser.training.pretrain_finetune import load_pretrained_weights
from tests import FIXTURES_ROOT, fixture_split, train_fixture_experiment

GATE = ["regularizer.gate.bias", "regularizer.gate.weight"]


def parameter_names(module) -> set:
    return {name for name, _ in module.named_parameters()}


@pytest.mark.parametrize(
    "settings",
    [
        {"weight": 0.0},
        {"weight": 0.0, "in_meta_batches": True},
        {"weight": 0.5, "conditional_feature": False},
        {"weight": 0.5, "similarity_feature": False},
    ],
)
def test_a_regularizer_that_cannot_use_its_gate_has_none(settings):
    regularizer = AttentionRegularizer(10, **settings)
    assert regularizer.gate is None and not list(regularizer.parameters())


def test_an_active_regularizer_with_both_features_has_its_gate():
    regularizer = AttentionRegularizer(10, weight=0.5)
    assert regularizer.active and parameter_names(regularizer) == {"gate.weight", "gate.bias"}


@pytest.fixture(scope="module")
def fixture_parts():
    config = json.loads(_jsonnet.evaluate_file(FIXTURES_ROOT + "/proto_parser/experiment.jsonnet"))
    reader = DatasetReader.from_params(Params(config["dataset_reader"]))
    vocab = Vocabulary.from_instances(reader.read(fixture_split("geo", "train")))
    return config["model"], vocab


def build(fixture_parts, **settings):
    model_config, vocab = fixture_parts
    return Model.from_params(vocab=vocab, params=Params({**copy.deepcopy(model_config), **settings}))


def test_the_parser_builds_the_gate_only_for_an_active_regularizer(fixture_parts):
    assert not any(name.startswith("regularizer.") for name in parameter_names(build(fixture_parts)))
    assert set(GATE) <= parameter_names(build(fixture_parts, attention_regularization=0.5))


def test_loading_leaves_out_the_gate_the_finetuning_model_does_not_build(fixture_parts, caplog):
    pretrained = build(fixture_parts, attention_regularization=0.5)
    final = build(fixture_parts)
    with caplog.at_level(logging.INFO):
        load_pretrained_weights(final, pretrained)
    assert any("Not loaded" in r.message and all(key in r.message for key in GATE) for r in caplog.records)
    state = pretrained.state_dict()
    assert all((value == state[name]).all() for name, value in final.state_dict().items() if name in state)


def test_a_gate_the_pretraining_did_not_build_starts_fresh(fixture_parts, caplog):
    pretrained = build(fixture_parts)
    final = build(fixture_parts, attention_regularization=0.5)
    with caplog.at_level(logging.INFO):
        load_pretrained_weights(final, pretrained)
    assert any("start fresh" in r.message and all(key in r.message for key in GATE) for r in caplog.records)


def test_any_other_mismatch_stays_an_error(fixture_parts):
    pretrained = build(fixture_parts, attention_regularization=0.5)
    with pytest.raises(ConfigurationError, match="missing .*lexical_linking"):
        load_pretrained_weights(build(fixture_parts, lexical_linking=True), pretrained)
    with pytest.raises(ConfigurationError, match="unexpected .*lexical_linking"):
        load_pretrained_weights(build(fixture_parts), build(fixture_parts, lexical_linking=True))


def test_finetuning_without_the_regularizer_from_a_pretraining_with_it_loads_and_trains(tmp_path, monkeypatch):
    pretrained = train_fixture_experiment(tmp_path, monkeypatch, {"model.attention_regularization": 0.0})
    assert set(GATE) <= parameter_names(load_archive(pretrained).model)
    assert "test_exact_match" in json.load(open(tmp_path / "run" / "metrics.json"))
    model = load_archive(str(tmp_path / "run" / "model.tar.gz")).model
    assert model.regularizer.gate is None and not any(name.startswith("regularizer.") for name in parameter_names(model))
    assert os.path.isfile(tmp_path / "run" / "best.th")


def test_a_state_dict_with_the_layers_the_parser_does_not_build_loads_strictly_and_nothing_else(fixture_parts):
    """As an archive saved when the gate and every slot layer were always built."""
    full = build(fixture_parts, attention_regularization=0.5).state_dict()
    authors = {"decoder": {"type": "authors", "input_dim": 6}, "slot_variant": {"type": "authors"},
               "decoder_dim": 8, "action_dim": 8}
    model = build(fixture_parts, **authors)
    state = {**model.state_dict(), **{k: v for k, v in full.items() if k.startswith(("regularizer.", "_slot_filler."))}}
    assert any(k.startswith("_slot_filler.entity_decoder") for k in state) and set(GATE) <= set(state)
    model.load_state_dict(state)  # strict
    with pytest.raises(RuntimeError, match="Unexpected key.*_slot_filler.bogus"):
        model.load_state_dict({**state, "_slot_filler.bogus": full["regularizer.gate.bias"]})
