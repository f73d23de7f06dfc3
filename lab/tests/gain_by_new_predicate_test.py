"""lab/scripts/gain_by_new_predicate.py: a row's paired gain split by the draws that make each predicate new."""

import json
import os

from suite_report_test import FAITHFUL, write_runs

from fewshot_parser.common.results_io import read_result_rows
from tests import load_benchmark

BEST = ("ProtoParser", "+ lexicon")


def write_draw(root, draw, predicates):
    folder = os.path.join(root, f"draw_{draw}", "jobs", "lemma_data", "shuffle_0_shot_1")
    os.makedirs(folder)
    with open(os.path.join(folder, "split.json"), "w") as handle:
        json.dump({"new_predicates": predicates}, handle)


def test_the_gain_of_the_draws_that_make_a_predicate_new_is_told_from_the_others(tmp_path, monkeypatch):
    script = load_benchmark("gain_by_new_predicate", "lab/scripts")
    monkeypatch.setitem(script.SYSTEMS, "b", (*BEST, None))
    monkeypatch.setitem(script.SYSTEMS, "f", (*FAITHFUL, None))
    # jobs draws 1-3 (three new each, one group): draws making `company` new gain 20 and 30, the other 0.
    for draw, predicates in ((1, ["company", "title"]), (2, ["company"]), (3, ["title"])):
        write_draw(tmp_path, draw, predicates)
    runs = []
    for draw, gain in ((1, 20.0), (2, 30.0), (3, 0.0), (4, 5.0)):
        runs += [(FAITHFUL, "jobs", 1, draw, 0, 50.0), (BEST, "jobs", 1, draw, 0, 50.0 + gain)]
    rows = read_result_rows(write_runs(tmp_path / "runs.csv", runs))
    lines = script.dataset_lines(rows, "dev", "jobs", "b", "f", str(tmp_path))
    company = next(line for line in lines if line.startswith("| `company` |"))
    assert company.split(" | ")[1:4] == ["2", "+25.00 ± 5.00* (2/2)", "+0.00 ± n/a (1/1)"]
    title = next(line for line in lines if line.startswith("| `title` |"))
    assert title.split(" | ")[1:4] == ["2", "+10.00 ± 10.00 (2/2)", "+30.00 ± n/a (1/1)"]
    assert lines[-2] == f"Left out (no split files under {tmp_path}): draws 4."
