"""
`allennlp report`: Table 1 / Table 2 layouts from `results/runs.csv`, with the paper's numbers
beside ours and Wilcoxon signed-rank p-values of our parser against every other row.

Writes `results/table1.md`, `results/table1.csv`, `results/table2.md` (ablations),
`results/paper_gap.md` (our mean minus the paper's per row and column, and the runs still missing),
`results/cost.md` and `results/runs.json` (per-split numbers).
"""

import argparse
import csv
import glob
import json
import os
import statistics
from collections import defaultdict
from typing import Any, Dict, List, Optional, Sequence, Tuple

from allennlp.commands.subcommand import Subcommand

from fewshot_lab.commands.figures import bar_chart, panel_chart, tsne_figure
from fewshot_parser.commands.paper_results import paper_numbers
from fewshot_lab.systems import SYSTEMS
from fewshot_parser.commands.run_grid import read_rows
from fewshot_lab.staleness import stale_reason
from fewshot_lab.commands.suite_report import retention, stale_draw_cells, suite_lines, write_suite_report
from fewshot_parser.common.errors import UserError
from fewshot_parser.common.results_io import read_result_rows, require_rows
from fewshot_parser.common.safe_io import atomic_open
from fewshot_parser.data.paths import resolve_data_path

COLUMNS: List[Tuple[str, int]] = [("jobs", 1), ("geo", 1), ("atis", 1), ("jobs", 2), ("geo", 2), ("atis", 2)]
OURS = ("ProtoParser", "")
ABLATIONS = ("-sup", "-proto", "-reg", "-strsim", "-cond", "-smooth")
# The authors' code run here (benchmarks/reference_runs.py -> results/reference_runs.csv).
REFERENCE = ("ProtoParser (authors' code, GloVe 50d)", "")
# Settings of our faithful row with one behaviour of ours instead of the authors' (these run-grid
# systems, probe rows of lab/systems.jsonnet: `typed`, `no-glorot`, `applicable-only`, ...).
SWITCH_ROWS = (
    "typed no-ft-decay no-glorot applicable-only stack-decoder name-strsim predicate-dropout random-meta step-loss "
    "presence-counts eval-prototypes label-candidates copy-entities our-decoder-details own-entity-readout "
    "restarting-walk our-slot-states authors-literals"
).split()
FAITHFUL_SWITCHES = tuple(
    setting for name, (system, setting, _) in SYSTEMS.items() if system == OURS[0] and name in SWITCH_ROWS
)
STALE_MARK = "†"


@Subcommand.register("report")
class Report(Subcommand):
    """Write the results tables (markdown, CSV, JSON) from results/runs.csv."""

    def add_subparser(self, parser: argparse._SubParsersAction) -> argparse.ArgumentParser:
        description = "Tables 1 and 2 from results/runs.csv, with the paper's numbers and Wilcoxon p-values."
        sub = parser.add_parser(self.name, description=description, help=description)
        sub.add_argument(
            "--results",
            nargs="+",
            default=None,
            help="one or more runs.csv files (default: every results/runs*.csv, e.g. runs.csv and the "
            "rows of grid slices run on other machines)",
        )
        sub.add_argument(
            "--reference",
            default="results/reference_runs.csv",
            help="rows of the authors' code run on the same splits (benchmarks/reference_runs.py); "
            'shown as the row "ProtoParser (authors\' code, GloVe 50d)" when the file exists',
        )
        sub.add_argument("--out", default=None, help="default results (results/<suite> with --suite)")
        sub.add_argument(
            "--suite",
            metavar="NAME",
            default=None,
            help="the table of a suite of make-splits draws, e.g. dev (default file results/<NAME>/runs.csv, "
            "default --out results/<NAME>): mean ± standard error over its draws, and retention on known.txt",
        )
        sub.add_argument(
            "--readme",
            default=None,
            help="a Markdown file whose at-a-glance block (between the report's markers) is replaced "
            "by the generated table (nothing happens without the markers). Default: README.md "
            "when the report is Table 1 itself (--out results, shuffles 1-5); a report of other "
            "shuffles or into another directory leaves README alone",
        )
        sub.add_argument(
            "--shuffles",
            nargs="+",
            type=int,
            default=[1, 2, 3, 4, 5],
            help="shuffles to report (default 1-5; 0 is the tuning split)",
        )
        sub.add_argument(
            "--full-figure", action="store_true", help="also draw table1_full.png, a bar for every row of Table 1"
        )
        sub.add_argument("--no-figures", action="store_true", help="tables only (no matplotlib / scikit-learn)")
        sub.add_argument(
            "--figure1",
            nargs=2,
            metavar=("DATASET", "SHOT"),
            default=["geo", "1"],
            help="dataset and shot of the t-SNE figure (default: geo 1)",
        )
        sub.add_argument(
            "--pretrain-dir",
            default=os.environ.get("FEWSHOT_PRETRAIN_DIR", "runs/pretrain"),
            help="where the pre-trained archives are (for the t-SNE figure)",
        )
        sub.set_defaults(func=report_from_args)
        return sub


def default_results(directory: str = "results") -> List[str]:
    """Every `runs*.csv` in the results directory: this machine's file first, then other machines' slices."""
    found = sorted(glob.glob(os.path.join(directory, "runs*.csv")))
    main = os.path.join(directory, "runs.csv")
    others = [path for path in found if path != main]
    return [main] + others if main in found or not others else others


def default_readme(out: str, shuffles: Sequence[int]) -> Optional[str]:
    """README.md when a report is the one README's at-a-glance block shows (shuffles 1-5 into results/), else None."""
    if os.path.normpath(out) == "results" and sorted(shuffles) == [1, 2, 3, 4, 5]:
        return "README.md"
    return None


def report_from_args(args: argparse.Namespace) -> None:
    if getattr(args, "suite", None):
        files = args.results or [os.path.join("results", args.suite, "runs.csv")]
        print(write_suite_report(files, args.out or os.path.join("results", args.suite), args.suite))
        return
    args.out = args.out or "results"
    args.results = args.results or default_results()
    readme = args.readme if args.readme is not None else default_readme(args.out, args.shuffles)
    print(write_report(args.results, args.out, args.shuffles, reference=args.reference, readme=readme))
    if not args.no_figures:
        print(
            write_figures(
                args.results,
                args.out,
                args.figure1[0],
                int(args.figure1[1]),
                args.pretrain_dir,
                reference=args.reference,
                full=args.full_figure,
            )
        )


def collect(rows: List[Dict[str, str]]) -> Dict[Tuple[str, str], Dict[Tuple[str, int, int], float]]:
    """(system, setting) -> (dataset, shot, shuffle) -> exact match."""
    table: Dict[Tuple[str, str], Dict[Tuple[str, int, int], float]] = defaultdict(dict)
    for row in rows:
        key = (row["system"], row["setting"])
        table[key][(row["dataset"], int(row["shot"]), int(row["shuffle"]))] = float(row["exact_match"])
    return table


def wilcoxon_p(ours: Dict, other: Dict) -> Optional[float]:
    """Two-sided Wilcoxon signed-rank test over the evaluation sets both have (None if under 2)."""
    from scipy.stats import wilcoxon

    shared = sorted(set(ours) & set(other))
    differences = [ours[k] - other[k] for k in shared]
    if len(shared) < 2 or all(d == 0 for d in differences):
        return None
    return float(wilcoxon([ours[k] for k in shared], [other[k] for k in shared]).pvalue)


def cell(scores: Dict[Tuple[str, int, int], float], dataset: str, shot: int) -> Optional[Tuple[float, float, int]]:
    values = [v for (d, k, s), v in scores.items() if d == dataset and k == shot]
    if not values:
        return None
    return statistics.mean(values), statistics.pstdev(values), len(values)


def _label(key: Tuple[str, str]) -> str:
    system, setting = key
    return system + (f" ({setting})" if setting and not setting.startswith("-") else (f" {setting}" if setting else ""))


def reference_rows(path: Optional[str]) -> List[Dict[str, str]]:
    """The authors'-code rows of `path` in the results layout (none when there is no such file)."""
    if not path or not os.path.isfile(path):
        return []
    return [{**row, "system": REFERENCE[0], "setting": REFERENCE[1]} for row in read_rows(path)]


def current_rows(rows: List[Dict[str, str]]) -> List[Dict[str, str]]:
    """
    `rows` (of several results files, in order) less each stale row that a fresh row of the same run
    (system, setting, dataset, shot, shuffle) supersedes: a rerun recorded in one file replaces the
    stale row another file keeps. Where every row of a run is stale, all are kept (the last one counts).
    """

    def run(row: Dict[str, str]) -> Tuple[str, str, str, int, int]:
        return row["system"], row["setting"], row["dataset"], int(row["shot"]), int(row["shuffle"])

    counts: Dict[Tuple[str, str, str, int, int], int] = defaultdict(int)
    for row in rows:
        counts[run(row)] += 1
    fresh = {id(row): stale_reason(row, SYSTEMS) is None for row in rows if counts[run(row)] > 1}
    renewed = {run(row) for row in rows if fresh.get(id(row))}
    return [row for row in rows if run(row) not in renewed or fresh[id(row)]]


def stale_cells(rows: List[Dict[str, str]]) -> Dict[Tuple[str, str, str, int], str]:
    """`(system, setting, dataset, shot)` -> why, for every cell with a stale row (`staleness.stale_reason`)."""
    stale: Dict[Tuple[str, str, str, int], str] = {}
    for row in rows:
        reason = stale_reason(row, SYSTEMS)
        if reason:
            stale.setdefault((row["system"], row["setting"], row["dataset"], int(row["shot"])), reason)
    return stale


def training_retention(
    rows: List[Dict[str, str]], shuffles: Sequence[int]
) -> Dict[Tuple[str, str], Tuple[float, float, float, int]]:
    """Per row key: retention on training examples (`known_*` of the official rows over `shuffles`):
    (before, after, after - before, runs), for the keys whose runs measured it."""
    runs: Dict[Tuple[str, str], List[Dict[str, str]]] = defaultdict(list)
    for row in rows:
        if int(row["shuffle"]) in set(shuffles):
            runs[(row["system"], row["setting"])].append(row)
    kept = {key: retention(values) for key, values in runs.items()}
    return {key: value for key, value in kept.items() if value is not None}


def table_lines(
    keys,
    table,
    paper,
    expected: int = 5,
    stale=None,
    kept: Optional[Dict[Tuple[str, str], Tuple[float, float, float, int]]] = None,
) -> Tuple[List[str], List[List[str]]]:
    header = (
        "| system | "
        + " | ".join(f"{d} {k}-shot" for d, k in COLUMNS)
        + " | p-value | training examples: before → after |"
    )
    lines = [header, "|" + "---|" * (len(COLUMNS) + 3)]
    csv_rows = [
        ["system", "setting"]
        + [f"{d}_{k}shot" for d, k in COLUMNS]
        + [f"paper_{d}_{k}shot" for d, k in COLUMNS]
        + ["p_value", "known_pretrained", "known_finetuned"]
    ]
    ours = table.get(OURS, {})
    for key in keys:
        scores = table.get(key, {})
        published = paper.get(key, {})
        cells, ours_csv, paper_csv = [], [], []
        for dataset, shot in COLUMNS:
            value = cell(scores, dataset, shot)
            reference = published.get(f"{dataset}_{shot}shot")
            text = (
                "–"
                if value is None
                else f"{value[0]:.2f} ± {value[1]:.1f}" + ("" if value[2] == expected else f" (n={value[2]})")
            )
            if value is not None and stale and (key[0], key[1], dataset, shot) in stale:
                text += f" {STALE_MARK}"
            if reference is not None:
                text += f" [{reference:.2f}]"
            cells.append(text)
            ours_csv.append("" if value is None else f"{value[0]:.2f}")
            paper_csv.append("" if reference is None else f"{reference:.2f}")
        p_value = None if key == OURS else wilcoxon_p(ours, scores)
        measured = (kept or {}).get(key)
        retained = (
            "–" if measured is None else f"{measured[0]:.1f} → {measured[1]:.1f} ({measured[2]:+.1f}, n={measured[3]})"
        )
        lines.append(
            f"| {_label(key)} | "
            + " | ".join(cells)
            + f" | {'' if p_value is None else f'{p_value:.2e}'} | {retained} |"
        )
        csv_rows.append(
            [key[0], key[1]]
            + ours_csv
            + paper_csv
            + ["" if p_value is None else f"{p_value:.3e}"]
            + (["", ""] if measured is None else [f"{measured[0]:.2f}", f"{measured[1]:.2f}"])
        )
    return lines, csv_rows


def direction_lines(ablation_keys, table, paper) -> List[str]:
    """
    For each ablation and column: whether removing the part moves our mean the way it moves the
    paper's ("agrees"), the other way ("disagrees"), or cannot be said (a mean missing: "–").
    """
    ours, published_full = table.get(OURS, {}), paper.get(OURS, {})
    lines = [
        "| ablation | " + " | ".join(f"{d} {k}-shot" for d, k in COLUMNS) + " | agrees |",
        "|" + "---|" * (len(COLUMNS) + 2),
    ]
    for key in ablation_keys:
        cells, agree, known = [], 0, 0
        for dataset, shot in COLUMNS:
            full, removed = cell(ours, dataset, shot), cell(table.get(key, {}), dataset, shot)
            paper_full, paper_removed = (
                published_full.get(f"{dataset}_{shot}shot"),
                paper.get(key, {}).get(f"{dataset}_{shot}shot"),
            )
            if full is None or removed is None or paper_full is None or paper_removed is None:
                cells.append("–")
                continue
            ours_delta, paper_delta = removed[0] - full[0], paper_removed - paper_full
            same = (ours_delta > 0) == (paper_delta > 0)
            known, agree = known + 1, agree + same
            cells.append(f"{'agrees' if same else 'disagrees'} ({ours_delta:+.2f} / {paper_delta:+.2f})")
        lines.append(f"| {_label(key)} | " + " | ".join(cells) + f" | {agree} of {known} |")
    return lines


def write_report(
    results,
    out: str,
    shuffles: Sequence[int] = (1, 2, 3, 4, 5),
    reference: Optional[str] = None,
    readme: Optional[str] = None,
) -> str:
    files = [results] if isinstance(results, str) else list(results)
    if os.path.exists(out) and not os.path.isdir(out):
        raise UserError(f"{out}: --out is the directory the tables go to, and this is a file; nothing was written")
    every_row = current_rows([row for path in files for row in read_result_rows(path)])  # checked: file:line errors
    reference_every = reference_rows(reference)
    rows = [row for row in every_row + reference_every if int(row["shuffle"]) in set(shuffles)]
    stale = stale_cells([row for row in every_row if int(row["shuffle"]) in set(shuffles)])
    span = f"shuffles {min(shuffles)}-{max(shuffles)}" if len(shuffles) > 1 else f"shuffle {shuffles[0]}"
    require_rows([row for row in every_row if int(row["shuffle"]) in set(shuffles)], files, span)
    results = " ".join(files)
    table = collect(rows)
    paper = paper_numbers()
    os.makedirs(out, exist_ok=True)
    ablation_keys = [("ProtoParser", a) for a in ABLATIONS]
    main_keys = [k for k in paper if k[1] not in ABLATIONS] + [k for k in table if k not in paper]
    if REFERENCE in main_keys:  # right under the paper's ProtoParser row and ours
        main_keys.remove(REFERENCE)
        main_keys.insert(main_keys.index(OURS) + 1 if OURS in main_keys else 0, REFERENCE)
    written = []
    for name, keys, title in (
        ("table1", main_keys, "Table 1"),
        ("table2", [OURS] + ablation_keys, "Table 2 (ablations)"),
    ):
        lines, csv_rows = table_lines(
            keys, table, paper, len(set(shuffles)), stale, training_retention(every_row, shuffles)
        )
        with atomic_open(os.path.join(out, f"{name}.md"), "w") as handle:
            handle.write(
                f"# {title}: exact match (%), mean ± std over {span} [paper's number, shuffles 1-5]\n\n"
                f"Generated by `allennlp report --results {results}"
                + ("" if list(shuffles) == [1, 2, 3, 4, 5] else f" --shuffles {' '.join(map(str, shuffles))}")
                + f" --out {out}` from the rows of those files; "
                "p-value: two-sided Wilcoxon signed-rank test of ProtoParser (ours) against the row, "
                "over all evaluation sets both have. "
                f"{STALE_MARK}: the cell has a row the current code would not reproduce (no provenance, another "
                "config, or changed code; `allennlp run-grid --redo-stale` reruns them; paper_gap.md lists them). "
                "Training examples: retention, exact match on a seeded sample of at most 500 examples of each "
                "split's train.txt with the pre-trained archive and after fine-tuning (drop, runs); rows recorded "
                "before `run-grid` measured it have –."
                "\n\n"
                + "\n".join(lines)
                + "\n"
                + (
                    ""
                    if name != "table2"
                    else "\n## Direction: does removing the part move our mean the way it moves the paper's?\n\n"
                    "Cell: agrees / disagrees (ours: ablation minus ProtoParser / the paper's: the same "
                    "difference).\n\n" + "\n".join(direction_lines(ablation_keys, table, paper)) + "\n"
                )
            )
        with atomic_open(os.path.join(out, f"{name}.csv"), "w", newline="") as handle:
            csv.writer(handle).writerows(csv_rows)
        written += [f"{name}.md", f"{name}.csv"]
    with atomic_open(os.path.join(out, "paper_gap.md"), "w") as handle:
        variants = [k for k in main_keys if k not in paper and k[0] == OURS[0]]
        handle.write(
            gap_table(
                [k for k in main_keys + ablation_keys if k in paper], table, paper, shuffles, files, out, variants
            )
        )
        reproduction = reproduction_section(every_row + reference_every, paper, reference, stale)
        handle.write(reproduction)
        handle.write(stale_section(stale))
    written.append("paper_gap.md")
    with atomic_open(os.path.join(out, "cost.md"), "w") as handle:
        handle.write(cost_table(files, shuffles, out))
    written.append("cost.md")
    with atomic_open(os.path.join(out, "runs.json"), "w") as handle:
        json.dump(
            {
                f"{s}|{st}": {f"{d}_{k}shot_s{sh}": v for (d, k, sh), v in sorted(scores.items())}
                for (s, st), scores in table.items()
            },
            handle,
            indent=1,
        )
    written.append("runs.json")
    suite = os.path.join(out, "dev", "runs.csv")
    glance = at_a_glance(
        table, paper, stale, shuffles, read_result_rows(suite) if os.path.isfile(suite) else None, every_row
    )
    with atomic_open(os.path.join(out, "at_a_glance.md"), "w") as handle:
        handle.write(glance)
    written.append("at_a_glance.md")
    updated = [readme] if readme and update_readme(readme, glance) else []
    # The side-by-side of the paper, the authors' code and ours is what most readers come for: print it.
    summary = reproduction.split("\nThe same rows over shuffles 0-4")[0].split("\n\n", 2)[-1]
    return summary + f"\nwrote {', '.join([os.path.join(out, w) for w in written] + updated)}"


GLANCE_START, GLANCE_END = "<!-- at-a-glance: generated by allennlp report -->", "<!-- end of at-a-glance -->"


def is_variant(key: Tuple[str, str]) -> bool:
    """A ProtoParser row beyond the faithful one (not the authors' code, not an ablation)."""
    return key[0] == OURS[0] and key not in (OURS, REFERENCE) and key[1] not in ABLATIONS


def best_of(table, keys: Sequence[Tuple[str, str]], shuffles: Sequence[int]) -> Optional[Tuple[str, str]]:
    """
    The best of `keys`: most columns complete over `shuffles`, then the highest mean over those
    columns (a row with every column beats a better partial one); None when `keys` is empty.
    """
    wanted = set(shuffles)

    def rank(key):
        complete = []
        for dataset, shot in COLUMNS:
            values = [v for (d, k, s), v in table.get(key, {}).items() if (d, k) == (dataset, shot) and s in wanted]
            if len(values) == len(wanted):
                complete.append(sum(values) / len(values))
        return (len(complete), sum(complete) / len(complete) if complete else -1.0)

    return max(keys, key=rank) if keys else None


def headline_best_key() -> Optional[Tuple[str, str]]:
    """
    The (system, setting) row of the project's best row, `recipes.HEADLINE_SYSTEMS[1]` (None without the grid
    table).
    """
    from fewshot_lab.recipes import HEADLINE_SYSTEMS
    from fewshot_lab.systems import TABLES
    from fewshot_parser.commands.systems import read_systems

    systems = read_systems(TABLES)
    name = HEADLINE_SYSTEMS[1]
    return (systems[name][0], systems[name][1]) if name in systems else None


def best_row_key(table, shuffles: Sequence[int]) -> Optional[Tuple[str, str]]:
    """
    The best row README and the figure show: the one the project names (`headline_best_key`), not the
    variant with the highest official mean (picking by the official queries would fit the row to the
    queries it is measured on); that variant only when the named row has no results.
    """
    headline = headline_best_key()
    return headline if headline in table else best_of(table, [k for k in table if is_variant(k)], shuffles)


def at_a_glance(
    table,
    paper,
    stale,
    shuffles: Sequence[int] = (1, 2, 3, 4, 5),
    suite_rows: Optional[List[Dict[str, str]]] = None,
    official_rows: Optional[List[Dict[str, str]]] = None,
) -> str:
    """
    Markdown table of the rows README shows: the paper's ProtoParser, the authors' code run here, our
    faithful row, our best variant and the best baseline (highest mean over the columns it has
    complete), means over `shuffles`, stale cells marked, and from `official_rows` each row's
    retention on training examples (the official splits have no held-out known set); with
    `suite_rows` (the development suite's results), a second table of the faithful and the best row
    there, with their retention on held-out known examples.
    """

    def kept_on_training(key) -> str:
        runs = [
            r
            for r in official_rows or []
            if key is not None and (r["system"], r["setting"]) == key and int(r["shuffle"]) in set(shuffles)
        ]
        kept = retention(runs)
        return "–" if kept is None else f"{kept[0]:.1f} → {kept[1]:.1f} ({kept[2]:+.1f}, n={kept[3]})"

    def means(key):
        return [cell(table.get(key, {}), d, k) for d, k in COLUMNS]

    variant = best_row_key(table, shuffles)
    baseline = best_of(table, [k for k in table if k[0] != OURS[0] and k != REFERENCE], shuffles)
    rows: List[Tuple[str, Optional[Tuple[str, str]], List[Any]]] = [
        ("paper's ProtoParser", None, [paper.get(OURS, {}).get(f"{d}_{k}shot") for d, k in COLUMNS])
    ]
    for label, key in (
        ("authors' code here (GloVe 50-d)", REFERENCE),
        ("ours, faithful (`--systems ours`)", OURS),
        ("ours, best: " + (variant[1] if variant else "–"), variant),
        ("best baseline: " + (_label(baseline) if baseline else "–"), baseline),
    ):
        if key is not None and key in table:
            rows.append((label, key, [None if c is None else c[0] for c in means(key)]))
    lines = [
        GLANCE_START,
        "",
        "| row | " + " | ".join(f"{d} {k}" for d, k in COLUMNS) + " | training examples: before → after |",
        "|---" * (len(COLUMNS) + 2) + "|",
    ]
    for label, key, values in rows:
        cells = []
        for (dataset, shot), value in zip(COLUMNS, values):
            text = "–" if value is None else f"{value:.2f}"
            counted = None if key is None else cell(table.get(key, {}), dataset, shot)
            if counted is not None and counted[2] != len(set(shuffles)):
                text += f" (n={counted[2]})"
            if key is not None and value is not None and (key[0], key[1], dataset, shot) in stale:
                text += f" {STALE_MARK}"
            cells.append(text)
        lines.append(f"| {label} | " + " | ".join(cells) + f" | {'–' if key is None else kept_on_training(key)} |")
    lines += [
        "",
        f"{STALE_MARK}: not reproduced by the current code (`allennlp report` lists why in "
        "results/paper_gap.md). Training examples: retention on the official splits, exact match on a "
        "seeded sample of at most 500 examples of the split's train.txt (seen in pre-training, so the "
        "most favourable case) with the pre-trained archive and after fine-tuning (drop, runs); "
        "measured by `allennlp run-grid` for the rows made since it measures retention; older rows have none.",
    ]
    if suite_rows:
        labels = {OURS: "ours, faithful", **({variant: "ours, best"} if variant else {})}
        lines += [
            "",
            "On the development suite (other predicates made new, drawn from train.txt alone; mean ± standard "
            "error over draws, stratified by new predicates per draw; `allennlp run-grid --suite dev`, table in "
            "results/dev/table.md, which lists why a "
            f"cell is marked {STALE_MARK}), with retention: "
            "exact match on held-out examples of known predicates before and after fine-tuning:",
            "",
        ]
        keys = [OURS] + ([variant] if variant else [])
        shown = [row for row in suite_rows if (row["system"], row["setting"]) in keys]
        lines += suite_lines(
            shown,
            keys,
            labels,
            stale_draw_cells(shown, os.path.join(os.environ.get("FEWSHOT_DATA_DIR", "data"), "dev")),
            suite="dev",
        )
    lines += ["", GLANCE_END]
    return "\n".join(lines) + "\n"


def update_readme(path: str, glance: str) -> bool:
    """Replaces the at-a-glance block of `path` (between its markers); False when the file has none."""
    if not os.path.isfile(path):
        return False
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    if GLANCE_START not in text or GLANCE_END not in text:
        return False
    start, end = text.index(GLANCE_START), text.index(GLANCE_END) + len(GLANCE_END) + 1
    with atomic_open(path, "w") as handle:
        handle.write(text[:start] + glance + text[end:])
    return True


def _means(
    rows: List[Dict[str, str]], key: Tuple[str, str], shuffles: Sequence[int]
) -> Dict[Tuple[str, int], Tuple[float, int]]:
    """(dataset, shot) -> (mean exact match, number of shuffles) of one row key over `shuffles`."""
    values: Dict[Tuple[str, int], List[float]] = defaultdict(list)
    for row in rows:
        if (row["system"], row["setting"]) == key and int(row["shuffle"]) in set(shuffles):
            values[(row["dataset"], int(row["shot"]))].append(float(row["exact_match"]))
    return {column: (statistics.mean(v), len(v)) for column, v in values.items()}


def reproduction_section(
    rows: List[Dict[str, str]],
    paper,
    reference: Optional[str],
    stale: Optional[Dict[Tuple[str, str, str, int], str]] = None,
) -> str:
    """
    Markdown: the paper's ProtoParser, the authors' code run here and our faithful row, per column,
    with ours minus the authors' code and the Wilcoxon p-value of ours against it over the evaluation
    sets both have; then the same means over shuffles 0-4 (the authors' README fine-tunes on 0-4;
    we tune on 0), for comparison only.
    """
    header = ["| row | " + " | ".join(f"{d} {k}-shot" for d, k in COLUMNS) + " |", "|" + "---|" * (len(COLUMNS) + 1)]
    lines = [
        "\n## Reproduction: the paper, the authors' code and ours\n",
        f"The authors' code (`python benchmarks/reference_runs.py`, rows in `{reference}`) runs with the glove.6B "
        "50-d vectors and its own full schedules on the same splits; ours is the faithful configuration "
        "(`allennlp run-grid --systems ours`). Cells: mean exact match over shuffles 1-5 (n = shuffles when "
        "fewer). p: two-sided Wilcoxon signed-rank test of ours against the authors' code over the "
        "evaluation sets (column, shuffle) both have. docs/reproduction.md explains each difference.\n",
        *header,
    ]

    def line(label: str, means, key: Optional[Tuple[str, str]] = None) -> str:
        """A row of means; with `key`, cells holding a stale row of that system are marked."""
        cells = []
        for column in COLUMNS:
            if column not in means:
                cells.append("–")
            else:
                mean, n = means[column]
                mark = f" {STALE_MARK}" if key is not None and (*key, *column) in (stale or {}) else ""
                cells.append(f"{mean:.2f}" + ("" if n == 5 else f" (n={n})") + mark)
        return f"| {label} | " + " | ".join(cells) + " |"

    evaluation = (1, 2, 3, 4, 5)
    ours, authors = _means(rows, OURS, evaluation), _means(rows, REFERENCE, evaluation)
    published = paper.get(OURS, {})
    lines.append(
        line(
            "paper (GloVe 200-d, GPU)",
            {(d, k): (published[f"{d}_{k}shot"], 5) for d, k in COLUMNS if f"{d}_{k}shot" in published},
        )
    )
    lines.append(line("authors' code here (GloVe 50-d, CPU)", authors))
    lines.append(line("ours, faithful (GloVe 50-d)", ours, OURS))
    differences = {
        c: (ours[c][0] - authors[c][0], min(ours[c][1], authors[c][1])) for c in COLUMNS if c in ours and c in authors
    }
    lines.append(
        "| ours - authors' code | "
        + " | ".join("–" if c not in differences else f"{differences[c][0]:+.2f}" for c in COLUMNS)
        + " |"
    )

    def scores(key):
        return {
            (r["dataset"], int(r["shot"]), int(r["shuffle"])): float(r["exact_match"])
            for r in rows
            if (r["system"], r["setting"]) == key and int(r["shuffle"]) in evaluation
        }

    intervals = paired_intervals(scores(OURS), scores(REFERENCE))
    lines.append(
        "| 95% interval of that difference (paired over shuffles, t) | "
        + " | ".join(
            "–" if c not in intervals else f"{intervals[c][0]:+.1f} to {intervals[c][1]:+.1f}" for c in COLUMNS
        )
        + " |"
    )

    p_value = wilcoxon_p(scores(OURS), scores(REFERENCE))
    shared = len(set(scores(OURS)) & set(scores(REFERENCE)))
    lines.append(
        f"\nWilcoxon p (ours vs the authors' code, {shared} shared evaluation sets): "
        + ("–" if p_value is None else f"{p_value:.3g}")
        + "\n"
    )
    variant_lines = [
        line(f"authors' code here, {label}", _means(variant_rows, (label_system, ""), evaluation))
        for label, label_system, variant_rows in _reference_variants(reference)
    ]
    switched = {setting: _means(rows, (OURS[0], setting), evaluation) for setting in FAITHFUL_SWITCHES}
    variant_lines += [
        line(f"ours, faithful but {setting}", means, (OURS[0], setting)) for setting, means in switched.items() if means
    ]
    if variant_lines:
        lines += [
            '\nOne behaviour changed at a time, to measure what it costs (docs/reproduction.md, "What still '
            "differs\"): the authors' code with another setting (`benchmarks/reference_runs.py` with an option, rows "
            "in the files named), and our faithful configuration with one switch (`allennlp run-grid --systems "
            "<name>`; † marks a cell with a row made before the faithful configuration last changed):\n",
            *header,
            line("authors' code here", authors),
            line("ours, faithful", ours, OURS),
            *variant_lines,
        ]
    lines += [
        "\nThe same rows over shuffles 0-4, for comparison only (the authors' README fine-tunes on 0-4; "
        "we tune on 0):\n",
        *header,
        line("authors' code here", _means(rows, REFERENCE, (0, 1, 2, 3, 4))),
        line("ours, faithful", _means(rows, OURS, (0, 1, 2, 3, 4))),
    ]
    return "\n".join(lines) + "\n"


def paired_intervals(
    ours: Dict[Tuple[str, int, int], float], other: Dict[Tuple[str, int, int], float], confidence: float = 0.95
) -> Dict[Tuple[str, int], Tuple[float, float]]:
    """
    (dataset, shot) -> the two-sided `confidence` interval (Student's t) of the mean of ours minus
    other over the shuffles both have, for columns with at least two shared shuffles: how far apart
    the two means may really be, given how much the splits move each difference.
    """
    from scipy.stats import t

    differences: Dict[Tuple[str, int], List[float]] = defaultdict(list)
    for key in sorted(set(ours) & set(other)):
        differences[key[:2]].append(ours[key] - other[key])
    intervals = {}
    for column, values in differences.items():
        if len(values) < 2:
            continue
        mean, error = statistics.mean(values), statistics.stdev(values) / len(values) ** 0.5
        half = t.ppf(0.5 + confidence / 2, len(values) - 1) * error
        intervals[column] = (mean - half, mean + half)
    return intervals


def _reference_variants(reference: Optional[str]) -> List[Tuple[str, str, List[Dict[str, str]]]]:
    """(label, system, rows) of every `<reference stem>_<name>.csv` beside the reference file: runs of the
    authors' code with one setting changed (e.g. `reference_runs_freq0.csv` from `--freq 0`)."""
    if not reference:
        return []
    variants = []
    for path in sorted(glob.glob(os.path.splitext(reference)[0] + "_*.csv")):
        rows = [{**row, "setting": ""} for row in read_rows(path)]
        systems = sorted({row["system"] for row in rows})
        if len(systems) == 1:
            label = systems[0].split(",")[-1].strip(" )") + f" (`{os.path.basename(path)}`)"
            variants.append((label, systems[0], rows))
    return variants


def stale_section(stale: Dict[Tuple[str, str, str, int], str]) -> str:
    """Markdown list of the cells marked stale, with the first reason found."""
    lines = [
        "\n## Stale cells\n",
        f"Cells marked {STALE_MARK} in the tables: the current code would not reproduce "
        "at least one of their rows (`allennlp run-grid --systems <name> --redo-stale` reruns them).\n",
    ]
    by_reason: Dict[str, List[str]] = defaultdict(list)
    for (system, setting, dataset, shot), reason in sorted(stale.items()):
        by_reason[reason].append(f"{_label((system, setting))} {dataset} {shot}-shot")
    for reason, cells in sorted(by_reason.items()):
        lines.append(f"- {reason} ({len(cells)} cells): " + "; ".join(cells))
    if not stale:
        lines.append("None.")
    return "\n".join(lines) + "\n"


def gap_table(keys, table, paper, shuffles: Sequence[int], files: Sequence[str], out: str, variants=()) -> str:
    """
    Markdown: for every row the paper reports, our mean minus the paper's number per column (a cell
    missing some of the shuffles is marked with how many it has); then, for our ProtoParser variants
    beyond the paper (`variants`), their mean minus the paper's ProtoParser; then the runs still missing.
    """
    wanted = sorted(set(shuffles))
    header = [
        "| system | " + " | ".join(f"{d} {k}-shot" for d, k in COLUMNS) + " | mean distance (complete cells) |",
        "|" + "---|" * (len(COLUMNS) + 2),
    ]
    lines = [
        "# Distance to the paper: our mean minus the paper's number (points of exact match), "
        f"shuffles {wanted[0]}-{wanted[-1]}\n",
        f"Generated by `allennlp report --results {' '.join(files)} --out {out}`. A cell computed from fewer than "
        f"{len(wanted)} shuffles says how many it has; – marks a cell with no run yet.\n",
    ] + header
    missing: List[str] = []
    lines += [_gap_row(key, table.get(key, {}), paper[key], wanted, missing) for key in keys]
    if variants:
        lines += [
            "\n## Our ProtoParser variants against the paper's ProtoParser\n",
            "Rows beyond the paper (other words, lexicon, linking, ...): their mean minus the paper's "
            "ProtoParser row, so a positive cell beats the published result.\n",
        ] + header
        lines += [_gap_row(key, table.get(key, {}), paper[OURS], wanted, []) for key in variants]
    lines.append("\n## Runs still missing\n")
    lines += missing or ["None: every row the paper reports has all its shuffles."]
    return "\n".join(lines) + "\n"


def _gap_row(key, scores, reference_row: Dict[str, float], wanted: List[int], missing: List[str]) -> str:
    """One gap-table line: the row's mean minus `reference_row` per column; appends its missing runs."""
    cells, gaps = [], []
    for dataset, shot in COLUMNS:
        value = cell(scores, dataset, shot)
        reference = reference_row.get(f"{dataset}_{shot}shot")
        absent = [sh for sh in wanted if (dataset, shot, sh) not in scores]
        if absent:
            missing.append(
                f"- {_label(key)}, {dataset} {shot}-shot: shuffle{'s' if len(absent) > 1 else ''} "
                + ", ".join(map(str, absent))
            )
        if value is None or reference is None:
            cells.append("–")
            continue
        gap = value[0] - reference
        cells.append(f"{gap:+.2f}" + ("" if not absent else f" (n={value[2]})"))
        if not absent:
            gaps.append(gap)
    average = f"{statistics.mean(gaps):+.2f} over {len(gaps)}" if gaps else "–"
    return f"| {_label(key)} | " + " | ".join(cells) + f" | {average} |"


def cost_table(files: Sequence[str], shuffles: Sequence[int], out: str) -> str:
    """
    Markdown: process-minutes per row and dataset, summed over the runs' `seconds` (a run that pre-trained
    includes its pre-training), one block per results file, since each file may come from another machine.
    """
    lines = [
        f"# Cost: process-minutes per row (sum of the runs' seconds), {len(set(shuffles))} shuffle(s)\n",
        f"Generated by `allennlp report --results {' '.join(files)} --out {out}`. A run's seconds include the "
        "pre-training when it was the run that pre-trained; wall-clock time is about this sum divided by "
        "the number of parallel processes (`run-grid --jobs`).\n",
    ]
    datasets = list(dict.fromkeys(d for d, _ in COLUMNS))
    wanted = set(shuffles)
    for path in files:
        minutes: Dict[Tuple[str, str], Dict[str, float]] = defaultdict(lambda: defaultdict(float))
        counts: Dict[Tuple[str, str], int] = defaultdict(int)
        for row in read_rows(path):
            if int(row["shuffle"]) in wanted:
                key = (row["system"], row["setting"])
                minutes[key][row["dataset"]] += float(row["seconds"]) / 60
                counts[key] += 1
        if not counts:
            continue
        lines.append(f"## {path}\n")
        lines.append("| system | runs | " + " | ".join(f"{d} (min)" for d in datasets) + " | total (min) |")
        lines.append("|---|---|" + "---|" * (len(datasets) + 1))
        for key in sorted(counts):
            cells = [f"{minutes[key][d]:.1f}" if d in minutes[key] else "–" for d in datasets]
            lines.append(
                f"| {_label(key)} | {counts[key]} | " + " | ".join(cells) + f" | {sum(minutes[key].values()):.1f} |"
            )
        total = sum(sum(m.values()) for m in minutes.values())
        lines.append(f"| all | {sum(counts.values())} | " + " | ".join("" for _ in datasets) + f" | {total:.1f} |\n")
    return "\n".join(lines) + "\n"


def compared_rows(table, reference: List[Dict[str, str]], shuffles: Sequence[int] = (1, 2, 3, 4, 5)):
    """
    The rows a reader compares, with their per-shuffle values per column: our faithful row, the
    authors' code, our best variant and each baseline's best setting (best = highest mean over the
    columns it has complete).
    """
    table = dict(table)
    if reference:
        table[REFERENCE] = {
            (r["dataset"], int(r["shot"]), int(r["shuffle"])): float(r["exact_match"]) for r in reference
        }

    def per_column(scores):
        return {
            (d, k): [v for (dd, kk, sh), v in sorted(scores.items()) if (dd, kk) == (d, k) and sh in shuffles]
            for d, k in COLUMNS
        }

    chosen = [key for key in (OURS, REFERENCE) if key in table]
    labels = {OURS: "ProtoParser, faithful (ours)", REFERENCE: "ProtoParser, authors' code here"}
    best = best_row_key(table, shuffles)
    if best:
        chosen.append(best)
        labels[best] = "ProtoParser, our best\n(experiments/best.jsonnet)"
    for system in ("Seq2Seq", "Coarse2Fine", "IRNet", "DA", "PT-MAML"):
        setting = best_of(table, [k for k in table if k[0] == system], shuffles)
        if setting:
            chosen.append(setting)
    return [(labels.get(key, _label(key)), per_column(table[key])) for key in chosen]


def write_figures(
    results, out: str, dataset: str, shot: int, pretrain_dir: str, reference: Optional[str] = None, full: bool = False
) -> str:
    """`table1.png` (one panel per column: the rows a reader compares, per-shuffle dots, the paper's
    ProtoParser as a line), with `full` also `table1_full.png` (every row), and, when the pre-trained
    archive of our parser exists, `figure1_<dataset>_<k>shot.png` (t-SNE)."""
    files = [results] if isinstance(results, str) else list(results)
    table = collect(current_rows([row for path in files for row in read_result_rows(path)]))
    paper = paper_numbers()
    rows = []
    for key, scores in table.items():
        if key[1] in ABLATIONS:
            continue
        cells = [cell(scores, d, k) for d, k in COLUMNS]
        means = [None if found is None else found[0] for found in cells]
        if any(m is not None for m in means):
            rows.append((_label(key), means))
    for key in (OURS,):
        if key in paper:
            rows.append((f"paper: {_label(key)}", [paper[key].get(f"{d}_{k}shot") for d, k in COLUMNS]))
    os.makedirs(out, exist_ok=True)
    written = []
    if rows and full:
        bar_chart(rows, COLUMNS, os.path.join(out, "table1_full.png"))
        written.append(os.path.join(out, "table1_full.png"))
    compared = compared_rows(table, reference_rows(reference))
    if compared:
        published = {(d, k): paper[OURS][f"{d}_{k}shot"] for d, k in COLUMNS if f"{d}_{k}shot" in paper.get(OURS, {})}
        panel_chart(compared, published, COLUMNS, os.path.join(out, "table1.png"))
        written.append(os.path.join(out, "table1.png"))
    archive = os.path.join(pretrain_dir, f"{dataset}-ours", "model.tar.gz")
    if not os.path.isfile(archive):
        return f"wrote {', '.join(written) or 'no figures'}; no t-SNE figure: {archive} does not exist"
    data_files = {
        s: {
            part: resolve_data_path(f"{dataset}/lemma_data/shuffle_{s}_shot_{shot}/{part}.txt")
            for part in ("support", "query")
        }
        for s in range(1, 6)
    }
    data_files = {s: f for s, f in data_files.items() if all(os.path.isfile(p) for p in f.values())}
    name = os.path.join(out, f"figure1_{dataset}_{shot}shot.png")
    caption = tsne_figure(archive, data_files, table.get(OURS, {}), dataset, shot, name)
    if caption is None:
        return f"wrote {', '.join(written) or 'no figures'}; no t-SNE figure: fewer than two scored shuffles"
    written.append(name)
    return f"wrote {', '.join(written)} ({caption})"
