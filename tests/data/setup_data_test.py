import hashlib
import os
import shutil

import pytest

from fewshot_parser.data.setup_data import DataSetupError, main, setup_data

FILES = {
    "geo/lemma_data/shuffle_0_shot_1/train.txt": "how many river in s0\t( count $0 ( river:t $0 ) )\n",
    "geo/lemma_data/shuffle_0_shot_1/support.txt": "how big be s0\t( area:i s0 )\n",
    "jobs/lemma_data/shuffle_0_shot_1/query.txt": "all job\tjob ( ANS )\n",
}


@pytest.fixture
def source(tmp_path):
    """A tiny fake source tree in the authors' layout, with its checksum file."""
    root = tmp_path / "source"
    lines = []
    for relative, text in FILES.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        lines.append(f"{hashlib.sha256(text.encode()).hexdigest()}  {relative}")
    sums = tmp_path / "SHA256SUMS"
    sums.write_text("\n".join(lines) + "\n")
    return root, str(sums)


def test_copies_the_expected_layout(tmp_path, source):
    root, sums = source
    target = tmp_path / "data"
    assert setup_data(str(target), str(root), checksums_file=sums, allow_download=False) == "copied"
    for relative, text in FILES.items():
        assert (target / relative).read_text() == text
    assert setup_data(str(target), str(root), checksums_file=sums, allow_download=False) == "present"
    assert sorted(os.listdir(tmp_path)) == ["SHA256SUMS", "data", "source"]  # no staging directory left


def test_downloads_when_there_is_no_local_copy(tmp_path, source):
    root, sums = source
    mirror = tmp_path / "mirror"  # served as file:// URLs, laid out like the authors' repository
    shutil.copytree(root, mirror / "datasets")
    target = tmp_path / "data"
    how = setup_data(str(target), str(tmp_path / "absent"), base_url=mirror.as_uri(), checksums_file=sums)
    assert how == "downloaded"
    assert (target / "geo/lemma_data/shuffle_0_shot_1/train.txt").read_text() == FILES["geo/lemma_data/shuffle_0_shot_1/train.txt"]


def test_corrupt_source_is_refused_and_nothing_is_written(tmp_path, source):
    root, sums = source
    (root / "geo/lemma_data/shuffle_0_shot_1/train.txt").write_text("tampered\tx\n")
    target = tmp_path / "data"
    with pytest.raises(DataSetupError) as error:
        setup_data(str(target), str(root), checksums_file=sums, allow_download=False)
    assert "checksum mismatch" in str(error.value)
    assert not target.exists()


def test_clear_message_when_neither_copy_nor_download_works(tmp_path, source):
    _, sums = source
    target = tmp_path / "data"
    with pytest.raises(DataSetupError) as error:
        setup_data(str(target), str(tmp_path / "absent"), base_url=(tmp_path / "nowhere").as_uri(), checksums_file=sums)
    message = str(error.value)
    assert "absent" in message and "nowhere" in message and "--source" in message
    assert not target.exists()


def test_incomplete_target_is_replaced_as_a_whole(tmp_path, source):
    root, sums = source
    target = tmp_path / "data"
    (target / "geo").mkdir(parents=True)
    (target / "geo" / "stale.txt").write_text("old")
    assert setup_data(str(target), str(root), checksums_file=sums, allow_download=False) == "copied"
    assert not (target / "geo" / "stale.txt").exists()


def test_command_line_reports_errors_without_traceback(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("FEWSHOT_SHARED_DATA", str(tmp_path / "absent"))
    code = main(["--target", str(tmp_path / "data"), "--no-download"])
    assert code == 1
    assert "error: could not set up the benchmark data" in capsys.readouterr().err
