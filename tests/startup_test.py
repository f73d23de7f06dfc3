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


def test_allennlp_itself_starts_quietly_with_the_start_up_filter(tmp_path):
    """Issue 54: `make setup` installs a .pth file (fewshot_parser/startup_warnings.py) that Python's `site` runs
    before `allennlp` imports transformers; here it is installed into a site directory of its own."""
    import importlib

    startup_warnings = importlib.import_module("fewshot_parser.startup_warnings")
    path = startup_warnings.install(str(tmp_path))
    assert os.path.basename(path) == "fewshot_parser_warnings.pth"
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONWARNINGS"}
    code = (f"import site, sys; site.addsitedir({str(tmp_path)!r}); sys.argv = ['allennlp', 'run-grid', '--help']; "
            "from allennlp.__main__ import run; run()")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=PROJECT_ROOT, timeout=300,
                            env={**environment, "OMP_NUM_THREADS": "1"})
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Warning" not in result.stderr and "pkg_resources" not in result.stderr, result.stderr
    makefile = open(os.path.join(PROJECT_ROOT, "Makefile")).read()
    assert "$(BIN)/python fewshot_parser/startup_warnings.py" in makefile


def test_the_namespace_advice_is_silenced_for_our_namespaces_only(caplog):
    import logging

    from allennlp.data.fields import LabelField, SequenceLabelField, TextField
    from allennlp.data.tokenizers import Token

    import fewshot_parser  # noqa: F401  (installs the filter)

    LabelField._already_warned_namespaces.discard("actions")
    SequenceLabelField._already_warned_namespaces.discard("entity_types")
    text = TextField([Token("a"), Token("b")], {})
    with caplog.at_level(logging.WARNING):
        LabelField("GEN:state:t", label_namespace="actions")
        SequenceLabelField(["s", "O"], text, label_namespace="entity_types")
        LabelField("x", label_namespace="someone_elses_namespace")
    advice = [record.getMessage() for record in caplog.records if record.getMessage().startswith("Your label namespace")]
    assert len(advice) == 1 and "'someone_elses_namespace'" in advice[0], advice
