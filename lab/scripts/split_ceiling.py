"""
How much of a row's split-to-split spread is the benchmark's: the buildable ceiling of each split
beside the row's exact match.

A split's new predicates decide how many of its query LFs can be built at all from the actions of
its training and support sets (`representation_check.buildable`: the query template tiles with the
train and support fragments). That share, the split's ceiling, bounds every parser that writes only
those actions, and it differs from split to split. For each grid system named, per column (dataset,
shot) over shuffles 1-5 (or `--shuffles`), the script prints the ceiling of each split under that
system's own reader, the row's exact match (from the results files), the row's share of its ceiling,
and the population standard deviation of each over the splits (as `allennlp report` computes a
row's spread), and the row's sampling floor: the spread that drawing each split's test queries
alone would give a parser equally good on every split (`sampling_floor`). The last table averages
the spreads over the columns a system has complete, and gives the correlation of exact match with
the ceiling over all its (column, split) cells, each centred on its column's mean, i.e. how far the
splits a row finds hard are the splits with fewer buildable LFs.

    OMP_NUM_THREADS=1 .venv/bin/python lab/scripts/split_ceiling.py --systems ours coverage coverage-sup \\
        --results results/runs.csv --out lab/results/split_ceiling.md

Only the splits' data files are read (no model runs); ATIS takes about a minute per split.
"""
import argparse
import copy
import json
import os
import statistics
import sys
from typing import Dict, List, Optional, Sequence, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))  # representation_check.py, a script a user runs

from representation_check import buildable, emit_report, our_examples, render_config, typed_ours  # noqa: E402  (benchmarks/)
import fewshot_lab  # noqa: E402,F401  (registers the probe rows' pair generators: reshaped, adjectives, subtrees)

COLUMNS = [("jobs", 1), ("geo", 1), ("atis", 1), ("jobs", 2), ("geo", 2), ("atis", 2)]


def augmented_spec(spec: Dict) -> Optional[Dict]:
    """The recombining reader (`fewshot_augmented` or one built on it) in a fine-tuning reader spec, if any."""
    from fewshot_parser.commands.augment_data import is_augmented_reader

    while isinstance(spec, dict):
        if is_augmented_reader(spec.get("type")):
            return spec
        spec = spec.get("reader")
    return None


def synthetic_actions(rendered: Dict) -> List[List[str]]:
    """The typed action sequences of the synthetic pairs a config's fine-tuning reader makes (none without recombination)."""
    from allennlp.common import Params
    from allennlp.data import DatasetReader
    from fewshot_parser.logical_forms.tree import parse

    spec = augmented_spec(rendered["dataset_reader"])
    if spec is None:
        return []
    reader = DatasetReader.from_params(Params(copy.deepcopy(spec)))  # Params consumes what it is given
    system = DatasetReader.from_params(Params(rendered["pretraining"]["dataset_reader"])).transition_system
    out = []
    for pair in reader.synthetic_pairs():
        try:
            native = [str(step.action) for step in system.oracle(parse(pair.logical_form, reader.formalism), pair.utterance)]
        except (ValueError, KeyError):
            continue  # fine-tuning leaves such a pair out too
        out.append([typed_ours(a) for a in native])
    return out


def ceilings(config: str, dataset: str, shot: int, shuffles: Sequence[int], data_dir: str,
             cache: Dict[Tuple, Tuple[float, int]], synthetic: bool = False) -> Dict[int, Tuple[float, int]]:
    """
    The buildable share (%) of the query LFs of each split under the pre-training reader of
    `config`, with the split's number of queries; with `synthetic`, the actions of the synthetic
    pairs of its fine-tuning reader count as support actions.
    """
    out = {}
    for shuffle in shuffles:
        # Systems whose readers render the same share one count.
        rendered = render_config(dataset, shot, shuffle, config)
        reader = rendered["pretraining"]["dataset_reader"]
        key = (json.dumps(reader, sort_keys=True), dataset, shot, shuffle)
        if synthetic:
            key += (json.dumps(augmented_spec(rendered["dataset_reader"]), sort_keys=True),)
        if key not in cache:
            side = our_examples(dataset, shot, shuffle, data_dir, config)
            if synthetic:
                side["support"] = side["support"] + [{"typed": typed} for typed in synthetic_actions(rendered)]
            flags = buildable(side, "typed", any_arity_root=False)
            cache[key] = (100.0 * sum(flags) / max(len(flags), 1), len(flags))
        out[shuffle] = cache[key]
    return out


def sampling_floor(mean_em: float, queries: Sequence[int]) -> float:
    """
    The split-to-split standard deviation (in points) that test-set sampling alone gives a parser
    whose accuracy is `mean_em` % on every split: split s scores a binomial share of its
    `queries[s]` queries, with variance p(1-p)/n_s, and the expected population variance of k such
    independent shares with one mean is (k-1)/k times their mean variance.
    """
    p = mean_em / 100.0
    variances = [p * (1.0 - p) / n for n in queries if n > 0]
    if len(variances) < 2:
        return 0.0
    k = len(variances)
    return 100.0 * ((k - 1) / k * statistics.mean(variances)) ** 0.5


def exact_matches(rows: List[Dict[str, str]], system: str, setting: str, dataset: str, shot: int) -> Dict[int, float]:
    """The last recorded exact match of each shuffle of one row and column."""
    found: Dict[int, float] = {}
    for row in rows:
        if (row["system"], row["setting"], row["dataset"], row["shot"]) == (system, setting, dataset, str(shot)):
            found[int(row["shuffle"])] = float(row["exact_match"])
    return found


def correlation(xs: Sequence[float], ys: Sequence[float]) -> Optional[float]:
    if len(xs) < 3 or statistics.pstdev(xs) == 0 or statistics.pstdev(ys) == 0:
        return None
    mx, my = statistics.mean(xs), statistics.mean(ys)
    cov = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / len(xs)
    return cov / (statistics.pstdev(xs) * statistics.pstdev(ys))


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--systems", nargs="+", required=True, help="grid systems (allennlp run-grid names)")
    parser.add_argument("--results", nargs="+", default=[os.path.join(ROOT, "results", "runs.csv")])
    parser.add_argument("--shuffles", nargs="+", type=int, default=[1, 2, 3, 4, 5])
    parser.add_argument("--datasets", nargs="+", default=["jobs", "geo", "atis"], choices=["jobs", "geo", "atis"])
    parser.add_argument("--data-dir", default=os.path.join(ROOT, "data"))
    parser.add_argument("--out", default=None, help="also write the Markdown report here")
    parser.add_argument("--synthetic", action="store_true",
                        help="count the actions of the synthetic pairs of each system's recombination as support actions")
    args = parser.parse_args(argv)

    from fewshot_parser.commands.run_grid import SYSTEMS, use_tables
    from fewshot_parser.common.errors import UserError

    use_tables(["lab/systems.jsonnet"])
    from fewshot_parser.common.results_io import read_result_rows

    unknown = [s for s in args.systems if s not in SYSTEMS]
    if unknown:
        parser.error(f"unknown grid system(s): {', '.join(unknown)}")
    try:
        rows = [row for path in args.results for row in read_result_rows(path)]
    except UserError as error:
        parser.error(str(error))
    columns = [(d, k) for d, k in COLUMNS if d in args.datasets]
    cache: Dict[Tuple, Tuple[float, int]] = {}
    lines = ["# Split ceilings beside split-to-split spread", "",
             "Generated by `python lab/scripts/split_ceiling.py " + " ".join(argv if argv is not None else sys.argv[1:]) + "`.",
             "", "Ceiling: % of a split's query LFs buildable from its train and support actions (the system's own "
             "reader" + ("; with `--synthetic`, also from the actions of the synthetic pairs its recombination makes" if args.synthetic else "") + "). EM: exact match. EM / ceiling: the share of the buildable LFs the row gets. std: population "
             "standard deviation over the splits. Sampling floor: the EM std that drawing each split's test "
             "queries alone gives a parser with the row's mean EM on every split (binomial variance p(1-p)/n per "
             "split, times (k-1)/k for the population std over k splits); a row cannot be expected to spread less.", ""]
    summary = []
    for name in args.systems:
        system, setting, config = SYSTEMS[name]
        label = system + (f" ({setting})" if setting else "")
        lines += [f"## {name}: {label}", "",
                  "| column | " + " | ".join(f"s{s}" for s in args.shuffles) + " | mean | std |", "|---" * (len(args.shuffles) + 3) + "|"]
        spreads: Dict[str, List[float]] = {"ceiling": [], "em": [], "share": [], "floor": []}
        centred_ceiling: List[float] = []
        centred_em: List[float] = []
        for dataset, shot in columns:
            ceiling = ceilings(config, dataset, shot, args.shuffles, args.data_dir, cache, args.synthetic)
            em = exact_matches(rows, system, setting, dataset, shot)
            series = {"ceiling": [ceiling[s][0] for s in args.shuffles]}
            if all(s in em for s in args.shuffles):
                series["EM"] = [em[s] for s in args.shuffles]
                series["EM / ceiling"] = [100.0 * e / c if c else 0.0 for e, c in zip(series["EM"], series["ceiling"])]
            for kind, values in series.items():
                lines.append(f"| {dataset} {shot}-shot {kind} | " + " | ".join(f"{v:.1f}" for v in values)
                             + f" | {statistics.mean(values):.1f} | {statistics.pstdev(values):.1f} |")
            if "EM" in series:
                counts = [ceiling[s][1] for s in args.shuffles]
                floor = sampling_floor(statistics.mean(series["EM"]), counts)
                lines.append(f"| {dataset} {shot}-shot queries; std: EM sampling floor | " + " | ".join(map(str, counts))
                             + f" | {statistics.mean(counts):.0f} | {floor:.1f} |")
                spreads["floor"].append(floor)
                spreads["ceiling"].append(statistics.pstdev(series["ceiling"]))
                spreads["em"].append(statistics.pstdev(series["EM"]))
                spreads["share"].append(statistics.pstdev(series["EM / ceiling"]))
                mc, me = statistics.mean(series["ceiling"]), statistics.mean(series["EM"])
                centred_ceiling += [c - mc for c in series["ceiling"]]
                centred_em += [e - me for e in series["EM"]]
        lines.append("")
        r = correlation(centred_ceiling, centred_em)
        if spreads["em"]:
            summary.append(f"| {name} | {len(spreads['em'])} | {statistics.mean(spreads['ceiling']):.1f} | "
                           f"{statistics.mean(spreads['em']):.1f} | {statistics.mean(spreads['floor']):.1f} | "
                           f"{statistics.mean(spreads['share']):.1f} | "
                           + (f"{r:+.2f}" if r is not None else "–") + " |")
        else:
            summary.append(f"| {name} | 0 | – | – | – | – | – |")
    lines += ["## Mean spread over each system's complete columns", "",
              "| system | columns | ceiling std | EM std | sampling floor of the EM std | EM / ceiling std "
              "| r(EM, ceiling), centred per column |",
              "|---|---|---|---|---|---|---|"] + summary
    emit_report("\n".join(lines) + "\n", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
