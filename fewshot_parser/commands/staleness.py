"""
Which recorded results rows the current code would not reproduce.

A row of `results/runs.csv` is *stale* when

* it has no provenance (written before rows recorded their code version),
* its config hash differs from the hash of the config its system renders today (for the same
  dataset, shot and shuffle), or
* the code it depends on (the model, data, training and logical-form packages and their
  resources) differs between the commit that made it, or made its pre-trained archive, and the
  current checkout. Python files are compared by their syntax tree without docstrings, so that
  comments, docstrings and line wrapping do not count as changes; the shared Jsonnet libraries are
  covered by the config hash. A run made from a tree with uncommitted changes (`-dirty`) counts as
  made from its commit.

`allennlp report` marks stale cells; `allennlp run-grid --redo-stale` reruns exactly those rows.
"""
import ast
import functools
import hashlib
import json
import os
import subprocess
from typing import Dict, Optional

from fewshot_parser.common.provenance import PROJECT_ROOT, experiment_hash

# What a result depends on, besides its config: a change here may change its numbers.
CODE_PATHS = (
    "fewshot_parser/models", "fewshot_parser/modules", "fewshot_parser/data", "fewshot_parser/training",
    "fewshot_parser/logical_forms", "fewshot_parser/resources",
)


def config_for(template: str, dataset: str, shot: int, shuffle: int, root: str = PROJECT_ROOT) -> Optional[str]:
    """The experiment hash of a system's config as rendered today (None when it does not render)."""
    return _rendered_hash(os.path.join(root, template.format(dataset=dataset, shot=shot)), shuffle)


@functools.lru_cache(maxsize=None)
def _rendered_hash(path: str, shuffle: int) -> Optional[str]:
    import _jsonnet

    ext_vars = {
        "FEWSHOT_SPLIT": str(shuffle), "FEWSHOT_SEED": os.environ.get("FEWSHOT_SEED", "13"),
        "FEWSHOT_DATA_DIR": os.environ.get("FEWSHOT_DATA_DIR", "data"),
        "FEWSHOT_PRETRAIN_DIR": os.environ.get("FEWSHOT_PRETRAIN_DIR", "runs/pretrain"),
    }
    try:
        return experiment_hash(json.loads(_jsonnet.evaluate_file(path, ext_vars=ext_vars)))
    except (RuntimeError, OSError, ValueError):
        return None


def normalized(path: str, text: str) -> str:
    """A file's content as far as results go: a Python file's syntax tree without docstrings, else its text."""
    if not path.endswith(".py"):
        return text
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return text
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(getattr(body[0], "value", None), ast.Constant) and isinstance(body[0].value.value, str):
            node.body = body[1:] or [ast.Pass()]  # type: ignore[attr-defined]
    return ast.dump(tree)


def _git(root: str, *arguments: str) -> str:
    return subprocess.run(["git", "-C", root, *arguments], capture_output=True, text=True, timeout=60, check=True).stdout


@functools.lru_cache(maxsize=None)
def code_fingerprint(commit: Optional[str], root: str = PROJECT_ROOT) -> Optional[str]:
    """A hash of the normalized code results depend on, at `commit` (None: the working tree)."""
    digest = hashlib.sha256()
    try:
        if commit is None:
            files = sorted(_git(root, "ls-files", "--", *CODE_PATHS).split())
        else:
            files = sorted(_git(root, "ls-tree", "-r", "--name-only", commit, "--", *CODE_PATHS).split())
        for path in files:
            if commit is None:
                if not os.path.isfile(os.path.join(root, path)):
                    continue
                with open(os.path.join(root, path), encoding="utf-8", errors="replace") as handle:
                    text = handle.read()
            else:
                text = _git(root, "show", f"{commit}:{path}")
            digest.update(path.encode() + b"\0" + normalized(path, text).encode() + b"\0")
    except (OSError, subprocess.SubprocessError):
        return None
    return digest.hexdigest()


def code_unchanged_since(version: str, root: str = PROJECT_ROOT) -> bool:
    """Whether the code results depend on is the same at `version` (a commit, maybe `-dirty`) as in the checkout."""
    commit = version.split("-")[0]
    if not commit or commit in ("unknown", "-"):
        return False
    then = code_fingerprint(commit, root)
    return then is not None and then == code_fingerprint(None, root)


def stale_reason(row: Dict[str, str], systems: Dict[str, tuple]) -> Optional[str]:
    """Why the current code would not reproduce this results row, or None when it would."""
    if not row.get("code_version"):
        return "no provenance"
    templates = [t for system, setting, t in systems.values() if (system, setting) == (row["system"], row["setting"])]
    if templates:
        current = config_for(templates[0], row["dataset"], int(row["shot"]), int(row["shuffle"]))
        if current is not None and current != row.get("config_hash"):
            return "config changed"
    if not code_unchanged_since(row["code_version"]):
        return "code changed"
    pretrained = row.get("pretrain_code_version", "-")
    if pretrained not in ("-", "") and not code_unchanged_since(pretrained):
        return "pre-trained with older code"
    return None
