"""The authors' supervised-attention candidates (`attention_candidates: 'authors'`, docs/reproduction.md row 15)."""
import json
import os
from types import SimpleNamespace

import _jsonnet
import torch
from allennlp.common import Params
from allennlp.data import DatasetReader, Vocabulary
from allennlp.models import Model
from allennlp.models.archival import load_archive

import fewshot_parser  # noqa: F401
from fewshot_parser.modules.alignment import attention_candidate_matrix
from fewshot_parser.training.callbacks.authors_candidates import (
    AuthorsAttentionCandidatesCallback, authors_candidate_matrix, authors_symbols,
)
from tests import FIXTURES_ROOT, fixture_split, rendered_experiment, rendered_row, train_fixture_experiment


def test_a_reduce_attends_to_its_head_only_and_other_actions_to_every_label():
    assert authors_symbols("REDUCE ( lambda <v> e <NT> )") == ["lambda"]
    assert authors_symbols("REDUCE ( \\+ <NT> )") == ["\\+"]
    assert authors_symbols("GEN ( next_to:t <v> <v> )") == ["next", "to:t"]
    assert authors_symbols("STOP") == []


def test_candidates_differ_from_ours_by_the_reduce_head_and_the_lexicon():
    actions = ["REDUCE ( lambda <v> e <NT> )", "REDUCE ( argmax <v> <NT> <NT> )", "GEN ( loc:t <v> <e:s> )", None]
    tokens = ["every", "lambda", "highest", "in", "where", "a"]
    ours = attention_candidate_matrix(actions, tokens)
    theirs = authors_candidate_matrix(actions, tokens)
    assert ours[0].tolist() == [1, 1, 0, 0, 0, 0]  # `e` makes `every` a candidate for us
    assert theirs[0].tolist() == [0, 1, 0, 0, 0, 0]
    assert ours[1].tolist() == [0, 0, 0, 0, 0, 0] and theirs[1].tolist() == [0, 0, 1, 0, 0, 0]  # lexicon: highest
    assert theirs[2].tolist() == [0, 0, 0, 1, 1, 0]  # loc:t -> in, where (lexicon); one-letter words never
    assert theirs[3].eq(0).all()


def test_the_callback_sets_the_table_the_supervised_attention_loss_uses():
    config = json.loads(_jsonnet.evaluate_file(os.path.join(FIXTURES_ROOT, "proto_parser", "experiment.jsonnet")))
    reader = DatasetReader.from_params(Params(config["dataset_reader"]))
    instances = list(reader.read(fixture_split("geo", "train")))
    vocab = Vocabulary.from_instances(instances)
    model = Model.from_params(vocab=vocab, params=Params({**config["model"], "supervised_attention": 1.0}))
    ours = model.supervision.candidate_table(model).clone()
    AuthorsAttentionCandidatesCallback("unused").on_start(SimpleNamespace(model=model))
    strings = [vocab.get_token_from_index(i, "actions") if a is not None else None for i, a in enumerate(model.action_space.actions)]
    tokens = [vocab.get_token_from_index(i, "tokens") for i in range(vocab.get_vocab_size("tokens"))]
    expected = authors_candidate_matrix(strings, tokens)
    assert torch.equal(model.supervision.candidate_table(model), expected)  # what the loss reads
    assert not torch.equal(ours, expected)


def test_a_tiny_experiment_trains_with_the_authors_candidates_and_its_archive_loads(tmp_path, monkeypatch):
    callback = {"type": "fewshot_authors_attention_candidates"}
    overrides = {
        "pretraining.model.supervised_attention": 1.0, "model.supervised_attention": 1.0,
        "pretraining.trainer.callbacks": [{"type": "fewshot_alignment_statistics"}, callback],
        "trainer.callbacks": [{"type": "fewshot_alignment_statistics"}, {"type": "fewshot_prototype_init"}, callback],
    }
    pretrained = train_fixture_experiment(tmp_path, monkeypatch, overrides)
    assert "test_exact_match" in json.load(open(tmp_path / "run" / "metrics.json"))
    assert load_archive(str(tmp_path / "run" / "model.tar.gz")).config["trainer"]["callbacks"][2] == callback
    assert load_archive(pretrained).config["trainer"]["callbacks"][1] == callback


def test_faithful_config_has_the_callback_and_the_switch_system_only_removes_it():
    faithful = rendered_row("ours", "geo", 1)
    switched = rendered_row("label-candidates", "geo", 1)
    assert switched.pop("pretrained_archive") == "p/geo-label-candidates/model.tar.gz"
    faithful.pop("pretrained_archive")
    for config in (faithful["trainer"], faithful["pretraining"]["trainer"]):
        assert config["callbacks"].pop() == {"type": "fewshot_authors_attention_candidates"}
    assert switched == faithful


def test_the_faithful_config_combines_the_four_authors_behaviours():
    config = rendered_row("ours", "geo", 2)
    assert config["pretrained_archive"] == "p/geo-ours/model.tar.gz"
    assert config["model"]["slot_variant"] == config["pretraining"]["model"]["slot_variant"] == {"type": "authors"}
    pretraining = [c["type"] for c in config["pretraining"]["trainer"]["callbacks"]]
    finetuning = [c["type"] for c in config["trainer"]["callbacks"]]
    for callbacks in (pretraining, finetuning):
        assert "fewshot_occurrence_statistics" in callbacks and "fewshot_authors_attention_candidates" in callbacks
        assert "fewshot_alignment_statistics" not in callbacks
    assert "fewshot_prototype_init_train_mode" in finetuning
