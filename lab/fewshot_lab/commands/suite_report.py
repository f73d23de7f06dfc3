"""
The development suite's table (`allennlp report --suite dev`): per row and column, the mean exact
match over the suite's draws with its standard error (the draws differ in which predicates are new,
so their spread is what a user's own predicates may see), and retention: exact match on the draws'
held-out `known.txt` with the pre-trained archive, after fine-tuning, and the drop between them,
over all of a row's runs and per dataset. A cell holding a run the current code would not reproduce
(`staleness.draw_stale_reason`) is marked †, as Table 1 marks official cells.

Then, to decide between rows, the paired difference of each row against the faithful row
(`FAITHFUL`: ProtoParser, no setting) per column. Runs are paired by (dataset, shot, draw, sample):
`sample` is an optional runs.csv column for several support samples per draw (absent or empty:
sample 0); where a row has several runs of one key (reruns), the last in file order counts, as
`report.collect` picks among the official rows' duplicates. Only pairs both rows have count. The
samples of one draw are not independent (they share the draw's pre-training and its new
predicates), so the draw is the unit: the differences are averaged within each draw first, and the
cell gives the mean of those draw means ± their standard error (a cluster, draw-level standard error;
"n/a" with a single draw), then (draws/pairs). A difference with |mean| >= 2 x SE (and not zero) is
marked `*`.

A suite's recipe is a stratified design: a dataset's draws come in groups with a fixed number of new
predicates (`dev_suite.draw_groups`; jobs' `dev` draws 1-10 make three new, 11-20 two), and the groups
differ systematically (two new predicates leave more known examples and fewer queries). So means and
their errors are stratified (`stratified_mean`): each group's mean weighted by the group's share of
the recipe's draws, and SE^2 = sum over groups of w^2 s^2 / n (s: the spread of the group's draw
means, n: its draws measured). Once every draw is measured this is the plain mean over draws; the
error leaves out the spread between the groups' means, which the design fixes rather than samples.
"""

import csv
import math
import os
import statistics
from collections import defaultdict
from typing import Dict, List, Optional, Sequence, Tuple

from fewshot_lab.recipes import HEADLINE_SYSTEMS
from fewshot_lab.staleness import draw_stale_reason
from fewshot_lab.suite_power import Strata, census_error, combinations
from fewshot_lab.systems import SYSTEMS, TABLES
from fewshot_parser.commands.systems import read_systems
from fewshot_parser.common.errors import UserError
from fewshot_parser.common.results_io import read_result_rows, require_rows
from fewshot_parser.common.safe_io import atomic_open
from fewshot_parser.data.dev_suite import SUITES, draw_groups

COLUMNS: List[Tuple[str, int]] = [("jobs", 1), ("geo", 1), ("atis", 1), ("jobs", 2), ("geo", 2), ("atis", 2)]
Key = Tuple[str, str]
# (system, setting, dataset, shot) -> why a run of that cell is stale
Stale = Dict[Tuple[str, str, str, int], str]
STALE_MARK = "†"
FAITHFUL: Key = ("ProtoParser", "")
SIGNIFICANT_MARK = "*"
# (draw, sample) -> exact match of one row in one column
Runs = Dict[Tuple[int, int], float]


def _label(key: Key) -> str:
    return key[0] + (f" ({key[1]})" if key[1] else "")


def mean_and_error(values: Sequence[float]) -> Tuple[float, Optional[float]]:
    """Mean and standard error of the mean (None for a single value)."""
    mean = statistics.mean(values)
    return mean, (statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else None)


def suite_strata(suite: Optional[str], dataset: str) -> Optional[Strata]:
    """The draw groups of a suite's dataset (`Strata`); None for a suite or dataset without a recipe."""
    recipe = SUITES.get(suite or "", {}).get(dataset)
    if recipe is None:
        return None
    groups = draw_groups(recipe)
    total = sum(len(draws) for _, draws in groups)
    return {draw: (count, len(draws) / total) for count, draws in groups for draw in draws}


def stratified_mean(values: Dict[int, float], strata: Optional[Strata]) -> Tuple[float, Optional[float]]:
    """
    Mean and standard error of per-draw `values` in a stratified design: the groups' means weighted by
    their shares (renormalised over the groups measured), SE^2 = sum w^2 s^2 / n. A group with a single
    draw measured borrows the pooled variance of the others (the error is None when no group has two
    draws). Without strata, or with a draw outside them: the plain mean and stdev / sqrt(draws).
    """
    if strata is None or any(draw not in strata for draw in values):
        return mean_and_error(list(values.values()))
    groups: Dict[int, List[float]] = defaultdict(list)
    for draw, value in values.items():
        groups[strata[draw][0]].append(value)
    if len(groups) == 1:
        return mean_and_error(list(values.values()))
    share = {strata[draw][0]: strata[draw][1] for draw in values}
    total = sum(share[group] for group in groups)
    mean = sum(share[group] / total * statistics.mean(group_values) for group, group_values in groups.items())
    spread = [(len(v) - 1, statistics.variance(v)) for v in groups.values() if len(v) > 1]
    if not spread:
        return mean, None
    pooled = sum(df * variance for df, variance in spread) / sum(df for df, _ in spread)
    variance = sum(
        (share[group] / total) ** 2 * (statistics.variance(v) if len(v) > 1 else pooled) / len(v)
        for group, v in groups.items()
    )
    return mean, math.sqrt(variance)


def collect(rows: List[Dict[str, str]]) -> Dict[Key, Dict[Tuple[str, int], List[Dict[str, str]]]]:
    table: Dict[Key, Dict[Tuple[str, int], List[Dict[str, str]]]] = defaultdict(lambda: defaultdict(list))
    for row in rows:
        table[(row["system"], row["setting"])][(row["dataset"], int(row["shot"]))].append(row)
    return table


def retention(rows: Sequence[Dict[str, str]]) -> Optional[Tuple[float, float, float, int]]:
    """(before, after, after - before, runs) over the runs that measured both; None when none did."""
    pairs = [
        (float(r["known_pretrained"]), float(r["known_finetuned"]))
        for r in rows
        if r.get("known_pretrained") and r.get("known_finetuned")
    ]
    if not pairs:
        return None
    before = statistics.mean(p[0] for p in pairs)
    after = statistics.mean(p[1] for p in pairs)
    return before, after, after - before, len(pairs)


def drop_by_dataset(columns: Dict[Tuple[str, int], List[Dict[str, str]]]) -> str:
    """The retention drop of each dataset over its runs (both shots), e.g. "jobs +3.12, geo -13.00"; "–" without any."""
    parts = []
    for dataset in dict.fromkeys(d for d, _ in COLUMNS):
        kept = retention([r for (d, _), runs in columns.items() if d == dataset for r in runs])
        if kept is not None:
            parts.append(f"{dataset} {kept[2]:+.2f}")
    return ", ".join(parts) or "–"


def suite_data_root(files: Sequence[str], suite: str) -> str:
    """
    Where the suite's draws are, as `run-grid` named them: the folder of the first results file when it
    holds the draws (`run-grid --data-root ROOT` writes ROOT/runs.csv), else $FEWSHOT_DATA_DIR/<suite>
    (`run-grid --suite`).
    """
    folder = os.path.dirname(files[0]) if files else ""
    if folder and any(name.startswith("draw_") for name in os.listdir(folder)):
        return folder
    return os.path.join(os.environ.get("FEWSHOT_DATA_DIR", "data"), suite)


def stale_draw_cells(rows: Sequence[Dict[str, str]], data_root: str) -> Stale:
    """
    Every cell with a run of the draws under `data_root` that the current code would not reproduce, and
    why: each row's config rendered for its draw as `run-grid` renders it (pre-training under
    $FEWSHOT_PRETRAIN_DIR/<the root's name>), checked as the official rows are.
    """
    name = os.path.basename(os.path.normpath(data_root))
    pretrain_root = os.path.join(os.environ.get("FEWSHOT_PRETRAIN_DIR", "runs/pretrain"), name)
    systems = read_systems(TABLES)
    found: Dict[Tuple[str, str, str, int], Dict[str, List[str]]] = defaultdict(lambda: defaultdict(list))
    for row in rows:
        reason = draw_stale_reason(row, systems, data_root, pretrain_root)
        if reason:
            found[(row["system"], row["setting"], row["dataset"], int(row["shot"]))][reason].append(row["shuffle"])
    return {
        key: "; ".join(
            f"{reason} (draw{'s' if len(draws) > 1 else ''} {', '.join(sorted(draws, key=int))})"
            for reason, draws in reasons.items()
        )
        for key, reasons in found.items()
    }


def draw_means(rows: Sequence[Dict[str, str]]) -> Dict[int, float]:
    """Each draw's mean exact match over its support samples (the samples of a draw share its pre-training
    and its new predicates, so the draw is the unit of the standard error)."""
    by_draw: Dict[int, List[float]] = defaultdict(list)
    for row in rows:
        by_draw[int(row["shuffle"])].append(float(row["exact_match"]))
    return {draw: statistics.mean(values) for draw, values in sorted(by_draw.items())}


def cell_text(rows: Sequence[Dict[str, str]], stale: bool = False, strata: Optional[Strata] = None) -> str:
    if not rows:
        return "–"
    means = draw_means(rows)
    mean, error = stratified_mean(means, strata)
    runs = f"n={len(means)}" if len(means) == len(rows) else f"{len(means)} draws, {len(rows)} runs"
    return (
        f"{mean:.2f}"
        + (f" ± {error:.2f}" if error is not None else "")
        + f" ({runs})"
        + (f" {STALE_MARK}" if stale else "")
    )


def suite_lines(
    rows: List[Dict[str, str]],
    keys: Optional[Sequence[Key]] = None,
    labels: Optional[Dict[Key, str]] = None,
    stale: Optional[Stale] = None,
    suite: Optional[str] = None,
) -> List[str]:
    """
    The Markdown table: one line per row key, the six columns (cells in `stale` marked †; means
    stratified by `suite`'s draw groups), then retention over all its runs.
    """
    table = collect(rows)
    keys = list(keys) if keys is not None else sorted(table)
    lines = [
        "| row | "
        + " | ".join(f"{d} {k}" for d, k in COLUMNS)
        + " | known: pre-trained | after fine-tuning | drop | drop by dataset |",
        "|---" * (len(COLUMNS) + 5) + "|",
    ]
    for key in keys:
        if key not in table:
            continue
        columns = table[key]
        kept = retention([r for runs in columns.values() for r in runs])
        tail = ["–", "–", "–"] if kept is None else [f"{kept[0]:.2f}", f"{kept[1]:.2f}", f"{kept[2]:+.2f}"]
        tail.append(drop_by_dataset(columns))
        label = (labels or {}).get(key, _label(key))
        lines.append(
            f"| {label} | "
            + " | ".join(
                cell_text(columns.get(c, []), (*key, *c) in (stale or {}), suite_strata(suite, c[0])) for c in COLUMNS
            )
            + " | "
            + " | ".join(tail)
            + " |"
        )
    return lines


def sample_of(row: Dict[str, str]) -> int:
    """The support sample of a run: the optional `sample` column, 0 when absent or empty."""
    value = (row.get("sample") or "").strip()
    try:
        return int(value) if value else 0
    except ValueError:
        raise UserError(
            f"sample must be an integer, got {value!r} (run {_label((row['system'], row['setting']))}, "
            f"{row['dataset']} {row['shot']}-shot, draw {row['shuffle']})"
        ) from None


def latest_runs(rows: Sequence[Dict[str, str]]) -> Dict[Key, Dict[Tuple[str, int], Runs]]:
    """(system, setting) -> (dataset, shot) -> (draw, sample) -> exact match; of reruns the last in file order."""
    table: Dict[Key, Dict[Tuple[str, int], Runs]] = defaultdict(lambda: defaultdict(dict))
    for row in rows:
        runs = table[(row["system"], row["setting"])][(row["dataset"], int(row["shot"]))]
        runs[(int(row["shuffle"]), sample_of(row))] = float(row["exact_match"])
    return table


def paired_difference(
    runs: Runs, faithful: Runs, strata: Optional[Strata] = None
) -> Optional[Tuple[float, Optional[float], int, int]]:
    """
    (mean, cluster standard error, draws, pairs) of `runs` - `faithful` over the (draw, sample) keys both
    have: the differences averaged within each draw, then the (stratified) mean and standard error of
    those draw means (`stratified_mean`; None for the error with a single draw); None without any pair.
    """
    shared = sorted(set(runs) & set(faithful))
    if not shared:
        return None
    by_draw: Dict[int, List[float]] = defaultdict(list)
    for key in shared:
        by_draw[key[0]].append(runs[key] - faithful[key])
    mean, error = stratified_mean({draw: statistics.mean(d) for draw, d in by_draw.items()}, strata)
    return mean, error, len(by_draw), len(shared)


def significant(mean: float, error: Optional[float]) -> bool:
    """|mean| >= 2 x SE (never with a single draw, nor for a difference of zero)."""
    return error is not None and mean != 0 and abs(mean) >= 2 * error


def paired_text(paired: Optional[Tuple[float, Optional[float], int, int]]) -> str:
    if paired is None:
        return "–"
    mean, error, draws, pairs = paired
    return (
        f"{mean:+.2f} ± {'n/a' if error is None else f'{error:.2f}'}"
        + (SIGNIFICANT_MARK if significant(mean, error) else "")
        + f" ({draws}/{pairs})"
    )


def paired_lines(
    rows: Sequence[Dict[str, str]],
    keys: Optional[Sequence[Key]] = None,
    labels: Optional[Dict[Key, str]] = None,
    faithful: Key = FAITHFUL,
    suite: Optional[str] = None,
) -> List[str]:
    """
    The paired-difference section: a title, one Markdown line per row key other than `faithful` with its
    difference against `faithful` in each of the six columns (`paired_text`, stratified by `suite`'s
    draw groups), and a legend.
    """
    table = latest_runs(rows)
    title = "## Paired difference against the faithful row (mean ± SE over draws, draws/pairs)"
    if faithful not in table:
        return [title, "", f"No run of the faithful row ({_label(faithful)}): nothing to pair with."]
    keys = [key for key in (list(keys) if keys is not None else sorted(table)) if key in table and key != faithful]
    lines = [
        title,
        "",
        "| row | " + " | ".join(f"{d} {k}" for d, k in COLUMNS) + " |",
        "|---" * (len(COLUMNS) + 1) + "|",
    ]
    for key in keys:
        cells = [
            paired_text(paired_difference(table[key].get(c, {}), table[faithful].get(c, {}), suite_strata(suite, c[0])))
            for c in COLUMNS
        ]
        lines.append(f"| {(labels or {}).get(key, _label(key))} | " + " | ".join(cells) + " |")
    lines += [
        "",
        f"Row − faithful row ({_label(faithful)}) in exact-match points, over the runs both have, paired "
        "by (draw, support sample; of reruns the last in file order): the differences are averaged within "
        "each draw, then mean ± standard error over the draws' means (a draw's samples share its pre-training "
        "and new predicates), stratified by the number of new predicates per draw when the suite has several "
        "(each group weighted by its share of the recipe's draws; the error adds the groups' own errors), n/a "
        f"with a single draw; (draws/pairs). {SIGNIFICANT_MARK}: |mean| >= 2 × SE.",
    ]
    return lines


def census_lines(rows: Sequence[Dict[str, str]], suite: str, data_dir: str, best: Optional[Key] = None) -> List[str]:
    """
    The best row's difference against the faithful row with its error read as a census of the suite's
    own draws (`suite_power`): next to the paired table's error, the one left once the between-draw
    spread of every combination measured no longer counts. Empty without both rows.
    """
    best = best or SYSTEMS[HEADLINE_SYSTEMS[1]][:2]
    table = latest_runs(rows)
    if best not in table or FAITHFUL not in table:
        return []
    lines = [
        "## The best row's difference read as a census of the suite's draws",
        "",
        "| column | draws measured / possible | best − faithful (SE over draws) | SE as a census |",
        "|---|---|---|---|",
    ]
    for column in COLUMNS:
        strata = suite_strata(suite, column[0])
        runs, faithful = table[best].get(column, {}), table[FAITHFUL].get(column, {})
        paired = paired_difference(runs, faithful, strata)
        if paired is None or paired[1] is None:
            continue
        census = census_error(runs, faithful, suite, column[0], strata, data_dir)
        possible = combinations(suite, column[0], data_dir)
        lines.append(
            f"| {column[0]} {column[1]} | {paired[2]} / {possible or '?'} | {paired[0]:+.2f} ± {paired[1]:.2f} | "
            f"{'?' if census is None else f'{census:.2f}'} |"
        )
    lines += [
        "",
        f"Best row: {_label(best)}. The paired table's error is that of predicates drawn from a population "
        "larger than the dataset's own (a user's other predicates); as a census of the suite's possible draws "
        "(every combination of the recipe's number of new predicates among the eligible ones), the "
        "finite-population correction leaves, for a group whose combinations are all measured, only the support "
        "samples' noise: SE^2 = sum s_h^2 ((1 − N_h / C_h) between_h + w / k) / N_h (lab/fewshot_lab/suite_power.py). "
        "? : the official train.txt is not under the data folder.",
    ]
    return lines


def write_suite_report(files: Sequence[str], out: str, suite: str) -> str:
    """Writes `<out>/table.md` and `<out>/table.csv` from the suite's results files; returns the table."""
    rows = [row for path in files for row in read_result_rows(path)]
    require_rows(rows, files, f"the {suite} suite")
    data_root = suite_data_root(files, suite)
    stale = stale_draw_cells(rows, data_root)
    lines = suite_lines(rows, stale=stale, suite=suite)
    paired = paired_lines(rows, suite=suite)
    census = census_lines(rows, suite, os.environ.get("FEWSHOT_DATA_DIR", "data"))
    if census:
        paired += [""] + census
    notes = (
        ""
        if not stale
        else (
            f"\n{STALE_MARK}: the cell has a run the current code would not reproduce (changed config, or code changed "
            f"since the run without a certificate; `allennlp run-grid --suite {suite} --redo-stale` reruns them, "
            "`allennlp certify` can show that the change kept behaviour):\n\n"
            + "".join(f"- {_label(key[:2])}, {key[2]} {key[3]}-shot: {why}\n" for key, why in sorted(stale.items()))
        )
    )
    os.makedirs(out, exist_ok=True)
    with atomic_open(os.path.join(out, "table.md"), "w") as handle:
        handle.write(
            f"# The {suite} suite: exact match (%), mean ± standard error over its draws (n = draws)\n\n"
            f"Generated by `allennlp report --suite {suite} --results {' '.join(files)}`. Each draw makes other "
            "predicates of the official train.txt new (fewshot_parser/data/dev_suite.py) and has its own "
            "pre-training; means and errors are stratified by the number of new predicates per draw (each group "
            "weighted by its share of the recipe's draws). known: exact match on the draws' held-out known.txt "
            "(examples of known predicates that no training saw) with the pre-trained archive and after "
            "fine-tuning, averaged over every run of the row; drop = after - before, also per dataset.\n\n"
            + "\n".join(lines)
            + "\n"
            + notes
            + "\n"
            + "\n".join(paired)
            + "\n"
        )
    table = collect(rows)
    with atomic_open(os.path.join(out, "table.csv"), "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(
            [
                "system",
                "setting",
                "dataset",
                "shot",
                "draws",
                "mean",
                "standard_error",
                "known_pretrained",
                "known_finetuned",
                "known_drop",
            ]
        )
        for key in sorted(table):
            for (dataset, shot), runs in sorted(table[key].items()):
                mean, error = stratified_mean(draw_means(runs), suite_strata(suite, dataset))
                kept = retention(runs)
                writer.writerow(
                    [
                        *key,
                        dataset,
                        shot,
                        len(runs),
                        f"{mean:.2f}",
                        "" if error is None else f"{error:.2f}",
                        *(["", "", ""] if kept is None else [f"{kept[0]:.2f}", f"{kept[1]:.2f}", f"{kept[2]:.2f}"]),
                    ]
                )
    wrote = f"wrote {os.path.join(out, 'table.md')}, {os.path.join(out, 'table.csv')}"
    return "\n".join(lines + [""] + paired + [wrote])
