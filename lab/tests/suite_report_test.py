"""The development suite's paired differences against the faithful row (`suite_report.paired_lines`): runs
paired by (dataset, shot, draw, sample), reruns resolved to the last in file order, and a draw-level
(cluster) standard error."""

import csv
import math

import pytest
from fewshot_lab.commands.suite_report import (
    latest_runs,
    mean_and_error,
    paired_difference,
    paired_lines,
    stratified_mean,
    suite_strata,
    write_suite_report,
)

from fewshot_parser.common.results_io import read_result_rows

HEADER = [
    "system",
    "setting",
    "dataset",
    "shot",
    "shuffle",
    "exact_match",
    "seconds",
    "code_version",
    "config_hash",
    "pretrain_code_version",
    "pretrain_config_hash",
    "threads",
    "torch",
    "machine",
    "known_pretrained",
    "known_finetuned",
]
FAITHFUL = ("ProtoParser", "")
OTHER = ("ProtoParser", "+ lexicon")


def write_runs(path, runs, sample_column=True):
    """`runs`: (key, dataset, shot, draw, sample, exact match); sample None leaves the cell empty."""
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=HEADER + (["sample"] if sample_column else []))
        writer.writeheader()
        for (system, setting), dataset, shot, draw, sample, em in runs:
            row = {
                "system": system,
                "setting": setting,
                "dataset": dataset,
                "shot": shot,
                "shuffle": draw,
                "exact_match": em,
                "seconds": 1.0,
            }
            if sample_column:
                row["sample"] = "" if sample is None else sample
            writer.writerow(row)
    return str(path)


# geo 1-shot, two support samples per draw. Differences OTHER - FAITHFUL: draw 1: +2, +4 (mean 3);
# draw 2: +6, +8 (mean 7); draw 3: 0, +4 (mean 2). Over the draws' means: mean 4, stdev sqrt(7), SE
# sqrt(7/3) = 1.53 (the naive SE over the six pairs would be sqrt(8/6) = 1.15). Draw 4 only OTHER has,
# draw 5 only FAITHFUL: neither counts. OTHER's draw 1 sample 0 is rerun: the first value (0.0) is replaced.
HAND_COMPUTED = [
    (OTHER, "geo", 1, 1, 0, 0.0),
    (FAITHFUL, "geo", 1, 1, 0, 10.0),
    (FAITHFUL, "geo", 1, 1, 1, 20.0),
    (FAITHFUL, "geo", 1, 2, 0, 30.0),
    (FAITHFUL, "geo", 1, 2, 1, 40.0),
    (FAITHFUL, "geo", 1, 3, 0, 50.0),
    (FAITHFUL, "geo", 1, 3, 1, 60.0),
    (FAITHFUL, "geo", 1, 5, 0, 0.0),
    (OTHER, "geo", 1, 1, 0, 12.0),
    (OTHER, "geo", 1, 1, 1, 24.0),
    (OTHER, "geo", 1, 2, 0, 36.0),
    (OTHER, "geo", 1, 2, 1, 48.0),
    (OTHER, "geo", 1, 3, 0, 50.0),
    (OTHER, "geo", 1, 3, 1, 64.0),
    (OTHER, "geo", 1, 4, 0, 99.0),
]


def test_the_paired_difference_is_a_mean_over_draws_with_a_cluster_standard_error(tmp_path):
    rows = read_result_rows(write_runs(tmp_path / "runs.csv", HAND_COMPUTED))
    table = latest_runs(rows)
    assert table[OTHER][("geo", 1)][(1, 0)] == 12.0  # the rerun, last in file order
    mean, error, draws, pairs = paired_difference(table[OTHER][("geo", 1)], table[FAITHFUL][("geo", 1)])
    assert mean == pytest.approx(4.0) and error == pytest.approx(math.sqrt(7 / 3))
    assert (draws, pairs) == (3, 6)  # draws 4 and 5 have one row only
    line = next(line for line in paired_lines(rows) if line.startswith("| ProtoParser (+ lexicon) |"))
    # columns jobs 1, geo 1, atis 1, jobs 2, geo 2, atis 2; 4 >= 2 x 1.53 is marked
    assert line == "| ProtoParser (+ lexicon) | – | +4.00 ± 1.53* (3/6) | – | – | – | – |"
    assert not any(line.startswith("| ProtoParser |") for line in paired_lines(rows))  # no faithful - faithful


def test_the_sample_column_is_optional_and_an_empty_sample_is_sample_0(tmp_path):
    # geo 2-shot, one run per draw: differences +5 and -1, mean 2, SE sqrt(18) / sqrt(2) = 3: not marked.
    runs = [
        (FAITHFUL, "geo", 2, 1, None, 40.0),
        (FAITHFUL, "geo", 2, 2, 0, 50.0),
        (OTHER, "geo", 2, 1, 0, 45.0),
        (OTHER, "geo", 2, 2, None, 49.0),
    ]
    expected = "| ProtoParser (+ lexicon) | – | – | – | – | +2.00 ± 3.00 (2/2) | – |"
    for sample_column in (True, False):
        path = write_runs(tmp_path / f"runs_{sample_column}.csv", runs, sample_column=sample_column)
        lines = paired_lines(read_result_rows(path))
        assert expected in lines


def test_a_single_draw_gives_no_standard_error(tmp_path):
    # atis 1-shot, draw 1 only, two samples: differences +5 and +3, mean 4, no SE and no mark.
    runs = [
        (FAITHFUL, "atis", 1, 1, 0, 10.0),
        (FAITHFUL, "atis", 1, 1, 1, 20.0),
        (OTHER, "atis", 1, 1, 0, 15.0),
        (OTHER, "atis", 1, 1, 1, 23.0),
    ]
    rows = read_result_rows(write_runs(tmp_path / "runs.csv", runs))
    assert "| ProtoParser (+ lexicon) | – | – | +4.00 ± n/a (1/2) | – | – | – |" in paired_lines(rows)
    assert paired_difference({(1, 0): 1.0}, {(2, 0): 1.0}) is None  # no shared draw


def test_without_the_faithful_row_nothing_is_paired(tmp_path):
    rows = read_result_rows(write_runs(tmp_path / "runs.csv", [(OTHER, "geo", 1, 1, 0, 15.0)]))
    assert paired_lines(rows)[-1] == "No run of the faithful row (ProtoParser): nothing to pair with."


def test_the_suite_report_prints_and_writes_the_paired_section_after_the_means(tmp_path):
    path = write_runs(tmp_path / "runs.csv", HAND_COMPUTED)
    text = write_suite_report([path], str(tmp_path / "out"), "dev")
    table = (tmp_path / "out" / "table.md").read_text()
    for shown in (text, table):
        assert "## Paired difference against the faithful row (mean ± SE over draws, draws/pairs)" in shown
        assert "| ProtoParser (+ lexicon) | – | +4.00 ± 1.53* (3/6) | – | – | – | – |" in shown
        assert "*: |mean| >= 2 × SE." in shown
        # the means table averages each draw's samples first, and keeps its † marks (faithful geo 1: draws
        # 1, 2, 3, 5 with means 15, 35, 55, 0: mean 26.25, SE = stdev / 2 = 11.97)
        assert "| ProtoParser | – | 26.25 ± 11.97 (4 draws, 7 runs) † |" in shown
        assert shown.index("| ProtoParser | – | 26.25") < shown.index("## Paired difference")


# Two groups of a stratified suite, each half of the recipe's draws: draws 1-2 (three new predicates)
# and 11-12 (two). Group means 45 and 15: mean 30. SE^2 = 0.5^2 * 50 / 2 + 0.5^2 * 50 / 2 = 12.5, while
# the plain SE over the four draws, sqrt(1000 / 3 / 4) = 9.13, counts the 30-point gap between the
# groups, which the recipe fixes, as noise.
STRATA = {1: (3, 0.5), 2: (3, 0.5), 11: (2, 0.5), 12: (2, 0.5)}


def test_a_stratified_mean_weights_each_group_by_its_share_and_adds_the_groups_errors():
    mean, error = stratified_mean({1: 40.0, 2: 50.0, 11: 10.0, 12: 20.0}, STRATA)
    assert mean == pytest.approx(30.0)
    assert error == pytest.approx(math.sqrt(12.5))
    assert mean_and_error([40.0, 50.0, 10.0, 20.0])[1] == pytest.approx(math.sqrt(1000 / 3 / 4))


def test_a_partly_measured_suite_weights_the_groups_it_has_and_a_lone_draw_borrows_the_pooled_spread():
    # Group 3 measured twice (mean 45, variance 50), group 2 once (10): weights 0.5 / 0.5 as in the recipe,
    # not 2/3 and 1/3 as a plain mean over the three draws would give.
    mean, error = stratified_mean({1: 40.0, 2: 50.0, 11: 10.0}, STRATA)
    assert mean == pytest.approx(27.5)
    assert error == pytest.approx(math.sqrt(0.25 * 50 / 2 + 0.25 * 50 / 1))
    assert stratified_mean({1: 40.0, 11: 10.0}, STRATA) == (25.0, None)  # no group has two draws
    assert stratified_mean({1: 40.0, 2: 50.0}, STRATA) == mean_and_error([40.0, 50.0])  # one group
    assert stratified_mean({1: 40.0, 2: 50.0, 99: 0.0}, STRATA) == mean_and_error([40.0, 50.0, 0.0])  # off-recipe


def test_the_dev_suite_report_stratifies_jobs_by_new_predicates_per_draw(tmp_path):
    jobs = suite_strata("dev", "jobs")
    assert (jobs[1], jobs[11], jobs[21], jobs[30]) == ((3, 10 / 30), (2, 10 / 30), (4, 5 / 30), (1, 5 / 30))
    assert suite_strata("dev", "geo")[21] == (2, 15 / 50) and suite_strata("dev", "geo")[50] == (4, 15 / 50)
    assert suite_strata("nonexistent", "jobs") is None
    runs = []
    for draw, difference in ((1, 40.0), (2, 50.0), (11, 10.0), (12, 20.0)):
        runs += [(FAITHFUL, "jobs", 1, draw, 0, 10.0), (OTHER, "jobs", 1, draw, 0, 10.0 + difference)]
    rows = read_result_rows(write_runs(tmp_path / "runs.csv", runs))
    line = next(line for line in paired_lines(rows, suite="dev") if line.startswith("| ProtoParser (+ lexicon) |"))
    assert line.split(" | ")[1] == "+30.00 ± 3.54* (4/4)"
    plain = next(line for line in paired_lines(rows) if line.startswith("| ProtoParser (+ lexicon) |"))
    assert plain.split(" | ")[1] == "+30.00 ± 9.13* (4/4)"


def test_the_census_section_leaves_only_the_samples_noise_once_every_combination_is_measured(tmp_path, monkeypatch):
    from fewshot_lab import suite_power
    from fewshot_lab.commands.suite_report import census_lines

    # Every one of jobs' 30 `dev` draws (5 eligible predicates: 10 + 10 + 5 + 5 combinations), two
    # samples each, differences draw-specific (draw number) ± 1: w = 2, k = 2, so a group of N draws
    # adds s^2 / N to SE^2: (1/3)^2 / 10 twice and (1/6)^2 / 5 twice.
    monkeypatch.setattr(suite_power, "eligible_count", lambda suite, dataset, data_dir: 5)
    runs = []
    for draw in range(1, 31):
        for sample, offset in ((0, -1.0), (1, 1.0)):
            runs += [(FAITHFUL, "jobs", 1, draw, sample, 10.0), (OTHER, "jobs", 1, draw, sample, 10.0 + draw + offset)]
    rows = read_result_rows(write_runs(tmp_path / "runs.csv", runs))
    lines = census_lines(rows, "dev", str(tmp_path), best=OTHER)
    row = next(line for line in lines if line.startswith("| jobs 1 |"))
    cells = row.split(" | ")
    assert cells[1] == "30 / 30"
    assert cells[3].rstrip(" |") == f"{math.sqrt(2 * (1 / 9) / 10 + 2 * (1 / 36) / 5):.2f}"
    paired = paired_difference(
        latest_runs(rows)[OTHER][("jobs", 1)], latest_runs(rows)[FAITHFUL][("jobs", 1)], suite_strata("dev", "jobs")
    )
    assert cells[2] == f"{paired[0]:+.2f} ± {paired[1]:.2f}"  # the draws' spread counts there
    assert paired[1] > 2 * float(cells[3].rstrip(" |"))
    # Without the official training file the census cannot be read: "?", not a made-up figure.
    monkeypatch.undo()
    row = next(line for line in census_lines(rows, "dev", str(tmp_path), best=OTHER) if line.startswith("| jobs 1 |"))
    assert row.endswith("| 30 / ? | " + cells[2] + " | ? |")
    assert census_lines(rows, "dev", str(tmp_path), best=("ProtoParser", "+ nothing")) == []
