"""
Where a recombination component changes anything: per suite draw, shot and support sample, how many
synthetic pairs of its kind the row with it makes, and so whether its fine-tuning data differs from
the row's without it.

A pair generator such as modifier pairs or subtree pairs makes pairs only where the draw makes new a
predicate it applies to, from the support and the training set alone (not from the other generators'
pairs). Where it makes none, the row with it fine-tunes on the same data, with the same seed and the
same settings, as the row without it, and gives the same numbers (geo draws 21 and 24-29: every exact
match equal). The queue therefore runs such a row only on the draws it changes, and the component table
weights the gains there by the share of the suite's draws changed (`component_table.py`, `pairs`),
reading the CSV this script writes.

Per cell the row's config is rendered as `allennlp run-grid` renders it, its recombination reader built
and its synthetic pairs made; "same" is no pair of the component's directions (`--directions`, the
`direction` its pairs carry). The two rows' configs must otherwise be equal (generator lists, the
recombination reader itself where the row without has none, and `teaching_recipe` set aside): checked
on each dataset's first draw, an error if not.

    python lab/scripts/component_reach.py --with best-modifiers --without best --directions modifier \
        --datasets geo jobs atis --out lab/results/reach/modifiers.csv
"""

import argparse
import copy
import csv
import os
import sys
from typing import Any, Dict, List, Optional, Sequence

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "lab")]
os.chdir(ROOT)

import fewshot_lab  # noqa: E402,F401  (registers the lab's components)

import fewshot_parser  # noqa: E402,F401
from fewshot_parser.commands.augment_data import is_augmented_reader  # noqa: E402
from fewshot_parser.commands.systems import external_variables, row_config, tables_with  # noqa: E402
from fewshot_parser.common.safe_io import atomic_open  # noqa: E402
from fewshot_parser.data.dev_suite import SAMPLES, SHOTS, build_dev_suite, suite_recipe  # noqa: E402
from fewshot_parser.data.examples import read_examples  # noqa: E402

FIELDS = ["with", "without", "suite", "dataset", "draw", "shot", "sample", "pairs", "same"]


def augmented(reader: Any) -> Optional[Dict[str, Any]]:
    """The recombination reader's config inside a reader config (readers wrap readers), if there is one."""
    while isinstance(reader, dict):
        if is_augmented_reader(reader.get("type")):
            return reader
        reader = reader.get("reader")
    return None


def unwrapped(reader: Any) -> Any:
    """A reader config with its recombination reader replaced by the reader it wraps."""
    if not isinstance(reader, dict):
        return reader
    if is_augmented_reader(reader.get("type")):
        return unwrapped(reader.get("reader"))
    return {k: unwrapped(v) if k == "reader" else v for k, v in reader.items()}


def settings(config: Dict[str, Any]) -> Dict[str, Any]:
    """
    A row's config as far as it matters where the component makes no pair: without the recombination
    reader (the reader it wraps in its place; with no pair and nothing else of recombination it yields
    the support as that reader does) and without `teaching_recipe` (whether the pre-trained archive also
    stores its fine-tuning recipe; no number depends on it).
    """
    rest = {k: v for k, v in config.items() if k not in ("dataset_reader", "teaching_recipe")}
    found = augmented(config.get("dataset_reader"))
    recombination = {k: v for k, v in (found or {}).items() if k not in ("generators", "reader")}
    return {**rest, "dataset_reader": unwrapped(config.get("dataset_reader")), "recombination": recombination}


def component_pairs(config: Dict[str, Any], directions: Sequence[str]) -> int:
    """How many synthetic pairs of `directions` the config's recombination reader makes for its support."""
    from allennlp.common import Params
    from allennlp.data import DatasetReader

    reader_config = augmented(config.get("dataset_reader"))
    if reader_config is None:
        raise ValueError("the row with the component has no recombination reader")
    reader = DatasetReader.from_params(Params(copy.deepcopy(reader_config)))
    support = list(read_examples(reader.support_data_path, reader.formalism))  # type: ignore[attr-defined]
    return sum(pair.direction in directions for pair in reader.synthetic_pairs(support))  # type: ignore[attr-defined]


def check_settings(with_config: Dict[str, Any], without_config: Dict[str, Any], where: str) -> None:
    """Raises ValueError when the two rows differ beyond recombination (see `settings`)."""
    first, second = settings(with_config), settings(without_config)
    if not second["recombination"]:
        # Where the row without has no recombination reader, the one with it adds the component's pairs
        # alone (the table's check on the recorded numbers of unchanged draws backs this).
        first["recombination"] = {}
    if first != second:
        keys = sorted(k for k in set(first) | set(second) if first.get(k) != second.get(k))
        raise ValueError(f"{where}: the rows differ beyond recombination ({', '.join(keys)})")


def reach(
    with_name: str,
    without_name: str,
    directions: Sequence[str],
    suite: str,
    datasets: Sequence[str],
    data_dir: str,
    tables: List[str],
    draws: Optional[Sequence[int]] = None,
) -> List[Dict[str, Any]]:
    root = os.path.join(data_dir, suite)
    build_dev_suite(data_dir, root, list(datasets), suite)  # idempotent, as run-grid makes them
    rows = []
    for dataset in datasets:
        checked = False
        for draw in suite_recipe(suite)[dataset]["draws"]:
            if draws and draw not in draws:
                continue
            for shot in SHOTS:
                for sample in range(SAMPLES):
                    variables = external_variables(13, sample)
                    variables["FEWSHOT_DATA_DIR"] = os.path.join(root, f"draw_{draw}")
                    # Readers resolve data paths against the environment's FEWSHOT_DATA_DIR.
                    os.environ["FEWSHOT_DATA_DIR"] = variables["FEWSHOT_DATA_DIR"]
                    with_config = row_config(with_name, dataset, shot, variables, tables)
                    if not checked:
                        without_config = row_config(without_name, dataset, shot, variables, tables)
                        check_settings(with_config, without_config, f"{dataset} {shot}-shot")
                        checked = shot == SHOTS[-1]
                    count = component_pairs(with_config, directions)
                    values = [with_name, without_name, suite, dataset, draw, shot, sample, count, int(count == 0)]
                    rows.append(dict(zip(FIELDS, values)))
                    print(f"{dataset} d{draw} {shot}-shot s{sample}: {count} pair(s)", flush=True)
    return rows


def main(argv: Optional[Sequence[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--with", dest="with_name", required=True, help="the grid system with the component")
    parser.add_argument("--without", required=True, help="the grid system without it")
    parser.add_argument("--directions", nargs="+", required=True, help="the `direction` of the component's pairs")
    parser.add_argument("--suite", default="dev")
    parser.add_argument("--datasets", nargs="+", default=["geo", "jobs", "atis"])
    parser.add_argument("--draws", nargs="+", type=int, help="only these draws (default: all)")
    parser.add_argument("--data-dir", default="data", help="where the official data and the suites' splits are")
    parser.add_argument("--out", required=True, help="the CSV to write")
    args = parser.parse_args(argv)
    tables = tables_with(["lab/systems.jsonnet"])
    try:
        rows = reach(
            args.with_name, args.without, args.directions, args.suite, args.datasets, args.data_dir, tables, args.draws
        )
    except ValueError as error:
        sys.exit(f"error: {error}")
    with atomic_open(args.out) as handle:
        writer = csv.DictWriter(handle, fieldnames=FIELDS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    print(f"{args.out}: {sum(r['same'] for r in rows)} of {len(rows)} cells the same")


if __name__ == "__main__":
    main()
