"""
Guards around AllenNLP's `train_model` and `archive_model`, which `fewshot_parser.commands.cli_behaviour`
puts in their place when fewshot_parser is imported, so that they apply to `allennlp train` itself:

- a run that fails before it has saved anything worth resuming (bad data, a config error) removes the
  serialization directory it created, so the corrected command runs without `-f`. A directory that
  existed before the command, or holds a checkpoint (`--recover` can use it), is left as it is;
- `model.tar.gz` is written to a temporary file and renamed into place when complete, so an
  interrupted archiving never leaves a truncated archive that later looks finished;
- archives are gzip files without compression (level 0): model weights are floats that the default
  level 9 shrank by 8% in 9 s per archive of the best row, against 0.4 s to store them; any gzip
  reader, AllenNLP's `load_archive` included, reads them as before;
- every archive holds `provenance.json`, with what decided the floats of its training (torch
  threads, torch version, CPU or GPU model; `fewshot_parser.common.provenance.numerics`), also
  written to the serialization directory, where `run-grid` reads it for the run's row.
"""

import functools
import glob
import json
import logging
import os
import shutil
import tarfile
from typing import Any, Callable, List

from allennlp.models.archival import _DEFAULT_WEIGHTS as DEFAULT_WEIGHTS
from allennlp.models.archival import _WEIGHTS_NAME as WEIGHTS_NAME
from allennlp.models.archival import CONFIG_NAME, META_NAME

from fewshot_parser.common.phases import phase
from fewshot_parser.common.provenance import numerics
from fewshot_parser.common.safe_io import atomic_open, atomic_path

logger = logging.getLogger(__name__)

# The run's provenance (`fewshot_parser.training.pretrain_finetune.PROVENANCE`), also kept in its archive.
PROVENANCE = "provenance.json"

# What makes a failed run's directory worth keeping: training state `--recover` resumes from, or an archive.
KEPT = ("model_state_*.th", "training_state_*.th", "best.th", "model.tar.gz", "metrics.json")


def worth_keeping(serialization_dir: str) -> bool:
    return any(glob.glob(os.path.join(serialization_dir, pattern)) for pattern in KEPT)


def close_logs_in(directory: str) -> None:
    """Closes and detaches every file handler writing into `directory` (AllenNLP's `out.log` handlers: the
    root logger's and the `tqdm` logger's), so that nothing logs into a removed directory later."""
    inside = os.path.abspath(directory) + os.sep
    loggers = [logging.getLogger()]
    loggers += [known for known in logging.Logger.manager.loggerDict.values() if isinstance(known, logging.Logger)]
    for logger_ in loggers:
        for handler in list(logger_.handlers):
            if isinstance(handler, logging.FileHandler) and handler.baseFilename.startswith(inside):
                handler.close()
                logger_.removeHandler(handler)


def guard_train_model(train_model: Callable[..., Any]) -> Callable[..., Any]:
    """`train_model` that removes the serialization directory it created when training fails early."""
    if getattr(train_model, "_fewshot_guarded", False):
        return train_model

    @functools.wraps(train_model)
    def guarded(
        params: Any, serialization_dir: Any, recover: bool = False, force: bool = False, *args: Any, **kwargs: Any
    ) -> Any:
        directory = str(serialization_dir)
        fresh = force or not (os.path.isdir(directory) and os.listdir(directory))
        try:
            return train_model(params, serialization_dir, recover, force, *args, **kwargs)
        except Exception:
            if fresh and not recover and os.path.isdir(directory) and not worth_keeping(directory):
                close_logs_in(directory)
                shutil.rmtree(directory, ignore_errors=True)
                logger.info("Removed %s: the run failed before saving anything to resume from", directory)
            raise

    guarded._fewshot_guarded = True  # type: ignore[attr-defined]
    return guarded


def guard_archive_model(archive_model: Callable[..., str]) -> Callable[..., str]:
    """
    `archive_model` that writes through a temporary file in the archive's directory, the same
    members as AllenNLP's (`write_archive`), stored without compression.
    """
    if getattr(archive_model, "_fewshot_guarded", False):
        return archive_model

    @functools.wraps(archive_model)
    def guarded(
        serialization_dir: Any,
        weights: str = DEFAULT_WEIGHTS,
        archive_path: Any = None,
        include_in_archive: Any = None,
    ) -> str:
        target = os.path.join(str(serialization_dir), "model.tar.gz") if archive_path is None else str(archive_path)
        if os.path.isdir(target):
            target = os.path.join(target, "model.tar.gz")
        extra = list(include_in_archive or [])
        if record_numerics(str(serialization_dir)) and PROVENANCE not in extra:
            extra.append(PROVENANCE)
        with atomic_path(target) as temporary, phase("archiving"):
            write_archive(str(serialization_dir), weights, temporary, extra)
        return target

    guarded._fewshot_guarded = True  # type: ignore[attr-defined]
    return guarded


def write_archive(serialization_dir: str, weights: str, archive_path: str, include: List[str]) -> None:
    """
    Writes the model archive of `serialization_dir` to `archive_path` with the members AllenNLP's
    `archive_model` writes (config.json, the weights as weights.th, vocabulary/, meta.json when it
    exists, then each glob of `include` relative to the directory), gzip level 0.
    """
    weights_file = weights if os.path.isabs(weights) else os.path.join(serialization_dir, weights)
    config_file = os.path.join(serialization_dir, CONFIG_NAME)
    for needed, what in ((weights_file, "weights file"), (config_file, "config file")):
        if not os.path.exists(needed):
            raise RuntimeError(f"{what} '{needed}' does not exist, unable to archive model")
    with tarfile.open(archive_path, "w:gz", compresslevel=0) as archive:
        archive.add(config_file, arcname=CONFIG_NAME)
        archive.add(weights_file, arcname=WEIGHTS_NAME)
        archive.add(os.path.join(serialization_dir, "vocabulary"), arcname="vocabulary")
        meta = os.path.join(serialization_dir, META_NAME)
        if os.path.exists(meta):
            archive.add(meta, arcname=META_NAME)
        prefix = os.path.join(serialization_dir, "")
        for pattern in include:
            for path in sorted(glob.glob(os.path.join(serialization_dir, pattern))):
                archive.add(path, arcname=path[len(prefix) :])


def record_numerics(serialization_dir: str) -> bool:
    """
    Sets this process's numerics (it has just trained the model being archived) in the directory's
    `provenance.json`, keeping what else it holds; returns whether the file was written.
    """
    path = os.path.join(serialization_dir, PROVENANCE)
    try:
        with open(path) as handle:
            record = json.load(handle)
    except (OSError, ValueError):
        record = {}
    record.update(numerics())
    try:
        with atomic_open(path, "w") as handle:
            json.dump(record, handle, indent=1)
    except OSError as error:  # an archive without it is still an archive
        logger.warning("could not record the numerics in %s: %s", path, error)
        return False
    return True
