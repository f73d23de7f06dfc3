"""
How far a row's means move when only the random seed changes, beside the authors' code: the same
system over shuffles 1-5, once per seed (each seed's runs in its own results file, made by
`allennlp run-grid` with FEWSHOT_SEED set), the mean over the seeds, and each against the authors'
code (results/reference_runs.csv). A difference to the authors' code smaller than the seed-to-seed
change of our own mean cannot be told from the seed.

    FEWSHOT_SEED=14 FEWSHOT_PRETRAIN_DIR=runs/seed14/pretrain allennlp run-grid --systems ours \\
        --datasets jobs geo --runs-dir runs/seed14/grid --results results/seeds/runs_seed14.csv
    python benchmarks/seed_spread.py --runs 13=results/runs.csv 14=results/seeds/runs_seed14.csv
"""
import argparse
import os
import statistics
import sys
from typing import Dict, List, Tuple

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from fewshot_parser.commands.report import COLUMNS, REFERENCE, _means, reference_rows  # noqa: E402
from fewshot_parser.commands.run_grid import read_rows  # noqa: E402


def complete_means(rows: List[Dict[str, str]], key: Tuple[str, str], shuffles: List[int]) -> Dict[Tuple[str, int], float]:
    """Mean exact match per (dataset, shot) of a row key, for the columns that have every shuffle."""
    return {column: mean for column, (mean, count) in _means(rows, key, shuffles).items() if count == len(shuffles)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", nargs="+", required=True, metavar="SEED=FILE",
                        help="one results file per seed, each holding that seed's runs of the system")
    parser.add_argument("--system", default="ProtoParser")
    parser.add_argument("--setting", default="", help="the row's setting ('' is the faithful row)")
    parser.add_argument("--reference", default="results/reference_runs.csv")
    parser.add_argument("--shuffles", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    args = parser.parse_args()

    seeds: List[Tuple[str, Dict[Tuple[str, int], float]]] = []
    for spec in args.runs:
        seed, sep, path = spec.partition("=")
        if not sep or not os.path.exists(path):
            raise SystemExit(f"--runs {spec}: expected SEED=FILE with an existing file")
        try:
            seeds.append((seed, complete_means(read_rows(path), (args.system, args.setting), args.shuffles)))
        except (KeyError, ValueError) as error:
            raise SystemExit(f"{path}: not a results file ({error})")
    reference = complete_means(reference_rows(args.reference), REFERENCE, args.shuffles)
    columns = [c for c in COLUMNS if all(c in means for _, means in seeds)]
    if not columns:
        raise SystemExit("no column has the system's rows on every shuffle for every seed")

    def cells(values: Dict[Tuple[str, int], float], signed: bool = False) -> str:
        return " | ".join("–" if c not in values else (f"{values[c]:+.2f}" if signed else f"{values[c]:.2f}")
                          for c in columns)

    title = f"{args.system} ({args.setting})" if args.setting else f"{args.system} (faithful)"
    print(f"{title}, mean exact match over shuffles {', '.join(map(str, args.shuffles))}, per seed\n")
    print("| row | " + " | ".join(f"{d} {k}-shot" for d, k in columns) + " |")
    print("|---|" + "---|" * len(columns))
    mean = {c: statistics.mean(means[c] for _, means in seeds) for c in columns}
    for seed, means in seeds:
        print(f"| seed {seed} | {cells(means)} |")
    print(f"| mean of {len(seeds)} seeds | {cells(mean)} |")
    spread = {c: max(m[c] for _, m in seeds) - min(m[c] for _, m in seeds) for c in columns}
    print(f"| largest seed-to-seed change | {cells(spread)} |")
    if reference:
        print(f"| authors' code | {cells(reference)} |")
        for seed, means in seeds:
            print(f"| seed {seed} minus authors' code | "
                  f"{cells({c: means[c] - reference[c] for c in columns if c in reference}, True)} |")
        print(f"| mean of seeds minus authors' code | "
              f"{cells({c: mean[c] - reference[c] for c in columns if c in reference}, True)} |")


if __name__ == "__main__":
    main()
