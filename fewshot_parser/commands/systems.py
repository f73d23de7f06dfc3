"""
The grid's systems as data. A systems table (`experiments/systems.jsonnet`, the rows README's tables
show; more tables with `run-grid --systems-table`) is a Jsonnet list of rows

    {name, system, setting, about, base, overrides}

`name` is what `allennlp run-grid --systems NAME` runs, `system` and `setting` the row it fills in the
results, `about` a sentence on what it is. A row's config for a cell (dataset, shot) is its `base`
config (a file beside the table, a Jsonnet function of `dataset` and `shot`) rendered for the cell,
with `overrides` applied as a JSON Merge Patch (RFC 7386: objects merge key by key, `null` removes a
key, lists and other values replace). The table is rendered with the cell's external variables
(`FEWSHOT_DATASET`, `FEWSHOT_SHOT`, `FEWSHOT_SPLIT`, `FEWSHOT_SEED`, `FEWSHOT_PRETRAIN_DIR`), so
overrides may depend on the cell (`experiments/common.libsonnet`).

A grid row's config is named by a reference `TABLE#ROW/DATASET_Kshot` (e.g.
`experiments/systems.jsonnet#ours/geo_1shot`); `render_config` renders a reference or a plain config
file alike. Print a row's config, ready for `allennlp train`:

    python -m fewshot_parser.commands.systems ours geo 1 [--systems-table PATH ...] > config.json
"""

import argparse
import functools
import json
import os
import re
import sys
from typing import Any, Dict, List, Optional, Sequence, Tuple

from fewshot_parser.common.errors import UserError
from fewshot_parser.common.provenance import PROJECT_ROOT
from fewshot_parser.data.paths import data_root

SYSTEMS_TABLE = os.path.join("experiments", "systems.jsonnet")
# More tables every reader of the systems sees (separated by os.pathsep), beside SYSTEMS_TABLE.
TABLES_VARIABLE = "FEWSHOT_SYSTEMS_TABLES"
FIELDS = ("name", "system", "setting", "about", "base", "overrides")
# TABLE#ROW/DATASET_Kshot
REFERENCE = re.compile(
    r"^(?P<table>.+\.(?:jsonnet|libsonnet|json))#(?P<row>[^/#]+)/(?P<dataset>[a-z]+)_(?P<shot>\d+)shot$"
)


def default_tables() -> List[str]:
    """experiments/systems.jsonnet and the tables named by $FEWSHOT_SYSTEMS_TABLES."""
    extra = [path for path in os.environ.get(TABLES_VARIABLE, "").split(os.pathsep) if path]
    return [SYSTEMS_TABLE, *extra]


def project_path(path: str) -> str:
    """`path` as given when it exists (relative to the working directory), else the project's."""
    if os.path.isabs(path) or os.path.exists(path):
        return path
    return os.path.join(PROJECT_ROOT, path)


@functools.lru_cache(maxsize=None)
def _rows(path: str, stamp: float) -> Tuple[Dict[str, str], ...]:
    import _jsonnet

    # Only the fields without the cell: the overrides are not rendered here.
    snippet = (
        f"[{{ [k]: row[k] for k in std.objectFields(row) if k != 'overrides' }} "
        f"+ {{ has_overrides: std.objectHas(row, 'overrides') }} for row in import {json.dumps(os.path.abspath(path))}]"
    )
    try:
        rows = json.loads(_jsonnet.evaluate_snippet(path, snippet))
    except RuntimeError as error:
        raise UserError(f"{path}: the systems table does not render ({_first_line(error)})") from None
    if not isinstance(rows, list):
        raise UserError(f"{path}: a systems table is a list of rows")
    return tuple(rows)


def table_rows(path: str) -> List[Dict[str, str]]:
    """The rows of a systems table (without their overrides), checked: every field, unique names, an
    existing base. A malformed row is a `UserError` naming the table and the row."""
    full = project_path(path)
    if not os.path.isfile(full):
        raise UserError(f"{path}: no such systems table")
    rows = [dict(row) for row in _rows(full, os.path.getmtime(full))]
    seen = set()
    for number, row in enumerate(rows, 1):
        where = f"{path}: row {number} ({row.get('name', 'unnamed')})"
        missing = [field for field in FIELDS if field != "overrides" and field not in row]
        if missing or not row.pop("has_overrides"):
            raise UserError(f"{where}: a row needs {', '.join(FIELDS)} (missing: {', '.join(missing) or 'overrides'})")
        extra = sorted(set(row) - set(FIELDS))
        if extra:
            raise UserError(f"{where}: unknown field {', '.join(extra)} (a row has {', '.join(FIELDS)})")
        if not row["name"] or not row["system"]:
            raise UserError(f"{where}: a row needs a name and a system")
        if row["name"] in seen:
            raise UserError(f"{where}: row {row['name']!r} is defined twice")
        seen.add(row["name"])
        if not os.path.isfile(os.path.join(os.path.dirname(full), row["base"])):
            raise UserError(f"{where}: base {row['base']!r} is not a file beside the table")
    return rows


def reference(table: str, name: str) -> str:
    """The config reference template of row `name` of `table` (with `{dataset}` and `{shot}`)."""
    return f"{table}#{name}/{{dataset}}_{{shot}}shot"


def read_systems(tables: Optional[Sequence[str]] = None) -> Dict[str, Tuple[str, str, str]]:
    """
    name -> (system, setting, config reference template with `{dataset}` and `{shot}`), in the tables'
    order (`default_tables()` when none are given; a missing default table is skipped, a checkout
    without experiments/). A row named in two tables is a `UserError`.
    """
    given = tables is not None
    systems: Dict[str, Tuple[str, str, str]] = {}
    for table in default_tables() if tables is None else tables:
        if not given and not os.path.isfile(project_path(table)):
            continue
        for row in table_rows(table):
            if row["name"] in systems:
                raise UserError(f"{table}: row {row['name']!r} is also in another systems table")
            systems[row["name"]] = (row["system"], row["setting"], reference(table, row["name"]))
    return systems


def about(tables: Optional[Sequence[str]] = None) -> Dict[str, str]:
    """name -> the row's `about` sentence."""
    return {row["name"]: row["about"] for table in tables or default_tables() for row in table_rows(table)}


def cell_variables(variables: Dict[str, str], dataset: str, shot: int) -> Dict[str, str]:
    return {**variables, "FEWSHOT_DATASET": dataset, "FEWSHOT_SHOT": str(shot)}


def _first_line(error: Exception) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def render_text(config: str, variables: Dict[str, str]) -> str:
    """
    A config rendered as JSON text with the external variables `variables`: `config` is a Jsonnet file
    or a row reference (`TABLE#ROW/DATASET_Kshot`; relative paths are the working directory's, else the
    project's). Raises RuntimeError (Jsonnet's) or `UserError` (an unknown row or table).
    """
    import _jsonnet

    match = REFERENCE.match(config)
    if match is None:
        return _jsonnet.evaluate_file(config, ext_vars=variables)
    table, name = project_path(match["table"]), match["row"]
    dataset, shot = match["dataset"], int(match["shot"])
    rows = {row["name"]: row for row in table_rows(table)}
    if name not in rows:
        raise UserError(f"{match['table']}: no row {name!r} (known: {', '.join(rows)})")
    base = os.path.abspath(os.path.join(os.path.dirname(table), rows[name]["base"]))
    snippet = (
        f"local row = [r for r in import {json.dumps(os.path.abspath(table))} if r.name == {json.dumps(name)}][0];\n"
        f"std.mergePatch((import {json.dumps(base)})(dataset={json.dumps(dataset)}, shot={shot}), row.overrides)\n"
    )
    return _jsonnet.evaluate_snippet(config, snippet, ext_vars=cell_variables(variables, dataset, shot))


def render_config(config: str, variables: Dict[str, str]) -> Dict[str, Any]:
    """`render_text`, parsed."""
    return json.loads(render_text(config, variables))


def row_config(
    name: str, dataset: str, shot: int, variables: Dict[str, str], tables: Optional[Sequence[str]] = None
) -> Dict[str, Any]:
    """Row `name` of the systems tables rendered for a cell with `variables`; a failure is a `UserError`."""
    systems = read_systems(tables)
    if name not in systems:
        raise UserError(f"unknown system {name!r}; known: {', '.join(systems)}")
    config = systems[name][2].format(dataset=dataset, shot=shot)
    try:
        return render_config(config, variables)
    except RuntimeError as error:
        raise UserError(f"{config}: the config does not render ({_first_line(error)})") from None


def external_variables(seed: int, split: int = 90417) -> Dict[str, str]:
    """What a row's config is rendered with: the environment, the seed and the split (by default one no
    data has, for renderings whose split files are not read)."""
    variables = {key: value for key, value in os.environ.items()}
    variables.setdefault("FEWSHOT_DATA_DIR", data_root())
    variables.setdefault("FEWSHOT_PRETRAIN_DIR", "runs/pretrain")
    variables.update(FEWSHOT_SPLIT=str(split), FEWSHOT_SEED=str(seed))
    return variables


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m fewshot_parser.commands.systems",
        description="Print a grid row's config for a dataset and shot, ready for `allennlp train`.",
    )
    parser.add_argument("row", help="a row name of the systems tables")
    parser.add_argument("dataset", choices=["jobs", "geo", "atis"])
    parser.add_argument("shot", type=int, choices=[1, 2])
    parser.add_argument(
        "--systems-table",
        action="append",
        default=None,
        metavar="PATH",
        help=f"a systems table beside {SYSTEMS_TABLE} (repeatable)",
    )
    args = parser.parse_args(argv)
    seed = int(os.environ.get("FEWSHOT_SEED", "13"))
    split = int(os.environ.get("FEWSHOT_SPLIT", "1"))
    try:
        config = row_config(
            args.row, args.dataset, args.shot, external_variables(seed, split), tables_with(args.systems_table)
        )
    except UserError as error:
        sys.exit(f"error: {error}")
    print(json.dumps(config, indent=2, sort_keys=True))


def tables_with(extra: Optional[Sequence[str]]) -> List[str]:
    """The default tables and `extra` (each once)."""
    return list(dict.fromkeys([*default_tables(), *(extra or [])]))


if __name__ == "__main__":
    main()
