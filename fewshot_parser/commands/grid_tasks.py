"""
What a node does for `allennlp run-grid` under Ray: pre-train a shared archive, or fine-tune one run,
in a scratch directory of its own, and hand back the files the driver keeps.

Nothing here depends on a path that exists only on the driver. A node needs the project (code and
data) at the driver's working directory, or at `$FEWSHOT_PROJECT_DIR` when `ray start` was given
one; pre-trained archives arrive as bytes through Ray's object store and are written into the
node's own `$FEWSHOT_PRETRAIN_DIR`, and a run's outputs go back to the driver as bytes (a tar of its
serialization directory, without the training checkpoints unless asked for, and its log).

The module imports only the standard library at load time, and `grid_ray` ships its functions to
the workers by value, so a Ray worker does not import torch or AllenNLP; the training itself is a
subprocess (`python -m allennlp train`, as before Ray), which keeps every run in a fresh process.
Results are plain dicts for the same reason. `python -m fewshot_parser.commands.grid_tasks CONFIG`
pre-trains the archive CONFIG names (the pre-training step alone).
"""

import fcntl
import glob
import hashlib
import io
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
from typing import IO, Any, Callable, Dict, List, NamedTuple, Optional, Sequence

from fewshot_parser.commands.systems import REFERENCE

# The first line of a run's log: when it started (see `run_grid.run_seconds`).
START_MARK = "# run-grid: started at "
# AllenNLP's training checkpoints; the archive model.tar.gz holds the same weights.
CHECKPOINTS = ("best.th", "model_state_*.th", "training_state_*.th")
# What of a pre-training directory travels to other nodes: the archive, the config `ensure_pretrained`
# compares with, and the provenance the fine-tuned runs copy.
PRETRAIN_FILES = ("model.tar.gz", "config.json", "provenance.json")


class RunSpec(NamedTuple):
    """Everything a node needs for one run (or one pre-training), all of it plain values."""

    name: str  # for messages: "ours geo 1-shot s3"
    config: str  # experiment config, relative to the project directory (or absolute)
    shuffle: int
    environment: Dict[str, str]  # FEWSHOT_*, thread counts, warning filters: set over the node's own
    project: str  # the driver's working directory; a node may have the project elsewhere
    archive: Optional[str] = None  # the shared pre-trained archive of the config, as the config names it
    use_gpu: bool = False  # train on the GPU Ray assigned to the task
    keep_checkpoints: bool = False
    retire_stale: bool = False  # --redo-stale: the driver found the archive outdated; a node retires its copy too
    known: Optional[str] = (
        None  # known.txt of a make-splits split (or an official split's train.txt): retention is measured on it
    )
    known_sample: Optional[int] = None  # measure on a seeded sample of at most this many of its lines (None: all)


# train(spec, serialization_dir or None for pre-training only, project dir, log) -> exit code
Trainer = Callable[[RunSpec, Optional[str], str, IO[str]], int]
# evaluate(spec, archive, data file, output JSON, project dir, log) -> exit code
Evaluator = Callable[[RunSpec, str, str, str, str, IO[str]], int]
# Where a run keeps its exact match on known.txt: with the pre-trained archive, after fine-tuning.
KNOWN_METRICS = ("known_pretrained_metrics.json", "known_finetuned_metrics.json")
# The lines it measured them on when `RunSpec.known_sample` asks for a sample.
KNOWN_SAMPLE = "known_sample.txt"


def train_subprocess(spec: RunSpec, directory: Optional[str], project: str, log: IO[str]) -> int:
    """The real trainer: `python -m allennlp train` (or the pre-training step alone) in the project directory.
    A row reference (`TABLE#ROW/DATASET_Kshot`) is rendered here first, with the run's variables, into
    `<directory>.config.json` beside the serialization directory."""
    environment = {**os.environ, **spec.environment, "FEWSHOT_SPLIT": str(spec.shuffle)}
    config = spec.config
    if directory is None:
        command = [sys.executable, "-m", "fewshot_parser.commands.grid_tasks", config]
    else:
        if REFERENCE.match(config):
            config = rendered_file(config, environment, project, directory + ".config.json")
        overrides = json.dumps({"trainer": {"cuda_device": 0}}) if spec.use_gpu else "{}"
        command = [
            sys.executable,
            "-m",
            "allennlp",
            "train",
            config,
            "-s",
            directory,
            "-o",
            overrides,
            "--include-package",
            "fewshot_parser",
        ]
    return subprocess.call(command, stdout=log, stderr=subprocess.STDOUT, env=environment, cwd=project)


def rendered_file(config: str, environment: Dict[str, str], project: str, target: str) -> str:
    """A row reference rendered (in the project directory) into the JSON file `target`; returns it."""
    from fewshot_parser.commands.systems import render_config

    here = os.getcwd()
    os.chdir(project)
    try:
        rendered = render_config(config, environment)
    finally:
        os.chdir(here)
    with open(target, "w") as handle:
        json.dump(rendered, handle, indent=1, sort_keys=True)
    return target


def evaluate_subprocess(spec: RunSpec, archive: str, data: str, output: str, project: str, log: IO[str]) -> int:
    """The real evaluator: `python -m allennlp evaluate ARCHIVE DATA --output-file OUTPUT` in the project directory."""
    command = [
        sys.executable,
        "-m",
        "allennlp",
        "evaluate",
        archive,
        data,
        "--output-file",
        output,
        "--include-package",
        "fewshot_parser",
    ]
    if spec.use_gpu:
        command += ["--cuda-device", "0"]
    environment = {**os.environ, **spec.environment, "FEWSHOT_SPLIT": str(spec.shuffle)}
    return subprocess.call(command, stdout=log, stderr=subprocess.STDOUT, env=environment, cwd=project)


def evaluate_known(
    spec: RunSpec, directory: str, project: str, log: IO[str], evaluate: Evaluator = evaluate_subprocess
) -> None:
    """
    Retention: exact match on the split's known.txt (examples of known predicates that neither
    pre-training nor fine-tuning saw) with the pre-trained archive and with the fine-tuned one, written
    beside the run's metrics (`KNOWN_METRICS`). A failed evaluation is logged and leaves its file out.
    The pre-trained archive's result is the same for every run that shares the archive and the lines
    (both shots and every support sample of a draw), so it is kept beside the archive
    (`known_pretrained_cache`) and evaluated once.
    """
    if not spec.known:
        return
    data = node_path(spec.known, project)
    if spec.known_sample is not None:
        data = sample_lines(data, spec.known_sample, os.path.join(directory, KNOWN_SAMPLE))
    archives = [node_path(spec.archive, project) if spec.archive else None, os.path.join(directory, "model.tar.gz")]
    for archive, name in zip(archives, KNOWN_METRICS):
        if archive is None:
            continue
        output = os.path.join(directory, name)
        cached = known_pretrained_cache(archive, data, spec.use_gpu) if name == KNOWN_METRICS[0] else None
        if cached and os.path.isfile(cached):
            shutil.copyfile(cached, output)
            log.write(f"# run-grid: retention: {archive} on {spec.known}: kept from {cached}\n")
            continue
        log.write(f"# run-grid: retention: evaluating {archive} on {spec.known}\n")
        log.flush()
        if evaluate(spec, archive, data, output, project, log) != 0:
            log.write(f"# run-grid: retention: the evaluation of {archive} failed\n")
        elif cached and os.path.isfile(output):
            os.makedirs(os.path.dirname(cached), exist_ok=True)
            staging = f"{cached}.{os.getpid()}.tmp"
            shutil.copyfile(output, staging)
            os.replace(staging, cached)


def known_pretrained_cache(archive: str, data: str, use_gpu: bool) -> Optional[str]:
    """
    Where the pre-trained `archive`'s metrics on the lines of `data` are kept: in the archive's own
    directory (made anew, and so emptied, when the archive is pre-trained again), named by the
    digest of the lines and the device; None when the archive or the data cannot be read.
    """
    try:
        with open(data, "rb") as handle:
            digest = hashlib.sha256(handle.read()).hexdigest()[:16]
    except OSError:
        return None
    if not os.path.isfile(archive):
        return None
    device = "gpu" if use_gpu else "cpu"
    return os.path.join(os.path.dirname(os.path.abspath(archive)), "known_metrics", f"{digest}-{device}.json")


def sample_lines(path: str, size: int, output: str, seed: int = 13) -> str:
    """`output`: a seeded sample of at most `size` non-empty lines of `path`, in their order there
    (every line when it has no more). The sample depends on the file and the seed only."""
    with open(path, encoding="utf-8") as handle:
        lines = [line for line in handle if line.strip()]
    chosen = sorted(random.Random(seed).sample(range(len(lines)), size)) if len(lines) > size else range(len(lines))
    with open(output, "w", encoding="utf-8") as handle:
        handle.writelines(lines[i] if lines[i].endswith("\n") else lines[i] + "\n" for i in chosen)
    return output


def node_project(spec: RunSpec) -> str:
    """The project directory on this node: `$FEWSHOT_PROJECT_DIR`, else the driver's working directory."""
    project = os.environ.get("FEWSHOT_PROJECT_DIR") or spec.project
    if not os.path.isdir(project):
        raise FileNotFoundError(
            f"node {socket.gethostname()} has no project checkout at {project}; "
            "start its Ray with FEWSHOT_PROJECT_DIR=<checkout>"
        )
    return project


def node_path(path: str, project: str) -> str:
    """A path from a config (relative to the project directory) on this node."""
    return path if os.path.isabs(path) else os.path.join(project, path)


def pack_directory(directory: str, keep_checkpoints: bool = False, only: Optional[List[str]] = None) -> bytes:
    """An uncompressed tar of `directory` (its checkpoints left out unless `keep_checkpoints`; only the
    top-level names in `only` when given); the members are relative to the directory."""
    skipped = set()
    if not keep_checkpoints:
        for pattern in CHECKPOINTS:
            skipped.update(glob.glob(os.path.join(directory, pattern)))
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for name in sorted(os.listdir(directory)):
            path = os.path.join(directory, name)
            if path in skipped or (only is not None and name not in only):
                continue
            tar.add(path, arcname=name)
    return buffer.getvalue()


def unpack_directory(data: bytes, directory: str) -> None:
    """Writes a `pack_directory` tar into `directory` (created; its members may not leave it)."""
    os.makedirs(directory, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r") as tar:
        tar.extractall(directory, filter="data")


def packed_members(data: bytes, names: Sequence[str]) -> Dict[str, Optional[bytes]]:
    """The bytes of the top-level files `names` in a packed directory (None for one it lacks)."""
    found: Dict[str, Optional[bytes]] = {}
    with tarfile.open(fileobj=io.BytesIO(data), mode="r") as tar:
        for name in names:
            try:
                member = tar.extractfile(name)
            except KeyError:
                member = None
            found[name] = member.read() if member else None
    return found


def file_bytes(path: str) -> Optional[bytes]:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return None


# What names a pre-training: its config and its provenance (code version, numerics). Its archive's bytes
# do not: fine-tuning stores teaching recipes in the archive after the directory was packed.
PRETRAINING_IDENTITY = ("config.json", "provenance.json")


def install_pretrained(data: bytes, archive: str) -> bool:
    """
    Puts a packed pre-training directory at the directory of `archive` (a path on this node) unless
    the same pre-training is already there (an archive, beside the same config and provenance);
    returns whether it wrote it. The directory there keeps what runs added to it (the recipes stored
    in the archive, the kept retention results). Holds the lock `ensure_pretrained` takes
    (`<dir>.partial.lock`), so runs on one node neither install twice nor read a half-written
    archive; that lock is per node, which Ray's scheduling does not cover.
    """
    target = os.path.dirname(os.path.abspath(archive))
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target + ".partial.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        packed = packed_members(data, PRETRAINING_IDENTITY)
        here = {name: file_bytes(os.path.join(target, name)) for name in PRETRAINING_IDENTITY}
        if os.path.isfile(os.path.join(target, "model.tar.gz")) and packed == here:
            return False
        incoming = f"{target}.incoming-{os.getpid()}"
        if os.path.isdir(incoming):
            shutil.rmtree(incoming)
        unpack_directory(data, incoming)
        if os.path.isdir(target):
            shutil.rmtree(target)
        os.replace(incoming, target)
    return True


def log_tail(text: str, lines: int = 5) -> str:
    return " | ".join(line.strip() for line in text.strip().splitlines()[-lines:])


def pretrain_on_node(spec: RunSpec, train: Trainer = train_subprocess) -> Dict[str, Any]:
    """
    The pre-training task: makes (or finds) the archive `spec.archive` on this node and returns
    `{"files": packed directory, "log": text, "seconds", "node", "error"}` (`error` None on success).
    """
    start = time.time()
    result: Dict[str, Any] = {"files": None, "log": "", "seconds": 0.0, "node": socket.gethostname(), "error": None}
    try:
        project = node_project(spec)
        archive = node_path(spec.archive or "", project)
        if spec.retire_stale:
            # The driver retired its own copy as outdated; a node's copy goes the same way.
            subprocess.call(
                [
                    sys.executable,
                    "-c",
                    "import sys; from fewshot_parser.commands.run_grid import "
                    "retire_archive; retire_archive(sys.argv[1])",
                    archive,
                ],
                cwd=project,
                env={**os.environ, **spec.environment},
            )
        with tempfile.TemporaryDirectory(prefix="fewshot-pretrain-") as scratch:
            log_path = os.path.join(scratch, "pretrain.log")
            with open(log_path, "w") as log:
                log.write(f"{START_MARK}{start:.1f}\n")
                log.flush()
                code = train(spec, None, project, log)
            with open(log_path) as handle:
                result["log"] = handle.read()
        if code != 0 or not os.path.isfile(archive):
            result["error"] = f"pre-training exit code {code}: {log_tail(result['log'], 2)}"
        else:
            result["files"] = pack_directory(os.path.dirname(archive), only=list(PRETRAIN_FILES))
    except Exception as error:  # reported by the driver, never retried (it would fail again)
        result["error"] = f"{type(error).__name__}: {error}"
    result["seconds"] = time.time() - start
    return result


def finetune_on_node(
    spec: RunSpec,
    pretrained: Optional[Dict[str, Any]],
    train: Trainer = train_subprocess,
    evaluate: Evaluator = evaluate_subprocess,
) -> Dict[str, Any]:
    """
    The task of one run: writes the pre-trained archive it was handed (`pretrain_on_node`'s result, or
    None for a config without one) into this node's pre-training directory, trains the run from
    scratch in a scratch directory and returns `{"files": packed serialization directory, "log",
    "seconds", "node", "error"}`. A failed run is a result with `error` set, its log included.
    """
    start = time.time()
    result: Dict[str, Any] = {"files": None, "log": "", "seconds": 0.0, "node": socket.gethostname(), "error": None}
    try:
        project = node_project(spec)
        if pretrained is not None:
            if pretrained.get("error") or not pretrained.get("files"):
                raise RuntimeError(f"its pre-training failed ({pretrained.get('error')})")
            install_pretrained(pretrained["files"], node_path(spec.archive or "", project))
        with tempfile.TemporaryDirectory(prefix="fewshot-run-") as scratch:
            directory = os.path.join(scratch, "run")
            with open(directory + ".log", "w") as log:
                # The start time heads the log, so a run finished after its grid was killed can be recorded later.
                log.write(f"{START_MARK}{start:.1f}\n")
                log.flush()
                code = train(spec, directory, project, log)
                if code == 0 and os.path.isfile(os.path.join(directory, "metrics.json")):
                    evaluate_known(spec, directory, project, log, evaluate)
            with open(directory + ".log") as handle:
                result["log"] = handle.read()
            if code != 0 or not os.path.isfile(os.path.join(directory, "metrics.json")):
                result["error"] = f"exit code {code}"
            else:
                result["files"] = pack_directory(directory, spec.keep_checkpoints)
    except Exception as error:
        result["error"] = f"{type(error).__name__}: {error}"
    result["seconds"] = time.time() - start
    return result


# Beside a pre-training's staging directory: the code version of each process that trained it so far.
SEGMENTS = ".partial.code_versions"


def pretrain_main(config: str, started_with: Optional[str] = None) -> None:
    """
    Pre-trains the shared archive of an experiment config exactly as its `allennlp train` would, and
    records the code that trained it (`record_pretraining_code`).
    """
    # Imported first: importing any module of the package runs fewshot_parser/__init__.py before it,
    # which registers the plugin and sets the config defaults.
    from allennlp.common import Params

    from fewshot_parser.common.provenance import code_version
    from fewshot_parser.training.config_check import check_experiment
    from fewshot_parser.training.pretrain_finetune import ensure_pretrained

    started_with = started_with or code_version()  # the code this process loaded, before any later commit
    if REFERENCE.match(config):
        from fewshot_parser.commands.systems import render_config

        params = Params(render_config(config, dict(os.environ)))
    else:
        params = Params.from_file(config)
    pretraining = params.get("pretraining")
    settings = pretraining.as_dict(quiet=True) if pretraining is not None else None
    if settings is not None:  # (the grid's driver checked the whole config before it started)
        check_experiment(settings, "pretraining.")
    archive = params["pretrained_archive"]
    if settings is not None:
        begin_segment(archive, settings, started_with)
    ensure_pretrained(archive, settings)
    if settings is not None:
        record_pretraining_code(archive)


def begin_segment(archive: str, settings: Dict[str, Any], version: str) -> None:
    """
    Notes that a process of code `version` is about to train the archive: the list beside the staging
    directory (`SEGMENTS`) is started afresh unless the pre-training will resume an interrupted one,
    and nothing is noted when the archive is already made. Holds `ensure_pretrained`'s lock, so a
    second process waits for the first, then finds the archive made.
    """
    from fewshot_parser.training.pretrain_finetune import _made_from, _resumable  # ensure_pretrained's own tests

    target = os.path.dirname(os.path.abspath(archive))
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target + ".partial.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.isfile(archive) and _made_from(archive, settings):
            return
        versions = _segment_versions(target) if _resumable(target + ".partial", settings) else []
        with open(target + SEGMENTS + ".tmp", "w") as handle:
            json.dump(versions + [version], handle)
        os.replace(target + SEGMENTS + ".tmp", target + SEGMENTS)


def _segment_versions(target: str) -> List[str]:
    try:
        with open(target + SEGMENTS) as handle:
            return [str(version) for version in json.load(handle)]
    except (OSError, ValueError):
        return []


def record_pretraining_code(archive: str) -> None:
    """
    Corrects the code version in a freshly made archive's `provenance.json`. `ensure_pretrained`
    writes the version of the checkout when training ends, which names a commit made during a long
    pre-training, or only the last of several resumed sessions. The archive is credited instead to the
    code the first training process loaded (the earliest, so that the staleness checks err towards
    stale), and `resumed_with` lists the other versions that continued it.
    """
    target = os.path.dirname(os.path.abspath(archive))
    versions = _segment_versions(target)
    if not versions:
        return
    path = os.path.join(target, "provenance.json")
    try:
        with open(path) as handle:
            record = json.load(handle)
    except (OSError, ValueError):
        record = {}
    record["code_version"] = versions[0]
    later = [version for version in dict.fromkeys(versions[1:]) if version != versions[0]]
    if later:
        record["resumed_with"] = later
    else:
        record.pop("resumed_with", None)
    with open(path + ".tmp", "w") as handle:
        json.dump(record, handle, indent=1)
    os.replace(path + ".tmp", path)
    os.remove(target + SEGMENTS)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python -m fewshot_parser.commands.grid_tasks CONFIG  (pre-trains the archive CONFIG uses)")
    # As `allennlp train` does for the grid's other runs: the plugins named in `.allennlp_plugins` (and
    # AllenNLP's default ones) register their classes, so a row's pre-training may use them.
    from allennlp.common.plugins import import_plugins

    import_plugins()
    pretrain_main(sys.argv[1])
