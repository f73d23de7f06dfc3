"""
The product is what `pip install` gives: a wheel built from the tracked files, installed into a
scratch virtualenv outside the checkout (its dependencies taken from this environment), pre-trains a
tiny model on fixture data, and then, with that data gone, teaches the archive from the archive
alone, evaluates and predicts, with `fewshot-parser`, `python -m fewshot_parser` and `allennlp`.
"""
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from typing import Dict, List

import pytest

from tests import FIXTURES_ROOT, PROJECT_ROOT, fixture_split

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="the wheel is built from `git ls-files`")

# The tiny experiment of fixtures/fewshot, with its data under ./data/ of the scratch directory.
EXPERIMENT = open(os.path.join(FIXTURES_ROOT, "fewshot", "experiment.jsonnet")).read().replace(
    "fixtures/data/geo/shuffle_0_shot_1/", "data/")


def run(command: List[str], cwd: str, env: Dict[str, str]) -> str:
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"{' '.join(command)} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result.stdout + result.stderr


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A scratch virtualenv with the wheel installed: (its bin directory, the environment to run it in)."""
    root = tmp_path_factory.mktemp("wheel")
    source = root / "source"
    files = subprocess.run(["git", "-C", PROJECT_ROOT, "ls-files", "-z"], capture_output=True, check=True).stdout
    for name in filter(None, files.decode("utf-8").split("\0")):
        if os.path.isfile(os.path.join(PROJECT_ROOT, name)):
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(os.path.join(PROJECT_ROOT, name), source / name)
    env = {key: value for key, value in os.environ.items() if not key.startswith(("FEWSHOT_", "PYTHON"))}
    env.update(OMP_NUM_THREADS="1", FEWSHOT_THREADS="1")
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q",
         "-w", str(root / "dist"), str(source)], str(root), env)
    wheels = list((root / "dist").glob("fewshot_parser-*.whl"))
    assert len(wheels) == 1
    venv = root / "env"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)], str(root), env)
    python = venv / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    # The dependencies: this environment's packages, after the scratch environment's own. A path added
    # by a .pth file has its own .pth files ignored, so this checkout's editable install stays out.
    with open(os.path.join(site, "dependencies.pth"), "w") as handle:
        handle.write(sysconfig.get_paths()["purelib"] + "\n")
    run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", "-q",
         str(wheels[0])], str(root), env)
    return venv / "bin", env


def test_the_installed_wheel_pre_trains_teaches_evaluates_and_predicts_outside_the_checkout(installed, tmp_path):
    bin_dir, env = installed
    python = str(bin_dir / "python")
    # The package imported is the wheel's, and importing it runs no git (a `git` on PATH logs its calls).
    fake = tmp_path / "fake-bin"
    fake.mkdir()
    (fake / "git").write_text(f"#!/bin/sh\necho \"$@\" >> {tmp_path / 'git-calls'}\nexit 1\n")
    (fake / "git").chmod(0o755)
    where = run([python, "-c", "import fewshot_parser; print(fewshot_parser.__file__)"], str(tmp_path),
                dict(env, PATH=f"{fake}:{env['PATH']}")).strip().splitlines()[-1]
    assert where.startswith(str(bin_dir.parent)) and not where.startswith(PROJECT_ROOT)
    assert not (tmp_path / "git-calls").exists()
    # The page of `allennlp serve` is package data.
    run([python, "-c", "import os, fewshot_parser.serving.app as app; assert sorted(os.listdir(app.PAGE)) == "
                       "['app.js', 'index.html', 'style.css'], os.listdir(app.PAGE)"], str(tmp_path), env)

    # Pre-train (and fine-tune) the tiny experiment: the pre-trained archive stores its recipe.
    work = tmp_path / "work"
    (work / "data").mkdir(parents=True)
    for part in ("train", "support", "query"):
        shutil.copyfile(fixture_split("geo", part), work / "data" / f"{part}.txt")
    (work / "experiment.jsonnet").write_text(EXPERIMENT)
    run([str(bin_dir / "fewshot-parser"), "train", "experiment.jsonnet", "-s", "run"], str(work),
        dict(env, PRETRAINED="pretrain/model.tar.gz"))
    grid_metrics = json.load(open(work / "run" / "metrics.json"))

    # Teach from the archive alone: no data directory, no experiments, no checkout.
    mine = tmp_path / "mine"
    mine.mkdir()
    for part in ("support", "query"):
        shutil.copyfile(work / "data" / f"{part}.txt", mine / f"{part}.txt")
    shutil.rmtree(work / "data")
    archive = str(work / "pretrain" / "model.tar.gz")
    out = run([python, "-m", "fewshot_parser", "teach", archive, "support.txt", "-s", "taught", "--query", "query.txt"],
              str(mine), env)
    assert "teach: recipe: 1-shot (read off the support file)" in out
    assert "new predicate(s): area:i, not" in out and "teach: exact match on query.txt: " in out
    taught = json.load(open(mine / "taught" / "metrics.json"))
    # The same numbers as the experiment's own fine-tuning of the same support set.
    assert taught["training_loss"] == grid_metrics["training_loss"]
    assert taught["test_exact_match"] == grid_metrics["test_exact_match"]

    # Evaluate and predict with the taught archive, through `allennlp` with a plugins file.
    (mine / ".allennlp_plugins").write_text("fewshot_parser\n")
    out = run([python, "-m", "allennlp", "evaluate", "taught/model.tar.gz", "query.txt", "--output-file", "eval.json"],
              str(mine), env)
    assert json.load(open(mine / "eval.json"))["exact_match"] == taught["test_exact_match"]
    (mine / "utterances.jsonl").write_text(json.dumps({"utterance": "how big be s0"}) + "\n")
    run([python, "-m", "allennlp", "predict", "taught/model.tar.gz", "utterances.jsonl", "--output-file",
         "predictions.jsonl", "--silent"], str(mine), env)
    prediction = json.loads(open(mine / "predictions.jsonl").readline())
    assert prediction["actions"] and prediction["actions"][0] == "GEN ( area:i <e:s> )"
