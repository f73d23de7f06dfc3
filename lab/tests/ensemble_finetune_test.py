"""Ensembles in the few-shot pipeline: fine-tuning each member, archiving, reloading, predicting."""
import json
import os

import _jsonnet
import pytest
import torch
from allennlp.commands.train import train_model_from_file
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.common.lazy import Lazy
from allennlp.data import DataLoader
from allennlp.models import Model
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor
from allennlp.training.util import evaluate

import fewshot_parser  # noqa: F401
from fewshot_lab.models.ensemble import FewShotEnsemble
from fewshot_lab.training.ensemble_finetune import ensemble_members
from tests import FIXTURES_ROOT, PROJECT_ROOT

pytestmark = pytest.mark.usefixtures("in_project_root")


@pytest.fixture
def in_project_root(monkeypatch):
    monkeypatch.chdir(PROJECT_ROOT)


@pytest.fixture(scope="module")
def plain(tmp_path_factory):
    """A plain (single-model) run of the fixture experiment with seed 1, which also pre-trains the
    archive the module's runs share: `{"archive": pre-trained archive, "run": the run's directory}`."""
    directory = tmp_path_factory.mktemp("ensemble")
    archive = str(directory / "pretrain" / "model.tar.gz")
    before = os.getcwd()
    os.chdir(PROJECT_ROOT)
    try:
        run(experiment(archive), directory / "plain_seed1")
    finally:
        os.chdir(before)
    return {"archive": archive, "run": str(directory / "plain_seed1" / "run")}


@pytest.fixture
def pretrained(plain):
    return plain["archive"]


def experiment(pretrained: str, members: int = 0, seed: int = 1) -> dict:
    """The fixture experiment with dropout and shuffling in fine-tuning (so that seeds matter), its
    model a `fewshot_ensemble` of `members` copies (0: the plain model), fine-tuned from `seed`."""
    config = json.loads(_jsonnet.evaluate_file(os.path.join(FIXTURES_ROOT, "fewshot", "experiment.jsonnet"),
                                               ext_vars={"PRETRAINED": pretrained}))
    config["model"]["dropout"] = 0.3
    config["finetune_seed"] = seed
    if members:
        config["model"] = {"type": "fewshot_ensemble", "members": [config["model"]] * members, "combine": "vote"}
        config["type"] = "fewshot_ensemble_finetune"
    return config


def run(config: dict, directory) -> dict:
    """Trains `config` into `directory/run` (the config beside it); returns its metrics."""
    directory.mkdir(parents=True, exist_ok=True)
    path = str(directory) + ".json"
    with open(path, "w") as handle:
        json.dump(config, handle)
    train_model_from_file(path, str(directory / "run"))
    with open(directory / "run" / "metrics.json") as handle:
        return json.load(handle)


def weights(archive: str) -> dict:
    return load_archive(archive).model.state_dict()


def test_an_ensemble_of_two_trains_saves_loads_evaluates_and_predicts(tmp_path, plain, pretrained):
    metrics = run(experiment(pretrained, members=2), tmp_path / "ens")
    run_dir = tmp_path / "ens" / "run"
    assert metrics["ensemble_size"] == 2 and "member_1_training_loss" in metrics
    assert {"test_exact_match", "test_member_exact_match", "test_any_member_exact_match"} <= set(metrics)
    assert (run_dir / "member_0" / "best.th").is_file() and (run_dir / "member_1" / "best.th").is_file()
    # Member i is the plain run with finetune_seed + i: member 0 is exactly today's single model.
    members = load_archive(str(run_dir / "model.tar.gz")).model
    assert isinstance(members, FewShotEnsemble) and len(members.members) == 2
    second = run(experiment(pretrained, seed=2), tmp_path / "plain_seed2")
    for index, plain_run in enumerate([plain["run"], str(tmp_path / "plain_seed2" / "run")]):
        single = weights(os.path.join(plain_run, "model.tar.gz"))
        for name, value in single.items():
            assert torch.equal(value, members.state_dict()[f"members.{index}.{name}"]), (index, name)
    first = json.load(open(os.path.join(plain["run"], "metrics.json")))
    assert metrics["test_member_exact_match"] == pytest.approx(
        (first["test_exact_match"] + second["test_exact_match"]) / 2)
    # `allennlp evaluate` of the archive gives the numbers of the training-time evaluation.
    archive = load_archive(str(run_dir / "model.tar.gz"))
    loader = DataLoader.from_params(Params({"batch_size": 8}), reader=archive.validation_dataset_reader,
                                    data_path=experiment(pretrained)["test_data_path"])
    loader.index_with(archive.model.vocab)
    evaluated = evaluate(archive.model, loader, cuda_device=-1)
    for key in ("exact_match", "exact_match_unordered", "member_exact_match", "any_member_exact_match"):
        assert evaluated[key] == pytest.approx(metrics["test_" + key]), key
    # `allennlp predict` uses the parser's predictor on the ensemble archive.
    predictor = Predictor.from_archive(archive)
    result = predictor.predict_json({"utterance": "how many river run through s0"})
    assert {"logical_form", "actions", "score", "votes", "member_logical_forms"} <= set(result)
    assert 1 <= result["votes"] <= 2 and len(result["member_logical_forms"]) == 2


def test_an_ensemble_of_one_gives_exactly_the_plain_run(tmp_path, plain, pretrained):
    plain_dir = plain["run"]
    plain = json.load(open(os.path.join(plain_dir, "metrics.json")))
    metrics = run(experiment(pretrained, members=1), tmp_path / "one")
    assert metrics["test_exact_match"] == plain["test_exact_match"] == metrics["test_member_exact_match"]
    assert metrics["test_exact_match_unordered"] == plain["test_exact_match_unordered"]
    alone = weights(os.path.join(plain_dir, "model.tar.gz"))
    combined = weights(str(tmp_path / "one" / "run" / "model.tar.gz"))
    assert all(torch.equal(value, combined[f"members.0.{name}"]) for name, value in alone.items())


def test_the_same_ensemble_config_gives_the_same_ensemble(tmp_path, pretrained):
    first = run(experiment(pretrained, members=2), tmp_path / "a")
    second = run(experiment(pretrained, members=2), tmp_path / "b")
    assert {k: v for k, v in first.items() if k.startswith("test_")} == \
        {k: v for k, v in second.items() if k.startswith("test_")}
    one, other = (weights(str(tmp_path / name / "run" / "model.tar.gz")) for name in ("a", "b"))
    assert all(torch.equal(value, other[name]) for name, value in one.items())


def test_an_ensemble_row_is_its_single_rows_fine_tuned_model_five_times():
    """ours-ens5: the faithful row's pre-training and archive, its fine-tuned model five times, by vote."""
    from tests import rendered_row

    five, one = rendered_row("ours-ens5", "geo", 1), rendered_row("ours", "geo", 1)
    assert five["model"]["type"] == "fewshot_ensemble" and five["model"]["combine"] == "vote"
    assert five["type"] == "fewshot_ensemble_finetune" and one["type"] == "fewshot_pretrain_finetune"
    assert five["model"]["members"] == [one["model"]] * 5
    assert five["pretraining"] == one["pretraining"] and five["pretrained_archive"] == one["pretrained_archive"]


@pytest.mark.parametrize("config, message", [
    ({"members": []}, "an ensemble needs at least one member, got 0"),
    ({"members": [{"type": "proto_parser"}], "combine": "average"}, "ensemble combine must be one of vote, rescore, not 'average'"),
    ({"members": [{"type": "proto_parser"}], "size": 3}, "fewshot_ensemble does not take size"),
])
def test_bad_ensemble_configs_fail_before_training_with_one_line(config, message):
    with pytest.raises(ConfigurationError) as error:
        ensemble_members(Lazy(Model, Params({"type": "fewshot_ensemble", **config})))
    assert error.value.message == message


def test_an_ensemble_needs_a_finetune_seed(tmp_path):
    config = experiment(str(tmp_path / "never" / "model.tar.gz"), members=2)
    config.pop("finetune_seed")
    with pytest.raises(ConfigurationError, match="needs finetune_seed"):
        run(config, tmp_path / "noseed")
    assert not (tmp_path / "never").exists()  # nothing was pre-trained


def test_an_ensemble_with_frozen_minilm_words_stores_them_once(tmp_path):
    """Members that share the reader share its MiniLM indexer, which adds its word pieces to the first
    member's vocabulary only; the frozen MiniLM, the same in every member, is saved once."""
    from tests.training.fewshot_test import _with_minilm_words

    path = _with_minilm_words(str(tmp_path / "single.json"), str(tmp_path / "pretrain" / "model.tar.gz"))
    with open(path) as handle:
        config = json.load(handle)
    config["model"] = {"type": "fewshot_ensemble", "members": [config["model"]] * 2}
    config["type"] = "fewshot_ensemble_finetune"
    metrics = run(config, tmp_path / "ens")
    assert metrics["ensemble_size"] == 2 and "test_exact_match" in metrics
    state = torch.load(str(tmp_path / "ens" / "run" / "best.th"), map_location="cpu")
    frozen = [name[len("members.0."):] for name in state if name.startswith("members.0._source_embedder.token_embedder_pieces.")]
    assert frozen and all(state[f"members.0.{name}"].data_ptr() == state[f"members.1.{name}"].data_ptr() for name in frozen)
    assert state["members.0.action_embedding"].data_ptr() != state["members.1.action_embedding"].data_ptr()
    result = Predictor.from_path(str(tmp_path / "ens" / "run" / "model.tar.gz")).predict_json(
        {"utterance": "how many river run through s0"})
    assert len(result["member_logical_forms"]) == 2
