"""The install machinery of the supported Pythons: the lock's markers, `make lock`'s updater, the
interpreter finder and the Makefile's choice of interpreter and virtualenv."""
import importlib.util
import os
import stat
import subprocess
from typing import Dict

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests import PROJECT_ROOT

SUPPORTED = ("3.11", "3.12", "3.13")
LOCK = os.path.join(PROJECT_ROOT, "requirements.lock")


def _update_lock():
    spec = importlib.util.spec_from_file_location("update_lock", os.path.join(PROJECT_ROOT, "tools", "update_lock.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _locked_for(python: str) -> Dict[str, str]:
    """{package: version} of the lock's lines that pip installs on `python` (e.g. "3.13")."""
    environment = {"python_version": python, "python_full_version": python + ".0"}
    versions: Dict[str, str] = {}
    with open(LOCK, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip() or line.startswith("#"):
                continue
            requirement = Requirement(line.strip())
            specifiers = list(requirement.specifier)
            assert len(specifiers) == 1 and specifiers[0].operator == "==", f"requirements.lock:{number}: not pinned with =="
            if requirement.marker is None or requirement.marker.evaluate(environment):
                name = canonicalize_name(requirement.name)
                assert name not in versions, f"requirements.lock:{number}: {name} locked twice for Python {python}"
                versions[name] = specifiers[0].version
    return versions


def test_the_lock_pins_the_same_packages_once_for_every_supported_python():
    locked = {python: _locked_for(python) for python in SUPPORTED}
    for python in SUPPORTED:
        assert set(locked[python]) == set(locked["3.11"]), python
    # tokenizers 0.13.3 has no wheel for 3.12+; its successors need a newer transformers.
    assert locked["3.11"]["tokenizers"] == "0.13.3" and locked["3.11"]["transformers"] == "4.33.3"
    for python in ("3.12", "3.13"):
        assert locked[python]["tokenizers"] == "0.15.2" and locked[python]["transformers"] == "4.35.2"


def test_update_lock_updates_this_pythons_lines_and_keeps_the_others():
    update = _update_lock().update
    other = '"3.0"'  # a marker no running interpreter matches
    lines = ["# header", "alpha==1.0", f"beta==1.0 ; python_version < {other}", f"beta==2.0 ; python_version >= {other}",
             "gone==1.0"]
    frozen = {"alpha": "alpha==1.1", "beta": "beta==2.1", "new-one": "new-one==0.1"}
    assert update(lines, frozen) == ["# header", "alpha==1.1", f"beta==1.0 ; python_version < {other}",
                                     f"beta==2.1 ; python_version >= {other}", "new-one==0.1"]
    assert Marker(f"python_version >= {other}").evaluate()


def _fake_python(directory: str, name: str, version: str) -> None:
    path = os.path.join(directory, name)
    with open(path, "w") as handle:
        handle.write(f"#!/bin/sh\nif [ \"$1\" = -c ] && [ -n \"$2\" ]; then echo {version}; fi\nexit 0\n")
    os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)


@pytest.fixture
def fake_path(tmp_path):
    """A PATH with python3.12 and python3.11 stand-ins (and the tools make needs), but no python3.13 and no pyenv."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    _fake_python(str(bin_dir), "python3.12", "3.12")
    _fake_python(str(bin_dir), "python3.11", "3.11")
    for tool in ("sh", "make", "ls", "sort", "echo", "cat"):
        for directory in ("/usr/bin", "/bin"):
            if os.path.exists(os.path.join(directory, tool)):
                os.symlink(os.path.join(directory, tool), bin_dir / tool)
                break
    return str(bin_dir)


def test_find_python_takes_the_newest_supported_interpreter_or_the_one_asked_for(fake_path):
    finder = os.path.join(PROJECT_ROOT, "tools", "find_python")
    environment = {"PATH": fake_path}
    newest = subprocess.run([finder], env=environment, capture_output=True, text=True)
    assert newest.returncode == 0 and newest.stdout.strip() == os.path.join(fake_path, "python3.12")
    asked = subprocess.run([finder, "3.11"], env=environment, capture_output=True, text=True)
    assert asked.stdout.strip() == os.path.join(fake_path, "python3.11")
    missing = subprocess.run([finder, "3.13"], env=environment, capture_output=True, text=True)
    assert missing.returncode == 1 and missing.stdout == ""


def test_make_says_which_python_and_uses_its_own_virtualenv(fake_path):
    environment = {"PATH": fake_path}
    chosen = subprocess.run(["make", "-n", "-B", "setup"], cwd=PROJECT_ROOT, env=environment, capture_output=True, text=True)
    assert chosen.returncode == 0, chosen.stderr
    assert chosen.stdout.splitlines()[0].startswith(f"Python 3.12 ({fake_path}/python3.12), virtualenv .venv-3.12")
    assert "-m venv .venv-3.12" in chosen.stdout
    asked = subprocess.run(["make", "-n", "-B", "setup", "PYTHON=python3.11"], cwd=PROJECT_ROOT, env=environment,
                           capture_output=True, text=True)
    assert "-m venv .venv-3.11" in asked.stdout
    _fake_python(fake_path, "python3.10", "3.10")
    refused = subprocess.run(["make", "-n", "-B", "setup", "PYTHON=python3.10"], cwd=PROJECT_ROOT, env=environment,
                             capture_output=True, text=True)
    assert refused.returncode != 0
    assert "PYTHON=python3.10 is Python '3.10'; fewshot_parser supports CPython 3.13 3.12 3.11" in refused.stderr
    missing = subprocess.run(["make", "-n", "-B", "setup", "PYTHON=python3.13"], cwd=PROJECT_ROOT, env=environment,
                             capture_output=True, text=True)
    assert missing.returncode != 0
    assert "PYTHON=python3.13 does not run here; fewshot_parser supports CPython 3.13 3.12 3.11" in missing.stderr
