"""
How far a row's means move when only the random seed changes, beside the authors' code: the same
system over shuffles 1-5, once per seed (each seed's runs in its own results file, made by
`allennlp run-grid` with FEWSHOT_SEED set), the mean over the seeds, and each against the authors'
code (results/reference_runs.csv). A difference to the authors' code smaller than the seed-to-seed
change of our own mean cannot be told from the seed.

    FEWSHOT_SEED=14 FEWSHOT_PRETRAIN_DIR=runs/seed14/pretrain allennlp run-grid --systems ours \\
        --datasets jobs geo --runs-dir runs/seed14/grid --results lab/results/seeds/runs_seed14.csv
    python lab/scripts/seed_spread.py --runs 13=results/runs.csv 14=lab/results/seeds/runs_seed14.csv

With ``--reference-seeds`` the authors' code gets the same treatment: one results file per seed of
their scripts (``benchmarks/reference_runs.py --seed N``; the scripts' own seeds are 0), their mean
over seeds, and ours against theirs with both sides averaged over seeds, per shuffle, with the 95%
interval of that difference (Student's t over the shuffles):

    python lab/scripts/seed_spread.py --runs 13=results/runs.csv 14=lab/results/seeds/runs_seed14_6df1533.csv \
        --reference-seeds 0=results/reference_runs.csv 1=results/reference_runs_seed1.csv
"""
import argparse
import os
import statistics
import sys
from typing import Dict, List, Tuple

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from fewshot_lab.commands.report import COLUMNS, REFERENCE, _means, paired_intervals, reference_rows  # noqa: E402
from fewshot_parser.commands.run_grid import read_rows  # noqa: E402


def complete_means(rows: List[Dict[str, str]], key: Tuple[str, str], shuffles: List[int]) -> Dict[Tuple[str, int], float]:
    """Mean exact match per (dataset, shot) of a row key, for the columns that have every shuffle."""
    return {column: mean for column, (mean, count) in _means(rows, key, shuffles).items() if count == len(shuffles)}


def per_shuffle_means(rows_per_seed: List[List[Dict[str, str]]], key: Tuple[str, str],
                      shuffles: List[int]) -> Dict[Tuple[str, int, int], float]:
    """(dataset, shot, shuffle) -> exact match averaged over the seeds, for the runs every seed has."""
    per_seed = [{(r["dataset"], int(r["shot"]), int(r["shuffle"])): float(r["exact_match"]) for r in rows
                 if (r["system"], r["setting"]) == key and int(r["shuffle"]) in shuffles} for rows in rows_per_seed]
    shared = set.intersection(*(set(scores) for scores in per_seed)) if per_seed else set()
    return {run: statistics.mean(scores[run] for scores in per_seed) for run in shared}


def read_seed_files(specs: List[str], option: str, reader) -> List[Tuple[str, List[Dict[str, str]]]]:
    """[(seed, rows)] from SEED=FILE specs; a clear error naming the spec when one is not usable."""
    found = []
    for spec in specs:
        seed, sep, path = spec.partition("=")
        if not sep or not os.path.exists(path):
            raise SystemExit(f"{option} {spec}: expected SEED=FILE with an existing file")
        try:
            found.append((seed, reader(path)))
        except (KeyError, ValueError) as error:
            raise SystemExit(f"{path}: not a results file ({error})")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", nargs="+", required=True, metavar="SEED=FILE",
                        help="one results file per seed, each holding that seed's runs of the system")
    parser.add_argument("--system", default="ProtoParser")
    parser.add_argument("--setting", default="", help="the row's setting ('' is the faithful row)")
    parser.add_argument("--reference", default="results/reference_runs.csv")
    parser.add_argument("--reference-seeds", nargs="+", default=[], metavar="SEED=FILE",
                        help="the authors' code once per seed (benchmarks/reference_runs.py --seed); replaces --reference")
    parser.add_argument("--shuffles", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    args = parser.parse_args()

    key = (args.system, args.setting)
    ours_rows = read_seed_files(args.runs, "--runs", read_rows)
    seeds = [(seed, complete_means(rows, key, args.shuffles)) for seed, rows in ours_rows]
    theirs_rows = read_seed_files(args.reference_seeds, "--reference-seeds", reference_rows)
    theirs = [(seed, complete_means(rows, REFERENCE, args.shuffles)) for seed, rows in theirs_rows]
    if theirs:
        shared_columns = [c for c in COLUMNS if all(c in means for _, means in theirs)]
        reference = {c: statistics.mean(means[c] for _, means in theirs) for c in shared_columns}
    else:
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
    for seed, means in theirs:
        print(f"| authors' code, seed {seed} | {cells(means)} |")
    if len(theirs) > 1:
        print(f"| authors' code, largest seed-to-seed change | "
              f"{cells({c: max(m[c] for _, m in theirs) - min(m[c] for _, m in theirs) for c in reference})} |")
    if reference:
        label = f"authors' code, mean of {len(theirs)} seeds" if theirs else "authors' code"
        print(f"| {label} | {cells(reference)} |")
        for seed, means in seeds:
            print(f"| seed {seed} minus authors' code | "
                  f"{cells({c: means[c] - reference[c] for c in columns if c in reference}, True)} |")
        print(f"| mean of seeds minus authors' code | "
              f"{cells({c: mean[c] - reference[c] for c in columns if c in reference}, True)} |")
    if theirs:
        intervals = paired_intervals(per_shuffle_means([rows for _, rows in ours_rows], key, args.shuffles),
                                     per_shuffle_means([rows for _, rows in theirs_rows], REFERENCE, args.shuffles))
        print("| 95% interval of that difference (both averaged over seeds, paired over shuffles, t) | "
              + " | ".join("–" if c not in intervals else f"{intervals[c][0]:+.1f} to {intervals[c][1]:+.1f}"
                           for c in columns) + " |")


if __name__ == "__main__":
    main()
