"""
Components measured on the development suites with support samples: for each comparison (a grid row
against the row it adds a component to or removes one from), the paired difference per column with
its cluster standard error (`suite_report.paired_difference`: differences averaged within each draw,
mean ± SE over draws), in each suite (stratum), from the runs of the given code versions only.

    python lab/scripts/suite_components.py --since 62ec330 \\
        --out lab/results/suite_components.md

A cell reads `mean ± SE* (draws/pairs)`, `*` where |mean| >= 2 SE; `–` where either row has no run.
"""

import argparse
import os
import sys
from typing import List, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "lab")]

from fewshot_lab.code_versions import rows_since  # noqa: E402
from fewshot_lab.commands.suite_report import COLUMNS, latest_runs, paired_difference, paired_text  # noqa: E402
from fewshot_lab.systems import SYSTEMS  # noqa: E402

from fewshot_parser.common.results_io import read_result_rows  # noqa: E402
from fewshot_parser.common.safe_io import atomic_open  # noqa: E402

# (what is compared, row with, row without)
COMPARISONS: List[Tuple[str, str, str]] = [
    ("best row against the faithful row", "chosen-fallback-roles", "ours"),
    ("40 reshaped pairs added to the best row", "best-reshaped40", "chosen-fallback-roles"),
    (
        "reshaped pairs with adjectives and subtree pairs added to the best row",
        "best-adjectives-subtrees",
        "chosen-fallback-roles",
    ),
    ("untyped entity slots in the best row", "best-untyped", "chosen-fallback-roles"),
    ("40 reshaped pairs added to the untyped best row", "best-untyped-reshaped40", "best-untyped"),
    (
        "untyped entity slots and 40 reshaped pairs in the best row",
        "best-untyped-reshaped40",
        "chosen-fallback-roles",
    ),
    ("best row with untyped slots and reshaped pairs against the faithful row", "best-untyped-reshaped40", "ours"),
    (
        "superlatives in the reshaped pairs of the untyped best row",
        "best-untyped-superlatives40",
        "best-untyped-reshaped40",
    ),
    (
        "the support's entity kinds and directions in the reshaped pairs of the untyped best row with superlatives",
        "best-untyped-kinds40",
        "best-untyped-superlatives40",
    ),
    (
        "untyped slots, superlative pairs with the support's entity kinds, against the faithful row",
        "best-untyped-kinds40",
        "ours",
    ),
    (
        "reshaped pairs of relations dropped from the untyped best row with superlatives and kinds",
        "best-untyped-unary40",
        "best-untyped-kinds40",
    ),
    (
        "untyped slots, superlative pairs of measures and types, against the faithful row",
        "best-untyped-unary40",
        "ours",
    ),
    (
        "untyped slots, superlative pairs of measures and types, against the best row",
        "best-untyped-unary40",
        "chosen-fallback-roles",
    ),
    (
        "superlative pairs of measures and types in the best row (typed slots)",
        "best-unary40",
        "chosen-fallback-roles",
    ),
    ("best row with superlative pairs of measures and types against the faithful row", "best-unary40", "ours"),
    (
        "untyped entity slots for new predicates only, in the best row with superlative pairs of measures",
        "best-unary40-untypednew",
        "best-unary40",
    ),
    (
        "entity slots typed by class, in the best row with superlative pairs of measures",
        "best-no-modifiers",
        "best-unary40",
    ),
    (
        "superlative pairs of measures and slots typed by class against the best row",
        "best-no-modifiers",
        "chosen-fallback-roles",
    ),
    (
        "best row with superlative pairs and slots typed by class against the faithful row",
        "best-no-modifiers",
        "ours",
    ),
    (
        "best row with superlative pairs and untyped new-predicate slots against the faithful row",
        "best-unary40-untypednew",
        "ours",
    ),
    (
        "superlatives in the forward pairs of the untyped best row with superlative pairs",
        "best-untyped-superlatives40-fwd",
        "best-untyped-superlatives40",
    ),
    (
        "untyped entity slots and 40 reshaped pairs with superlatives in the best row",
        "best-untyped-superlatives40",
        "chosen-fallback-roles",
    ),
    (
        "best row with untyped slots and superlative pairs against the faithful row",
        "best-untyped-superlatives40",
        "ours",
    ),
    ("recombination added to the faithful row", "ours-recomb", "ours"),
    ("40 reshaped pairs added to the faithful row with recombination", "ours-reshaped40", "ours-recomb"),
    (
        "40 reshaped pairs with superlatives added to the faithful row with recombination",
        "ours-superlatives40",
        "ours-recomb",
    ),
    ("recombination and superlative pairs added to the faithful row", "ours-superlatives40", "ours"),
    ("faithful row pre-trained 20 epochs instead of 100", "ours-pre20", "ours"),
    ("faithful row pre-trained 40 epochs instead of 100", "ours-pre40", "ours"),
    ("best row pre-trained 20 epochs instead of 100", "best-pre20", "chosen-fallback-roles"),
    ("best row pre-trained 40 epochs instead of 100", "best-pre40", "chosen-fallback-roles"),
]
SUITES = ("dev", "dev-frequent")


def lines_for(suite: str, since: str) -> List[str]:
    path = os.path.join(ROOT, "results", suite, "runs.csv")
    if not os.path.isfile(path):
        return []
    rows = rows_since(read_result_rows(path), since, ROOT)
    runs = latest_runs(rows)
    lines = [
        f"## Suite `{suite}`",
        "",
        "| comparison | " + " | ".join(f"{d} {k}" for d, k in COLUMNS) + " |",
        "|---" * (len(COLUMNS) + 1) + "|",
    ]
    for label, with_row, without_row in COMPARISONS:
        first, second = runs.get(SYSTEMS[with_row][:2], {}), runs.get(SYSTEMS[without_row][:2], {})
        if not first or not second:
            continue
        cells = [paired_text(paired_difference(first.get(c, {}), second.get(c, {}))) for c in COLUMNS]
        if all(cell == "–" for cell in cells):
            continue
        lines.append(f"| {label} (`{with_row}` − `{without_row}`) | " + " | ".join(cells) + " |")
    return lines + [""]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--since", required=True, help="count the runs of this commit and later ones only")
    parser.add_argument("--out", default="lab/results/suite_components.md")
    args = parser.parse_args()
    lines = [
        "# Components on the development suites, paired by draw and support sample",
        "",
        f"Generated by `python lab/scripts/suite_components.py --since {args.since} "
        f"--out {args.out}`. Exact-match points, row with − row without the component, over the runs both have: "
        "mean ± standard error over draws (a draw's samples averaged first); (draws/pairs); `*`: |mean| ≥ 2 SE.",
        "",
    ]
    for suite in SUITES:
        lines += lines_for(suite, args.since)
    text = "\n".join(lines)
    with atomic_open(os.path.join(ROOT, args.out)) as handle:
        handle.write(text)
    print(text)


if __name__ == "__main__":
    main()
