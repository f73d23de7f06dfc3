"""lab/scripts/component_table.py: paired gains, their cells, and the block it writes into docs/results.md."""
import csv
import os

import pytest

from tests import PROJECT_ROOT, load_benchmark


def load_script():
    return load_benchmark("component_table", "lab/scripts")


FIELDS = ["system", "setting", "dataset", "shot", "shuffle", "exact_match"]


def write_rows(path, rows):
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=FIELDS)
        writer.writeheader()
        for row in rows:
            writer.writerow(dict(zip(FIELDS, row)))


def test_pairs_take_the_difference_per_draw_or_shuffle_and_skip_unpaired_and_shuffle_0(tmp_path):
    script = load_script()
    with_ = ("ProtoParser", "+ recombination with role-checked forward pairs")
    without = ("ProtoParser", "")
    dev, official = tmp_path / "dev.csv", tmp_path / "official.csv"
    write_rows(dev, [(*with_, "geo", "1", "1", "50"), (*without, "geo", "1", "1", "40"),
                     (*with_, "geo", "1", "2", "30"), (*without, "geo", "1", "2", "36"),
                     (*with_, "geo", "1", "3", "70")])  # draw 3 has no faithful row: no pair
    write_rows(official, [(*with_, "jobs", "2", "0", "90"), (*without, "jobs", "2", "0", "10"),
                          (*with_, "jobs", "2", "4", "55"), (*without, "jobs", "2", "4", "50")])
    found = script.pairs("ours-recomb", "ours", str(dev), str(official))()
    assert found["d"][("geo", "1")] == [10.0, -6.0]
    assert found["s"][("jobs", "2")] == [5.0]  # shuffle 0 is not an official comparison
    assert script.cell(found["d"][("geo", "1")]) == "+2.00 ± 8.00"
    assert script.cell(found["s"][("jobs", "2")]) == "+5.00"
    assert script.cell([]) == "–"
    assert script.cell([-0.0]) == "+0.00" and script.cell([-0.001, 0.0]) == "+0.00 ± 0.00"
    assert script.counts(found) == "2 / 1"


def test_suite_pairs_average_the_support_samples_both_rows_have_within_a_draw(tmp_path):
    script = load_script()
    with_ = ("ProtoParser", "+ recombination with role-checked forward pairs")
    without = ("ProtoParser", "")
    dev, official = tmp_path / "dev.csv", tmp_path / "official.csv"
    with open(dev, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=FIELDS + ["sample"])
        writer.writeheader()
        for system, draw, sample, value in [(with_, "1", "", 50), (with_, "1", "1", 70), (with_, "1", "2", 90),
                                            (without, "1", "", 40), (without, "1", "1", 40),  # no sample 2
                                            (with_, "2", "", 20), (without, "2", "", 30), (without, "2", "", 10)]:
            writer.writerow(dict(zip(FIELDS + ["sample"], [*system, "geo", "1", draw, value, sample])))
    write_rows(official, [])
    found = script.pairs("ours-recomb", "ours", str(dev), str(official))()
    # Draw 1: samples "" and 1 in both (60 against 40); draw 2: the later of two rows of a sample counts.
    assert found["d"][("geo", "1")] == [20.0, 10.0]


def test_decoded_gains_take_the_sign_of_the_setting(tmp_path):
    script = load_script()
    path = tmp_path / "decoded.csv"
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["dataset", "shot", "split", "setting", "exact_match", "full_exact_match"])
        writer.writerow(["jobs", "1", "d1", "- entity coverage", "40", "50"])
        writer.writerow(["jobs", "1", "s2", "+ new-action bias 1", "52", "50"])
    assert script.decoded(str(path), "- entity coverage", -1.0)()["d"][("jobs", "1")] == [10.0]
    assert script.decoded(str(path), "+ new-action bias 1", 1.0)()["s"][("jobs", "1")] == [2.0]


def test_the_block_is_replaced_between_its_markers_only():
    script = load_script()
    document = f"before\n{script.START}\nold table\n{script.END}\nafter\n"
    assert script.replace_block(document, "new\n") == f"before\n{script.START}\nnew\n{script.END}\nafter\n"
    with pytest.raises(ValueError, match="no block"):
        script.replace_block("no markers here", "new\n")


def test_docs_results_shows_the_table_its_committed_rows_give():
    script = load_script()
    with open(os.path.join(PROJECT_ROOT, "docs", "results.md"), encoding="utf-8") as handle:
        document = handle.read()
    block = document.split(script.START, 1)[1].split(script.END, 1)[0]
    assert block == "\n" + script.table(measured_only=True), f"docs/results.md's components table is stale: run {script.COMMAND}"


def test_with_reach_changed_draws_are_weighted_by_their_share_and_unchanged_ones_must_agree(tmp_path):
    script = load_script()
    with_ = ("ProtoParser", "+ recombination with role-checked forward pairs")
    without = ("ProtoParser", "")
    dev, official, reach = tmp_path / "dev.csv", tmp_path / "official.csv", tmp_path / "reach.csv"
    write_rows(dev, [(*with_, "geo", "1", "1", "50"), (*without, "geo", "1", "1", "40"),
                     (*with_, "geo", "1", "2", "36"), (*without, "geo", "1", "2", "36"),
                     (*without, "geo", "1", "3", "20"), (*without, "jobs", "1", "1", "20")])  # fmt: skip
    write_rows(official, [])
    # geo: draws 1 and 3 change (3 in one sample of two), 2 and 4 do not; jobs: nothing changes.
    cells = [("geo", "1", "1", "0", "0"), ("geo", "1", "2", "0", "1"), ("geo", "1", "3", "0", "1"),
             ("geo", "1", "3", "1", "0"), ("geo", "1", "4", "0", "1"), ("jobs", "1", "1", "0", "1")]  # fmt: skip
    with open(reach, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["dataset", "shot", "draw", "sample", "same"])
        writer.writerows(cells)
    found = script.pairs("ours-recomb", "ours", str(dev), str(official), reach=str(reach))()
    assert found["d"][("geo", "1")] == [5.0]  # draw 1's +10 times the 2 of 4 draws changed
    assert found["d"][("jobs", "1")] == [0.0]
    assert found["d"][("geo", "2")] == []
    # An unchanged draw where the two rows were both run and differ is an error, not a gain.
    write_rows(dev, [(*with_, "geo", "1", "2", "50"), (*without, "geo", "1", "2", "36")])
    with pytest.raises(ValueError, match="fine-tunes alike"):
        script.pairs("ours-recomb", "ours", str(dev), str(official), reach=str(reach))()


def test_the_docs_table_leaves_out_rows_with_no_pair_yet():
    script = load_script()
    measured = script.empty()
    measured["d"][("geo", "1")] = [2.0, 4.0]
    rows = [script.Row("a", "added", "no", lambda: measured), script.Row("b", "added", "no", script.empty)]
    assert [line.split(" | ")[0] for line in script.table(rows).splitlines()[2:]] == ["| a", "| b"]
    assert [line.split(" | ")[0] for line in script.table(rows, measured_only=True).splitlines()[2:]] == ["| a"]
