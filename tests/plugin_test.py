import os
import subprocess
import sys
import textwrap

import pytest
from allennlp.commands import Subcommand
from allennlp.common.plugins import discover_plugins
from allennlp.common.util import pushd
from allennlp.data import DatasetReader
from allennlp.models import Model
from allennlp.training.metrics import Metric

import fewshot_parser  # noqa: F401
from tests import PROJECT_ROOT


@pytest.mark.parametrize(
    "registry, name",
    [
        (DatasetReader, "fewshot_lf"),
        (DatasetReader, "fewshot_jobs"),
        (DatasetReader, "fewshot_geoquery"),
        (DatasetReader, "fewshot_atis"),
        (DatasetReader, "fewshot_seq2seq"),
        (Model, "fewshot_seq2seq"),
        (Metric, "fewshot_exact_match"),
        (Subcommand, "inspect-data"),
    ],
)
def test_registered_names_resolve(registry, name):
    assert registry.resolve_class_name(name)[0].__module__.startswith("fewshot_parser.")


def test_plugin_file_is_discovered_from_the_repository_root():
    with pushd(PROJECT_ROOT):
        assert "fewshot_parser" in list(discover_plugins())


def test_config_defaults_are_set_on_import():
    assert os.environ["FEWSHOT_SPLIT"].isdigit()
    assert os.environ["FEWSHOT_SEED"].isdigit()


NETWORK_GUARD = textwrap.dedent(
    """
    import socket, sys, urllib.request
    attempts = []
    def refuse(*args, **kwargs):
        attempts.append(args)
        raise OSError("network access attempted")
    socket.socket.connect = refuse
    socket.create_connection = refuse
    socket.getaddrinfo = refuse
    import logging
    logging.basicConfig(level=logging.ERROR)
    from allennlp.common.plugins import import_plugins
    import_plugins()
    import fewshot_parser
    print("ATTEMPTS", len(attempts))
    """
)


def test_importing_the_plugins_does_not_touch_the_network():
    # AllenNLP imports allennlp_models recursively; one of its modules downloads NLTK data unless
    # the offline marker installed by `make setup` is present.
    result = subprocess.run(
        [sys.executable, "-c", NETWORK_GUARD], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "ATTEMPTS 0" in result.stdout
    assert "nltk_data" not in result.stderr
