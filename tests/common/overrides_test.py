"""
Issue 54, overrides and unknown keys: `-o` merges nested keys into the config as AllenNLP documents (for
our TrainModels too), and an unknown key anywhere is an error naming the key and where it was found.
"""
import json
import os
import subprocess
import sys

import pytest
from allennlp.commands.train import train_model_from_file
from allennlp.common import Params

import fewshot_parser  # noqa: F401
from fewshot_parser.common.errors import UserError
from tests import FIXTURES_ROOT, PROJECT_ROOT

CONFIG = os.path.join(FIXTURES_ROOT, "fewshot", "experiment.jsonnet")


@pytest.fixture
def archive_path(tmp_path, monkeypatch):
    monkeypatch.chdir(PROJECT_ROOT)
    path = str(tmp_path / "pretrain" / "model.tar.gz")
    monkeypatch.setenv("PRETRAINED", path)
    return path


def test_nested_overrides_merge_like_dotted_ones(archive_path):
    plain = Params.from_file(CONFIG).as_dict(quiet=True)
    for overrides in ({"trainer": {"num_epochs": 3}, "pretraining": {"trainer": {"optimizer": {"lr": 0.5}}}},
                      {"trainer.num_epochs": 3, "pretraining.trainer.optimizer.lr": 0.5}):
        merged = Params.from_file(CONFIG, json.dumps(overrides)).as_dict(quiet=True)
        assert merged["trainer"] == {**plain["trainer"], "num_epochs": 3}  # the callbacks and optimizer stay
        assert merged["pretraining"]["trainer"]["optimizer"] == {"type": "adam", "lr": 0.5}
        assert {k: v for k, v in merged.items() if k not in ("trainer", "pretraining")} == \
               {k: v for k, v in plain.items() if k not in ("trainer", "pretraining")}
    # Lists and new keys are set as given; a dotted key needs its parents.
    merged = Params.from_file(CONFIG, '{"trainer": {"callbacks": [], "grad_norm": 5.0}}').as_dict(quiet=True)
    assert merged["trainer"]["callbacks"] == [] and merged["trainer"]["grad_norm"] == 5.0
    with pytest.raises(UserError, match=r"^overrides \(-o\): overrides dict contains unused keys: \['trainr.num_epochs'\]"):
        Params.from_file(CONFIG, '{"trainr.num_epochs": 3}')


def test_an_override_trains_the_config_with_only_that_key_changed(tmp_path, archive_path):
    train_model_from_file(CONFIG, str(tmp_path / "run"), overrides=json.dumps({"trainer": {"num_epochs": 1}}))
    saved = json.load(open(tmp_path / "run" / "config.json"))
    assert saved["trainer"] == {**Params.from_file(CONFIG).as_dict(quiet=True)["trainer"], "num_epochs": 1}
    assert json.load(open(tmp_path / "run" / "metrics.json"))["epoch"] == 0


@pytest.mark.parametrize("overrides, message", [
    ({"trainer": {"num_epochz": 3}},
     "Extra parameters passed to GradientDescentTrainer: {'num_epochz': 3} (unknown key trainer.num_epochz)"),
    ({"pretraining": {"trainer": {"num_epochz": 3}}},
     "Extra parameters passed to GradientDescentTrainer: {'num_epochz': 3} (unknown key pretraining.trainer.num_epochz)"),
    ({"dataset_reader": {"skip_invalidd": True}},
     "Extra parameters passed to GeoQueryReader: {'skip_invalidd': True} (unknown key dataset_reader.skip_invalidd)"),
    ({"model": {"beam_sizee": 3}},
     "Extra parameters passed to ProtoParser: {'beam_sizee': 3} (unknown key model.beam_sizee)"),
    ({"finetune_seeed": 3},
     "Extra parameters passed to PretrainFinetune: {'finetune_seeed': 3} (unknown key finetune_seeed)"),
])
def test_an_unknown_key_is_an_error_naming_it_and_where(tmp_path, archive_path, overrides, message):
    with pytest.raises(UserError) as error:
        train_model_from_file(CONFIG, str(tmp_path / "run"), overrides=json.dumps(overrides))
    assert str(error.value) == message
    assert not (tmp_path / "run").exists()


def test_allennlp_train_with_a_misspelt_key_ends_in_one_line(tmp_path):
    environment = {k: v for k, v in os.environ.items() if k not in ("FEWSHOT_VERBOSE", "ALLENNLP_DEBUG")}
    result = subprocess.run([sys.executable, "-m", "allennlp", "train", CONFIG, "-s", str(tmp_path / "run"),
                             "-o", '{"trainer": {"num_epochz": 3}}', "--include-package", "fewshot_parser"],
                            cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=600,
                            env={**environment, "OMP_NUM_THREADS": "1", "PRETRAINED": str(tmp_path / "p" / "model.tar.gz")})
    assert result.returncode == 1
    assert result.stderr.rstrip("\n").splitlines()[-1] == \
        "Extra parameters passed to GradientDescentTrainer: {'num_epochz': 3} (unknown key trainer.num_epochz)"
    assert "Traceback" not in result.stderr
