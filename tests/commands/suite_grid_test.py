import csv
import json
import os
import shutil

import pytest

from fewshot_parser.commands import run_grid
from fewshot_parser.commands.grid_freshness import ConfigFreshness
from fewshot_parser.common.errors import UserError
from fewshot_parser.data.splits import make_splits
from tests.commands.grid_fakes import fake_evaluate, fake_train
from tests.data.splits_test import LINES, source


def suite_args(tmp_path, root, extra=()):
    import argparse

    parser = argparse.ArgumentParser()
    run_grid.RunGrid().add_subparser(parser.add_subparsers())
    return parser.parse_args(["run-grid", "--systems", "ours", "--datasets", "geo", "--shots", "1", "2", "--jobs", "1",
                              "--data-root", str(root), "--runs-dir", str(tmp_path / "grid"),
                              "--results", str(tmp_path / "suite.csv"), *extra])


def test_a_grid_on_make_splits_draws_pretrains_once_per_draw_and_records_retention(tmp_path, monkeypatch, local_ray):
    root = tmp_path / "splits"
    make_splits(source(tmp_path), "geo", str(root), draws=[1, 2], shots=[1, 2], new=1, min_examples=3,
                max_share=0.2, known=5)
    marks = tmp_path / "marks"
    monkeypatch.setenv("FEWSHOT_FAKE_MARKS", str(marks))
    monkeypatch.setenv("FEWSHOT_PRETRAIN_DIR", str(tmp_path / "pretrain"))
    jobs = run_grid.plan_draws(["ours"], ["geo"], [1], str(root), "g", str(tmp_path / "pretrain" / "splits"))
    assert [(job.shuffle, job.run_split) for job in jobs] == [(1, 0), (2, 0)]
    config = run_grid.evaluated_config(jobs[1], dict(os.environ))
    assert config["pretrained_archive"] == str(tmp_path / "pretrain" / "splits" / "draw_2" / "geo-ours" / "model.tar.gz")
    run_grid.run_grid(suite_args(tmp_path, root), train=fake_train, evaluate=fake_evaluate)
    lines = marks.read_text().splitlines()
    assert sum(line.startswith("pretrain") for line in lines) == 2  # one per draw, shared by both shots
    assert sum(line.startswith("run") for line in lines) == 4
    rows = list(csv.DictReader(open(tmp_path / "suite.csv")))
    assert sorted((row["shot"], row["shuffle"]) for row in rows) == [("1", "1"), ("1", "2"), ("2", "1"), ("2", "2")]
    assert {(row["known_pretrained"], row["known_finetuned"]) for row in rows} == {("90.0", "70.0")}
    with open(tmp_path / "grid" / "ours" / "geo_2shot_d2" / "known_finetuned_metrics.json") as handle:
        measured = json.load(handle)
    assert measured["data_root"] == str(root / "draw_2")
    assert measured["data"].endswith(os.path.join("draw_2", "geo", "lemma_data", "shuffle_0_shot_2", "known.txt"))


def test_the_samples_of_a_draw_share_its_pretraining_and_are_rows_of_their_own(tmp_path, monkeypatch, local_ray):
    root = tmp_path / "splits"
    make_splits(source(tmp_path), "geo", str(root), draws=[1, 2], shots=[1], shuffles=[0, 1], new=1, min_examples=3,
                max_share=0.2, known=5)
    marks = tmp_path / "marks"
    monkeypatch.setenv("FEWSHOT_FAKE_MARKS", str(marks))
    monkeypatch.setenv("FEWSHOT_PRETRAIN_DIR", str(tmp_path / "pretrain"))
    jobs = run_grid.plan_draws(["ours"], ["geo"], [1], str(root), "g", "p")
    assert [(job.shuffle, job.run_split, os.path.basename(job.serialization_dir)) for job in jobs] == [
        (1, 0, "geo_1shot_d1"), (1, 1, "geo_1shot_d1s1"), (2, 0, "geo_1shot_d2"), (2, 1, "geo_1shot_d2s1")]
    assert jobs[1].name == "ours geo 1-shot d1 sample 1" and len({run_grid.job_key(job) for job in jobs}) == 4
    assert [job.sample for job in run_grid.plan_draws(["ours"], ["geo"], [1], str(root), "g", "p", samples=[1])] == [1, 1]
    with pytest.raises(UserError, match="not all of 1, 5"):
        run_grid.plan_draws(["ours"], ["geo"], [1], str(root), "g", "p", samples=[1, 5])
    run_grid.run_grid(suite_args(tmp_path, root, ["--shots", "1"]), train=fake_train, evaluate=fake_evaluate)
    lines = marks.read_text().splitlines()
    assert sum(line.startswith("pretrain") for line in lines) == 2  # one per draw, shared by its samples
    assert sum(line.startswith("run") for line in lines) == 4
    rows = list(csv.DictReader(open(tmp_path / "suite.csv")))
    assert [(row["shuffle"], row["sample"]) for row in rows] == [("1", "0"), ("1", "1"), ("2", "0"), ("2", "1")]
    (tmp_path / "suite.csv").write_text("".join(
        line for line in open(tmp_path / "suite.csv") if not line.startswith("ProtoParser,,geo,1,2,")))
    run_grid.run_grid(suite_args(tmp_path, root, ["--shots", "1", "--samples", "1"]), train=fake_train,
                      evaluate=fake_evaluate)
    rows = list(csv.DictReader(open(tmp_path / "suite.csv")))  # draw 2's sample 1 recorded again from its run
    assert [(row["shuffle"], row["sample"]) for row in rows] == [("1", "0"), ("1", "1"), ("2", "1")]
    with open(tmp_path / "grid" / "ours" / "geo_1shot_d2s1" / "known_finetuned_metrics.json") as handle:
        assert json.load(handle)["data_root"] == str(root / "draw_2")


def test_rows_without_a_sample_column_are_sample_zero(tmp_path):
    row = {"system": "ProtoParser", "setting": "", "dataset": "geo", "shot": "1", "shuffle": "2"}
    assert run_grid.row_key(row) == run_grid.row_key({**row, "sample": ""}) == run_grid.row_key({**row, "sample": "0"})
    assert run_grid.row_key({**row, "sample": "1"}) != run_grid.row_key(row)


def test_official_rows_measure_retention_on_a_sample_of_their_training_examples(tmp_path, monkeypatch):
    monkeypatch.setenv("FEWSHOT_DATA_DIR", str(tmp_path / "data"))
    job = run_grid.Job("ours", "geo", 1, 3, "experiments/geo_1shot.jsonnet", str(tmp_path / "run"))
    assert job.known_data() is None and job.name == "ours geo 1-shot s3"  # no such split here
    train = tmp_path / "data" / "geo" / "lemma_data" / "shuffle_3_shot_1" / "train.txt"
    train.parent.mkdir(parents=True)
    train.write_text("".join(f"utterance {i}\t( lf{i} )\n" for i in range(40)))
    assert job.known_data() == str(train) and job.known_sample() == run_grid.OFFICIAL_KNOWN_SAMPLE
    os.makedirs(job.serialization_dir)
    with open(os.path.join(job.serialization_dir, "metrics.json"), "w") as handle:
        json.dump({"test_exact_match": 0.5}, handle)
    run_grid.record(job, 1.0, str(tmp_path / "runs.csv"))
    row = next(csv.DictReader(open(tmp_path / "runs.csv")))  # a run that measured nothing leaves the cells empty
    assert row["known_pretrained"] == "" and row["known_finetuned"] == "" and row["shuffle"] == "3"


def test_a_retention_sample_is_seeded_and_keeps_the_file_order(tmp_path):
    from fewshot_parser.commands.grid_tasks import sample_lines

    source = tmp_path / "train.txt"
    source.write_text("".join(f"utterance {i}\t( lf{i} )\n" for i in range(40)) + "last\t( x )")
    first = sample_lines(str(source), 10, str(tmp_path / "a.txt"))
    lines = open(first).read().splitlines()
    assert len(lines) == 10 and len(set(lines)) == 10
    indices = [int(line.split()[1]) if line.startswith("utterance") else 40 for line in lines]
    assert indices == sorted(indices)
    assert open(sample_lines(str(source), 10, str(tmp_path / "b.txt"))).read() == open(first).read()
    everything = open(sample_lines(str(source), 100, str(tmp_path / "c.txt"))).read().splitlines()
    assert everything == open(source).read().splitlines()


def test_the_suite_table_gives_mean_standard_error_and_retention(tmp_path):
    from fewshot_parser.commands.paper_results import paper_numbers
    from fewshot_lab.commands.report import at_a_glance
    from fewshot_lab.commands.suite_report import write_suite_report

    results = tmp_path / "runs.csv"
    with open(results, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=run_grid.FIELDS)
        writer.writeheader()
        for draw, em, before, after in ((1, 20.0, 90.0, 60.0), (2, 30.0, 80.0, 70.0), (3, 40.0, 100.0, 80.0)):
            writer.writerow({"system": "ProtoParser", "setting": "", "dataset": "geo", "shot": 1, "shuffle": draw,
                             "exact_match": em, "seconds": 1.0, "known_pretrained": before, "known_finetuned": after})
    text = write_suite_report([str(results)], str(tmp_path / "out"), "dev")
    # mean 30, standard error 10 / sqrt(3); retention 90 -> 70, a drop of 20 points
    assert "| ProtoParser | – | 30.00 ± 5.77 (n=3) † |" in text and "| 90.00 | 70.00 | -20.00 | geo -20.00 |" in text
    # rows without provenance are marked, as in Table 1
    assert "- ProtoParser, geo 1-shot: no provenance (draws 1, 2, 3)" in (tmp_path / "out" / "table.md").read_text()
    assert (tmp_path / "out" / "table.md").read_text().count("| ProtoParser") == 1
    rows = list(csv.DictReader(open(tmp_path / "out" / "table.csv")))
    assert rows[0]["standard_error"] == "5.77" and rows[0]["known_drop"] == "-20.00"
    glance = at_a_glance({("ProtoParser", ""): {("geo", 1, 1): 10.0}}, paper_numbers(), {}, (1,),
                         list(csv.DictReader(open(results))))
    assert "| ours, faithful | – | 30.00 ± 5.77 (n=3) † |" in glance


def data_paths(value):
    """Every file a rendered config names as data (`a+b*5` split), at any depth."""
    if isinstance(value, dict):
        return [p for v in value.values() for p in data_paths(v)]
    if isinstance(value, list):
        return [p for v in value for p in data_paths(v)]
    if isinstance(value, str) and (value.endswith(".txt") or "lemma_data" in value or ".txt+" in value or ".txt*" in value):
        return [part.split("*")[0] for part in value.split("+")]
    return []


def test_no_system_on_the_dev_suite_reads_an_official_split(tmp_path, monkeypatch):
    """Every grid system, rendered for a dev-suite draw, names only files under that draw's data root:
    relative paths (resolved against FEWSHOT_DATA_DIR, the draw) that exist there, never the official
    data folder (a tuning run on the suite must not see an official support or query file)."""
    root = tmp_path / "dev"
    make_splits(source(tmp_path), "geo", str(root), draws=[1], shots=[1], new=1, min_examples=3, max_share=0.2, known=5)
    draw = root / "draw_1"
    monkeypatch.chdir(tmp_path)  # the official data under ./data is not there, so nothing can fall back to it
    for dataset in ("jobs", "atis"):  # the other datasets' layout, for rendering only
        (draw / dataset).symlink_to(draw / "geo")
    from tests import PROJECT_ROOT

    checked = 0
    for system in run_grid.SYSTEMS:
        for dataset in ("jobs", "geo", "atis"):
            job = run_grid.plan_draws([system], [dataset], [1], str(root), "grid", "pretrain")[0]
            job = job._replace(config=os.path.join(PROJECT_ROOT, job.config))
            config = run_grid.evaluated_config(job, {"FEWSHOT_SEED": "13", "FEWSHOT_PRETRAIN_DIR": "unused"})
            for path in data_paths(config):
                assert not os.path.isabs(path) and not path.startswith("data/"), (system, dataset, path)
                assert (draw / path).exists(), (system, dataset, path)
                checked += 1
    assert checked > 3 * len(run_grid.SYSTEMS)


def test_retention_with_a_sample_evaluates_both_archives_on_the_sampled_lines(tmp_path):
    import io

    from fewshot_parser.commands.grid_tasks import KNOWN_SAMPLE, RunSpec, evaluate_known

    train = tmp_path / "train.txt"
    train.write_text("".join(f"utterance {i}\t( lf{i} )\n" for i in range(30)))
    spec = RunSpec(name="ours geo 1-shot s1", config="c.jsonnet", shuffle=1, environment={}, project=str(tmp_path),
                   archive="pretrain/model.tar.gz", known=str(train), known_sample=5)
    seen = []

    def evaluate(spec, archive, data, output, project, log):
        seen.append((os.path.relpath(archive, str(tmp_path)), data, os.path.basename(output)))
        return 0

    (tmp_path / "run").mkdir()
    evaluate_known(spec, str(tmp_path / "run"), str(tmp_path), io.StringIO(), evaluate)
    sample = str(tmp_path / "run" / KNOWN_SAMPLE)
    assert seen == [("pretrain/model.tar.gz", sample, "known_pretrained_metrics.json"),
                    (os.path.join("run", "model.tar.gz"), sample, "known_finetuned_metrics.json")]
    assert len(open(sample).read().splitlines()) == 5


def test_retention_evaluates_a_pretrained_archive_once_per_lines(tmp_path):
    import io

    from fewshot_parser.commands.grid_tasks import KNOWN_METRICS, RunSpec, evaluate_known

    (tmp_path / "pretrain").mkdir()
    (tmp_path / "pretrain" / "model.tar.gz").write_bytes(b"archive")
    known = tmp_path / "known.txt"
    known.write_text("utterance\t( lf )\n")
    seen = []

    def evaluate(spec, archive, data, output, project, log):
        seen.append(os.path.relpath(archive, str(tmp_path)))
        with open(output, "w") as handle:
            json.dump({"exact_match": len(seen)}, handle)
        return 0

    def run(name):
        spec = RunSpec(name=name, config="c.jsonnet", shuffle=1, environment={}, project=str(tmp_path),
                       archive="pretrain/model.tar.gz", known=str(known))
        (tmp_path / name).mkdir()
        evaluate_known(spec, str(tmp_path / name), str(tmp_path), io.StringIO(), evaluate)
        return [json.load(open(tmp_path / name / metrics)) for metrics in KNOWN_METRICS]

    first, second = run("one"), run("two")
    assert seen == ["pretrain/model.tar.gz", os.path.join("one", "model.tar.gz"), os.path.join("two", "model.tar.gz")]
    assert second[0] == first[0] == {"exact_match": 1} and second[1] == {"exact_match": 3}
    known.write_text("another utterance\t( lf )\n")  # other lines: the pre-trained archive is evaluated again
    run("three")
    assert seen[3:] == ["pretrain/model.tar.gz", os.path.join("three", "model.tar.gz")]


def test_at_a_glance_gives_retention_on_training_examples_of_the_official_rows():
    from fewshot_parser.commands.paper_results import paper_numbers
    from fewshot_lab.commands.report import at_a_glance

    official = [{"system": "ProtoParser", "setting": "", "dataset": "geo", "shot": "1", "shuffle": str(shuffle),
                 "exact_match": "10.0", "known_pretrained": before, "known_finetuned": after}
                for shuffle, before, after in ((1, "100.0", "60.0"), (2, "98.0", "70.0"), (3, "", ""), (9, "1.0", "1.0"))]
    table = {("ProtoParser", ""): {("geo", 1, 1): 10.0, ("geo", 1, 2): 10.0, ("geo", 1, 3): 10.0}}
    glance = at_a_glance(table, paper_numbers(), {}, (1, 2, 3), None, official)
    faithful = next(line for line in glance.splitlines() if line.startswith("| ours, faithful"))
    # shuffles 1 and 2 measured it (shuffle 3 did not, 9 is outside the table's shuffles): 99 -> 65
    assert faithful.endswith("| 99.0 → 65.0 (-34.0, n=2) |")
    assert at_a_glance(table, paper_numbers(), {}, (1, 2, 3)).count("| – |") >= 1


def test_table_1_gives_each_row_its_retention_on_training_examples():
    from fewshot_parser.commands.paper_results import paper_numbers
    from fewshot_lab.commands.report import table_lines, training_retention

    rows = [{"system": "ProtoParser", "setting": "", "dataset": "geo", "shot": "1", "shuffle": str(shuffle),
             "exact_match": "10.0", "known_pretrained": before, "known_finetuned": after}
            for shuffle, before, after in ((1, "100.0", "70.0"), (2, "100.0", "80.0"), (0, "1.0", "1.0"))]
    rows.append({"system": "IRNet", "setting": "cb", "dataset": "geo", "shot": "1", "shuffle": "1",
                 "exact_match": "5.0", "known_pretrained": "", "known_finetuned": ""})
    kept = training_retention(rows, (1, 2))
    assert kept == {("ProtoParser", ""): (100.0, 75.0, -25.0, 2)}  # shuffle 0 left out, IRNet measured nothing
    table = {("ProtoParser", ""): {("geo", 1, 1): 10.0, ("geo", 1, 2): 10.0}, ("IRNet", "cb"): {("geo", 1, 1): 5.0}}
    lines, csv_rows = table_lines([("ProtoParser", ""), ("IRNet", "cb")], table, paper_numbers(), 2, None, kept)
    assert lines[2].endswith("| 100.0 → 75.0 (-25.0, n=2) |") and lines[3].endswith("| – |")
    assert csv_rows[0][-2:] == ["known_pretrained", "known_finetuned"] and csv_rows[1][-2:] == ["100.00", "75.00"]


def test_the_retention_drop_is_also_given_per_dataset():
    from fewshot_lab.commands.suite_report import drop_by_dataset

    def run(before, after):
        return {"known_pretrained": str(before), "known_finetuned": str(after)}

    columns = {("geo", 1): [run(90, 80)], ("geo", 2): [run(100, 100)], ("jobs", 2): [run(90, 95)], ("atis", 1): [{}]}
    assert drop_by_dataset(columns) == "jobs +5.00, geo -5.00"
    assert drop_by_dataset({("geo", 1): [{}]}) == "–"


def write_suite_rows(path, jobs, hashes, pretrain_versions=None):
    from fewshot_parser.common.provenance import code_version

    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=run_grid.FIELDS)
        writer.writeheader()
        for job, config_hash, pretrained in zip(jobs, hashes, pretrain_versions or ["-"] * len(jobs)):
            system, setting, dataset, shot, draw, _ = run_grid.job_key(job)
            writer.writerow({"system": system, "setting": setting, "dataset": dataset, "shot": shot, "shuffle": draw,
                             "exact_match": "50.0", "seconds": "1.0", "code_version": code_version(),
                             "config_hash": config_hash, "pretrain_code_version": pretrained})


def two_draws(tmp_path, monkeypatch):
    """The faithful row's geo 1-shot runs on two draws, their environment and current config hashes."""
    from fewshot_parser.common.provenance import experiment_hash

    root = tmp_path / "splits"
    make_splits(source(tmp_path), "geo", str(root), draws=[1, 2], shots=[1], new=1, min_examples=3,
                max_share=0.2, known=5)
    monkeypatch.setenv("FEWSHOT_PRETRAIN_DIR", str(tmp_path / "pretrain"))
    environment = dict(os.environ, FEWSHOT_SEED="13")
    jobs = run_grid.plan_draws(["ours"], ["geo"], [1], str(root), str(tmp_path / "grid"), str(tmp_path / "pretrain"))
    return jobs, environment, [experiment_hash(run_grid.evaluated_config(job, environment)) for job in jobs]


def test_a_suite_row_whose_config_changed_is_stale(tmp_path, monkeypatch):
    jobs, environment, hashes = two_draws(tmp_path, monkeypatch)
    results = tmp_path / "suite.csv"
    write_suite_rows(results, jobs, [hashes[0], "0123456789ab"])
    assert run_grid.stale_keys(jobs, str(results), environment, ConfigFreshness()) == {run_grid.job_key(jobs[1])}


def test_redo_stale_on_draws_lists_the_stale_runs_and_only_with_the_flag(tmp_path, capsys):
    root = tmp_path / "splits"
    make_splits(source(tmp_path), "geo", str(root), draws=[1], shots=[1, 2], new=1, min_examples=3,
                max_share=0.2, known=5)
    jobs = run_grid.plan_draws(["ours"], ["geo"], [1, 2], str(root), str(tmp_path / "grid"), str(tmp_path / "pretrain"))
    write_suite_rows(tmp_path / "suite.csv", jobs, ["0123456789ab", "0123456789ab"])
    run_grid.run_grid(suite_args(tmp_path, root, ["--dry-run"]), train=fake_train, evaluate=fake_evaluate)
    assert "stale" not in capsys.readouterr().out
    run_grid.run_grid(suite_args(tmp_path, root, ["--redo-stale", "--dry-run"]), train=fake_train, evaluate=fake_evaluate)
    states = [line.split()[0] for line in capsys.readouterr().out.splitlines() if line.startswith("  ")]
    assert states == ["stale", "stale"]


def test_the_suite_table_marks_a_stale_draw_and_says_why(tmp_path, monkeypatch):
    from fewshot_lab.commands.suite_report import write_suite_report
    from fewshot_parser.common.provenance import experiment_hash

    root = tmp_path / "splits"
    make_splits(source(tmp_path), "geo", str(root), draws=[1, 2], shots=[1], new=1, min_examples=3,
                max_share=0.2, known=5)
    monkeypatch.setenv("FEWSHOT_DATA_DIR", str(tmp_path))  # the suite "splits" is $FEWSHOT_DATA_DIR/splits
    monkeypatch.setenv("FEWSHOT_PRETRAIN_DIR", str(tmp_path / "pretrain"))
    # ours-random is a probe row: the grid and the suite report read lab/systems.jsonnet too.
    monkeypatch.setenv("FEWSHOT_SYSTEMS_TABLES", "lab/systems.jsonnet")
    monkeypatch.setattr(run_grid, "SYSTEMS", run_grid.read_systems())
    environment = dict(os.environ, FEWSHOT_SEED="13")
    jobs = run_grid.plan_draws(["ours", "ours-random"], ["geo"], [1], str(root), str(tmp_path / "grid"),
                               str(tmp_path / "pretrain" / "splits"))
    hashes = [experiment_hash(run_grid.evaluated_config(job, environment)) for job in jobs]
    hashes[1] = "0123456789ab"  # ours, draw 2: made by another config
    write_suite_rows(tmp_path / "suite.csv", jobs, hashes)
    write_suite_report([str(tmp_path / "suite.csv")], str(tmp_path / "out"), "splits")
    table = (tmp_path / "out" / "table.md").read_text()
    # a --data-root grid's results beside its draws: the draws are found there, whatever the suite's name
    shutil.copy(tmp_path / "suite.csv", root / "runs.csv")
    write_suite_report([str(root / "runs.csv")], str(tmp_path / "out2"), "another-name")
    assert (tmp_path / "out2" / "table.md").read_text().count("†") == table.count("†")
    ours = next(line for line in table.splitlines() if line.startswith("| ProtoParser |"))
    random_words = next(line for line in table.splitlines() if line.startswith("| ProtoParser (random words) |"))
    assert "(n=2) †" in ours and "†" not in random_words
    assert "- ProtoParser, geo 1-shot: config changed (draw 2)" in table
