"""
A misspelt key is refused before pre-training: every section of a config (pre-training and fine-tuning,
reader, model, data loaders, trainer, optimizer, callbacks, an ensemble's parts) is checked before anything
trains, with the one-line message the build would give later, and nothing is left behind.
"""
import copy
import glob
import json
import os
import subprocess
import sys

import _jsonnet
import pytest
from allennlp.commands.train import train_model_from_file
from allennlp.common.checks import ConfigurationError

import fewshot_parser  # noqa: F401
from fewshot_parser.common.errors import UserError
from fewshot_parser.training.config_check import check_experiment
from tests import FIXTURES_ROOT, PROJECT_ROOT

CONFIG = os.path.join(FIXTURES_ROOT, "fewshot", "experiment.jsonnet")


@pytest.fixture
def no_archive(tmp_path, monkeypatch):
    """The fixture experiment's archive path, under a pre-training directory that does not exist yet."""
    monkeypatch.chdir(PROJECT_ROOT)
    monkeypatch.setenv("PRETRAINED", str(tmp_path / "pretrain" / "fixture" / "model.tar.gz"))
    return tmp_path / "pretrain"


def extra(cls: str, key: str, where: str, value=3) -> str:
    return f"Extra parameters passed to {cls}: {{'{key}': {value}}} (unknown key {where}{key})"


@pytest.mark.parametrize("overrides, message", [
    ({"trainer": {"num_epochz": 3}}, extra("GradientDescentTrainer", "num_epochz", "trainer.")),
    ({"pretraining": {"trainer": {"num_epochz": 3}}}, extra("GradientDescentTrainer", "num_epochz", "pretraining.trainer.")),
    ({"model": {"beam_sizee": 3}}, extra("ProtoParser", "beam_sizee", "model.")),
    ({"pretraining": {"model": {"beam_sizee": 3}}}, extra("ProtoParser", "beam_sizee", "pretraining.model.")),
    ({"pretraining": {"dataset_reader": {"min_supportt": 3}}}, extra("GeoQueryReader", "min_supportt", "pretraining.dataset_reader.")),
    ({"data_loader": {"batch_sizee": 3}}, extra("MultiProcessDataLoader", "batch_sizee", "data_loader.")),
    ({"pretraining": {"data_loader": {"meta_templatez": 3}}}, extra("EpisodeDataLoader", "meta_templatez", "pretraining.data_loader.")),
    ({"validation_data_loader": {"batch_sizee": 3}}, extra("MultiProcessDataLoader", "batch_sizee", "validation_data_loader.")),
    ({"trainer": {"optimizer": {"lrr": 3}}}, extra("AdamOptimizer", "lrr", "trainer.optimizer.")),
    ({"trainer.callbacks.1.xx": 3}, extra("PrototypeInitCallback", "xx", "trainer.callbacks.1.")),
    ({"pretraining.trainer.callbacks.0.xx": 3}, extra("AlignmentStatisticsCallback", "xx", "pretraining.trainer.callbacks.0.")),
    ({"pretraining": {"model": {"encoder": {"hidden_sizee": 3}}}},
     extra("LstmSeq2SeqEncoder", "hidden_sizee", "pretraining.model.encoder.")),
])
def test_an_unknown_key_in_any_section_fails_before_pre_training(tmp_path, no_archive, overrides, message):
    with pytest.raises(UserError) as error:
        train_model_from_file(CONFIG, str(tmp_path / "run"), overrides=json.dumps(overrides))
    assert str(error.value) == message
    assert not (tmp_path / "run").exists() and not no_archive.exists()  # nothing was trained


def test_an_unknown_type_fails_before_pre_training_with_allennlps_message(tmp_path, no_archive):
    with pytest.raises(ConfigurationError, match=r"^adamm not in acceptable choices for trainer\.optimizer\.type: \["):
        train_model_from_file(CONFIG, str(tmp_path / "run"), overrides='{"trainer": {"optimizer": {"type": "adamm"}}}')
    assert not (tmp_path / "run").exists() and not no_archive.exists()


def rendered(path: str) -> dict:
    return json.loads(_jsonnet.evaluate_file(path, ext_vars={**os.environ, "PRETRAINED": "/nowhere/model.tar.gz",
                                                             "FEWSHOT_DATA_DIR": "data", "FEWSHOT_DATASET": "geo",
                                                             "FEWSHOT_SHOT": "1"}))


def test_the_experiments_pass_the_check_and_a_key_added_anywhere_fails_it(monkeypatch):
    """Every config of experiments/ passes (no false alarm: the bases for geo 1-shot; every row of the
    systems tables in tests/experiments_test.py); in the main one a key added to any component, at any
    depth, is found and named."""
    monkeypatch.chdir(PROJECT_ROOT)
    paths = [path for path in sorted(glob.glob("experiments/*.jsonnet")) if path != "experiments/systems.jsonnet"]
    assert len(paths) >= 18
    for path in paths:
        check_experiment(rendered(path))
    config = rendered("experiments/geo_1shot.jsonnet")

    def components(node, where=()):
        """The places of the config's components (dictionaries with a `type`, and sections)."""
        if isinstance(node, dict):
            if "type" in node or where in (("trainer",), ("pretraining", "trainer"), ("data_loader",)):
                yield where
            for key, value in node.items():
                yield from components(value, where + (key,))
        elif isinstance(node, list):
            for index, value in enumerate(node):
                yield from components(value, where + (index,))

    places = list(components(config))
    assert len(places) > 20
    for place in places:
        changed = copy.deepcopy(config)
        node = changed
        for key in place:
            node = node[key]
        node["misspelt_key"] = 1
        with pytest.raises(UserError) as error:
            check_experiment(changed)
        assert str(error.value).endswith(f"(unknown key {''.join(f'{k}.' for k in place)}misspelt_key)")


def test_allennlp_train_of_geo_with_a_misspelt_key_fails_at_once_and_leaves_nothing(tmp_path):
    """The command of the issue, on the real GeoQuery experiment with no pre-trained archive."""
    pretrain = tmp_path / "pretrain"
    pretrain.mkdir()
    environment = {k: v for k, v in os.environ.items() if k not in ("FEWSHOT_VERBOSE", "ALLENNLP_DEBUG")}
    result = subprocess.run([sys.executable, "-m", "allennlp", "train", "experiments/geo_1shot.jsonnet", "-s",
                             str(tmp_path / "run"), "-o", '{"trainer": {"num_epochz": 3}}'],
                            cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300,
                            env={**environment, "OMP_NUM_THREADS": "1", "FEWSHOT_PRETRAIN_DIR": str(pretrain)})
    assert result.returncode == 1, result.stderr
    assert result.stderr.rstrip("\n").splitlines()[-1] == extra("GradientDescentTrainer", "num_epochz", "trainer.")
    assert "Traceback" not in result.stderr and "Epoch 0/" not in result.stderr  # no training started
    assert not (tmp_path / "run").exists() and os.listdir(pretrain) == []


def test_the_grids_pre_training_step_refuses_a_misspelt_pre_training_key_before_it_trains(tmp_path, no_archive):
    from fewshot_parser.commands.grid_tasks import pretrain_main

    config = rendered(CONFIG)
    config["pretraining"]["trainer"]["num_epochz"] = 3
    config["pretrained_archive"] = str(no_archive / "fixture" / "model.tar.gz")
    path = tmp_path / "experiment.json"
    path.write_text(json.dumps(config))
    with pytest.raises(UserError) as error:
        pretrain_main(str(path), started_with="test")
    assert str(error.value) == extra("GradientDescentTrainer", "num_epochz", "pretraining.trainer.")
    assert not no_archive.exists()
