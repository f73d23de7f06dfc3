"""A training run that fails early leaves no log handler writing into the directory it removed."""
import logging

import pytest
from allennlp.commands.train import train_model_from_file
from allennlp.common.checks import ConfigurationError

import fewshot_parser  # noqa: F401
from tests.training.config_check_test import CONFIG, no_archive  # noqa: F401  (a fixture)


def test_a_removed_run_leaves_no_file_handler_into_it(tmp_path, no_archive):
    with pytest.raises(ConfigurationError):
        train_model_from_file(CONFIG, str(tmp_path / "run"), overrides='{"trainer": {"optimizer": {"type": "adamm"}}}')
    assert not (tmp_path / "run").exists()
    loggers = [logging.getLogger(), *logging.Logger.manager.loggerDict.values()]
    into_run = [
        handler.baseFilename
        for logger in loggers
        for handler in getattr(logger, "handlers", [])
        if isinstance(handler, logging.FileHandler) and str(tmp_path / "run") in handler.baseFilename
    ]
    assert into_run == []
    logging.getLogger("tqdm").info("a later line goes nowhere near the removed directory")
