"""lab/scripts/rename_same_inputs.py: the rows a results row was recorded from follow a renamed grid row."""

import csv

import pytest

from tests import load_benchmark

FIELDS = ["system", "setting", "exact_match", "same_inputs_as"]


def write(path, rows):
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=FIELDS)
        writer.writeheader()
        writer.writerows(rows)


def test_renames_apply_together_and_touch_nothing_else(tmp_path):
    script = load_benchmark("rename_same_inputs", "lab/scripts")
    path = str(tmp_path / "runs.csv")
    rows = [
        {"system": "P", "setting": "a, b", "exact_match": "1.5", "same_inputs_as": "best"},
        {"system": "P", "setting": "c", "exact_match": "2", "same_inputs_as": "best-modifiers-types"},
        {"system": "P", "setting": "d", "exact_match": "3", "same_inputs_as": ""},
        {"system": "P", "setting": "e", "exact_match": "4", "same_inputs_as": "ours"},
    ]
    write(path, rows)
    renames = script.parse_renames(["best=best-no-modifiers", "best-modifiers-types=best"])
    assert script.rename_file(path, renames) == 2
    with open(path, newline="") as handle:
        got = list(csv.DictReader(handle))
    # A swap, not a chain: the old best's copies do not become the new best's.
    assert [r["same_inputs_as"] for r in got] == ["best-no-modifiers", "best", "", "ours"]
    assert [{k: v for k, v in r.items() if k != "same_inputs_as"} for r in got] == [
        {k: v for k, v in r.items() if k != "same_inputs_as"} for r in rows
    ]
    before = open(path, "rb").read()
    assert script.rename_file(path, {"nothing": "else"}) == 0
    assert open(path, "rb").read() == before  # an unchanged file is not rewritten


@pytest.mark.parametrize("pairs", [["best"], ["=x"], ["a=b", "a=c"]])
def test_a_malformed_rename_is_a_one_line_error(pairs):
    script = load_benchmark("rename_same_inputs", "lab/scripts")
    with pytest.raises(SystemExit) as error:
        script.parse_renames(pairs)
    assert "--rename" in str(error.value)
