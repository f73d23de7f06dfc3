"""
What importing fewshot_parser changes in the `allennlp` commands besides registering the plugin.
This is the one module of the package that patches AllenNLP (replaces an attribute of one of its
modules or classes); `tests/import_graph_test.py` fails on a patch anywhere else. The other modules
only provide the replacements, as functions that wrap AllenNLP's originals. docs/errors.md describes
each change for users:

- expected user errors end a command with their one-line message (`fewshot_parser.common.errors`;
  `FEWSHOT_VERBOSE=1` shows the traceback): `sys.excepthook`, again each time AllenNLP's
  `prepare_global_logging` installs its own hook;
- `allennlp train` removes the serialization directory of a run that failed before saving anything,
  and writes `model.tar.gz` atomically (`fewshot_parser.training.guarded_train`): `train_model` and
  `archive_model`;
- `allennlp predict` writes its output atomically and reports bad input lines one by one
  (`fewshot_parser.commands.guarded_predict`): `_PredictManager`;
- a missing, truncated or foreign model archive is a one-line error (`fewshot_parser.common.archives`):
  `load_archive`, wherever AllenNLP's commands and loaders look it up;
- `-o` overrides merge into the config, and an unknown key is an error naming where it was found
  (`fewshot_parser.common.overrides`): `with_overrides`, `Params.assert_empty`, `create_kwargs`;
- AllenNLP's advice to rename our label namespaces is not logged
  (`fewshot_parser.data.namespace_warnings`; a logging filter, not a patch);
- torch's thread count gets a default suited to our small models (`fewshot_parser.common.threads`).

It sits in the top layer, `commands`, because it gathers pieces of `common`, `data`, `training`
and `commands`. The package `__init__` calls `install_cli_behaviour` once, after registering
everything; every step leaves an already installed change alone, so calling it again changes nothing.
"""

import sys

from allennlp.commands import evaluate, train
from allennlp.commands import predict as allennlp_predict
from allennlp.common import from_params, params
from allennlp.common import logging as common_logging
from allennlp.common.params import Params
from allennlp.models import archival
from allennlp.predictors import predictor

from fewshot_parser.commands.guarded_predict import GuardedPredictManager
from fewshot_parser.common.archives import guard_load_archive
from fewshot_parser.common.errors import keeping_excepthook, wrap_excepthook
from fewshot_parser.common.overrides import assert_empty, check_keys, merging_overrides
from fewshot_parser.common.threads import apply_thread_defaults
from fewshot_parser.data.namespace_warnings import silence_namespace_advice
from fewshot_parser.training.guarded_train import guard_archive_model, guard_train_model


def install_excepthook() -> None:
    """
    Installs the one-line hook for user errors now, and again whenever AllenNLP replaces
    `sys.excepthook` (its `prepare_global_logging`, called by `allennlp train`, installs a hook that
    logs every uncaught exception as "CRITICAL - root - Uncaught exception" with its traceback).
    """
    sys.excepthook = wrap_excepthook(sys.excepthook)
    common_logging.prepare_global_logging = keeping_excepthook(common_logging.prepare_global_logging)


def install_guarded_train() -> None:
    """`allennlp train` cleans up after early failures and archives atomically, with provenance."""
    train.train_model = guard_train_model(train.train_model)
    archival.archive_model = guard_archive_model(archival.archive_model)
    train.archive_model = guard_archive_model(train.archive_model)


def install_guarded_predict() -> None:
    """`allennlp predict` uses `GuardedPredictManager` (it looks `_PredictManager` up when it runs)."""
    setattr(allennlp_predict, "_PredictManager", GuardedPredictManager)


def install_archive_checks() -> None:
    """`load_archive` checks its archive first, wherever AllenNLP's commands and loaders look it up."""
    for module in (archival, allennlp_predict, evaluate, predictor):
        module.load_archive = guard_load_archive(module.load_archive)  # type: ignore[attr-defined]


def install_overrides() -> None:
    """`-o` overrides merge, and unknown config keys are errors that say where they were found."""
    params.with_overrides = merging_overrides(params.with_overrides)
    Params.assert_empty = assert_empty  # type: ignore[assignment]
    from_params.create_kwargs = check_keys(from_params.create_kwargs)


def install_cli_behaviour() -> None:
    """Makes every change the module docstring lists (each at most once)."""
    install_excepthook()
    install_guarded_train()
    install_guarded_predict()
    install_archive_checks()
    install_overrides()
    silence_namespace_advice()
    apply_thread_defaults()
