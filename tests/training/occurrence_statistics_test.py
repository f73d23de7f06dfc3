"""The authors' occurrence-count P(a | x) (switch `conditional_counts: 'occurrences'`, docs/reproduction.md row 18)."""
import json
import os
from collections import Counter
from types import SimpleNamespace

import _jsonnet
import pytest
import torch
from allennlp.common import Params
from allennlp.data import DatasetReader, Vocabulary
from allennlp.models import Model
from allennlp.models.archival import load_archive

import fewshot_parser  # noqa: F401
from fewshot_parser.modules.alignment import conditional_matrix
from fewshot_parser.training.callbacks.occurrence_statistics import (
    OccurrenceStatisticsCallback, occurrence_conditional_matrix,
)
from tests import FIXTURES_ROOT, fixture_split, rendered_experiment, rendered_row, train_fixture_experiment


def authors_counts(examples, num_actions, num_tokens):
    """The authors' loop, written out: every action occurrence meets every word occurrence."""
    pair, per_word = Counter(), Counter()
    for actions, tokens in examples:
        for action in actions:
            for token in tokens:
                pair[action, token] += 1
                per_word[token] += 1
    table = torch.zeros(num_actions, num_tokens)
    for (action, token), count in pair.items():
        table[action, token] = count / per_word[token]
    return table


def test_occurrence_counts_follow_the_authors_loop_and_differ_from_presence_shares():
    # Repeated actions (0, 2) and words (1) make the two estimates differ.
    examples = [([0, 0, 1], [1, 1, 2]), ([2, 1], [1, 3]), ([0, 2, 2], [2])]
    occurrences = occurrence_conditional_matrix(examples, 4, 5)
    assert torch.allclose(occurrences, authors_counts(examples, 4, 5))
    # A distribution over actions for every word seen, nothing for the others.
    assert torch.allclose(occurrences.sum(0), torch.tensor([0.0, 1.0, 1.0, 1.0, 0.0]))
    presence = conditional_matrix(examples, 4, 5)
    # Word 1: action 1 is in both of its examples (presence 1), but meets 3 of its 8 occurrence pairs.
    assert presence[1, 1] == pytest.approx(1.0) and occurrences[1, 1] == pytest.approx(3 / 8)
    assert occurrence_conditional_matrix([], 4, 5).eq(0).all()


def test_the_callback_gives_the_model_the_occurrence_table_of_train_and_extra_data():
    config = json.loads(_jsonnet.evaluate_file(os.path.join(FIXTURES_ROOT, "proto_parser", "experiment.jsonnet")))
    reader = DatasetReader.from_params(Params(config["dataset_reader"]))
    support = list(reader.read(fixture_split("geo", "support")))
    train = list(reader.read(fixture_split("geo", "train")))
    vocab = Vocabulary.from_instances(train + support)
    model = Model.from_params(vocab=vocab, params=Params({**config["model"], "attention_regularization": 1.0}))
    trainer = SimpleNamespace(model=model, data_loader=SimpleNamespace(iter_instances=lambda: iter(support), reader=reader))
    OccurrenceStatisticsCallback("unused", extra_data_path=fixture_split("geo", "train")).on_start(trainer)

    def ids(instance):
        metadata = instance["metadata"].metadata
        return ([vocab.get_token_index(a, "actions") for a in metadata["actions"]],
                [vocab.get_token_index(t, "tokens") for t in metadata["utterance"]])

    expected = authors_counts([ids(i) for i in train + support], vocab.get_vocab_size("actions"), vocab.get_vocab_size("tokens"))
    assert torch.allclose(model.regularizer.conditional_table, expected)
    model.set_alignment_statistics([(i["metadata"].metadata["utterance"], i["metadata"].metadata["actions"]) for i in train + support])
    assert not torch.allclose(model.regularizer.conditional_table, expected)  # the presence shares differ


def test_a_tiny_experiment_pretrains_and_finetunes_with_the_switch_and_its_archive_loads(tmp_path, monkeypatch):
    callback = {"type": "fewshot_occurrence_statistics"}
    overrides = {
        "pretraining.trainer.callbacks": [callback],
        "trainer.callbacks": [{**callback, "extra_data_path": fixture_split("geo", "train")},
                              {"type": "fewshot_prototype_init"}, {"type": "fewshot_random_state"}],
    }
    pretrained = train_fixture_experiment(tmp_path, monkeypatch, overrides)
    assert "test_exact_match" in json.load(open(tmp_path / "run" / "metrics.json"))
    assert load_archive(str(tmp_path / "run" / "model.tar.gz")).model.vocab.get_vocab_size("actions") > 0
    assert load_archive(pretrained).config["trainer"]["callbacks"][0]["type"] == "fewshot_occurrence_statistics"


def test_faithful_config_counts_occurrences_and_the_switch_system_only_changes_the_statistics_callback():
    faithful = rendered_row("ours", "geo", 2)
    switched = rendered_row("presence-counts", "geo", 2)
    assert switched.pop("pretrained_archive") == "p/geo-presence-counts/model.tar.gz"
    faithful.pop("pretrained_archive")
    for config in (faithful["trainer"], faithful["pretraining"]["trainer"]):
        assert [c["type"] for c in config["callbacks"]].count("fewshot_occurrence_statistics") == 1
    for config in (switched["trainer"], switched["pretraining"]["trainer"]):
        assert [c["type"] for c in config["callbacks"]].count("fewshot_alignment_statistics") == 1
        for c in config["callbacks"]:
            if c["type"] == "fewshot_alignment_statistics":
                c["type"] = "fewshot_occurrence_statistics"
    assert switched == faithful
