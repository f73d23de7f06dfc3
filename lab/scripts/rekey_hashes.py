"""
One-off: re-key the recorded results rows after config hashes stopped reading configs in the old
spelling. Until that change `provenance.experiment_hash` wrote a config's components as the old model
and reader names that meant them before hashing (`old_spelling`), so a row recorded before a rename
kept its hash; now a config is hashed as it is written, and the `config_hash` of every row whose
config contains a renamed component (decoding scorers, rerankers, action scorers, the authors'
options, pair generators) changed.

The map old hash -> new hash is built from rendered configs, not from file names: every grid system
(`experiments/systems.csv`) is rendered for every cell the results files hold (dataset, shot, and
official shuffle or development-suite draw, with the seed the file was run with), each rendering is
hashed the old way (the package's `fewshot_parser/common` at `--old-commit`, the last commit with the
old hashing, taken with `git archive` and run in a subprocess) and the new way (this checkout's
`experiment_hash`). The same is done for the pre-training section (`pretrain_config_hash`, which was
always `config_hash` of the section as written: its map is the identity, listed for completeness).
A row's hash is replaced where its old hash is in the map: by the new hash of its own system's
rendering of its cell when that rendering has the row's old hash, else by the map's only new hash for
it. Rows whose hash is not found (stale rows whose config changed since, rows of retired systems) are
left as they were and counted; `fixtures/config_hashes/base.json` (the hashes the grid's configs had at
77f2d43, `tests/common/config_hashes_test.py`) is re-keyed the same way.

    python lab/scripts/rekey_hashes.py --dry-run    # the counts only
    python lab/scripts/rekey_hashes.py              # rewrites the files
"""

import argparse
import csv
import io
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from typing import Any, Dict, List, Optional, Set, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

import _jsonnet  # noqa: E402

from fewshot_parser.commands.systems import read_systems  # noqa: E402
from fewshot_parser.common.provenance import config_hash, experiment_hash  # noqa: E402

# The last commit whose `experiment_hash` read configs in the old spelling.
OLD_COMMIT = "2511cde"
HASHED = ("config_hash", "pretrain_config_hash")
FIXTURE = "fixtures/config_hashes/base.json"
# Where a rendering points: an official shuffle, or a draw of the development suite (shuffle 0 of it).
Rendering = Tuple[str, int, str]  # (kind "official" | "dev", shuffle or draw, FEWSHOT_SEED)

# The old hashing, run where the package is the one at the old commit.
OLD_HASHER = """
import json, sys
from fewshot_parser.common.provenance import config_hash, experiment_hash
for line in sys.stdin:
    config = json.loads(line)
    pretraining = config.get("pretraining")
    pre = config_hash(json.loads(json.dumps(pretraining))) if isinstance(pretraining, dict) else None
    print(json.dumps([experiment_hash(config), pre]), flush=True)
"""


def results_files() -> List[str]:
    """Every tracked results CSV with a `config_hash` column (as `grep -rl config_hash results lab/results`)."""
    found = []
    for top in ("results", os.path.join("lab", "results")):
        for directory, _, names in os.walk(os.path.join(ROOT, top)):
            for name in sorted(names):
                path = os.path.join(directory, name)
                if name.endswith(".csv"):
                    with open(path, newline="", encoding="utf-8") as handle:
                        if "config_hash" in handle.readline():
                            found.append(os.path.relpath(path, ROOT))
    return sorted(found)


def seed_of(path: str) -> str:
    """The FEWSHOT_SEED a file's runs used: `seed<N>` in its name, else the default 13."""
    match = re.search(r"seed(\d+)", os.path.basename(path))
    return match.group(1) if match else "13"


def is_suite(path: str) -> bool:
    """Whether a file holds runs on the draws of the development suite (its shuffle column is the draw)."""
    return path.startswith(os.path.join("results", "dev") + os.sep) or os.path.basename(path).startswith("dev_")


class OldHasher:
    """`experiment_hash` and the pre-training section's `config_hash` as the package computed them at `commit`."""

    def __init__(self, commit: str) -> None:
        self.directory = tempfile.mkdtemp(prefix="old_hashing_")
        archive = subprocess.run(
            ["git", "-C", ROOT, "archive", commit, "fewshot_parser/common"], capture_output=True, check=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", self.directory], input=archive, check=True)
        self.process = subprocess.Popen(
            [sys.executable, "-c", OLD_HASHER],
            cwd=self.directory,
            env={**os.environ, "PYTHONPATH": self.directory},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def __call__(self, config: Dict[str, Any]) -> Tuple[str, Optional[str]]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(config) + "\n")
        self.process.stdin.flush()
        old, pre = json.loads(self.process.stdout.readline())
        return old, pre

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()


class Maps:
    """Renders configs once each and keeps old hash -> new hashes, overall and per rendered cell."""

    def __init__(self, hasher: OldHasher) -> None:
        self.hasher = hasher
        self.experiment: Dict[str, Set[str]] = defaultdict(set)
        self.pretraining: Dict[str, Set[str]] = defaultdict(set)
        # (template, dataset, shot, rendering) -> (old, new) experiment hashes; None when it does not render.
        self.cells: Dict[Tuple[str, str, int, Rendering], Optional[Tuple[str, str]]] = {}
        self.hashed: Dict[str, Tuple[str, str, Optional[str], Optional[str]]] = {}  # sorted JSON -> hashes

    def render(self, template: str, dataset: str, shot: int, rendering: Rendering) -> Optional[Tuple[str, str]]:
        key = (template, dataset, shot, rendering)
        if key not in self.cells:
            kind, number, seed = rendering
            data = "data" if kind == "official" else f"data/dev/draw_{number}"
            pretrain = "runs/pretrain" if kind == "official" else f"runs/pretrain/dev/draw_{number}"
            ext_vars = {
                "FEWSHOT_SPLIT": str(number if kind == "official" else 0),
                "FEWSHOT_SEED": seed,
                "FEWSHOT_DATA_DIR": data,
                "FEWSHOT_PRETRAIN_DIR": pretrain,
            }
            path = os.path.join(ROOT, template.format(dataset=dataset, shot=shot))
            try:
                config = json.loads(_jsonnet.evaluate_file(path, ext_vars=ext_vars))
            except (RuntimeError, OSError, ValueError):
                self.cells[key] = None
                return None
            self.cells[key] = self.add(config)
        return self.cells[key]

    def add(self, config: Dict[str, Any]) -> Tuple[str, str]:
        """Hashes a rendered config both ways (once per content: the map is keyed by the sorted JSON)."""
        text = json.dumps(config, sort_keys=True)
        if text not in self.hashed:
            old, old_pre = self.hasher(config)
            pretraining = config.get("pretraining")
            new_pre = config_hash(json.loads(json.dumps(pretraining))) if isinstance(pretraining, dict) else None
            self.hashed[text] = (old, experiment_hash(config), old_pre, new_pre)
        old, new, old_pre, new_pre = self.hashed[text]
        self.experiment[old].add(new)
        if old_pre is not None and new_pre is not None:
            self.pretraining[old_pre].add(new_pre)
        return old, new


def renderings(path: str, row: Dict[str, str]) -> Rendering:
    return ("dev" if is_suite(path) else "official", int(row["shuffle"]), seed_of(path))


def build(
    maps: Maps, systems: Dict[str, Tuple[str, str, str]], tables: Dict[str, List[Dict[str, str]]], full: bool
) -> None:
    """
    Renders, for every row, its own grid system's config for its cell (dataset, shot, rendering), and
    every grid system for the cells of the fixture; with `full`, every grid system for every cell a
    results file holds.
    """
    by_name = {(system, setting): template for system, setting, template in systems.values()}
    templates = sorted(set(by_name.values()))
    fixture = [
        (d, s, r) for d in ("jobs", "geo", "atis") for s in (1, 2) for r in (("official", 1, "13"), ("dev", 1, "13"))
    ]
    cells = {(row["dataset"], int(row["shot"]), renderings(p, row)) for p, rows in tables.items() for row in rows}
    jobs = {(template, *cell) for cell in (cells if full else set()) | set(fixture) for template in templates}
    for path, rows in tables.items():
        for row in rows:
            template = by_name.get((row["system"], row["setting"]))
            if template is not None:
                jobs.add((template, row["dataset"], int(row["shot"]), renderings(path, row)))
    for number, (template, dataset, shot, rendering) in enumerate(sorted(jobs), 1):
        maps.render(template, dataset, shot, rendering)
        if number % 200 == 0:
            print(f"# rendered {number}/{len(jobs)}", file=sys.stderr, flush=True)


def new_hash(
    maps: Maps, systems: Dict[str, Tuple[str, str, str]], path: str, row: Dict[str, str], column: str
) -> Tuple[str, Optional[str]]:
    """(outcome, new value): outcome `changed`, `same`, `not found`, `ambiguous` or `no hash`."""
    old = row.get(column, "")
    if old in ("", "-", "unknown"):
        return "no hash", None
    table = maps.experiment if column == "config_hash" else maps.pretraining
    if old not in table:
        return "not found", None
    if column == "config_hash":
        for system, setting, template in systems.values():
            if (system, setting) == (row["system"], row["setting"]):
                own = maps.render(template, row["dataset"], int(row["shot"]), renderings(path, row))
                if own is not None and own[0] == old:
                    return ("same" if own[1] == old else "changed"), own[1]
    if len(table[old]) != 1:
        return "ambiguous", None
    (new,) = table[old]
    return ("same" if new == old else "changed"), new


def read_table(path: str) -> Tuple[List[str], List[Dict[str, str]], str]:
    with open(os.path.join(ROOT, path), newline="", encoding="utf-8") as handle:
        text = handle.read()
    reader = csv.DictReader(io.StringIO(text, newline=""))
    rows = list(reader)
    return list(reader.fieldnames or []), rows, "\r\n" if "\r\n" in text else "\n"


def table_text(fields: List[str], rows: List[Dict[str, str]], terminator: str) -> str:
    out = io.StringIO(newline="")
    writer = csv.DictWriter(out, fieldnames=fields, lineterminator=terminator)
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def rekey_fixture(maps: Maps, systems: Dict[str, Tuple[str, str, str]], dry_run: bool) -> Counter:
    """`fixtures/config_hashes/base.json`: `<system> | <dataset> <shot>-shot | <rendering>` -> hash."""
    with open(os.path.join(ROOT, FIXTURE), encoding="utf-8") as handle:
        hashes: Dict[str, Optional[str]] = json.load(handle)
    counts: Counter = Counter()
    for key, old in hashes.items():
        name, cell, rendering = key.split(" | ")
        dataset, shot = cell.split(" ")[0], int(cell.split(" ")[1].split("-")[0])
        where: Rendering = ("official", 1, "13") if rendering == "official 1" else ("dev", 1, "13")
        if old is None:
            counts["no hash"] += 1
            continue
        own = maps.render(systems[name][2], dataset, shot, where) if name in systems else None
        if own is not None and own[0] == old:
            outcome, new = ("same" if own[1] == old else "changed"), own[1]
        elif old in maps.experiment and len(maps.experiment[old]) == 1:
            (new,) = maps.experiment[old]
            outcome = "same" if new == old else "changed"
        else:
            outcome, new = ("ambiguous" if old in maps.experiment else "not found"), old
        counts[outcome] += 1
        hashes[key] = new
    if not dry_run:
        with open(os.path.join(ROOT, FIXTURE), "w", encoding="utf-8") as handle:
            json.dump(hashes, handle, indent=0, sort_keys=True)
            handle.write("\n")
    return counts


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", help="results files (default: every results CSV with a config_hash column)")
    parser.add_argument("--old-commit", default=OLD_COMMIT, help="a commit with the old hashing (default %(default)s)")
    parser.add_argument("--dry-run", action="store_true", help="count, write nothing")
    parser.add_argument("--full", action="store_true", help="render every grid system for every cell (slow)")
    parser.add_argument("--map", help="also write the map (old -> new experiment hashes) to this JSON file")
    args = parser.parse_args(argv)
    files = args.files or results_files()
    systems = read_systems()
    tables = {path: read_table(path) for path in files}
    for path, (fields, rows, terminator) in tables.items():
        if table_text(fields, rows, terminator) != open(os.path.join(ROOT, path), newline="", encoding="utf-8").read():
            raise SystemExit(f"{path}: does not read back byte for byte as CSV; not touching it")
    hasher = OldHasher(args.old_commit)
    try:
        maps = Maps(hasher)
        build(maps, systems, {path: rows for path, (_, rows, _) in tables.items()}, args.full)
        totals: Counter = Counter()
        for path, (fields, rows, terminator) in tables.items():
            counts: Counter = Counter()
            for row in rows:
                for column in HASHED:
                    if column not in fields:
                        continue
                    outcome, new = new_hash(maps, systems, path, row, column)
                    counts[(column, outcome)] += 1
                    if new is not None:
                        row[column] = new
            totals.update(counts)
            line = ", ".join(f"{column} {outcome} {n}" for (column, outcome), n in sorted(counts.items()))
            print(f"{path}: {len(rows)} rows; {line}")
            if not args.dry_run and counts[("config_hash", "changed")] + counts[("pretrain_config_hash", "changed")]:
                with open(os.path.join(ROOT, path), "w", newline="", encoding="utf-8") as handle:
                    handle.write(table_text(fields, rows, terminator))
        fixture = rekey_fixture(maps, systems, args.dry_run)
    finally:
        hasher.close()
    print("total: " + ", ".join(f"{column} {outcome} {n}" for (column, outcome), n in sorted(totals.items())))
    print(f"{FIXTURE}: " + ", ".join(f"{outcome} {n}" for outcome, n in sorted(fixture.items())))
    changed = {old: sorted(new) for old, new in maps.experiment.items() if new != {old}}
    ambiguous = {old: new for old, new in changed.items() if len(new) > 1}
    print(
        f"map: {len(maps.hashed)} distinct rendered configs, {len(maps.experiment)} old experiment hashes, "
        f"{len(changed)} of them change, {len(ambiguous)} with more than one new hash; pre-training hashes: "
        f"{sum(new != {old} for old, new in maps.pretraining.items())} of {len(maps.pretraining)} change"
    )
    if args.map:
        with open(args.map, "w", encoding="utf-8") as handle:
            json.dump(changed, handle, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
