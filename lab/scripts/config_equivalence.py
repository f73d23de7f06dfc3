"""
Proves that the systems tables render every grid row as the per-cell configs they replaced did: for
every row of the old experiments/systems.csv (commit `OLD`, unpacked with `git archive`) and every
cell it has (dataset x shot), in each environment below, the old config file and the new row
(`fewshot_parser.commands.systems.render_config` of its reference) are rendered and compared as sorted
JSON. Also: each thin entry experiments/<dataset>_<k>shot.jsonnet against the old file of that name,
proto_parser.jsonnet against the old flag layer's defaults and supervised.jsonnet against
experiments/supervised/<dataset>.jsonnet. Identical renderings mean identical config hashes, so no
results row goes stale.

    python lab/scripts/config_equivalence.py [--jobs 2] [--rows ours best-ens5 ...]
"""

import argparse
import json
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Dict, List, Optional, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from make_base_configs import OLD, old_rows, old_tree  # noqa: E402

CELLS = [(d, s) for d in ("jobs", "geo", "atis") for s in (1, 2)]
# name -> external variables: the official splits 0 and 1, another seed, and a draw of the dev suite.
ENVIRONMENTS = {
    "split 1": {"FEWSHOT_SPLIT": "1", "FEWSHOT_SEED": "13", "FEWSHOT_DATA_DIR": "data", "FEWSHOT_PRETRAIN_DIR": "runs/pretrain"},
    "split 0": {"FEWSHOT_SPLIT": "0", "FEWSHOT_SEED": "13", "FEWSHOT_DATA_DIR": "data", "FEWSHOT_PRETRAIN_DIR": "runs/pretrain"},
    "split 3, seed 7": {"FEWSHOT_SPLIT": "3", "FEWSHOT_SEED": "7", "FEWSHOT_DATA_DIR": "data", "FEWSHOT_PRETRAIN_DIR": "/abs/pretrain"},
    "dev suite draw 2": {
        "FEWSHOT_SPLIT": "0",
        "FEWSHOT_SEED": "13",
        "FEWSHOT_DATA_DIR": "data/dev/draw_2",
        "FEWSHOT_PRETRAIN_DIR": "runs/pretrain/dev/draw_2",
    },
}  # fmt: skip
TABLES = ["experiments/systems.jsonnet", "lab/systems.jsonnet"]


def compare(task: Tuple[str, str, str, str, int]) -> Tuple[str, int, List[str]]:
    """(what, comparisons, differences) for one old/new pair in every environment."""
    import _jsonnet

    from fewshot_parser.commands.systems import render_config

    what, old_source, new_source, dataset, shot = task
    tree = old_tree()
    differences = []
    for name, variables in ENVIRONMENTS.items():
        if old_source.startswith("snippet:"):
            old_text = _jsonnet.evaluate_snippet(
                "old", old_source[len("snippet:") :], ext_vars=variables, jpathdir=[os.path.join(tree, "experiments")]
            )
        else:
            old_text = _jsonnet.evaluate_file(os.path.join(tree, old_source), ext_vars=variables)
        old = json.dumps(json.loads(old_text), sort_keys=True)
        new = json.dumps(
            render_config(new_source, {**variables, "FEWSHOT_DATASET": dataset, "FEWSHOT_SHOT": str(shot)}),
            sort_keys=True,
        )
        if old != new:
            differences.append(f"{what} {dataset} {shot}-shot, {name}: differs")
    return what, len(ENVIRONMENTS), differences


def tasks(rows: Optional[List[str]]) -> List[Tuple[str, str, str, str, int]]:
    from fewshot_parser.commands.systems import read_systems

    systems = read_systems(TABLES)
    found = []
    for row in old_rows():
        if rows and row["name"] not in rows:
            continue
        if row["name"] not in systems:
            found.append((f"row {row['name']}", "", "", "", 0))  # missing: reported below
            continue
        for dataset, shot in CELLS:
            old = row["config"].format(dataset=dataset, shot=shot)
            if os.path.isfile(os.path.join(old_tree(), old)):
                new = systems[row["name"]][2].format(dataset=dataset, shot=shot)
                found.append((f"row {row['name']}", old, new, dataset, shot))
    if not rows:
        for dataset, shot in CELLS:
            name = f"experiments/{dataset}_{shot}shot.jsonnet"
            found.append(("thin entry", name, name, dataset, shot))
            snippet = f"snippet:(import 'common/fewshot.libsonnet').experiment('{dataset}', {shot})"
            found.append(("base proto_parser.jsonnet", snippet, "experiments/proto_parser.jsonnet", dataset, shot))
            found.append(
                (
                    "base supervised.jsonnet",
                    f"experiments/supervised/{dataset}.jsonnet",
                    "experiments/supervised.jsonnet",
                    dataset,
                    shot,
                )
            )
    return found


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rows", nargs="*", help="only these rows (default: all, and the bases)")
    args = parser.parse_args(argv)
    os.chdir(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    old_tree()  # unpacked once, before the workers
    work = tasks(args.rows)
    missing = [what for what, old, _, _, _ in work if not old]
    work = [task for task in work if task[1]]
    counts: Dict[str, int] = {}
    differences: List[str] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for what, compared, found in pool.map(compare, work, chunksize=4):
            counts[what] = counts.get(what, 0) + compared
            differences += found
    rows = [what for what in counts if what.startswith("row ")]
    print(f"old: commit {OLD[:12]} (experiments/systems.csv and its configs); new: the working tree")
    print(f"environments: {'; '.join(ENVIRONMENTS)}")
    print(f"rows compared: {len(rows)}, renderings compared: {sum(counts.values())} "
          f"({sum(v for k, v in counts.items() if k.startswith('row '))} of rows, "
          f"{sum(v for k, v in counts.items() if not k.startswith('row '))} of entries and bases)")  # fmt: skip
    for what in missing:
        print(f"MISSING: {what} is in no systems table")
    for line in differences:
        print(f"DIFFERENT: {line}")
    if missing or differences:
        print(f"NOT IDENTICAL: {len(differences)} renderings differ, {len(missing)} rows missing")
        sys.exit(1)
    print("all identical")


if __name__ == "__main__":
    main()
