"""
The fine-tuning recipe a pre-trained archive carries, so that `allennlp teach` needs nothing but it.

A few-shot experiment (`fewshot_pretrain_finetune`) that pre-trains an archive, or finds it ready,
writes its own fine-tuning config into that archive as the recipe for its shot (its
`teaching_shot`, else read off its support set, `shot_of`):
`teaching/recipes.json` maps `"1"` and `"2"` to an experiment config whose data files are
placeholders, and `teaching/files/` holds every other data file the recipe reads (the pre-training
data that recombination, replay and lexicon scoping read, idiom sources, ...), stored once per
content. The first experiment of a shot writes that shot's recipe; one that sets
`teaching_recipe: true` replaces it (the faithful and best configs do).

Placeholders: `<support>` is the support file of a teaching (the experiment's `train_data_path`),
`<query>` the optional file evaluated after it, `<training>` the data the archive was pre-trained
on, and `<teaching>/NAME` a bundled file.
"""

import copy
import hashlib
import io
import json
import os
import shutil
import tarfile
import tempfile
from typing import (
    AbstractSet,
    Any,
    Callable,
    Dict,
    FrozenSet,
    Iterable,
    List,
    NamedTuple,
    Optional,
    Sequence,
    Set,
    Tuple,
)

from fewshot_parser.common.errors import UserError

RECIPES = "teaching/recipes.json"
FILES = "teaching/files"
SUPPORT = "<support>"
QUERY = "<query>"
TRAINING = "<training>"
BUNDLED = "<teaching>/"
# Keys of an experiment config that a recipe never keeps: teach supplies the archive itself.
DROPPED = ("pretraining", "pretrained_archive", "teaching_recipe", "training_data_path")
# Keys that name evaluation data; a teaching without a query file leaves them out.
EVALUATION_KEYS = ("test_data_path", "validation_data_path")


class Recipes(NamedTuple):
    """What an archive carries for teaching: recipes by shot and the bundled files' bytes by name."""

    by_shot: Dict[str, Dict[str, Any]]
    files: Dict[str, bytes]


def _digest(path: str) -> str:
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def _data_file(path: str) -> Optional[str]:
    """The file a config string names (as given or under the data root), or None when it names none."""
    from fewshot_parser.data.paths import resolve_data_path

    if not path or len(path) > 4096 or "\n" in path:
        return None
    try:
        found = resolve_data_path(path)
    except FileNotFoundError:
        return None
    return found if os.path.isfile(found) else None


def _map_strings(value: Any, change: Callable[[str, str], str], where: str = "") -> Any:
    """`value` with every string replaced by `change(string, dotted key)`."""
    if isinstance(value, dict):
        return {key: _map_strings(item, change, f"{where}{key}.") for key, item in value.items()}
    if isinstance(value, list):
        return [_map_strings(item, change, f"{where}{index}.") for index, item in enumerate(value)]
    if isinstance(value, str):
        return change(value, where.rstrip("."))
    return value


def _spec_parts(value: str) -> Optional[List[Tuple[str, str]]]:
    """A data spec (`a.txt+b.txt*3`) as [(path, suffix)], or None when a part names no file."""
    parts = []
    for item in value.split("+"):
        path, star, count = item.strip().partition("*")
        if not path or (star and not count.isdigit()) or _data_file(path) is None:
            return None
        parts.append((path, star + count))
    return parts


def file_digests(config: Any) -> Any:
    """`config` with every data spec (`a.txt+b.txt*3`) whose files exist written with their digests."""

    def change(value: str, key: str) -> str:
        parts = _spec_parts(value)
        if parts is None:
            return value
        return "+".join("sha256:" + _digest(_data_file(path) or path) + suffix for path, suffix in parts)

    return _map_strings(config, change)


def make_recipe(experiment: Dict[str, Any]) -> Tuple[Dict[str, Any], Dict[str, str]]:
    """
    The recipe of a rendered few-shot experiment config, and the files it bundles ({name: path}).
    Its support file becomes `<support>`, its evaluation files `<query>`, any file with the content
    of the pre-training data `<training>`, and every other data file a bundled `<teaching>/NAME`.
    """
    config = {key: value for key, value in copy.deepcopy(experiment).items() if key not in DROPPED}
    support = experiment.get("train_data_path")
    if not isinstance(support, str):
        raise UserError("the experiment names no train_data_path (its support set), so it has no teaching recipe")
    queries = {experiment.get(key) for key in EVALUATION_KEYS if isinstance(experiment.get(key), str)}
    training = (experiment.get("pretraining") or {}).get("train_data_path")
    training_files = _spec_parts(training) if isinstance(training, str) else None
    training_file = _data_file(training_files[0][0]) if training_files and len(training_files) == 1 else None
    training_digest = _digest(training_file) if training_file is not None else None
    bundled: Dict[str, str] = {}
    names_by_digest: Dict[str, str] = {}

    def placeholder(path: str) -> str:
        if path == support:
            return SUPPORT
        if path in queries:
            return QUERY
        found = _data_file(path) or path  # `change` only passes paths of existing files
        digest = _digest(found)
        if digest == training_digest:
            return TRAINING
        if digest not in names_by_digest:
            stem = os.path.basename(found)
            name = stem if stem not in bundled else f"{digest[:8]}-{stem}"
            names_by_digest[digest] = name
            bundled[name] = found
        return BUNDLED + names_by_digest[digest]

    def change(value: str, key: str) -> str:
        if key in ("train_data_path", *EVALUATION_KEYS) and value in (support, *queries):
            return placeholder(value)
        parts = _spec_parts(value)
        if parts is None:
            return value
        return "+".join(placeholder(path) + suffix for path, suffix in parts)

    recipe = _map_strings(config, change)
    if training_file is not None:
        bundled["training.txt"] = training_file
        recipe["training_data_path"] = TRAINING  # what retention methods replay
    return recipe, bundled


def read_recipes(archive: str) -> Optional[Recipes]:
    """The recipes and bundled files an archive (or serialization directory) carries; None without recipes."""
    from fewshot_parser.common.archives import read_members

    if os.path.isdir(archive):
        path = os.path.join(archive, RECIPES)
        if not os.path.isfile(path):
            return None
        with open(path) as text:
            by_shot = json.load(text)
        directory = os.path.join(archive, FILES)
        files: Dict[str, bytes] = {}
        for name in sorted(os.listdir(directory)) if os.path.isdir(directory) else []:
            with open(os.path.join(directory, name), "rb") as data:
                files[name] = data.read()
        return Recipes(by_shot, files)
    found = read_members(archive, [RECIPES])
    if RECIPES not in found:
        return None
    members: Dict[str, bytes] = {}
    with tarfile.open(archive, "r:gz") as tar:
        for member in tar:
            if member.isfile() and member.name.startswith(FILES + "/"):
                handle = tar.extractfile(member)
                if handle is not None:
                    members[member.name[len(FILES) + 1 :]] = handle.read()
    return Recipes(json.loads(found[RECIPES].decode("utf-8")), members)


def write_recipes(archive: str, recipes: Recipes, replace: Optional[Dict[str, bytes]] = None) -> None:
    """
    Rewrites the `model.tar.gz` archive with `recipes` in place of those it carried (and the members
    named in `replace` with those bytes); the new archive replaces the old one atomically, so a reader
    never sees half of it.
    """
    replace = replace or {}
    directory = os.path.dirname(os.path.abspath(archive))
    handle, temporary = tempfile.mkstemp(prefix=".recipes-", suffix=".tar.gz", dir=directory)
    os.close(handle)
    try:
        with tarfile.open(archive, "r:gz") as source, tarfile.open(temporary, "w:gz") as target:
            for member in source:
                if member.name == RECIPES or member.name.startswith(FILES + "/") or member.name in ("teaching", FILES):
                    continue
                if member.name in replace:
                    _add_bytes(target, member.name, replace[member.name])
                    continue
                target.addfile(member, source.extractfile(member) if member.isfile() else None)
            _add_bytes(target, RECIPES, json.dumps(recipes.by_shot, indent=1, sort_keys=True).encode("utf-8"))
            for name, data in sorted(recipes.files.items()):
                _add_bytes(target, f"{FILES}/{name}", data)
        os.chmod(temporary, 0o644)
        os.replace(temporary, archive)
    except BaseException:
        if os.path.exists(temporary):
            os.remove(temporary)
        raise


def _add_bytes(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mode = 0o644
    tar.addfile(info, io.BytesIO(data))


def store_recipe(archive: str, experiment: Dict[str, Any], shot: int, replace: bool = False) -> bool:
    """
    Stores `experiment`'s recipe in `archive` as its `shot`-shot recipe, unless the archive already
    has one for that shot and not `replace`; returns whether it wrote. Bundled files of the same name
    and another content are kept apart.
    """
    recipe, bundled = make_recipe(experiment)
    current = read_recipes(archive) or Recipes({}, {})
    key = str(shot)
    if key in current.by_shot and not replace:
        return False
    files = dict(current.files)
    renames: Dict[str, str] = {}
    for name, path in bundled.items():
        with open(path, "rb") as handle:
            data = handle.read()
        if name in files and files[name] != data:
            renames[name] = f"{hashlib.sha256(data).hexdigest()[:8]}-{name}"
            files[renames[name]] = data
        else:
            files[name] = data
    if renames:
        recipe = _map_strings(recipe, lambda value, key: _rename(value, renames))
    if current.by_shot.get(key) == recipe and all(current.files.get(n) == d for n, d in files.items()):
        return False
    write_recipes(archive, Recipes({**current.by_shot, key: recipe}, files))
    return True


def _rename(value: str, renames: Dict[str, str]) -> str:
    for old, new in renames.items():
        value = value.replace(BUNDLED + old, BUNDLED + new)
    return value


def choose_recipe(recipes: Recipes, shot: int, archive: str) -> Tuple[Dict[str, Any], int]:
    """The recipe for `shot`, or the archive's other one when it has only that; and the shot it is for."""
    if str(shot) in recipes.by_shot:
        return recipes.by_shot[str(shot)], shot
    if not recipes.by_shot:
        raise UserError(f"{archive}: its teaching recipes are empty")
    other = sorted(recipes.by_shot)[0]
    return recipes.by_shot[other], int(other)


def fill_recipe(recipe: Dict[str, Any], files_dir: str, support: str, query: Optional[str]) -> Dict[str, Any]:
    """
    The recipe with its placeholders replaced: `support` and `query` (evaluation keys are left out
    when there is no query), the pre-training data and bundled files from `files_dir`.
    """
    config = copy.deepcopy(recipe)
    if query is None:
        for key in EVALUATION_KEYS:
            if config.get(key) == QUERY:
                config.pop(key)
        config["evaluate_on_test"] = False

    def change(value: str, key: str) -> str:
        if QUERY in value and query is None:
            raise UserError(f"the recipe reads a query file at {key}; give one with --query")
        value = value.replace(SUPPORT, os.path.abspath(support)).replace(QUERY, os.path.abspath(query or ""))
        value = value.replace(TRAINING, os.path.join(files_dir, "training.txt"))
        return value.replace(BUNDLED, files_dir + os.sep)

    return _map_strings(config, change)


def unpack_files(recipes: Recipes, directory: str) -> str:
    """Writes the bundled files into `directory` (created); returns it."""
    os.makedirs(directory, exist_ok=True)
    for name, data in recipes.files.items():
        with open(os.path.join(directory, name), "wb") as handle:
            handle.write(data)
    return directory


def relocate(config: Any, old: str, new: str) -> Any:
    """`config` with every path under `old` moved under `new` (a taught run's files, once it is done)."""
    old = old.rstrip(os.sep) + os.sep
    return _map_strings(config, lambda value, key: value.replace(old, new.rstrip(os.sep) + os.sep))


def copy_tree(source: str, target: str) -> None:
    """Copies the files of `source` into `target` (created)."""
    os.makedirs(target, exist_ok=True)
    for name in os.listdir(source):
        shutil.copyfile(os.path.join(source, name), os.path.join(target, name))


def innermost_reader(reader: Dict[str, Any]) -> Dict[str, Any]:
    """The LF reader inside wrapper readers (`fewshot_entity_values`, `fewshot_augmented`, ...)."""
    while isinstance(reader.get("reader"), dict):
        reader = reader["reader"]
    return reader


def new_predicates_by_example(
    reader_config: Dict[str, Any], path: str, known: Optional[List[str]]
) -> List[FrozenSet[str]]:
    """
    For each example of `path`, read with the LF reader inside `reader_config`, the predicates it uses
    that are not in `known` (every set empty when `known` is None).
    """
    from allennlp.common import Params
    from allennlp.data import DatasetReader
    from allennlp.data.fields import MetadataField

    from fewshot_parser.logical_forms.actions import Action

    reader = DatasetReader.from_params(Params(json.loads(json.dumps(innermost_reader(reader_config)))))
    known_set = set(known or [])
    found: List[FrozenSet[str]] = []
    for instance in reader.read(path):
        metadata = instance["metadata"]
        assert isinstance(metadata, MetadataField)
        actions = metadata.metadata.get("actions", [])
        used = {p for action in actions for p in Action.from_string(action).predicates}
        found.append(frozenset() if known is None else frozenset(used - known_set))
    return found


def example_counts(by_example: Sequence[AbstractSet[str]]) -> Dict[str, int]:
    """How many examples use each predicate of `by_example` (`new_predicates_by_example`)."""
    counts: Dict[str, int] = {}
    for predicates in by_example:
        for predicate in predicates:
            counts[predicate] = counts.get(predicate, 0) + 1
    return counts


def shot_of(by_example: Sequence[AbstractSet[str]]) -> int:
    """
    The shot a support set was written for, from the new predicates of each of its examples: 2 when at
    least half of the new predicates have two examples or more and every other one rides along (each
    of its examples also uses one that has two or more: geo's 2-shot supports show `area:i` twice and
    `sum` once, in one of those two examples), else 1. Some supports read both ways (one example with A
    and B and another with B: 1-shot for A and B, or 2-shot for B with A riding along) and are read as
    2-shot; an experiment's `teaching_shot` and `allennlp teach --shot` say which.
    """
    counts = example_counts(by_example)
    taught = {predicate for predicate, count in counts.items() if count >= 2}
    if not counts or 2 * len(taught) < len(counts):
        return 1
    for predicate in set(counts) - taught:
        if not all(taught & (predicates - {predicate}) for predicates in by_example if predicate in predicates):
            return 1
    return 2


def predicates_of(action_names: Iterable[str]) -> List[str]:
    """The predicates the actions named produce (an action vocabulary's entries; padding and unknown skipped)."""
    from fewshot_parser.logical_forms.actions import Action

    known: Set[str] = set()
    for name in action_names:
        try:
            known.update(Action.from_string(name.strip()).predicates)
        except ValueError:  # @@UNKNOWN@@, padding and other non-action entries
            continue
    return sorted(known)
