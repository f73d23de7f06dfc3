"""
A row with one recombination component added, read off the suite before it is run everywhere: on each
draw, the row with the component where the component changes that draw's fine-tuning data
(`component_reach.py`'s CSV), the row without it elsewhere (there both fine-tune on the same data with
the same settings and seed, so they give the same numbers). Paired with the faithful row as
`allennlp report --suite` pairs, stratified by the suite's draw groups, beside the row without the
component on the same draws. A draw the component changes where the row with it has not run is left out
of both (counted): until those are run the composite under-represents the changed draws, and the
component table's reach-weighted gain (`component_table.py`) is the better estimate of the whole suite.

    python lab/scripts/composite_row.py --with best-modifiers --without best \\
        --reach lab/results/reach/best-modifiers.csv --suite dev
"""

import argparse
import csv
import os
import sys
from typing import Dict, List, Optional, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "lab")]

from fewshot_lab.commands.suite_report import (  # noqa: E402
    COLUMNS,
    FAITHFUL,
    Runs,
    latest_runs,
    paired_difference,
    paired_text,
    suite_strata,
)

from fewshot_parser.common.results_io import read_result_rows  # noqa: E402

# (dataset, shot, draw) -> whether the component changes the draw's fine-tuning in any support sample
Reach = Dict[Tuple[str, int, int], bool]


def read_reach(path: str) -> Reach:
    changed: Reach = {}
    with open(path, newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            key = (row["dataset"], int(row["shot"]), int(row["draw"]))
            changed[key] = changed.get(key, False) or row["same"] != "1"
    return changed


def composite(with_runs: Runs, without_runs: Runs, column: Tuple[str, int], reach: Reach) -> Tuple[Runs, Runs, int]:
    """(the composite row's runs, the row without the component on the same keys, draws left out): a
    draw the reach list does not know counts as changed."""
    made: Runs = {}
    base: Runs = {}
    left_out = set()
    for (draw, sample), value in without_runs.items():
        if not reach.get((column[0], column[1], draw), True):
            made[(draw, sample)] = value
        elif (draw, sample) in with_runs:
            made[(draw, sample)] = with_runs[(draw, sample)]
        else:
            left_out.add(draw)
            continue
        base[(draw, sample)] = value
    return made, base, len(left_out)


def known_drops(rows: List[Dict[str, str]]) -> Dict[Tuple[str, str], Dict[Tuple[str, int], Runs]]:
    """`latest_runs` of the known-predicate drop (exact match on known.txt after fine-tuning − before)."""
    measured = [r for r in rows if r.get("known_pretrained") and r.get("known_finetuned")]
    return latest_runs(
        [{**r, "exact_match": str(float(r["known_finetuned"]) - float(r["known_pretrained"]))} for r in measured]
    )


def mean(runs: Runs) -> str:
    return f"{sum(runs.values()) / len(runs):+.2f}" if runs else "–"


def lines(rows: List[Dict[str, str]], with_key, without_key, reach: Reach, suite: str) -> List[str]:
    table = latest_runs(rows)
    drops = known_drops(rows)
    out = [
        "| column | draws (changed / left out) | without − faithful | composite − faithful | composite − without | "
        "known drop: without / composite |",
        "|---|---|---|---|---|---|",
    ]
    for column in COLUMNS:
        faithful = table.get(FAITHFUL, {}).get(column, {})
        without_runs = table.get(without_key, {}).get(column, {})
        if not faithful or not without_runs:
            continue
        made, base, left_out = composite(table.get(with_key, {}).get(column, {}), without_runs, column, reach)
        strata = suite_strata(suite, column[0])
        changed = len({d for d, _ in made if reach.get((column[0], column[1], d), True)})
        out.append(
            f"| {column[0]} {column[1]} | {len({d for d, _ in made})} ({changed} / {left_out}) | "
            f"{paired_text(paired_difference(base, faithful, strata))} | "
            f"{paired_text(paired_difference(made, faithful, strata))} | "
            f"{paired_text(paired_difference(made, base, strata))} | "
            f"{known(drops, with_key, without_key, column, reach)} |"
        )
    return out


def known(drops, with_key, without_key, column: Tuple[str, int], reach: Reach) -> str:
    """The mean known-predicate drop of the row without the component and of the composite, on the runs
    both have."""
    made, base, _ = composite(
        drops.get(with_key, {}).get(column, {}), drops.get(without_key, {}).get(column, {}), column, reach
    )
    return f"{mean(base)} / {mean(made)}"


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--with", dest="with_name", required=True, help="the grid row with the component")
    parser.add_argument("--without", required=True, help="the grid row without it")
    parser.add_argument("--reach", required=True, help="component_reach.py's CSV for this suite")
    parser.add_argument("--suite", default="dev")
    args = parser.parse_args(argv)
    from fewshot_lab.systems import SYSTEMS

    rows = read_result_rows(os.path.join(ROOT, "results", args.suite, "runs.csv"))
    text = lines(rows, SYSTEMS[args.with_name][:2], SYSTEMS[args.without][:2], read_reach(args.reach), args.suite)
    print(
        f"# `{args.with_name}` where it changes a draw, `{args.without}` elsewhere ({args.suite})\n\n"
        f"Generated by `python lab/scripts/composite_row.py --with {args.with_name} --without {args.without} "
        f"--reach {args.reach} --suite {args.suite}` from results/{args.suite}/runs.csv; mean ± SE over draws, "
        "paired and stratified as `allennlp report --suite`; known drop: mean over the runs both have.\n"
    )
    print("\n".join(text))


if __name__ == "__main__":
    main()
