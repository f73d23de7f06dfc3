"""
The fine-tuning recipe of a pre-trained archive, for `allennlp teach`.

A pre-trained archive holds the config it was trained from (its `config.json`): the `pretraining`
section of the experiment config of the grid row that made it (`run_grid.SYSTEMS`). Its recipe is
that experiment config with the split's files replaced: the support set by the user's file, the
split's training set (which recombination, the statistics callbacks and lexicon scoping read) by
the data the archive was pre-trained on, and the query set by the user's query file, or nothing.

The row is found from the archive alone: experiment configs are rendered for the archive's dataset
and seed, and their `pretraining` compared with the archive's config. Nothing is written at
pre-training time, so archives made before `teach` existed work the same way. Several rows share a
pre-training (the faithful row's switches share its archive; the recombination and decoding
variants of the best row share `contextual-schema`'s), so the headline rows come first, `ours`
(the faithful row) and `chosen-fallback-roles` (the best row), then every other row in the grid's order;
`--system` names one.

The configs are rendered with a placeholder split (`PLACEHOLDER_SPLIT`), so that every path of the
split (`<dataset>/lemma_data/shuffle_<split>_shot_<k>/<part>.txt`) can be found and replaced, whatever
key holds it.
"""
import copy
import json
import os
import re
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence

from fewshot_parser.common.errors import UserError
from fewshot_parser.common.provenance import PROJECT_ROOT, old_spelling
from fewshot_parser.data.paths import data_root

# Tried first, in this order, when no row is named: the faithful row and the best row.
HEADLINE_SYSTEMS = ("ours", "chosen-fallback-roles")
# The experiment types that fine-tune one pre-trained archive (teach runs these).
FINETUNING_TYPES = ("fewshot_pretrain_finetune", "fewshot_ensemble_finetune")
# A split number no data has; the rendered recipe's split paths carry it.
PLACEHOLDER_SPLIT = 90417
_SPLIT_FILE = re.compile(r"[^+*\s]*shuffle_%d_shot_\d+/(\w+)\.txt" % PLACEHOLDER_SPLIT)
# The LF readers of the benchmark datasets (a wrapper reader holds one under `reader`).
READER_DATASETS = {"fewshot_jobs": "jobs", "fewshot_geoquery": "geo", "fewshot_atis": "atis"}


class Recipe(NamedTuple):
    """A grid row's experiment config for one dataset and shot, rendered with the placeholder split."""

    system: str
    path: str
    dataset: str
    shot: int
    seed: int
    config: Dict[str, Any]
    exact: bool  # whether the row's pre-training config is the archive's, key for key


def plain(value: Any) -> Any:
    """`value` as JSON reads it back (tuples as lists, keys as strings), for comparisons."""
    return json.loads(json.dumps(value))


def innermost_reader(reader: Dict[str, Any]) -> Dict[str, Any]:
    """The LF reader inside wrapper readers (`fewshot_entity_values`, `fewshot_augmented_*`, ...)."""
    while isinstance(reader.get("reader"), dict):
        reader = reader["reader"]
    return reader


def archive_dataset(config: Dict[str, Any], archive: str) -> str:
    """`jobs`, `geo` or `atis`: the dataset of a pre-training config, from its reader (or its data path)."""
    reader = innermost_reader(config.get("dataset_reader") or {})
    if reader.get("type") in READER_DATASETS:
        return READER_DATASETS[reader["type"]]
    first = str(config.get("train_data_path") or "").split("/")[0]
    if first in READER_DATASETS.values():
        return first
    raise UserError(f"{archive}: cannot tell which dataset this archive was pre-trained on (its reader is "
                    f"{reader.get('type')!r}); teach knows the readers of jobs, geo and atis")


def archive_seed(config: Dict[str, Any]) -> int:
    """The `FEWSHOT_SEED` a pre-training config was rendered with (its `random_seed`)."""
    seed = config.get("random_seed", os.environ.get("FEWSHOT_SEED", "13"))
    try:
        return int(seed)
    except (TypeError, ValueError):
        return 13


def experiment_path(system: str, dataset: str, shot: int) -> str:
    """The experiment config of a grid row for a dataset and shot (relative to the working directory or
    the project); a row without one is a `UserError`."""
    from fewshot_parser.commands.run_grid import SYSTEMS

    if system not in SYSTEMS:
        raise UserError(f"unknown system {system!r}; known: {', '.join(SYSTEMS)}")
    path = SYSTEMS[system][2].format(dataset=dataset, shot=shot)
    for candidate in (path, os.path.join(PROJECT_ROOT, path)):
        if os.path.isfile(candidate):
            return os.path.abspath(candidate)
    raise UserError(f"row {system} has no {shot}-shot {dataset} experiment ({path} does not exist)")


def external_variables(seed: int) -> Dict[str, str]:
    """What a recipe is rendered with: the environment, the archive's seed and the placeholder split."""
    variables = {key: value for key, value in os.environ.items()}
    variables.setdefault("FEWSHOT_DATA_DIR", data_root())
    variables.setdefault("FEWSHOT_PRETRAIN_DIR", "runs/pretrain")
    variables.update(FEWSHOT_SPLIT=str(PLACEHOLDER_SPLIT), FEWSHOT_SEED=str(seed))
    return variables


def render(path: str, seed: int) -> Dict[str, Any]:
    import _jsonnet

    try:
        return json.loads(_jsonnet.evaluate_file(path, ext_vars=external_variables(seed)))
    except RuntimeError as error:
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise UserError(f"{path}: the recipe does not render ({reason})") from None


def row_recipe(system: str, dataset: str, shot: int, seed: int, pretraining: Optional[Dict[str, Any]]) -> Recipe:
    """Row `system`'s recipe for `dataset` and `shot`; `exact` says whether its pre-training is `pretraining`."""
    path = experiment_path(system, dataset, shot)
    config = render(path, seed)
    kind = config.get("type")
    if kind == "fewshot_pretrainings_ensemble":
        raise UserError(f"row {system} fine-tunes from {len(config.get('experiments', []))} pre-trained archives; "
                        "teach fine-tunes one")
    if kind not in FINETUNING_TYPES or not isinstance(config.get("pretraining"), dict):
        raise UserError(f"row {system} does not fine-tune a pre-trained archive (its experiment is {kind or 'an ordinary training'}); "
                        "teach runs rows of type fewshot_pretrain_finetune or fewshot_ensemble_finetune")
    exact = pretraining is not None and same_pretraining(config["pretraining"], pretraining)
    return Recipe(system, path, dataset, shot, seed, config, exact)


def same_pretraining(row: Any, archive: Any) -> bool:
    """
    Whether two pre-training configs are the same experiment, in either spelling of their components
    (an archive made before a component existed names the old model, e.g. `irnet_parser`).
    """
    return old_spelling(row) == old_spelling(archive)  # old_spelling reads its input back as JSON, as `plain`


def pretraining_configs(systems: Sequence[str], dataset: str, shot: int, seed: int) -> Dict[str, Any]:
    """
    The `pretraining` section of each row's experiment that fine-tunes one archive (rows without a
    config for the dataset and shot left out), rendered in one Jsonnet evaluation, which reads each
    shared library once and evaluates nothing but those sections.
    """
    import _jsonnet

    from fewshot_parser.commands.run_grid import SYSTEMS

    paths: Dict[str, str] = {}
    for system in systems:
        path = SYSTEMS[system][2].format(dataset=dataset, shot=shot)
        for candidate in (path, os.path.join(PROJECT_ROOT, path)):
            if os.path.isfile(candidate):
                paths[system] = os.path.abspath(candidate)
                break
    kinds = json.dumps(list(FINETUNING_TYPES))
    fields = [f"{json.dumps(name)}: (local c = import {json.dumps(path)}; "
              f"if std.member({kinds}, std.get(c, 'type', '')) then std.get(c, 'pretraining') else null)"
              for name, path in paths.items()]
    snippet = "{\n" + ",\n".join(fields) + "\n}"
    try:
        rendered = json.loads(_jsonnet.evaluate_snippet(os.path.join(PROJECT_ROOT, "teach.jsonnet"), snippet,
                                                        ext_vars=external_variables(seed)))
    except RuntimeError:  # one row's config fails: render them one by one, leaving out those that fail
        rendered = {}
        for name, path in paths.items():
            try:
                config = json.loads(_jsonnet.evaluate_file(path, ext_vars=external_variables(seed)))
            except RuntimeError:
                continue
            rendered[name] = config.get("pretraining") if config.get("type") in FINETUNING_TYPES else None
    return {name: value for name, value in rendered.items() if isinstance(value, dict)}


def find_recipe(archive: str, pretraining: Dict[str, Any], shot: int = 1, system: Optional[str] = None,
                say: Callable[[str], None] = lambda text: None) -> Recipe:
    """
    The recipe of the pre-trained archive whose config is `pretraining`: row `system`'s when named
    (`exact` False when the archive was pre-trained from another config than the row's), else the
    first row, headline rows first, whose pre-training config is the archive's. No such row is a
    `UserError`.
    """
    from fewshot_parser.commands.run_grid import SYSTEMS

    dataset = archive_dataset(pretraining, archive)
    seed = archive_seed(pretraining)
    if system is not None:
        return row_recipe(system, dataset, shot, seed, pretraining)
    for name in HEADLINE_SYSTEMS:
        if name not in SYSTEMS:
            continue
        try:
            recipe = row_recipe(name, dataset, shot, seed, pretraining)
        except UserError:
            continue
        if recipe.exact:
            return recipe
    others = [name for name in SYSTEMS if name not in HEADLINE_SYSTEMS]
    say(f"the archive is not the pre-training of {' or '.join(HEADLINE_SYSTEMS)}; "
        f"comparing it with the other {len(others)} rows of the grid")
    matches = [name for name, value in pretraining_configs(others, dataset, shot, seed).items()
               if same_pretraining(value, pretraining)]
    if not matches:
        raise UserError(f"{archive}: no row of the grid pre-trains this archive (its config.json is the pre-training "
                        f"of no system for {dataset} with seed {seed}); name the row whose recipe to use with "
                        "--system, or fine-tune with allennlp train and your own config")
    return row_recipe(matches[0], dataset, shot, seed, pretraining)


def first_difference(left: Any, right: Any, where: str = "") -> Optional[str]:
    """The first key (dotted) at which two configs differ, or None when they are equal."""
    if isinstance(left, dict) and isinstance(right, dict):
        for key in sorted(set(left) | set(right)):
            if key not in left or key not in right:
                return f"{where}{key}"
            found = first_difference(left[key], right[key], f"{where}{key}.")
            if found:
                return found
        return None
    if isinstance(left, list) and isinstance(right, list) and len(left) == len(right):
        for index, (a, b) in enumerate(zip(left, right)):
            found = first_difference(a, b, f"{where}{index}.")
            if found:
                return found
        return None
    return None if plain(left) == plain(right) else where.rstrip(".") or "(the whole config)"


def fill_split_files(value: Any, files: Dict[str, str], system: str, where: str = "") -> Any:
    """`value` with every path of the placeholder split replaced by `files[part]` (`support`, `train`,
    `query`); a part `files` lacks is a `UserError` naming the key that reads it."""
    if isinstance(value, dict):
        return {key: fill_split_files(item, files, system, f"{where}{key}.") for key, item in value.items()}
    if isinstance(value, list):
        return [fill_split_files(item, files, system, f"{where}{index}.") for index, item in enumerate(value)]
    if not isinstance(value, str):
        return value

    def replace(match: "re.Match[str]") -> str:
        part = match.group(1)
        if part not in files:
            raise UserError(f"row {system}'s recipe reads the split's {part}.txt ({where.rstrip('.')}), "
                            f"which teach has no file for (it has {', '.join(sorted(files))})")
        return files[part]

    return _SPLIT_FILE.sub(replace, value)


def teaching_config(recipe: Recipe, archive: str, training: str, support: str, query: Optional[str],
                    progress: bool = True) -> Dict[str, Any]:
    """
    The experiment config that fine-tunes `archive` on `support` as `recipe`'s row fine-tunes on a
    split: the split's support set is `support`, its training set `training` (the archive's pre-training
    data), its query set `query` (or no evaluation); the archive is used as it is (no `pretraining`,
    so it is never pre-trained again); with `progress`, the trainer reports each epoch
    (`fewshot_progress`, which changes no number).
    """
    config = copy.deepcopy(recipe.config)
    files = {"support": os.path.abspath(support), "train": training}
    if query is not None:
        files["query"] = os.path.abspath(query)
    elif isinstance(config.get("test_data_path"), str) and _SPLIT_FILE.fullmatch(config["test_data_path"]):
        config["test_data_path"] = None
    config = fill_split_files(config, files, recipe.system)
    config["pretrained_archive"] = os.path.abspath(archive)
    config["pretraining"] = None
    if progress:
        model = config.get("model") or {}
        members = len(model.get("members", [])) if model.get("type") == "fewshot_ensemble" else 1
        trainer = config.setdefault("trainer", {})
        trainer["callbacks"] = list(trainer.get("callbacks") or []) + [{"type": "fewshot_progress", "members": members}]
    return config


def known_predicates(actions_vocabulary: Optional[bytes]) -> Optional[List[str]]:
    """The predicates of the actions in an archive's `vocabulary/actions.txt` (None without one)."""
    from fewshot_parser.logical_forms.actions import Action

    if actions_vocabulary is None:
        return None
    known = set()
    for line in actions_vocabulary.decode("utf-8").splitlines():
        try:
            known.update(Action.from_string(line.strip()).predicates)
        except ValueError:  # @@UNKNOWN@@ and other non-action entries
            continue
    return sorted(known)
