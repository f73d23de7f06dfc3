"""
The grid rows' experiment configs, rendered: which config a row runs for a dataset and shot, and the
config itself, with the external variables a grid run gives it (a placeholder split, so that the
split's files can be found in it). `allennlp teach` needs none of this: an archive carries its own
recipe (`fewshot_parser.training.teaching_recipe`); `lab/scripts/add_teaching_recipe.py` uses it to add
a row's recipe to an archive made before archives carried one.
"""

import os
from typing import Any, Dict

from fewshot_parser.common.errors import UserError

# The headline rows: the faithful row and the best row.
HEADLINE_SYSTEMS = ("ours", "best")
# A split number no data has, for renderings whose split files are not read.
PLACEHOLDER_SPLIT = 90417


def archive_seed(config: Dict[str, Any]) -> int:
    """The `FEWSHOT_SEED` a pre-training config was rendered with (its `random_seed`)."""
    seed = config.get("random_seed", os.environ.get("FEWSHOT_SEED", "13"))
    try:
        return int(seed)
    except (TypeError, ValueError):
        return 13


def experiment_path(system: str, dataset: str, shot: int) -> str:
    """The config of a grid row for a dataset and shot: a reference `TABLE#ROW/DATASET_Kshot` that
    `render` (and `fewshot_parser.commands.systems.render_config`) renders; an unknown row is a `UserError`."""
    from fewshot_parser.commands.systems import read_systems

    SYSTEMS = read_systems()
    if system not in SYSTEMS:
        raise UserError(f"unknown system {system!r}; known: {', '.join(SYSTEMS)}")
    if dataset not in ("jobs", "geo", "atis") or shot not in (1, 2):
        raise UserError(f"row {system} has no {shot}-shot {dataset} experiment")
    return SYSTEMS[system][2].format(dataset=dataset, shot=shot)


def render(path: str, seed: int, split: int = PLACEHOLDER_SPLIT) -> Dict[str, Any]:
    """The experiment config at `path` (a file or a row reference) rendered for `seed` and `split`; one
    that fails is a `UserError`."""
    from fewshot_parser.commands.systems import external_variables, render_config

    try:
        return render_config(path, external_variables(seed, split))
    except RuntimeError as error:
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise UserError(f"{path}: the config does not render ({reason})") from None
