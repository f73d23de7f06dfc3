import os

import pytest

from fewshot_parser.common.safe_io import atomic_open, atomic_path, read_lines


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "table1.md"
    target.write_text("old")
    with pytest.raises(RuntimeError):
        with atomic_open(str(target)) as handle:
            handle.write("half of the new")
            raise RuntimeError("disk full")
    assert target.read_text() == "old" and os.listdir(tmp_path) == ["table1.md"]
    with atomic_open(str(target)) as handle:
        handle.write("new ±")
    assert target.read_text(encoding="utf-8") == "new ±" and os.listdir(tmp_path) == ["table1.md"]


def test_the_temporary_keeps_the_suffix_and_a_new_file_gets_ordinary_permissions(tmp_path):
    with atomic_path(str(tmp_path / "figure.png")) as temporary:
        assert temporary.endswith(".png") and os.path.dirname(temporary) == str(tmp_path)
        open(temporary, "wb").write(b"png")
    mode = os.stat(tmp_path / "figure.png").st_mode & 0o777
    umask = os.umask(0)
    os.umask(umask)
    assert mode == 0o666 & ~umask


def test_lines_are_decoded_one_by_one(tmp_path):
    path = tmp_path / "data.txt"
    path.write_bytes(b"\xef\xbb\xbfa\tb\r\nbad \xc3\x28\nlast")
    lines = list(read_lines(str(path)))
    assert [line.number for line in lines] == [1, 2, 3]
    assert lines[0].text == "a\tb\r\n" and lines[2].text == "last"
    assert lines[1].text is None and lines[1].error == "not valid UTF-8: byte 0xc3 at column 5"
