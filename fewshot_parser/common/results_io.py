"""
Reading results files (`results/runs.csv`) for `allennlp report`, strictly: a missing file, a file
without the columns the report needs, or a row whose numbers do not parse is a `UserError` naming
the file and line, before any table is written.
"""

import csv
import io
import os
import subprocess
from typing import Dict, List, Sequence

from fewshot_parser.common.errors import UserError

# The columns the report reads, and how each value must parse (other columns are kept as they are).
REQUIRED = {
    "system": str,
    "setting": str,
    "dataset": str,
    "shot": int,
    "shuffle": int,
    "exact_match": float,
    "seconds": float,
}


def read_result_rows(path: str) -> List[Dict[str, str]]:
    """The rows of one results file, checked; values stay strings, as `csv.DictReader` gives them."""
    if not os.path.isfile(path):
        raise UserError(f"{path}: no such results file" + (" (it is a directory)" if os.path.isdir(path) else ""))
    try:
        with open(path, newline="", encoding="utf-8") as handle:
            reader = csv.DictReader(handle)
            header = reader.fieldnames or []
            missing = [name for name in REQUIRED if name not in header]
            if missing:
                found = ", ".join(header) if header else "nothing (empty file)"
                raise UserError(f"{path}:1: missing column(s) {', '.join(missing)}; the header has {found}")
            rows = []
            for row in reader:
                _check_row(path, reader.line_num, row)
                rows.append(row)
    except UnicodeDecodeError as error:
        raise UserError(
            f"{path}: not valid UTF-8 (byte 0x{error.object[error.start : error.start + 1].hex()} "
            f"at offset {error.start})"
        ) from error
    except csv.Error as error:
        raise UserError(f"{path}: malformed CSV: {error}") from error
    return rows


def committed_rows(path: str, revision: str) -> List[Dict[str, str]]:
    """
    The rows of the results file `path` (a path inside this repository) as committed at `revision`,
    unchecked, for comparing a file with its history; a revision or path git does not know is a
    `UserError`.
    """
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    relative = os.path.relpath(os.path.abspath(os.path.join(root, path)), root)
    shown = subprocess.run(["git", "-C", root, "show", f"{revision}:{relative}"], capture_output=True, text=True)
    if shown.returncode != 0:
        raise UserError(f"{path} at {revision}: {shown.stderr.strip()}")
    return list(csv.DictReader(io.StringIO(shown.stdout)))


def _check_row(path: str, line: int, row: Dict[str, str]) -> None:
    if None in row:
        raise UserError(f"{path}:{line}: more fields than the header has columns")
    for name, kind in REQUIRED.items():
        value = row.get(name)
        if value is None:
            raise UserError(f"{path}:{line}: fewer fields than the header has columns (no {name})")
        if kind is not str:
            try:
                kind(value)
            except ValueError:
                expected = "an integer" if kind is int else "a number"
                raise UserError(f"{path}:{line}: {name} must be {expected}, got {value!r}") from None


def require_rows(rows: Sequence[object], files: Sequence[str], what: str) -> None:
    """Refuses to go on from zero usable rows (a typo in a path, a header-only file)."""
    if not rows:
        raise UserError(f"no usable rows in {' '.join(files)} ({what}); nothing was written")
