"""`allennlp run-grid` on Ray with real tiny trainings: the fixture grid (one pre-training, two
fine-tunes) gives the same numbers and weights as `allennlp train` run directly, which is what the
executor before Ray did for each run."""
import argparse
import csv
import json
import os
import subprocess
import sys
import tarfile

import pytest

from fewshot_parser.commands import run_grid
from tests import FIXTURES_ROOT, PROJECT_ROOT, fixture_split

FIXTURE_SYSTEM = ("ProtoParser", "fixture grid", os.path.join(FIXTURES_ROOT, "grid", "{dataset}_{shot}shot.jsonnet"))


def fixture_grid(tmp_path, monkeypatch, shuffles, extra=()):
    """Arguments of a run-grid over the `fixture` system (fixtures/grid) on copies of the geo fixture split."""
    for shuffle in shuffles:
        directory = tmp_path / "data" / "geo" / f"shuffle_{shuffle}_shot_1"
        directory.mkdir(parents=True, exist_ok=True)
        for part in ("train", "support", "query"):
            (directory / f"{part}.txt").write_bytes(open(fixture_split("geo", part), "rb").read())
    monkeypatch.setitem(run_grid.SYSTEMS, "fixture", FIXTURE_SYSTEM)
    monkeypatch.setenv("FEWSHOT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("FEWSHOT_PRETRAIN_DIR", str(tmp_path / "pretrain"))
    parser = argparse.ArgumentParser()
    run_grid.RunGrid().add_subparser(parser.add_subparsers())
    return parser.parse_args(["run-grid", "--systems", "fixture", "--datasets", "geo", "--shots", "1", "--shuffles",
                              *map(str, shuffles), "--jobs", "2", "--threads", "1", "--runs-dir", str(tmp_path / "grid"),
                              "--results", str(tmp_path / "runs.csv"), *extra])


def weights(archive: str) -> bytes:
    with tarfile.open(archive) as tar:
        return tar.extractfile("weights.th").read()


def test_a_fixture_grid_on_ray_matches_allennlp_train_run_directly(tmp_path, monkeypatch, local_ray, capsys):
    monkeypatch.chdir(PROJECT_ROOT)
    args = fixture_grid(tmp_path, monkeypatch, [1, 2])
    run_grid.run_grid(args)
    out = capsys.readouterr().out
    assert out.count("pre-trained ") == 1 and out.count("done ") == 2, out
    # The pre-training's epochs are shown as they pass, before the first run finishes (grid_progress).
    last_epoch = out.index("  pre-training geo-fixture: epoch 2/2, loss ")
    assert last_epoch < out.index("pre-trained ") < out.index("done ")
    rows = list(csv.DictReader(open(tmp_path / "runs.csv")))
    assert [row["shuffle"] for row in rows] == ["1", "2"]
    archive = tmp_path / "pretrain" / "geo-fixture"
    assert (archive / "model.tar.gz").is_file() and (tmp_path / "pretrain" / "geo-fixture.log").is_file()
    provenance = json.load(open(archive / "provenance.json"))
    assert all(row["pretrain_config_hash"] == provenance["config_hash"] for row in rows)
    run = tmp_path / "grid" / "fixture" / "geo_1shot_s1"
    assert {"metrics.json", "model.tar.gz", "config.json", "provenance.json"} <= set(os.listdir(run))
    assert not any(name.endswith(".th") for name in os.listdir(run))

    # The same run as the executor before Ray ran it: `allennlp train` in a subprocess, here with the
    # archive already there (a run that pre-trains first fine-tunes identically, see training/fewshot_test).
    direct = tmp_path / "direct"
    subprocess.run([sys.executable, "-m", "allennlp", "train", FIXTURE_SYSTEM[2].format(dataset="geo", shot=1), "-s",
                    str(direct), "--include-package", "fewshot_parser"], cwd=PROJECT_ROOT, check=True, capture_output=True,
                   env={**os.environ, "FEWSHOT_SPLIT": "1", "OMP_NUM_THREADS": "1"})
    ours, theirs = json.load(open(run / "metrics.json")), json.load(open(direct / "metrics.json"))
    assert {k: v for k, v in ours.items() if k.startswith("test_")} == {k: v for k, v in theirs.items() if k.startswith("test_")}
    assert weights(str(run / "model.tar.gz")) == weights(str(direct / "model.tar.gz"))
    assert rows[0]["exact_match"] == str(round(100 * theirs["test_exact_match"], 2))

    run_grid.run_grid(args)  # everything is done: Ray is not even asked
    assert "nothing to run" in capsys.readouterr().out


def test_an_unreachable_address_is_a_one_line_error(tmp_path):
    result = subprocess.run([sys.executable, "-m", "fewshot_parser", "run-grid", "--systems", "irnet-cb", "--datasets", "geo",
                             "--shots", "1", "--shuffles", "1", "--runs-dir", str(tmp_path / "grid"), "--results",
                             str(tmp_path / "runs.csv"), "--address", "127.0.0.1:1"],
                            cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=120,
                            env={**{k: v for k, v in os.environ.items() if k != "FEWSHOT_VERBOSE"}, "OMP_NUM_THREADS": "1"})
    assert result.returncode == 1
    assert result.stderr.strip().splitlines()[-1].startswith("--address 127.0.0.1:1: cannot reach a Ray cluster there (")
    assert "Traceback" not in result.stderr
    assert not os.path.exists(tmp_path / "runs.csv")


@pytest.mark.parametrize("address, message", [("nowhere", "expected 'auto', 'host:port'")])
def test_a_malformed_address_is_rejected(address, message):
    from fewshot_parser.commands.grid_ray import check_reachable
    from fewshot_parser.common.errors import UserError

    with pytest.raises(UserError, match=message):
        check_reachable(address)


def test_a_node_gets_the_archive_and_sends_the_run_back_without_any_driver_path(tmp_path, monkeypatch):
    """What a task does on a node that shares no disk with the driver (no Ray needed to see it)."""
    from fewshot_parser.commands import grid_tasks
    from tests.commands.grid_fakes import fake_train

    driver_archive = tmp_path / "driver" / "pretrain" / "geo-x"
    driver_archive.mkdir(parents=True)
    (driver_archive / "model.tar.gz").write_bytes(b"pre-trained weights")
    (driver_archive / "config.json").write_text("{}")
    (driver_archive / "best.th").write_text("not shipped")
    packed = grid_tasks.pack_directory(str(driver_archive), only=list(grid_tasks.PRETRAIN_FILES))
    node = tmp_path / "node"
    node.mkdir()
    monkeypatch.setenv("FEWSHOT_PROJECT_DIR", str(node))  # the node's checkout is elsewhere
    spec = grid_tasks.RunSpec(name="x geo 1-shot s1", config="experiments/x.jsonnet", shuffle=1,
                              environment={"FEWSHOT_FAKE_EM": "0.75"}, project=str(tmp_path / "driver-only"),
                              archive="runs/pretrain/geo-x/model.tar.gz")
    result = grid_tasks.finetune_on_node(spec, {"files": packed, "error": None}, train=fake_train)
    assert result["error"] is None and result["log"].startswith(grid_tasks.START_MARK)
    installed = node / "runs" / "pretrain" / "geo-x"
    assert sorted(os.listdir(installed)) == ["config.json", "model.tar.gz"]
    assert not grid_tasks.install_pretrained(packed, str(installed / "model.tar.gz"))  # the same archive: kept
    back = tmp_path / "back"
    grid_tasks.unpack_directory(result["files"], str(back))
    assert json.load(open(back / "metrics.json")) == {"test_exact_match": 0.75}
    assert not (back / "best.th").exists()  # checkpoints stay on the node
    assert "its pre-training failed (boom)" in grid_tasks.finetune_on_node(spec, {"error": "boom"}, train=fake_train)["error"]
    monkeypatch.delenv("FEWSHOT_PROJECT_DIR")
    failed = grid_tasks.finetune_on_node(spec, None, train=fake_train)
    assert "has no project checkout at" in failed["error"] and failed["files"] is None


def test_a_pretraining_is_installed_again_only_when_it_is_another_pretraining(tmp_path):
    """Fine-tuning stores recipes in the archive and keeps retention results beside it: a node whose copy
    is the same pre-training (config and provenance) keeps it; another pre-training replaces it."""
    from fewshot_parser.commands import grid_tasks

    source = tmp_path / "source"
    source.mkdir()
    (source / "model.tar.gz").write_bytes(b"pre-trained weights")
    (source / "config.json").write_text('{"trainer": {"num_epochs": 3}}')
    (source / "provenance.json").write_text('{"code_version": "a"}')
    packed = grid_tasks.pack_directory(str(source), only=list(grid_tasks.PRETRAIN_FILES))
    installed = tmp_path / "node" / "geo-x"
    assert grid_tasks.install_pretrained(packed, str(installed / "model.tar.gz"))
    (installed / "model.tar.gz").write_bytes(b"pre-trained weights and a teaching recipe")
    (installed / "known_metrics").mkdir()
    assert not grid_tasks.install_pretrained(packed, str(installed / "model.tar.gz"))
    assert (installed / "model.tar.gz").read_bytes().endswith(b"a teaching recipe")
    assert (installed / "known_metrics").is_dir()
    (source / "provenance.json").write_text('{"code_version": "b"}')  # pre-trained again by other code
    assert grid_tasks.install_pretrained(grid_tasks.pack_directory(str(source), only=list(grid_tasks.PRETRAIN_FILES)),
                                         str(installed / "model.tar.gz"))
    assert (installed / "model.tar.gz").read_bytes() == b"pre-trained weights"
    assert not (installed / "known_metrics").exists()
    (installed / "model.tar.gz").unlink()  # a copy without its archive is installed again
    assert grid_tasks.install_pretrained(packed, str(installed / "model.tar.gz"))


def test_a_stale_cluster_file_does_not_stop_a_local_instance(monkeypatch):
    """Ray's temp directory can name a cluster that is long gone (a `ray start`, or a test cluster that
    was killed): without --address, run-grid still starts its own instance instead of trying to join it."""
    import shutil
    import tempfile

    import ray

    from fewshot_parser.commands.grid_ray import connect

    if ray.is_initialized():
        ray.shutdown()
    temp = tempfile.mkdtemp(prefix="r", dir="/tmp")  # short: Ray's socket paths live under it
    try:
        os.makedirs(os.path.join(temp, "ray"))  # Ray's temp directory is $RAY_TMPDIR/ray
        open(os.path.join(temp, "ray", "ray_current_cluster"), "w").write("127.0.0.1:1\n")
        monkeypatch.setenv("RAY_TMPDIR", temp)
        monkeypatch.delenv("RAY_ADDRESS", raising=False)
        shut_down, description = connect(None, 1)
        try:
            assert shut_down and description.startswith("Ray: a local instance, 1 node, 1 CPUs")
        finally:
            ray.shutdown()
    finally:
        shutil.rmtree(temp, ignore_errors=True)


def test_a_node_trains_a_systems_table_row_from_its_rendering(tmp_path, monkeypatch):
    """A row reference is rendered on the node, with the run's variables, into a JSON file beside the
    serialization directory, which `allennlp train` then reads."""
    from fewshot_parser.commands import grid_tasks
    from fewshot_parser.commands.systems import render_config

    calls = []
    monkeypatch.setattr(grid_tasks.subprocess, "call", lambda command, **kwargs: calls.append((command, kwargs)) or 0)
    spec = grid_tasks.RunSpec(name="no-reg geo 1-shot s3", config="experiments/systems.jsonnet#no-reg/geo_1shot",
                              shuffle=3, environment={"FEWSHOT_SEED": "13", "FEWSHOT_PRETRAIN_DIR": "p"},
                              project=PROJECT_ROOT)
    directory = str(tmp_path / "run")
    assert grid_tasks.train_subprocess(spec, directory, PROJECT_ROOT, open(os.devnull, "w")) == 0
    (command, kwargs), = calls
    assert command[3:5] == ["train", directory + ".config.json"] and kwargs["env"]["FEWSHOT_SPLIT"] == "3"
    expected = render_config(spec.config, {"FEWSHOT_SPLIT": "3", "FEWSHOT_SEED": "13", "FEWSHOT_PRETRAIN_DIR": "p"})
    assert json.load(open(directory + ".config.json")) == expected
    assert expected["test_data_path"] == "geo/lemma_data/shuffle_3_shot_1/query.txt"
    assert expected["model"]["attention_regularization"] == 0
    grid_tasks.train_subprocess(spec, None, PROJECT_ROOT, open(os.devnull, "w"))  # pre-training: the module renders it
    assert calls[-1][0][-1] == spec.config
