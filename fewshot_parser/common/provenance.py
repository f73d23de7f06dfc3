"""
Where a number came from: the git commit of the code that produced it (with ``-dirty`` when the
working tree had uncommitted changes to tracked files) and a hash of the rendered config.
"""
import hashlib
import json
import os
import subprocess
from typing import Any, Mapping, Optional

PROJECT_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def code_version(root: Optional[str] = None) -> str:
    """``<commit>`` or ``<commit>-dirty``; ``unknown`` outside a git checkout."""
    root = root or PROJECT_ROOT
    try:
        commit = subprocess.run(
            ["git", "-C", root, "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10, check=True
        ).stdout.strip()
        status = subprocess.run(
            ["git", "-C", root, "status", "--porcelain", "--untracked-files=no"],
            capture_output=True, text=True, timeout=10, check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return commit + ("-dirty" if status else "")


def config_hash(config: Mapping[str, Any]) -> str:
    """A short, order-independent hash of a rendered config (its JSON with sorted keys)."""
    text = json.dumps(config, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def experiment_hash(config: Mapping[str, Any]) -> str:
    """
    `config_hash` of a run's rendered config without what does not change its numbers: where the
    shared pre-trained archive lives (`pretrained_archive`) and the device (`trainer.cuda_device`).
    """
    config = json.loads(json.dumps(config))
    config.pop("pretrained_archive", None)
    if isinstance(config.get("trainer"), dict):
        config["trainer"].pop("cuda_device", None)
    return config_hash(config)
