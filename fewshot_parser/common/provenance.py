"""
Where a number came from: the git commit of the code that produced it (with ``-dirty`` when the
working tree had uncommitted changes to tracked files that decide behaviour: the package, the
experiments, the setup; not results or docs, which a running grid itself writes), a hash of the
rendered config, and what decides its floats besides them (`numerics`: torch threads, torch version,
CPU or GPU model).
"""

import hashlib
import json
import os
import subprocess
from typing import Any, Dict, Mapping, Optional

PROJECT_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# The tracked paths whose uncommitted changes make a run's code version ``-dirty``.
CODE_PATHS = ("fewshot_parser", "experiments", "setup.py", "requirements.lock")


def checkout_version(root: str = PROJECT_ROOT) -> str:
    """
    ``<commit>`` or ``<commit>-dirty`` (a change under `CODE_PATHS`) of the checkout `root` now; for
    an installed package (no checkout of its own), ``fewshot_parser==<version>``.
    """
    try:
        top = subprocess.run(
            ["git", "-C", root, "rev-parse", "--show-toplevel"], capture_output=True, text=True, timeout=10, check=True
        ).stdout.strip()
        if os.path.realpath(top) != os.path.realpath(root):
            raise OSError("not a checkout of its own")
        commit = subprocess.run(
            ["git", "-C", root, "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10, check=True
        ).stdout.strip()
        status = subprocess.run(
            ["git", "-C", root, "status", "--porcelain", "--untracked-files=no", "--", *CODE_PATHS],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        from fewshot_parser.version import VERSION

        return f"fewshot_parser=={VERSION}"
    return commit + ("-dirty" if status else "")


# The project's version as this process first asked for it. A run asks when it starts
# (`PretrainFinetune`, `allennlp train`), so a commit made while it trains, during an hour of
# pre-training say, is not taken for the code that ran. Importing the package runs no `git`.
_LOADED_VERSION: Optional[str] = None


def code_version(root: Optional[str] = None) -> str:
    """
    The code version a number made by this process should carry: this project's as the process
    first asked for it (see `_LOADED_VERSION`), or, given another `root`, that checkout's version now.
    """
    global _LOADED_VERSION
    if root is None or os.path.abspath(root) == PROJECT_ROOT:
        if _LOADED_VERSION is None:
            _LOADED_VERSION = checkout_version(PROJECT_ROOT)
        return _LOADED_VERSION
    return checkout_version(root)


def config_hash(config: Mapping[str, Any]) -> str:
    """A short, order-independent hash of a rendered config (its JSON with sorted keys)."""
    text = json.dumps(config, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def experiment_hash(config: Mapping[str, Any]) -> str:
    """
    `config_hash` of a run's rendered config without what does not change its numbers: where the
    shared pre-trained archive lives (`pretrained_archive`), whether and under which shot the run's
    recipe replaces the one the archive carries (`teaching_recipe`, `teaching_shot`) and the device
    (`trainer.cuda_device`). The config is hashed as it is written.
    """
    experiment: Dict[str, Any] = json.loads(json.dumps(config))
    experiment.pop("pretrained_archive", None)
    experiment.pop("teaching_recipe", None)
    experiment.pop("teaching_shot", None)
    if isinstance(experiment.get("trainer"), dict):
        experiment["trainer"].pop("cuda_device", None)
    # An experiment made of experiments (the lab's ensembles over pre-trainings): their recipe keys alike.
    for part in experiment.get("experiments") or []:
        if isinstance(part, dict):
            part.pop("teaching_recipe", None)
            part.pop("teaching_shot", None)
    return config_hash(experiment)


# What decides a run's floats besides its code, config and seed: the order of float sums changes with
# torch's thread count, the torch build and the processor, so two machines (or thread counts) may differ
# by a query or more on a split while each reproduces itself exactly (README, "Reproducing the numbers").
NUMERICS = ("threads", "torch", "machine")


def cpu_model() -> str:
    """The CPU's model name (`/proc/cpuinfo`; elsewhere `platform.processor()`), or `unknown`."""
    import platform

    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as handle:
            for line in handle:
                name, _, value = line.partition(":")
                if name.strip() in ("model name", "Model", "cpu model") and value.strip():
                    return " ".join(value.split())
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def machine_name() -> str:
    """The processor that did this process's arithmetic: the GPU when torch has used CUDA here, else the CPU."""
    import torch

    if torch.cuda.is_available() and torch.cuda.is_initialized():
        return torch.cuda.get_device_name(torch.cuda.current_device())
    return cpu_model()


def numerics() -> Dict[str, str]:
    """`threads` (torch's intra-op threads), `torch` (its version) and `machine` of this process."""
    import torch

    return {"threads": str(torch.get_num_threads()), "torch": torch.__version__, "machine": machine_name()}
