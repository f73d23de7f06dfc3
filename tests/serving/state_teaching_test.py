"""
`allennlp teach --state` and `--corrections`: teaching predicate after predicate from the command
line, in the state directory a server shares.
"""
import subprocess
import sys

import pytest
from allennlp.models.archival import load_archive

from fewshot_parser.commands.teach import teach
from fewshot_parser.common.errors import UserError
from fewshot_parser.serving.state_teaching import teach_state
from fewshot_parser.serving.store import Store
from tests import PROJECT_ROOT
from tests.serving.conftest import AREA, CORRECTION, NOT


def support(path, *examples) -> str:
    path.write_text("".join(f"{e['utterance']}\t{e['logical_form']}\n" for e in examples))
    return str(path)


def actions(archive: str):
    return load_archive(archive).model.vocab.get_token_to_index_vocabulary("actions")


def test_teach_state_teaches_one_predicate_after_another(archive, tmp_path):
    state = str(tmp_path / "state")
    lines = []
    assert teach_state(archive, support(tmp_path / "area.txt", AREA), state, teach, threads=1,
                       report=lines.append) == 1
    assert "job 1, 1 example(s); new predicate(s): area:i; building on version 0" in lines[0]
    assert teach_state(archive, support(tmp_path / "not.txt", NOT), state, teach, threads=1, report=lines.append) == 2
    store = Store(state)
    assert store.active_version() == 2 and store.versions()[2].predicates == ["area:i", "not"]
    vocabulary = actions(store.archive_of(2))
    assert "GEN ( area:i <e:s> )" in vocabulary and "REDUCE ( not <NT> )" in vocabulary
    # A line that clashes with what was taught names the file and line; nothing is stored.
    bad = tmp_path / "bad.txt"
    bad.write_text(f"{CORRECTION['utterance']}\t{CORRECTION['logical_form']}\nhow big be s0 s1\t( area:i s0 s1 )\n")
    with pytest.raises(UserError, match=r"bad.txt:2: predicate area:i takes 1 argument"):
        teach_state(archive, str(bad), state, teach, threads=1, report=lines.append)
    assert len(store.jobs()) == 2 and len(store.examples()) == 2
    # Another pre-trained archive is refused for this state.
    other = tmp_path / "other.tar.gz"
    other.write_bytes(open(archive, "rb").read() + b"\0")
    with pytest.raises(UserError, match="taught from another pre-trained archive"):
        Store(state).initialize(str(other))


def test_teach_with_corrections_only_needs_the_flag(archive, tmp_path):
    corrections = support(tmp_path / "corrections.txt", CORRECTION)
    with pytest.raises(UserError, match="no new predicate.*--corrections"):
        teach(archive, corrections, str(tmp_path / "refused"), report=lambda line: None)
    lines = []
    teach(archive, corrections, str(tmp_path / "corrected"), allow_known=True, report=lines.append)
    assert any("new predicate(s): none (corrections only)" in line for line in lines)


def test_the_command_line_teaches_a_state_and_explains_a_taught_archive(archive, tmp_path):
    state = str(tmp_path / "state")
    command = [sys.executable, "-m", "fewshot_parser", "teach", archive, support(tmp_path / "area.txt", AREA),
               "--state", state, "--threads", "1"]
    result = subprocess.run(command, capture_output=True, text=True, cwd=PROJECT_ROOT, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "teach: version 1 is active" in result.stdout
    taught = Store(state).archive_of(1)
    result = subprocess.run([sys.executable, "-m", "fewshot_parser", "teach", taught, str(tmp_path / "area.txt"),
                             "-s", str(tmp_path / "again")], capture_output=True, text=True, cwd=PROJECT_ROOT,
                            timeout=300)
    assert result.returncode == 1 and "--state DIR" in result.stderr.splitlines()[-1]


def test_a_version_depends_on_the_examples_taught_not_their_order(archive, tmp_path):
    import torch

    one_by_one, at_once = str(tmp_path / "one_by_one"), str(tmp_path / "at_once")
    teach_state(archive, support(tmp_path / "not.txt", NOT), one_by_one, teach, threads=1, report=lambda line: None)
    teach_state(archive, support(tmp_path / "area.txt", AREA), one_by_one, teach, threads=1, report=lambda line: None)
    teach_state(archive, support(tmp_path / "both.txt", AREA, NOT), at_once, teach, threads=1,
                report=lambda line: None)
    first = load_archive(Store(one_by_one).archive_of(2)).model.state_dict()
    second = load_archive(Store(at_once).archive_of(1)).model.state_dict()
    assert first.keys() == second.keys()
    assert all(torch.equal(first[key], second[key]) for key in first)
