"""
Which recorded results rows the current code would not reproduce.

A row of `results/runs.csv` is *stale* when

* it has no provenance (written before rows recorded their code version),
* no system of `run-grid` makes it any more (its system was renamed or removed),
* its config hash differs from the hash of the config its system renders today (for the same
  dataset, shot and shuffle), or
* the code it depends on differs between the commit that made it, or made its pre-trained
  archive, and the current checkout. The code a config depends on is found from the config itself:
  the modules that register the component types it names (`"type": "proto_parser"`, its reader,
  data loader, callbacks, ...; a probe row's components in the lab's package too), every module of
  the product's and the lab's packages they import, transitively, and the package's resources
  (lexicons, signatures). Package `__init__` files that only re-export are not
  followed, so a new model in its own module leaves the rows of the other models valid. Without a
  config (or one naming no component of ours) every module of the model, data, training and
  logical-form packages counts. Python files are compared by their syntax tree without docstrings,
  so that comments, docstrings and line wrapping do not count as changes; the shared Jsonnet
  libraries are covered by the config hash. A run made from a tree with uncommitted changes
  (`-dirty`) counts as made from its commit.

A row whose code changed is still valid when `allennlp certify` recorded, in
`results/certifications.csv`, that the code of the row's commit and today's code behave the same for
its system, dataset and shot (the certificate's base has the row's code, its certified version has
today's).

`allennlp report` marks stale cells; `allennlp run-grid --redo-stale` reruns exactly those rows.
"""

import ast
import csv
import functools
import hashlib
import json
import os
import subprocess
from typing import Any, Dict, FrozenSet, Iterable, Iterator, List, Optional, Sequence, Set, Tuple

from fewshot_parser.commands.grid_freshness import ArchiveUser, Freshness
from fewshot_parser.common.errors import UserError
from fewshot_parser.common.provenance import PROJECT_ROOT, experiment_hash

# What a result depends on, besides its config: a change here may change its numbers. The lab's own
# components (probe rows' readers, generators, models) count as the product's do.
CODE_PATHS = (
    "fewshot_parser/models",
    "fewshot_parser/modules",
    "fewshot_parser/data",
    "fewshot_parser/training",
    "fewshot_parser/logical_forms",
    "fewshot_parser/resources",
    "lab/fewshot_lab/models",
    "lab/fewshot_lab/modules",
    "lab/fewshot_lab/data",
    "lab/fewshot_lab/training",
    "lab/fewshot_lab/logical_forms",
)
# The packages whose modules register components and are followed through imports, with the folder
# each lives in (the lab's package is lab/fewshot_lab).
PACKAGE_FOLDERS = {"fewshot_parser": "", "fewshot_lab": "lab/"}


# Verdicts of `allennlp certify`: rows whose behaviour a later version of the code was shown to keep.
CERTIFICATIONS = "results/certifications.csv"


def read_certifications(path: str = CERTIFICATIONS) -> List[Dict[str, str]]:
    """The recorded verdicts (none when the file does not exist); relative paths are the project's."""
    full = path if os.path.isabs(path) else os.path.join(PROJECT_ROOT, path)
    if not os.path.isfile(full):
        return []
    with open(full, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def config_for(template: str, dataset: str, shot: int, shuffle: int, root: str = PROJECT_ROOT) -> Optional[str]:
    """The experiment hash of a system's config as rendered today (None when it does not render)."""
    config = _rendered(os.path.join(root, template.format(dataset=dataset, shot=shot)), shuffle)
    return None if config is None else experiment_hash(json.loads(config))


@functools.lru_cache(maxsize=None)
def _rendered(
    path: str, shuffle: int, data_dir: Optional[str] = None, pretrain_dir: Optional[str] = None
) -> Optional[str]:
    """
    A config (a file or a row reference, `fewshot_parser.commands.systems`) rendered for a shuffle, as
    JSON text (None when it does not render); `data_dir` and `pretrain_dir` replace $FEWSHOT_DATA_DIR
    and $FEWSHOT_PRETRAIN_DIR (a suite draw's folders).
    """
    from fewshot_parser.commands.systems import render_text

    ext_vars = {
        "FEWSHOT_SPLIT": str(shuffle),
        "FEWSHOT_SEED": os.environ.get("FEWSHOT_SEED", "13"),
        "FEWSHOT_DATA_DIR": data_dir or os.environ.get("FEWSHOT_DATA_DIR", "data"),
        "FEWSHOT_PRETRAIN_DIR": pretrain_dir or os.environ.get("FEWSHOT_PRETRAIN_DIR", "runs/pretrain"),
    }
    try:
        return render_text(path, ext_vars)
    except (RuntimeError, OSError, ValueError, UserError):
        return None


def component_types(config: Any) -> Iterator[str]:
    """Every `"type"` value named anywhere in a rendered config."""
    if isinstance(config, dict):
        if isinstance(config.get("type"), str):
            yield config["type"]
        for value in config.values():
            yield from component_types(value)
    elif isinstance(config, list):
        for value in config:
            yield from component_types(value)


def registered_modules(types: FrozenSet[str], packages: Iterable[str] = ("fewshot_parser",)) -> FrozenSet[str]:
    """
    The modules of `packages` that register a component under one of `types` (any base class).
    Every component is registered by then: importing this module ran fewshot_parser/__init__.py (and
    the lab's, its own package) first.
    """
    prefixes = tuple(package + "." for package in packages)
    from allennlp.common.registrable import Registrable

    found = set()
    for registry in Registrable._registry.values():
        for name, (constructor, _) in registry.items():
            module = getattr(constructor, "__module__", "")
            if name in types and module.startswith(prefixes):
                found.add(module)
    return frozenset(found)


def module_file(module: str, root: str) -> Optional[str]:
    """The repository path of a module of the product's or the lab's package, or None when there is no
    such file."""
    base = PACKAGE_FOLDERS.get(module.split(".")[0], "") + module.replace(".", "/")
    for candidate in (base + ".py", base + "/__init__.py"):
        if os.path.isfile(os.path.join(root, candidate)):
            return candidate
    return None


def imported_modules(path: str, root: str) -> Iterator[str]:
    """The modules of the product's and the lab's packages a file imports, anywhere in it (functions
    included)."""
    folder = os.path.dirname(path)
    for prefix in PACKAGE_FOLDERS.values():
        if prefix and folder.startswith(prefix):
            folder = folder[len(prefix) :]
    package = folder.replace("/", ".")
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as handle:
        tree = ast.parse(handle.read())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolved against this file's package
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            # `from a.b import c`: c is a submodule or a name defined in a.b.
            names = [
                f"{base}.{alias.name}" if module_file(f"{base}.{alias.name}", root) else base for alias in node.names
            ]
        else:
            continue
        yield from (name for name in names if name.split(".")[0] in PACKAGE_FOLDERS)


def reexports_only(path: str, root: str) -> bool:
    """Whether a package `__init__` holds nothing but imports (and docstrings): registration glue."""
    if not path.endswith("__init__.py"):
        return False
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as handle:
        body = ast.parse(handle.read()).body
    return all(
        isinstance(node, (ast.Import, ast.ImportFrom))
        or (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))
        for node in body
    )


def module_closure(modules: Iterable[str], root: str = PROJECT_ROOT) -> Set[str]:
    """The repository files of `modules` (dotted names) and of every module of this package they import,
    transitively, not through re-exporting `__init__` files."""
    files: Set[str] = set()
    todo = [path for path in (module_file(module, root) for module in modules) if path]
    while todo:
        path = todo.pop()
        if path in files:
            continue
        files.add(path)
        for module in imported_modules(path, root):
            found = module_file(module, root)
            if found and found not in files and not reexports_only(found, root):
                todo.append(found)
    return files


@functools.lru_cache(maxsize=None)
def _closure(modules: FrozenSet[str], root: str) -> FrozenSet[str]:
    """`module_closure`, once per process for a set of modules (every draw's config names the same ones)."""
    return frozenset(module_closure(modules, root))


@functools.lru_cache(maxsize=None)
def dependencies(config_json: Optional[str], root: str = PROJECT_ROOT) -> FrozenSet[str]:
    """
    The repository files the numbers of a rendered config (JSON text) depend on: the modules that
    register its component types, their imports within this package (transitively, not through
    re-exporting `__init__` files) and the package's resources. Everything under `CODE_PATHS` when
    the config is missing or names no component of ours.
    """
    everything = frozenset(_git(root, "ls-files", "--", *CODE_PATHS).split())
    if config_json is None:
        return everything
    modules = registered_modules(frozenset(component_types(json.loads(config_json))), PACKAGE_FOLDERS)
    if not modules:
        return everything
    files = _closure(frozenset(modules), root)
    # Imports are followed through the whole package, but only the code under CODE_PATHS counts
    # (commands, predictors and bookkeeping in `common` do not change a run's numbers).
    resources = {path for path in everything if path.startswith("fewshot_parser/resources/")}
    return frozenset({path for path in files if path in everything} | resources)


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
        if (
            isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            node.body = body[1:] or [ast.Pass()]  # type: ignore[attr-defined]
    return ast.dump(tree)


def _git(root: str, *arguments: str) -> str:
    return subprocess.run(
        ["git", "-C", root, *arguments], capture_output=True, text=True, timeout=60, check=True
    ).stdout


@functools.lru_cache(maxsize=None)
def _file_at(commit: Optional[str], path: str, root: str) -> Optional[str]:
    """The normalized content of a file at `commit` (None: the working tree); None when it is absent."""
    try:
        if commit is None:
            with open(os.path.join(root, path), encoding="utf-8", errors="replace") as handle:
                text = handle.read()
        else:
            text = _git(root, "show", f"{commit}:{path}")
    except (OSError, subprocess.SubprocessError):
        return None
    return normalized(path, text)


@functools.lru_cache(maxsize=None)
def code_fingerprint(
    commit: Optional[str], root: str = PROJECT_ROOT, files: Optional[FrozenSet[str]] = None
) -> Optional[str]:
    """
    A hash of the normalized code results depend on, at `commit` (None: the working tree): the
    given `files`, or every file under `CODE_PATHS`. None when `commit` is not in the repository.
    Cached per process, as `_file_at` is (a report asks for the same fingerprints thousands of times).
    """
    if commit is not None:
        try:
            _git(root, "cat-file", "-e", f"{commit}^{{commit}}")
        except (OSError, subprocess.SubprocessError):
            return None
    digest = hashlib.sha256()
    for path in sorted(files if files is not None else dependencies(None, root)):
        content = _file_at(commit, path, root)
        digest.update(path.encode() + b"\0" + (b"\1" if content is None else content.encode()) + b"\0")
    return digest.hexdigest()


def code_unchanged_since(version: str, root: str = PROJECT_ROOT, config_json: Optional[str] = None) -> bool:
    """
    Whether the code results depend on is the same at `version` (a commit, maybe `-dirty`) as in the
    checkout: the code a rendered config (JSON text) depends on, or all of it without one.
    """
    commit = version.split("-")[0]
    if not commit or commit in ("unknown", "-"):
        return False
    files = dependencies(config_json, root)
    then = code_fingerprint(commit, root, files)
    return then is not None and then == code_fingerprint(None, root, files)


def stale_reason(row: Dict[str, str], systems: Dict[str, tuple]) -> Optional[str]:
    """Why the current code would not reproduce this results row, or None when it would."""
    return _stale_reason_rendered(row, systems, lambda path: _rendered(path, int(row["shuffle"])))


def _stale_reason_rendered(row: Dict[str, str], systems: Dict[str, tuple], render: Any) -> Optional[str]:
    """`config_stale_reason` of a row whose system's config file (a path) `render` renders."""
    if not row.get("code_version"):
        return "no provenance"
    templates = [t for system, setting, t in systems.values() if (system, setting) == (row["system"], row["setting"])]
    if not templates:
        return "no grid system makes this row any more"
    path = os.path.join(PROJECT_ROOT, templates[0].format(dataset=row["dataset"], shot=int(row["shot"])))
    return config_stale_reason(row, render(path), systems)


def draw_stale_reason(
    row: Dict[str, str], systems: Dict[str, tuple], data_root: str, pretrain_root: str
) -> Optional[str]:
    """
    `stale_reason` of a row made on a draw of a `make-splits` root (a suite: its `shuffle` column is the
    draw, its `sample` column the support sample), its config rendered as `run-grid` runs it: that shuffle
    of `data_root/draw_<d>` (0 for a row without a sample), pre-trained under `pretrain_root/draw_<d>`.
    """
    draw, sample = f"draw_{int(row['shuffle'])}", int(row.get("sample") or 0)
    return _stale_reason_rendered(
        row,
        systems,
        lambda path: _rendered(path, sample, os.path.join(data_root, draw), os.path.join(pretrain_root, draw)),
    )


def pretraining_config(parsed: Dict[str, Any], config: Optional[str]) -> Optional[str]:
    """
    The config a row's pre-trained archive depends on, as JSON: its `pretraining` section where it has
    one, else the whole config (`config`, its text). The archive depends on the code that section uses,
    not on what only fine-tuning uses (an augmentation reader added later leaves the archive valid).
    """
    pretraining = parsed.get("pretraining")
    return json.dumps(pretraining, sort_keys=True) if isinstance(pretraining, dict) else config


def config_stale_reason(row: Dict[str, str], config: Optional[str], systems: Dict[str, tuple]) -> Optional[str]:
    """
    Why the current code would not reproduce `row`, given the config its run renders today (JSON
    text; None when it does not render), or None when it would. `stale_reason` renders an official
    row's config; `run_grid.stale_keys` (through `CodeFreshness`) passes a draw's, rendered for the draw's data.
    """
    if not row.get("code_version"):
        return "no provenance"
    parsed: Dict[str, Any] = json.loads(config) if config is not None else {}
    if config is not None and experiment_hash(parsed) != row.get("config_hash"):
        return "config changed"
    if not code_unchanged_since(row["code_version"], config_json=config) and not certified(
        row, row["code_version"], config
    ):
        return "code changed"
    pretrained = row.get("pretrain_code_version", "-")
    archive_config = pretraining_config(parsed, config)
    if (
        pretrained not in ("-", "")
        and not code_unchanged_since(pretrained, config_json=archive_config)
        and not certified(row, pretrained, archive_config, pretraining=True, systems=systems)
    ):
        return "pre-trained with older code"
    return None


def same_code(first: str, second: str, config_json: Optional[str], root: str = PROJECT_ROOT) -> bool:
    """Whether the code a config depends on is the same at two versions (commits, maybe `-dirty`)."""
    commits = [version.split("-")[0] for version in (first, second)]
    if any(not commit or commit == "unknown" for commit in commits):
        return False
    files = dependencies(config_json, root)
    then = code_fingerprint(commits[0], root, files)
    return then is not None and then == code_fingerprint(commits[1], root, files)


def _pretraining_key(section: Any) -> Optional[str]:
    """A `pretraining` section as sorted JSON (None when there is none)."""
    return json.dumps(section, sort_keys=True) if isinstance(section, dict) else None


@functools.lru_cache(maxsize=None)
def _pretraining_of(template: str, dataset: str, shot: int, shuffle: int) -> Optional[str]:
    """`_pretraining_key` of a system's config for a dataset, shot and shuffle."""
    config = _rendered(os.path.join(PROJECT_ROOT, template.format(dataset=dataset, shot=shot)), shuffle)
    return _pretraining_key(json.loads(config).get("pretraining")) if config is not None else None


def sharing_pretraining(
    row: Dict[str, str], config_json: Optional[str], systems: Dict[str, tuple]
) -> List[Tuple[str, str]]:
    """
    The (system, setting) rows of `systems` whose config pre-trains exactly as `config_json` (this row's
    config, or its `pretraining` section alone) does for its dataset, shot and shuffle: rows that share
    its pre-trained archive.
    """
    parsed = json.loads(config_json) if config_json else None
    own = _pretraining_key(parsed.get("pretraining", parsed)) if isinstance(parsed, dict) else None
    if own is None:
        return []
    dataset, shot, shuffle = row["dataset"], int(row["shot"]), int(row["shuffle"])
    return [
        (system, setting)
        for system, setting, template in systems.values()
        if _pretraining_of(template, dataset, shot, shuffle) == own
    ]


def certified(
    row: Dict[str, str],
    version: str,
    config_json: Optional[str],
    pretraining: bool = False,
    systems: Optional[Dict[str, tuple]] = None,
) -> bool:
    """
    Whether certificates cover code `version` of this row: a chain of certificates of the same system,
    setting, dataset and shot, each with the same behaviour, the first with a base whose code equals
    `version`'s, each next one with a base whose code equals the previous certified version's, and the
    last with a certified version whose code equals today's (for the files the row's config depends
    on). Equal behaviour is transitive, so two refactors certified one after the other cover a row
    made before both. With `pretraining`, the question is only whether the row's pre-trained archive
    would be made the same: a certificate also counts when the data and the pre-training losses agree
    (`pretraining_same`) though fine-tuning or decoding changed, and with `systems` a certificate of any
    row that shares this row's pre-trained archive (`sharing_pretraining`) counts as this row's.
    """
    agree = ("same", "pretraining_same") if pretraining else ("same",)

    def covered(rows: Set[Tuple[Optional[str], Optional[str]]]) -> bool:
        certificates = [
            c
            for c in read_certifications()
            if any(c.get(field) == "yes" for field in agree)
            and (c.get("system"), c.get("setting")) in rows
            and [c.get("dataset"), c.get("shot")] == [row["dataset"], str(row["shot"])]
        ]
        reached, frontier = {version}, [version]
        while frontier:
            current = frontier.pop()
            for certificate in certificates:
                if certificate["code_version"] in reached or not same_code(
                    current, certificate["base_version"], config_json
                ):
                    continue
                if code_unchanged_since(certificate["code_version"], config_json=config_json):
                    return True
                reached.add(certificate["code_version"])
                frontier.append(certificate["code_version"])
        return False

    own = {(row["system"], row["setting"])}
    if covered(own):  # the row's own certificates, before rendering every row that might share its archive
        return True
    if not (pretraining and systems):
        return False
    certified_rows = {(c.get("system"), c.get("setting")) for c in read_certifications()}
    shared = sharing_pretraining(row, config_json, {k: v for k, v in systems.items() if v[:2] in certified_rows})
    return bool(set(shared) - own) and covered(own | set(shared))


@Freshness.register("code")
class CodeFreshness(Freshness):
    """
    `run-grid --redo-stale --freshness code`: the checks `allennlp report` makes. A row is stale without
    provenance, when its config changed, when the code its config depends on changed since the row's
    version without a certificate, or when its pre-trained archive was made by older code; a shared
    archive is made again when older code made it and no certificate vouches for it.
    """

    def __init__(self, systems: Optional[Dict[str, tuple]] = None) -> None:
        self._systems = systems

    def _grid_systems(self) -> Dict[str, tuple]:
        if self._systems is None:
            from fewshot_lab.systems import SYSTEMS

            self._systems = SYSTEMS
        return self._systems

    def stale_reason(self, row: Dict[str, str], config_json: Optional[str]) -> Optional[str]:
        return config_stale_reason(row, config_json, self._grid_systems())

    def archive_outdated(self, archive_dir: str, version: str, users: Sequence[ArchiveUser]) -> bool:
        try:
            with open(os.path.join(archive_dir, "config.json")) as handle:
                archive_json: Optional[str] = handle.read()
        except OSError:
            archive_json = None
        if version and code_unchanged_since(version, config_json=archive_json):
            return False
        for user in users:
            parsed = json.loads(user.config_json)
            if version and certified(
                user.row, version, pretraining_config(parsed, user.config_json), True, self._grid_systems()
            ):
                return False
        return True
