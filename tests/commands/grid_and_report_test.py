import csv
import json
import os

import pytest
from scipy.stats import wilcoxon

from fewshot_parser.commands import run_grid
from fewshot_parser.commands.grid_tasks import START_MARK
from fewshot_lab.commands.report import wilcoxon_p, write_report
from fewshot_parser.commands.run_grid import FIELDS, Job, is_finished, plan, record
from tests.commands.grid_fakes import fake_evaluate, fake_train


def ran(marks) -> list:
    """The shuffles the fake trainer fine-tuned, in order of start."""
    return [line.split()[1] for line in marks.read_text().splitlines() if line.startswith("run")] if marks.exists() else []


def test_plan_covers_the_grid(tmp_path):
    jobs = plan(["ours", "no-sup"], ["geo", "jobs"], [1, 2], [1, 2, 3], str(tmp_path))
    assert len(jobs) == 2 * 2 * 2 * 3
    assert jobs[0].config == "experiments/systems.jsonnet#ours/geo_1shot"
    assert any(j.config == "experiments/systems.jsonnet#no-sup/jobs_2shot" for j in jobs)
    assert run_grid.SYSTEMS["no-sup"][1] == "-sup"  # the row label of the ablation
    with pytest.raises(ValueError, match="unknown system"):
        plan(["nope"], ["geo"], [1], [1], str(tmp_path))


def test_killed_runs_are_redone_failed_ones_reported_and_finished_ones_kept(tmp_path, monkeypatch, local_ray):
    marks = tmp_path / "marks"
    monkeypatch.setenv("FEWSHOT_FAKE_MARKS", str(marks))
    results = tmp_path / "runs.csv"
    partial = tmp_path / "grid" / "irnet-cb" / "geo_1shot_s2"
    partial.mkdir(parents=True)
    (partial / "best.th").write_text("partial output of a killed run")
    args = grid_args(tmp_path, results, ["--shuffles", "1", "2"])
    run_grid.run_grid(args, train=fake_train, evaluate=fake_evaluate)
    assert sorted(ran(marks)) == ["1", "2"]
    # partial output replaced; checkpoints stay on the node; retention measured on a sample of train.txt
    assert sorted(os.listdir(partial)) == ["known_finetuned_metrics.json", "known_sample.txt", "metrics.json"]
    assert (tmp_path / "grid" / "irnet-cb" / "geo_1shot_s2.log").read_text().startswith(START_MARK)
    rows = {row["shuffle"]: row["exact_match"] for row in csv.DictReader(open(results))}
    assert rows == {"1": "50.0", "2": "50.0"}
    run_grid.run_grid(args, train=fake_train, evaluate=fake_evaluate)  # finished runs are kept
    assert len(ran(marks)) == 2
    monkeypatch.setenv("FEWSHOT_FAKE_FAIL", "3")
    monkeypatch.setenv("FEWSHOT_FAKE_EM", "0.25")
    args = grid_args(tmp_path, results, ["--shuffles", "1", "2", "3", "--redo-recorded"])
    (partial / "metrics.json").unlink()  # shuffle 2 is redone (its row is replaced), shuffle 3 fails
    run_grid.run_grid(args, train=fake_train, evaluate=fake_evaluate)
    rows = {row["shuffle"]: row["exact_match"] for row in csv.DictReader(open(results))}
    assert rows == {"1": "50.0", "2": "25.0"}
    failed = Job("irnet-cb", "geo", 1, 3, "", str(tmp_path / "grid" / "irnet-cb" / "geo_1shot_s3"))
    assert not is_finished(failed)  # a failed run leaves nothing that counts as finished, and its log
    assert "the fake training failed" in open(failed.serialization_dir + ".log").read()


def test_a_run_finished_before_its_grid_was_killed_is_recorded_once(tmp_path):
    finished = Job("ours", "geo", 1, 1, "experiments/geo_1shot.jsonnet", str(tmp_path / "ours" / "geo_1shot_s1"))
    recorded = Job("ours", "geo", 1, 2, "experiments/geo_1shot.jsonnet", str(tmp_path / "ours" / "geo_1shot_s2"))
    start = 1700000000.0
    for job in (finished, recorded):  # the grid is killed after both finished, before it records `finished`
        os.makedirs(job.serialization_dir)
        with open(os.path.join(job.serialization_dir, "metrics.json"), "w") as handle:
            json.dump({"test_exact_match": 0.5}, handle)
        with open(job.serialization_dir + ".log", "w") as log:
            log.write(f"{START_MARK}{start:.1f}\n")
    results = str(tmp_path / "runs.csv")
    record(recorded, 7.0, results)
    metrics = os.path.join(finished.serialization_dir, "metrics.json")
    os.utime(metrics, (start + 42.0, start + 42.0))
    assert run_grid.record_unrecorded([finished, recorded], results) == [finished]
    rows = {row["shuffle"]: row for row in csv.DictReader(open(results))}
    assert rows["1"]["exact_match"] == "50.0" and float(rows["1"]["seconds"]) == 42.0
    assert rows["2"]["seconds"] == "7.0"  # the recorded run keeps its row
    assert run_grid.record_unrecorded([finished, recorded], results) == []  # nothing twice
    record(recorded, 13.0, results)  # recording again replaces the row
    assert [row["seconds"] for row in csv.DictReader(open(results))] == ["42.0", "13.0"]


@pytest.mark.parametrize("redo_recorded", [False, True])
def test_a_recorded_run_is_not_redone_on_a_machine_without_its_directory(tmp_path, monkeypatch, redo_recorded, local_ray):
    results = tmp_path / "runs.csv"
    with open(results, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=FIELDS)
        writer.writeheader()  # shuffle 1 was run elsewhere: its row is here, its directory is not
        writer.writerow({"system": "IRNet", "setting": "cb", "dataset": "geo", "shot": 1, "shuffle": 1,
                         "exact_match": 12.5, "seconds": 3})
    marks = tmp_path / "marks"
    monkeypatch.setenv("FEWSHOT_FAKE_MARKS", str(marks))
    args = grid_args(tmp_path, results, ["--shuffles", "1", "2"] + (["--redo-recorded"] if redo_recorded else []))
    run_grid.run_grid(args, train=fake_train, evaluate=fake_evaluate)
    assert sorted(ran(marks)) == (["1", "2"] if redo_recorded else ["2"])
    rows = {row["shuffle"]: row["exact_match"] for row in csv.DictReader(open(results))}
    assert rows == {"1": "50.0" if redo_recorded else "12.5", "2": "50.0"}


def test_a_run_another_grid_is_training_is_skipped_and_left_alone(tmp_path, monkeypatch, local_ray):
    import fcntl

    results = tmp_path / "runs.csv"
    marks = tmp_path / "marks"
    monkeypatch.setenv("FEWSHOT_FAKE_MARKS", str(marks))
    busy = plan(["irnet-cb"], ["geo"], [1], [2], str(tmp_path / "grid"))[0]
    os.makedirs(busy.serialization_dir)
    (tmp_path / "grid" / "irnet-cb" / "geo_1shot_s2" / "best.th").write_text("another grid's run in progress")
    with open(busy.serialization_dir + ".lock", "w") as held:  # the other grid holds the run's lock
        fcntl.flock(held, fcntl.LOCK_EX)
        args = grid_args(tmp_path, results, ["--shuffles", "1", "2"])
        run_grid.run_grid(args, train=fake_train, evaluate=fake_evaluate)
    assert ran(marks) == ["1"]
    assert os.path.isfile(os.path.join(busy.serialization_dir, "best.th"))  # not deleted
    assert [row["shuffle"] for row in csv.DictReader(open(results))] == ["1"]
    run_grid.run_grid(args, train=fake_train, evaluate=fake_evaluate)  # once the other grid is gone, the run is done here
    assert ran(marks) == ["1", "2"]


def grid_args(tmp_path, results, extra):
    """Parsed `allennlp run-grid` arguments for IRNet (cb) on geo 1-shot, one process, under `tmp_path`."""
    import argparse

    parser = argparse.ArgumentParser()
    run_grid.RunGrid().add_subparser(parser.add_subparsers())
    return parser.parse_args(["run-grid", "--systems", "irnet-cb", "--datasets", "geo", "--shots", "1", "--jobs", "1",
                              "--runs-dir", str(tmp_path / "grid"), "--results", str(results)] + extra)


def test_wilcoxon_matches_scipy_on_known_numbers():
    ours = {("geo", 1, s): v for s, v in enumerate([30.0, 28.0, 35.0, 22.0, 40.0, 31.0], start=1)}
    other = {("geo", 1, s): v for s, v in enumerate([20.0, 27.5, 30.0, 25.0, 33.0, 21.0], start=1)}
    expected = wilcoxon([30.0, 28.0, 35.0, 22.0, 40.0, 31.0], [20.0, 27.5, 30.0, 25.0, 33.0, 21.0]).pvalue
    assert wilcoxon_p(ours, other) == pytest.approx(expected)
    assert wilcoxon_p(ours, {}) is None


def test_table_layout_on_a_tiny_fake_grid(tmp_path):
    results = tmp_path / "runs.csv"
    with open(results, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=FIELDS)
        writer.writeheader()
        for shuffle, (ours, ablated) in enumerate([(30, 20), (40, 25), (50, 45)], start=1):
            writer.writerow({"system": "ProtoParser", "setting": "", "dataset": "geo", "shot": 1, "shuffle": shuffle,
                             "exact_match": ours, "seconds": 1})
            writer.writerow({"system": "ProtoParser", "setting": "-sup", "dataset": "geo", "shot": 1, "shuffle": shuffle,
                             "exact_match": ablated, "seconds": 1})
    write_report(str(results), str(tmp_path / "out"))
    table1 = (tmp_path / "out" / "table1.md").read_text().splitlines()
    ours = next(line for line in table1 if line.startswith("| ProtoParser |"))
    cells = [c.strip() for c in ours.split("|")[1:-1]]
    assert cells[0] == "ProtoParser"
    # geo 1-shot: mean, std, count, the stale mark (these fake rows have no provenance), paper
    assert cells[2] == "40.00 ± 8.2 (n=3) † [27.49]"
    assert cells[1] == "– [27.09]"
    table2 = (tmp_path / "out" / "table2.md").read_text()
    assert "| ProtoParser -sup | – [23.63] | 30.00 ± 10.8 (n=3) † [18.86]" in table2
    rows = list(csv.reader(open(tmp_path / "out" / "table2.csv")))
    assert rows[0][:3] == ["system", "setting", "jobs_1shot"]
    assert json.load(open(tmp_path / "out" / "runs.json"))["ProtoParser|"]["geo_1shot_s2"] == 40.0
    cost = (tmp_path / "out" / "cost.md").read_text()
    assert "| ProtoParser -sup | 3 | – | 0.1 | – | 0.1 |" in cost  # three runs of 1 s on geo
    assert "| all | 6 |" in cost


def test_distance_to_the_paper_and_the_runs_still_missing(tmp_path):
    results = tmp_path / "runs.csv"
    with open(results, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=FIELDS)
        writer.writeheader()
        for shuffle in range(1, 6):  # DA geo 1-shot: all five shuffles, mean 10.67 against the paper's 9.67
            writer.writerow({"system": "DA", "setting": "", "dataset": "geo", "shot": 1, "shuffle": shuffle,
                             "exact_match": 9.67 + shuffle - 2, "seconds": 1})
        for shuffle in (1, 2):  # DA atis 2-shot: two of five, mean 10.18 against 17.18
            writer.writerow({"system": "DA", "setting": "", "dataset": "atis", "shot": 2, "shuffle": shuffle,
                             "exact_match": 10.18, "seconds": 1})
        for shuffle in range(1, 6):  # a variant beyond the paper, geo 2-shot: mean 50.45 against ProtoParser's 48.45
            writer.writerow({"system": "ProtoParser", "setting": "+ something", "dataset": "geo", "shot": 2,
                             "shuffle": shuffle, "exact_match": 50.45, "seconds": 1})
    write_report(str(results), str(tmp_path / "out"))
    gap = (tmp_path / "out" / "paper_gap.md").read_text()
    da = next(line for line in gap.splitlines() if line.startswith("| DA |"))
    cells = [c.strip() for c in da.split("|")[1:-1]]
    assert cells[2] == "+1.00"  # geo 1-shot, complete
    assert cells[6] == "-7.00 (n=2)"  # atis 2-shot, partial: not in the row's mean
    assert cells[1] == "–" and cells[-1] == "+1.00 over 1"
    assert "- DA, atis 2-shot: shuffles 3, 4, 5" in gap
    assert "- DA, jobs 1-shot: shuffles 1, 2, 3, 4, 5" in gap
    assert "- DA, geo 1-shot" not in gap
    # Variants are measured against the paper's ProtoParser, below the rows the paper reports, and
    # their untried columns are not "missing" runs.
    missing_at, variants_at = gap.index("## Runs still missing"), gap.index("## Our ProtoParser variants")
    variant = next(line for line in gap.splitlines() if line.startswith("| ProtoParser (+ something) |"))
    assert variants_at < gap.index(variant) < missing_at
    assert [c.strip() for c in variant.split("|")[1:-1]][5] == "+2.00"
    assert "+ something" not in gap[missing_at:gap.index("## Reproduction")]


def test_every_system_name_parses_on_the_command_line():
    import argparse

    from fewshot_parser.commands.run_grid import SYSTEMS, RunGrid

    parser = argparse.ArgumentParser()
    RunGrid().add_subparser(parser.add_subparsers())
    args = parser.parse_args(["run-grid", "--systems", *SYSTEMS, "--dry-run"])
    assert args.systems == list(SYSTEMS)


def test_figures_bar_chart_and_tsne_with_best_and_worst_shuffle(tmp_path, monkeypatch):
    import numpy

    from fewshot_lab.commands import figures
    from tests import fixture_split

    figures.bar_chart([("ours", [10.0, None, 30.0]), ("paper: ours", [12.0, 20.0, 25.0])],
                      [("jobs", 1), ("geo", 1), ("atis", 1)], str(tmp_path / "bars.png"))
    assert (tmp_path / "bars.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    encoded = []
    monkeypatch.setattr(figures, "encoder_points",
                        lambda archive, utterances: encoded.append(list(utterances)) or numpy.random.RandomState(0).rand(len(utterances), 5))
    files = {s: {"support": fixture_split("geo", "support"), "query": fixture_split("geo", "query")} for s in (1, 2, 3)}
    scores = {("geo", 1, 1): 20.0, ("geo", 1, 2): 35.0, ("geo", 1, 3): 5.0, ("jobs", 1, 1): 90.0}
    caption = figures.tsne_figure("unused.tar.gz", files, scores, "geo", 1, str(tmp_path / "tsne.png"))
    assert "best shuffle 2 (35.00%)" in caption and "worst shuffle 3 (5.00%)" in caption
    assert (tmp_path / "tsne.png").is_file()
    assert figures.tsne_figure("unused.tar.gz", files, {("geo", 1, 1): 20.0}, "geo", 1, str(tmp_path / "x.png")) is None


def test_progress_line_counts_and_estimates_what_is_left():
    job = Job("ours", "geo", 1, 3, "c", "d")
    line = run_grid.progress_line(3, 12, 600.0, job, "done")
    assert line.startswith("[#####............... ") and "3/12" in line and "~30 min left" in line


def test_report_of_the_tuning_split_uses_only_shuffle_0(tmp_path):
    results = tmp_path / "runs.csv"
    with open(results, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=FIELDS)
        writer.writeheader()
        for shuffle, value in ((0, 12.5), (1, 40.0), (2, 50.0)):
            writer.writerow({"system": "ProtoParser", "setting": "", "dataset": "jobs", "shot": 1, "shuffle": shuffle,
                             "exact_match": value, "seconds": 1})
    write_report(str(results), str(tmp_path / "tuning"), shuffles=[0])
    table = (tmp_path / "tuning" / "table1.md").read_text()
    assert "over shuffle 0 " in table and "--shuffles 0" in table
    assert "| ProtoParser | 12.50 ± 0.0 † [27.09] |" in table
    write_report(str(results), str(tmp_path / "main"))
    assert "| ProtoParser | 45.00 ± 5.0 (n=2) † [27.09] |" in (tmp_path / "main" / "table1.md").read_text()


def test_only_the_table_1_report_rewrites_readme_by_default(tmp_path, monkeypatch):
    import argparse

    from fewshot_lab.commands.report import GLANCE_START, GLANCE_END, default_readme, report_from_args

    assert default_readme("results", [5, 4, 3, 2, 1]) == "README.md"
    assert default_readme("results/tuning_x", [1, 2, 3, 4, 5]) is None and default_readme("results", [0]) is None
    monkeypatch.chdir(tmp_path)
    os.makedirs("results")
    with open("results/runs.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=FIELDS)
        writer.writeheader()
        for shuffle in (0, 1):
            writer.writerow({"system": "ProtoParser", "setting": "", "dataset": "jobs", "shot": 1, "shuffle": shuffle,
                             "exact_match": 12.5, "seconds": 1})
    readme = f"# mine\n\n{GLANCE_START}\nold table\n{GLANCE_END}\n"
    (tmp_path / "README.md").write_text(readme)

    def report(out, shuffles, readme_path=None):
        report_from_args(argparse.Namespace(results=["results/runs.csv"], out=out, shuffles=shuffles, reference=None,
                                            readme=readme_path, no_figures=True))

    report("results/tuning", [0])  # a tuning report: README keeps Table 1's block
    assert (tmp_path / "README.md").read_text() == readme and os.path.exists("results/tuning/table1.md")
    report("results", [1, 2, 3, 4, 5])
    assert "old table" not in (tmp_path / "README.md").read_text()
    (tmp_path / "notes.md").write_text(readme)
    report("results/tuning", [0], "notes.md")  # asked for explicitly
    assert "old table" not in (tmp_path / "notes.md").read_text()


def test_default_results_read_this_machine_first_then_other_slices(tmp_path):
    from fewshot_lab.commands.report import default_results

    assert default_results(str(tmp_path)) == [str(tmp_path / "runs.csv")]  # nothing yet: the usual file
    for name in ("runs_lent_machine.csv", "runs.csv", "runs.csv.lock", "table1.csv"):
        (tmp_path / name).write_text("")
    assert default_results(str(tmp_path)) == [str(tmp_path / "runs.csv"), str(tmp_path / "runs_lent_machine.csv")]


def test_checkpoints_of_finished_runs_are_pruned_and_the_archive_kept(tmp_path):
    job = Job("ours", "geo", 1, 1, "experiments/geo_1shot.jsonnet", str(tmp_path / "ours" / "geo_1shot_s1"))
    directory = tmp_path / "ours" / "geo_1shot_s1"
    directory.mkdir(parents=True)
    (directory / "model_state_e3_b0.th").write_bytes(b"x" * 100)
    os.link(directory / "model_state_e3_b0.th", directory / "best.th")  # AllenNLP hard-links the best epoch
    (directory / "training_state_e3_b0.th").write_bytes(b"y" * 30)
    (directory / "member_1").mkdir()  # an ensemble member's own checkpoints
    (directory / "member_1" / "best.th").write_bytes(b"z" * 20)
    (directory / "part_1" / "member_0").mkdir(parents=True)  # a member of a second pre-training's part
    (directory / "part_1" / "member_0" / "best.th").write_bytes(b"w" * 7)
    (directory / "part_1" / "best.th").write_bytes(b"v" * 3)
    assert run_grid.prune_checkpoints(job) == 0  # unfinished: untouched
    (directory / "metrics.json").write_text(json.dumps({"test_exact_match": 0.5}))
    assert run_grid.prune_checkpoints(job) == 0  # finished but no archive yet: untouched
    assert (directory / "best.th").exists()
    (directory / "model.tar.gz").write_bytes(b"archive")
    assert run_grid.prune_checkpoints(job) == 160  # the hard-linked pair counts once
    assert sorted(os.listdir(directory)) == ["member_1", "metrics.json", "model.tar.gz", "part_1"]
    assert not os.listdir(directory / "member_1") and os.listdir(directory / "part_1") == ["member_0"]
    assert not os.listdir(directory / "part_1" / "member_0")


def test_ablation_direction_is_compared_with_the_papers():
    from fewshot_lab.commands.report import OURS, direction_lines

    ours = {("jobs", 1, s): 30.0 for s in (1, 2)}
    removed = {("jobs", 1, s): 20.0 for s in (1, 2)}  # lower, as in the paper
    helped = {("jobs", 1, s): 35.0 for s in (1, 2)}  # higher, where the paper is lower
    table = {OURS: ours, ("ProtoParser", "-sup"): removed, ("ProtoParser", "-reg"): helped}
    paper = {OURS: {"jobs_1shot": 27.0}, ("ProtoParser", "-sup"): {"jobs_1shot": 23.0},
             ("ProtoParser", "-reg"): {"jobs_1shot": 25.0}}
    lines = direction_lines([("ProtoParser", "-sup"), ("ProtoParser", "-reg")], table, paper)
    assert lines[2].startswith("| ProtoParser -sup | agrees (-10.00 / -4.00) | – |")
    assert lines[2].endswith("| 1 of 1 |")
    assert "disagrees (+5.00 / -2.00)" in lines[3] and lines[3].endswith("| 0 of 1 |")


def test_a_results_path_that_is_not_a_results_file_is_refused_before_anything_runs(tmp_path, monkeypatch):
    from fewshot_parser.common.errors import UserError

    monkeypatch.setenv("FEWSHOT_FAKE_MARKS", str(tmp_path / "marks"))
    readme = tmp_path / "README.md"
    readme.write_text("# my notes\n\nnot a results file\n")
    with pytest.raises(UserError, match=r"README\.md:1: missing column.*nothing was run or written"):
        run_grid.run_grid(grid_args(tmp_path, readme, ["--shuffles", "1"]), train=fake_train, evaluate=fake_evaluate)
    assert readme.read_text() == "# my notes\n\nnot a results file\n"
    assert not (tmp_path / "marks").exists()
    with pytest.raises(UserError, match="is a directory"):
        run_grid.run_grid(grid_args(tmp_path, tmp_path, ["--shuffles", "1"]), train=fake_train, evaluate=fake_evaluate)


def test_the_report_refuses_an_out_path_that_is_a_file(tmp_path):
    from fewshot_parser.common.errors import UserError

    results = tmp_path / "runs.csv"
    with open(results, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=FIELDS)
        writer.writeheader()
        writer.writerow({"system": "ProtoParser", "setting": "", "dataset": "geo", "shot": 1, "shuffle": 1,
                         "exact_match": 10.0, "seconds": 1.0})
    notes = tmp_path / "notes.md"
    notes.write_text("keep me\n")
    with pytest.raises(UserError, match=r"notes\.md: --out .* is a file; nothing was written"):
        write_report(str(results), str(notes))
    assert notes.read_text() == "keep me\n"


def test_redo_stale_checks_only_the_rows_of_the_grids_own_runs(tmp_path, monkeypatch):
    from fewshot_parser.commands.grid_freshness import ConfigFreshness

    results = tmp_path / "runs.csv"
    with open(results, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=FIELDS)
        writer.writeheader()
        for system, setting in (("IRNet", "cb"), ("ProtoParser", ""), ("DA", "")):
            writer.writerow({"system": system, "setting": setting, "dataset": "geo", "shot": 1, "shuffle": 1,
                             "exact_match": 10.0, "seconds": 1.0})
    checked = []
    monkeypatch.setattr(ConfigFreshness, "stale_reason", lambda self, row, config: checked.append(row["system"]) or "stale")
    run_grid.run_grid(grid_args(tmp_path, results, ["--shuffles", "1", "--redo-stale", "--dry-run"]), train=fake_train, evaluate=fake_evaluate)
    assert checked == ["IRNet"]
