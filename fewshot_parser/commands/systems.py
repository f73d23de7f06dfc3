"""
The grid's systems as data: `experiments/systems.csv` has one line per system that `allennlp
run-grid --systems NAME` can run, with the row it fills in the results (`system`, `setting`), the
experiment config it renders per dataset and shot (`config`, with `{dataset}` and `{shot}`), and a
sentence on what it is (`about`). Adding a variant is a config file and a line there, not code.
"""

import csv
import os
from typing import Dict, Tuple

from fewshot_parser.common.errors import UserError
from fewshot_parser.common.provenance import PROJECT_ROOT

SYSTEMS_TABLE = os.path.join(PROJECT_ROOT, "experiments", "systems.csv")
COLUMNS = ("name", "system", "setting", "config", "about")


def read_systems(path: str = SYSTEMS_TABLE) -> Dict[str, Tuple[str, str, str]]:
    """name -> (system, setting, config path template), in the table's order; {} when there is no table
    (a checkout without experiments/). A malformed line is a `UserError` naming the file and line."""
    if not os.path.isfile(path):
        return {}
    systems: Dict[str, Tuple[str, str, str]] = {}
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        if tuple(reader.fieldnames or ()) != COLUMNS:
            raise UserError(
                f"{path}:1: the header must be {','.join(COLUMNS)}, not {','.join(reader.fieldnames or ())}"
            )
        for row in reader:
            where = f"{path}:{reader.line_num}"
            if None in row or any(row[column] is None for column in COLUMNS):
                raise UserError(f"{where}: expected {len(COLUMNS)} fields ({', '.join(COLUMNS)})")
            name, config = row["name"].strip(), row["config"].strip()
            if not name or not row["system"].strip():
                raise UserError(f"{where}: a system needs a name and a system column")
            if name in systems:
                raise UserError(f"{where}: system {name!r} is defined twice")
            if "{dataset}" not in config or "{shot}" not in config:
                raise UserError(f"{where}: config {config!r} must contain {{dataset}} and {{shot}}")
            systems[name] = (row["system"].strip(), row["setting"].strip(), config)
    return systems
