import os
import subprocess
import sys

from fewshot_parser.commands.run_grid import QUIET_WARNINGS
from tests import PROJECT_ROOT


def run(command, **env):
    return subprocess.run(command, capture_output=True, text=True, cwd=PROJECT_ROOT, timeout=300,
                          env={**os.environ, "OMP_NUM_THREADS": "1", **env})


def test_our_entry_points_start_without_known_third_party_warnings():
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONWARNINGS"}
    quiet = subprocess.run([sys.executable, "-m", "fewshot_parser", "report", "--help"], capture_output=True,
                           text=True, cwd=PROJECT_ROOT, timeout=300, env={**environment, "OMP_NUM_THREADS": "1"})
    assert quiet.returncode == 0
    assert "FutureWarning" not in quiet.stderr and "pkg_resources" not in quiet.stderr, quiet.stderr
    # `allennlp` imports transformers before any plugin: the Makefile and run-grid pass PYTHONWARNINGS.
    plain = run([sys.executable, "-m", "allennlp", "report", "--help"], PYTHONWARNINGS=QUIET_WARNINGS)
    assert plain.returncode == 0
    assert "FutureWarning" not in plain.stderr and "pkg_resources" not in plain.stderr, plain.stderr
