"""
The gain of a component as two grid systems that differ only by it, on the development suite and on
the official shuffles: per dataset and shot, the mean of the paired differences (with - without,
same draw or same shuffle) with its standard error and the number of pairs. A pair counts only
where both systems have a row, so a column shows what was run.

    python lab/scripts/component_pairs.py \\
        --pair "role-checked forward pairs, in the best row=chosen-fallback-roles:chosen-fallback" \\
        --pair "recombination, in the best row=chosen-fallback-roles:chosen-fallback-norecomb" \\
        --pair "recombination, added to the faithful row=ours-recomb:ours" \\
        --out lab/results/training_components.md

Rows are read from results/dev/runs.csv (dev suite) and results/runs.csv (official shuffles 1-5);
a system's rows are those with its setting in the systems tables (experiments/systems.jsonnet, lab/systems.jsonnet).
"""
import argparse
import csv
import os
import statistics
import sys
from typing import Dict, List, Optional, Sequence, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COLUMNS = [("jobs", "1"), ("geo", "1"), ("atis", "1"), ("jobs", "2"), ("geo", "2"), ("atis", "2")]
Key = Tuple[str, str, str]  # dataset, shot, draw or shuffle


def settings(path: str) -> Dict[str, Tuple[str, str]]:
    """Grid system name -> (system, setting) of its rows."""
    with open(path, newline="") as handle:
        return {row["name"]: (row["system"], row["setting"]) for row in csv.DictReader(handle)}


def exact_matches(path: str, system: Tuple[str, str], shuffles: Optional[Sequence[str]] = None) -> Dict[Key, float]:
    """(dataset, shot, shuffle) -> exact match of one system's rows in a results file."""
    found: Dict[Key, float] = {}
    with open(path, newline="") as handle:
        for row in csv.DictReader(handle):
            if (row["system"], row["setting"]) != system or (shuffles and row["shuffle"] not in shuffles):
                continue
            found[(row["dataset"], row["shot"], row["shuffle"])] = float(row["exact_match"])
    return found


def cell(with_: Dict[Key, float], without: Dict[Key, float], dataset: str, shot: str) -> str:
    """`+m.mm ± s.ss (n=k)` over the keys both systems have in a column, or – when none."""
    changes = [with_[key] - without[key] for key in sorted(with_) if key in without and key[:2] == (dataset, shot)]
    if not changes:
        return "–"
    error = statistics.stdev(changes) / len(changes) ** 0.5 if len(changes) > 1 else float("nan")
    return f"{statistics.mean(changes):+.2f} ± {error:.2f} (n={len(changes)})"


def table(pairs: List[Tuple[str, str, str]], systems: Dict[str, Tuple[str, str]], dev: str, official: str) -> str:
    lines = []
    for suite, path, shuffles in (("dev suite", dev, None), ("official shuffles 1-5", official, ["1", "2", "3", "4", "5"])):
        lines += [f"**{suite}** (`{os.path.relpath(path, ROOT)}`): exact match with the component minus without it, points",
                  "", "| component | " + " | ".join(f"{d} {k}" for d, k in COLUMNS) + " |",
                  "|---" * (len(COLUMNS) + 1) + "|"]
        for label, with_name, without_name in pairs:
            with_ = exact_matches(path, systems[with_name], shuffles)
            without = exact_matches(path, systems[without_name], shuffles)
            cells = [cell(with_, without, d, k) for d, k in COLUMNS]
            lines.append(f"| {label} (`{with_name}` − `{without_name}`) | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def main(argv: Optional[Sequence[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pair", action="append", required=True, metavar="LABEL=WITH:WITHOUT",
                        help="a component as two grid systems, with it and without it")
    parser.add_argument("--systems", default=os.path.join(ROOT, "experiments", "systems.csv"))
    parser.add_argument("--dev", default=os.path.join(ROOT, "results", "dev", "runs.csv"))
    parser.add_argument("--official", default=os.path.join(ROOT, "results", "runs.csv"))
    parser.add_argument("--out", help="markdown file (default: print)")
    args = parser.parse_args(argv)
    systems = settings(args.systems)
    pairs = []
    for spec in args.pair:
        label, _, names = spec.rpartition("=")
        with_name, _, without_name = names.partition(":")
        for name in (with_name, without_name):
            if name not in systems:
                sys.exit(f"--pair {spec!r}: no grid system {name!r} in {args.systems}")
        pairs.append((label or with_name, with_name, without_name))
    command = "python lab/scripts/component_pairs.py " + " ".join(f'--pair "{p}"' for p in args.pair)
    for option, value in (("--dev", args.dev), ("--official", args.official)):
        if value != parser.get_default(option[2:]):
            command += f" {option} {os.path.relpath(value, ROOT)}"
    text = (f"# Components as paired differences\n\nGenerated by `{command}`.\n\n"
            + table(pairs, systems, args.dev, args.official))
    if args.out:
        with open(args.out, "w") as handle:
            handle.write(text)
    else:
        print(text)


if __name__ == "__main__":
    main()
