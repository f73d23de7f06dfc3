import csv
import json
import os

import pytest

from fewshot_parser.commands import grid_same_inputs, run_grid
from fewshot_parser.common.errors import UserError
from fewshot_parser.common.provenance import PROJECT_ROOT, code_version, experiment_hash
from fewshot_parser.data.splits import make_splits
from tests.commands.grid_fakes import fake_evaluate, fake_train
from tests.data.splits_test import source

BEST = os.path.join(PROJECT_ROOT, "experiments", "best.jsonnet")
FORWARD = [{"type": "forward", "pairs_per_predicate": 20}]


def table(tmp_path) -> str:
    """Three rows on the best row's config that differ only in recombination: `plain`; `nothing-more`,
    whose extra pass makes no pair; `more-support`, whose support is repeated more often."""

    def row(name, reader):
        return {"name": name, "system": "ProtoParser", "setting": name, "about": "a test row.", "base": BEST,
                "overrides": {"dataset_reader": reader}}

    rows = [
        row("plain", {"generators": [FORWARD]}),
        row("nothing-more", {"generators": [FORWARD, [{"type": "reverse", "pairs_per_predicate": 0}]]}),
        row("more-support", {"generators": [FORWARD], "support_repeat": 7}),
    ]
    path = tmp_path / "rows.jsonnet"
    path.write_text(json.dumps(rows))
    return str(path)


def grid_args(tmp_path, root, systems, extra=()):
    import argparse

    parser = argparse.ArgumentParser()
    run_grid.RunGrid().add_subparser(parser.add_subparsers())
    return parser.parse_args(["run-grid", "--systems", *systems, "--systems-table", table(tmp_path), "--datasets",
                              "geo", "--shots", "1", "--jobs", "1", "--data-root", str(root), "--runs-dir",
                              str(tmp_path / "grid"), "--results", str(tmp_path / "suite.csv"), *extra])


def base_row(job, environment, exact_match):
    """The row a finished run of `plain` would have left, current for its config."""
    config = run_grid.evaluated_config(job, environment)
    values = {"system": "ProtoParser", "setting": "plain", "dataset": "geo", "shot": "1", "shuffle": str(job.shuffle),
              "sample": "0", "exact_match": exact_match, "seconds": "12.5", "code_version": "abc",
              "config_hash": experiment_hash(config), "pretrain_code_version": "abc", "pretrain_config_hash": "def",
              "threads": "1", "torch": "2.0", "machine": "cpu", "known_pretrained": "90.0", "known_finetuned": "89.0"}
    return {field: values.get(field, "") for field in run_grid.FIELDS}


@pytest.fixture()
def suite(tmp_path, monkeypatch):
    root = tmp_path / "splits"
    make_splits(source(tmp_path), "geo", str(root), draws=[1, 2], shots=[1], new=1, min_examples=3, max_share=0.2,
                known=5)
    monkeypatch.setenv("FEWSHOT_PRETRAIN_DIR", str(tmp_path / "pretrain"))
    monkeypatch.setenv("FEWSHOT_FAKE_MARKS", str(tmp_path / "marks"))
    systems = dict(run_grid.SYSTEMS)
    yield root
    run_grid.SYSTEMS.clear()  # the test table's rows leave with the test
    run_grid.SYSTEMS.update(systems)


def test_a_run_that_sees_the_inputs_of_a_recorded_run_is_recorded_from_it(tmp_path, suite, local_ray):
    run_grid.use_tables([table(tmp_path)])
    environment = {**os.environ, "FEWSHOT_SEED": "13"}
    plain = run_grid.plan_draws(["plain"], ["geo"], [1], str(suite), "g", str(tmp_path / "pretrain" / "splits"))
    with open(tmp_path / "suite.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=run_grid.FIELDS)
        writer.writeheader()
        writer.writerow(base_row(plain[0], environment, "41.5"))  # draw 1 only: draw 2's must run

    run_grid.run_grid(grid_args(tmp_path, suite, ["nothing-more", "more-support"], ["--same-inputs-as", "plain"]),
                      train=fake_train, evaluate=fake_evaluate)

    rows = {(row["setting"], row["shuffle"]): row for row in csv.DictReader(open(tmp_path / "suite.csv"))}
    derived = rows[("nothing-more", "1")]
    assert derived["same_inputs_as"] == "plain" and derived["exact_match"] == "41.5"
    assert derived["seconds"] == "0" and derived["known_finetuned"] == "89.0"
    assert derived["code_version"] == code_version() and derived["pretrain_code_version"] == "abc"
    nothing_more = run_grid.plan_draws(["nothing-more"], ["geo"], [1], str(suite), "g", str(tmp_path / "pretrain" / "splits"))[0]
    assert derived["config_hash"] == experiment_hash(run_grid.evaluated_config(nothing_more, environment))
    assert derived["config_hash"] != rows[("plain", "1")]["config_hash"]
    # Trained: the row whose support is repeated more (other instances), and draw 2 (no row of plain).
    trained = [line.split()[1] for line in open(tmp_path / "marks") if line.startswith("run")]
    assert sorted(trained) == ["0", "0", "0"]
    assert rows[("more-support", "1")]["same_inputs_as"] == "" and rows[("nothing-more", "2")]["same_inputs_as"] == ""
    assert not os.path.exists(tmp_path / "grid" / "nothing-more" / "geo_1shot_d1")


def test_several_bases_are_tried_in_turn(tmp_path, suite, local_ray):
    """`--same-inputs-as more-support plain`: the first row cannot prove draw 1 the same (other support
    instances), the second can; draw 2 has no row of either and trains."""
    run_grid.use_tables([table(tmp_path)])
    plain = run_grid.plan_draws(["plain"], ["geo"], [1], str(suite), "g", str(tmp_path / "pretrain" / "splits"))
    with open(tmp_path / "suite.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=run_grid.FIELDS)
        writer.writeheader()
        writer.writerow(base_row(plain[0], {**os.environ, "FEWSHOT_SEED": "13"}, "41.5"))
    args = grid_args(tmp_path, suite, ["nothing-more"], ["--same-inputs-as", "more-support", "plain"])
    assert args.same_inputs_as == ["more-support", "plain"]
    run_grid.run_grid(args, train=fake_train, evaluate=fake_evaluate)
    rows = {row["shuffle"]: row for row in csv.DictReader(open(tmp_path / "suite.csv")) if row["setting"] == "nothing-more"}
    assert rows["1"]["same_inputs_as"] == "plain" and rows["1"]["exact_match"] == "41.5"
    assert rows["2"]["same_inputs_as"] == ""


def test_a_stale_base_row_is_not_copied(tmp_path, suite, local_ray):
    run_grid.use_tables([table(tmp_path)])
    plain = run_grid.plan_draws(["plain"], ["geo"], [1], str(suite), "g", str(tmp_path / "pretrain" / "splits"))
    row = base_row(plain[0], {**os.environ, "FEWSHOT_SEED": "13"}, "41.5")
    row["config_hash"] = "0" * 16  # made by another config
    with open(tmp_path / "suite.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=run_grid.FIELDS)
        writer.writeheader()
        writer.writerow(row)
    run_grid.run_grid(grid_args(tmp_path, suite, ["nothing-more"], ["--same-inputs-as", "plain", "--draws", "1"]),
                      train=fake_train, evaluate=fake_evaluate)
    rows = [row for row in csv.DictReader(open(tmp_path / "suite.csv")) if row["setting"] == "nothing-more"]
    assert [row["same_inputs_as"] for row in rows] == [""]


def test_an_unknown_base_is_a_clear_error(tmp_path, suite):
    with pytest.raises(UserError, match="--same-inputs-as: unknown system 'nope'"):
        run_grid.run_grid(grid_args(tmp_path, suite, ["plain"], ["--same-inputs-as", "nope", "--dry-run"]))


def test_what_the_proof_sets_aside_and_what_it_does_not():
    reader = {"type": "fewshot_augmented", "generators": [FORWARD], "support_repeat": 4, "reader": {"type": "x"}}
    config = {"dataset_reader": reader, "teaching_recipe": True, "trainer": {"num_epochs": 1}}
    other = json.loads(json.dumps(config))
    other["dataset_reader"]["generators"] = []
    del other["teaching_recipe"]
    assert grid_same_inputs.without_generators(config) == grid_same_inputs.without_generators(other)
    other["dataset_reader"]["support_repeat"] = 5
    assert grid_same_inputs.without_generators(config) != grid_same_inputs.without_generators(other)
    # `generators` of a reader that is not recombination is a setting like any other.
    plain = {"dataset_reader": {"type": "x", "generators": [1]}}
    assert grid_same_inputs.without_generators(plain) == plain
