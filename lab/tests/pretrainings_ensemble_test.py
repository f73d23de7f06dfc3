"""An ensemble over several pre-trainings: each part as its own run, the vote of all members, archiving."""
import json
import os

import _jsonnet
import pytest
import torch
from allennlp.common.checks import ConfigurationError
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor

import fewshot_parser  # noqa: F401
from fewshot_lab.models.ensemble import FewShotEnsemble
from fewshot_lab.training.pretrainings_ensemble import check_parts
from allennlp.commands.train import train_model_from_file

from fewshot_parser.common.errors import UserError
from fewshot_parser.training.config_check import check_experiment
from tests import FIXTURES_ROOT, PROJECT_ROOT
from tests.training.config_check_test import no_archive  # noqa: F401  (a fixture)
from ensemble_finetune_test import run as train  # trains a config into <directory>/run

pytestmark = pytest.mark.usefixtures("in_project_root")


@pytest.fixture
def in_project_root(monkeypatch):
    monkeypatch.chdir(PROJECT_ROOT)


def part(archive: str, seed: int, members: int) -> dict:
    """The fixture experiment from `archive`, pre-trained and fine-tuned with `seed`, as an ensemble
    of `members` fine-tunings (1: the plain model); dropout makes the seeds matter."""
    config = json.loads(_jsonnet.evaluate_file(os.path.join(FIXTURES_ROOT, "fewshot", "experiment.jsonnet"),
                                               ext_vars={"PRETRAINED": archive}))
    config["model"]["dropout"] = 0.3
    config["finetune_seed"] = seed
    for holder in (config, config["pretraining"]):
        holder.update(random_seed=seed, numpy_seed=seed, pytorch_seed=seed)
    if members > 1:
        config["model"] = {"type": "fewshot_ensemble", "members": [config["model"]] * members, "combine": "vote"}
        config["type"] = "fewshot_ensemble_finetune"
    return config


def ensemble(parts: list) -> dict:
    """A `fewshot_pretrainings_ensemble` config over `parts`."""
    members = [m for p in parts for m in (p["model"]["members"] if p["model"]["type"] == "fewshot_ensemble" else [p["model"]])]
    return {
        "type": "fewshot_pretrainings_ensemble", "experiments": parts,
        "pretrained_archive": parts[0]["pretrained_archive"], "pretraining": parts[0]["pretraining"],
        "dataset_reader": parts[0]["dataset_reader"], "test_data_path": parts[0]["test_data_path"],
        "validation_data_loader": parts[0]["validation_data_loader"], "evaluate_on_test": True,
        "model": {"type": "fewshot_ensemble", "members": members, "combine": "vote"},
        "random_seed": 1, "numpy_seed": 1, "pytorch_seed": 1,
    }


def test_two_pretrainings_pretrain_fine_tune_vote_archive_and_predict(tmp_path):
    archives = [str(tmp_path / f"pretrain{seed}" / "model.tar.gz") for seed in (1, 11)]
    parts = [part(archives[0], 1, 2), part(archives[1], 11, 2)]
    metrics = train(ensemble(parts), tmp_path / "ens")
    run_dir = tmp_path / "ens" / "run"
    # Each part pre-trained its own archive, with its own seed, and fine-tuned its members.
    assert all(os.path.isfile(a) for a in archives)
    first, second = (load_archive(a).model.state_dict() for a in archives)
    assert any(not torch.equal(first[name], second[name]) for name in first)
    assert metrics["pretrainings"] == 2 and metrics["ensemble_size"] == 4
    assert (run_dir / "part_1" / "member_1" / "best.th").is_file() and "part_1_member_1_training_loss" in metrics
    assert {"test_exact_match", "test_member_exact_match", "test_any_member_exact_match"} <= set(metrics)
    # The archive is the vote of the four members: part p's members are its own run's, weight for weight.
    model = load_archive(str(run_dir / "model.tar.gz")).model
    assert isinstance(model, FewShotEnsemble) and len(model.members) == 4
    alone = train(part(archives[1], 11, 2), tmp_path / "part1_alone")
    single = load_archive(str(tmp_path / "part1_alone" / "run" / "model.tar.gz")).model.state_dict()
    combined = model.state_dict()
    for name, value in single.items():  # members.<i>.<parameter> of the part alone is members.<2 + i> here
        _, index, rest = name.split(".", 2)
        assert torch.equal(value, combined[f"members.{2 + int(index)}.{rest}"]), name
    result = Predictor.from_archive(load_archive(str(run_dir / "model.tar.gz"))).predict_json(
        {"utterance": "how many river run through s0"})
    assert len(result["member_logical_forms"]) == 4 and 1 <= result["votes"] <= 4


def test_the_same_config_gives_the_same_ensemble(tmp_path):
    parts = [part(str(tmp_path / "p1" / "model.tar.gz"), 1, 1), part(str(tmp_path / "p11" / "model.tar.gz"), 11, 1)]
    first = train(ensemble(parts), tmp_path / "a")
    second = train(ensemble(parts), tmp_path / "b")  # the archives exist now: reused
    assert {k: v for k, v in first.items() if k.startswith("test_")} == \
        {k: v for k, v in second.items() if k.startswith("test_")}


@pytest.mark.parametrize("change, message", [
    (lambda c: c.update(experiments=[]), "needs 'experiments': a non-empty list"),
    (lambda c: c["experiments"][1].update(type="fewshot_irnet"), r"experiments\[1\] must be an experiment of type"),
    (lambda c: c["experiments"][1].update(pretrained_archive=c["experiments"][0]["pretrained_archive"]),
     "must each have their own pretrained_archive"),
    (lambda c: c["model"]["members"].pop(), "the model's members must be the experiments' members in order: 1 given, 2"),
    (lambda c: c.update(model=c["experiments"][0]["model"]), "needs a model of type fewshot_ensemble"),
])
def test_bad_configs_fail_before_training(change, message, tmp_path):
    config = ensemble([part(str(tmp_path / "x" / "model.tar.gz"), 1, 1), part(str(tmp_path / "y" / "model.tar.gz"), 11, 1)])
    change(config)
    with pytest.raises(ConfigurationError, match=message):
        check_parts(config["experiments"], config["model"])
    assert not (tmp_path / "x").exists()


def test_pretrainings_render_parts_with_their_own_seeds_and_archives():
    """coverage-evidence-types-ens5x3: coverage-evidence-types-ens5 over three pre-trainings, seeds 13, 23, 33."""
    from tests import rendered_row

    one = rendered_row("coverage-evidence-types-ens5", "geo", 1)
    three = rendered_row("coverage-evidence-types-ens5x3", "geo", 1)
    assert three["type"] == "fewshot_pretrainings_ensemble" and len(three["experiments"]) == 3
    assert three["experiments"][0] == one
    assert three["pretrained_archive"] == one["pretrained_archive"]
    for index, seed in enumerate((13, 23, 33)):
        p = three["experiments"][index]
        assert p["finetune_seed"] == seed and p["pretraining"]["random_seed"] == seed
        assert p["dataset_reader"] == one["dataset_reader"]  # the same support set and synthetic pairs
    assert three["experiments"][1]["pretrained_archive"] == one["pretrained_archive"].replace("/model.tar.gz", "-seed23/model.tar.gz")
    assert three["model"]["members"] == one["model"]["members"] * 3


def test_an_ensemble_over_pretrainings_checks_every_part_before_the_first_pre_trains(tmp_path, no_archive):
    parts = [part(str(tmp_path / f"pretrain{seed}" / "model.tar.gz"), seed, 1) for seed in (1, 11)]
    parts[1]["pretraining"]["trainer"]["num_epochz"] = 3
    config = ensemble(parts)
    with pytest.raises(UserError, match=r"unknown key experiments\.1\.pretraining\.trainer\.num_epochz\)$"):
        check_experiment(config)
    path = tmp_path / "ensemble.json"
    path.write_text(json.dumps(config))
    with pytest.raises(UserError, match=r"unknown key experiments\.1\.pretraining\.trainer\.num_epochz\)$"):
        train_model_from_file(str(path), str(tmp_path / "run"))
    assert not (tmp_path / "run").exists() and not any((tmp_path / f"pretrain{seed}").exists() for seed in (1, 11))
