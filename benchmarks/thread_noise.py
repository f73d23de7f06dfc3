"""
How far a system's numbers move with the torch thread count (or the machine): two results files of
the same grid, run with different `--threads` (or on different machines), compared per column.

    allennlp run-grid --systems ours --threads 1 --jobs 1 --results runs/threads1.csv --runs-dir runs/t1
    allennlp run-grid --systems ours --threads 2 --jobs 1 --results runs/threads2.csv --runs-dir runs/t2
    python benchmarks/thread_noise.py runs/threads1.csv runs/threads2.csv > noise.md

On the development suite (rows name the draw as the shuffle), give the suite's root:

    python benchmarks/thread_noise.py results/dev/runs.csv other.csv --data-dir data/dev --setting "..."

A side may be several files separated by commas (`a.csv,b.csv`): a split found in more than one takes
the value of the first file that has it, so a side can gather one machine's runs from several grids.

Prints a Markdown table, one column per dataset and shot: the mean exact match of each file over
the splits both have, the mean and the largest absolute per-split difference in points and in
queries (one query = 100 / the split's query-set size points), and how many splits agree exactly.
It is the table of docs/results.md, "Noise across thread counts and machines".
"""
import argparse
import csv
import os
import sys
from typing import Dict, List, Optional, Sequence, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

# Query-set sizes of the benchmark (every shuffle); `fewshot_parser.commands.run_grid.QUERY_SIZES`.
QUERY_SIZES = {("jobs", 1): 110, ("jobs", 2): 107, ("geo", 1): 211, ("geo", 2): 206, ("atis", 1): 764, ("atis", 2): 759}
COLUMNS = [(dataset, shot) for shot in (1, 2) for dataset in ("jobs", "geo", "atis")]

Key = Tuple[str, int, int]  # dataset, shot, shuffle


def read_values(paths: str, system: str, setting: str, shuffles: Sequence[int]) -> Dict[Key, Tuple[float, str]]:
    """
    (exact match, threads) per (dataset, shot, shuffle) of one system's rows in a results file, or in
    several separated by commas (the first file that has a split gives its value).
    """
    values: Dict[Key, Tuple[float, str]] = {}
    for path in paths.split(","):
        with open(path, newline="", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
        for row in rows:
            key = (row["dataset"], int(row["shot"]), int(row["shuffle"]))
            if row["system"] == system and row["setting"] == setting and key[2] in shuffles and key not in values:
                values[key] = (float(row["exact_match"]), row.get("threads") or "?")
    return values


def query_size(dataset: str, shot: int, shuffle: int, data_dir: Optional[str]) -> int:
    """
    Queries of a split: its query.txt under `data_dir` when there (a suite's or `make-splits` root
    holds draw d as `draw_<d>/.../shuffle_0_shot_<k>`, and its rows name the draw as the shuffle),
    else the benchmark's known size.
    """
    if data_dir:
        path = os.path.join(data_dir, dataset, "lemma_data", f"shuffle_{shuffle}_shot_{shot}", "query.txt")
        if os.path.isdir(os.path.join(data_dir, f"draw_{shuffle}")):
            path = os.path.join(data_dir, f"draw_{shuffle}", dataset, "lemma_data", f"shuffle_0_shot_{shot}", "query.txt")
        if os.path.isfile(path):
            with open(path, "rb") as handle:
                return sum(1 for line in handle if line.strip())
    return QUERY_SIZES[(dataset, shot)]


def noise_table(first: Dict[Key, Tuple[float, str]], second: Dict[Key, Tuple[float, str]], names: Sequence[str],
                data_dir: Optional[str] = None) -> str:
    """The Markdown table described in the module docstring (`names`: how to call the two files' runs)."""
    cells: Dict[str, List[str]] = {label: [] for label in (
        f"mean, {names[0]}", f"mean, {names[1]}", "mean abs. difference (points)", "max abs. difference (points)",
        "mean abs. difference (queries)", "max abs. difference (queries)", "splits identical / compared")}
    columns = []
    for dataset, shot in COLUMNS:
        shared = sorted(s for d, k, s in first if (d, k) == (dataset, shot) and (d, k, s) in second)
        if not shared:
            continue
        columns.append(f"{dataset} {shot}")
        a = [first[(dataset, shot, s)][0] for s in shared]
        b = [second[(dataset, shot, s)][0] for s in shared]
        points = [abs(x - y) for x, y in zip(a, b)]
        queries = [p / (100.0 / query_size(dataset, shot, s, data_dir)) for p, s in zip(points, shared)]
        values = [sum(a) / len(a), sum(b) / len(b), sum(points) / len(points), max(points),
                  sum(queries) / len(queries), max(queries)]
        for label, value in zip(cells, values):
            cells[label].append(f"{value:.2f}")
        cells["splits identical / compared"].append(f"{sum(p < 0.005 for p in points)} / {len(points)}")
    if not columns:
        return "no (dataset, shot, shuffle) is in both files"
    lines = ["| | " + " | ".join(columns) + " |", "|---|" + "---|" * len(columns)]
    lines += [f"| {label} | " + " | ".join(values) + " |" for label, values in cells.items()]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("first", help="results CSV of one thread count (or machine); several: a.csv,b.csv")
    parser.add_argument("second", help="results CSV of the other (same form)")
    parser.add_argument("--system", default="ProtoParser", help="the rows' system (default ProtoParser)")
    parser.add_argument("--setting", default="", help="the rows' setting (default: none, the faithful row)")
    parser.add_argument("--shuffles", nargs="*", type=int, default=[1, 2, 3, 4, 5])
    parser.add_argument("--names", nargs=2, default=None, help="what to call the two runs (default: their threads)")
    parser.add_argument("--data-dir", default=os.environ.get("FEWSHOT_DATA_DIR", "data"))
    args = parser.parse_args()
    first = read_values(args.first, args.system, args.setting, args.shuffles)
    second = read_values(args.second, args.system, args.setting, args.shuffles)
    names = args.names or [f"{path} (threads {'/'.join(sorted({t for _, t in values.values()})) or '?'})"
                           for path, values in ((args.first, first), (args.second, second))]
    print(noise_table(first, second, names, args.data_dir))


if __name__ == "__main__":
    main()
