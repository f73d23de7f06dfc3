"""
Issue 54, archives: a missing, truncated or foreign model archive given to `predict`, `evaluate` or as a
config's `pretrained_archive` ends in one line naming the file and what is wrong, never a traceback.
"""
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile

import _jsonnet
import pytest
from allennlp.common.util import pushd

import fewshot_parser  # noqa: F401
from fewshot_parser.common.archives import check_archive
from fewshot_parser.common.errors import UserError
from tests import FIXTURES_ROOT, PROJECT_ROOT, fixture_split


@pytest.fixture(scope="module")
def pretrained(tmp_path_factory):
    """The fixture experiment's pre-trained archive (a real model.tar.gz, with its config.json beside it)."""
    from fewshot_parser.training.pretrain_finetune import ensure_pretrained

    path = str(tmp_path_factory.mktemp("pretrain") / "geo" / "model.tar.gz")
    with pushd(PROJECT_ROOT):
        return ensure_pretrained(path, experiment(path)["pretraining"])


def experiment(pretrained: str) -> dict:
    return json.loads(_jsonnet.evaluate_file(os.path.join(FIXTURES_ROOT, "fewshot", "experiment.jsonnet"),
                                             ext_vars={"PRETRAINED": pretrained}))


def damaged(directory, archive: str) -> dict:
    """Bad archives beside each other: missing, truncated (its first half), a tar.gz of something else, plain text."""
    paths = {name: str(directory / name) for name in ("missing.tar.gz", "truncated.tar.gz", "foreign.tar.gz", "text.tar.gz")}
    data = open(archive, "rb").read()
    open(paths["truncated.tar.gz"], "wb").write(data[: len(data) // 2])
    with tarfile.open(paths["foreign.tar.gz"], "w:gz") as tar:
        member = tarfile.TarInfo("notes.txt")
        member.size = 5
        tar.addfile(member, io.BytesIO(b"notes"))
    open(paths["text.tar.gz"], "w").write("not an archive\n")
    return paths


EXPECTED = {
    "missing.tar.gz": "{path}: no such model archive",
    "truncated.tar.gz": "{path}: truncated or corrupt model archive (Compressed file ended before the end-of-stream marker was reached)",
    "foreign.tar.gz": "{path}: not an AllenNLP model archive (no config.json or weights.th; it holds notes.txt)",
    "text.tar.gz": "{path}: not a model archive (not a gzip-compressed tar file; `allennlp train` writes model.tar.gz)",
}


def test_check_archive_names_the_file_and_the_fault(tmp_path, pretrained):
    check_archive(pretrained)  # a good archive passes
    check_archive(os.path.dirname(pretrained))  # so does a serialization directory
    for name, path in damaged(tmp_path, pretrained).items():
        with pytest.raises(UserError) as error:
            check_archive(path)
        assert str(error.value) == EXPECTED[name].format(path=path)


def cli(arguments):
    environment = {k: v for k, v in os.environ.items() if k not in ("FEWSHOT_VERBOSE", "ALLENNLP_DEBUG")}
    return subprocess.run([sys.executable, "-m", "allennlp", *arguments, "--include-package", "fewshot_parser"],
                          cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=600,
                          env={**environment, "OMP_NUM_THREADS": "1"})


def test_predict_and_evaluate_of_a_truncated_archive_are_one_line(tmp_path, pretrained):
    paths = damaged(tmp_path, pretrained)
    inputs = tmp_path / "in.jsonl"
    inputs.write_text('{"utterance": "how big be s0"}\n')
    for arguments, name in ((["predict", paths["truncated.tar.gz"], str(inputs), "--predictor", "proto_parser", "--silent"],
                             "truncated.tar.gz"),
                            (["evaluate", paths["foreign.tar.gz"], fixture_split("geo", "query")], "foreign.tar.gz")):
        result = cli(arguments)
        assert result.returncode == 1, result.stderr[-2000:]
        assert result.stderr.rstrip("\n").splitlines()[-1] == EXPECTED[name].format(path=paths[name])
        assert "Traceback" not in result.stderr


def test_a_truncated_pretrained_archive_is_one_error_naming_it(tmp_path, pretrained):
    from allennlp.commands.train import train_model_from_file

    directory = tmp_path / "pretrain"
    shutil.copytree(os.path.dirname(pretrained), directory)  # the archive with its config.json beside it
    archive = str(directory / "model.tar.gz")
    data = open(archive, "rb").read()
    open(archive, "wb").write(data[: len(data) // 2])
    config = tmp_path / "experiment.json"
    config.write_text(json.dumps(experiment(archive)))
    with pushd(PROJECT_ROOT), pytest.raises(UserError) as error:
        train_model_from_file(str(config), str(tmp_path / "run"))
    assert str(error.value).startswith(f"{archive}: truncated or corrupt model archive (")
    assert str(error.value).endswith("(the config's pretrained_archive; delete it and the same command pre-trains it again)")
    assert not (tmp_path / "run").exists()

    os.remove(archive)  # deleted, the same command pre-trains it again
    with pushd(PROJECT_ROOT):
        train_model_from_file(str(config), str(tmp_path / "run"))
    assert (tmp_path / "run" / "model.tar.gz").is_file()


def test_an_archive_is_extracted_once_per_version_and_loads_the_same_model(pretrained, tmp_path):
    from allennlp.models.archival import load_archive

    from fewshot_parser.common.archives import extracted_archive_dir

    directory = extracted_archive_dir(pretrained)
    assert sorted(os.listdir(directory))[:2] == ["config.json", "meta.json"] and extracted_archive_dir(pretrained) == directory
    from_file, from_directory = load_archive(pretrained).model.state_dict(), load_archive(directory).model.state_dict()
    assert from_file.keys() == from_directory.keys()
    assert all(from_file[name].equal(from_directory[name]) for name in from_file)
    copy = str(tmp_path / "model.tar.gz")
    shutil.copyfile(pretrained, copy)
    first = extracted_archive_dir(copy)
    with open(copy, "ab") as handle:  # another version of the file (trailing bytes gzip ignores)
        handle.write(b"\0" * 512)
    assert extracted_archive_dir(copy) != first
    with open(copy, "r+b") as handle:
        handle.truncate(os.path.getsize(copy) // 2)
    with pytest.raises(UserError, match="truncated or corrupt model archive"):
        extracted_archive_dir(copy)
