"""
Issue 54, honest reproduction: every row and archive records what decides its floats (torch threads,
torch version, machine), `run-grid --table` compares each split with the committed value and says why
they may differ, the Make targets run with the committed rows' thread count, the time estimate counts
a pre-training once, and `benchmarks/thread_noise.py` measures the noise across thread counts.
"""
import csv
import json
import subprocess

from fewshot_parser.commands import run_grid
from fewshot_parser.commands.grid_tasks import START_MARK
from fewshot_parser.commands.run_grid import FIELDS, Job, read_rows, record, summary_table
from fewshot_parser.common.provenance import NUMERICS, cpu_model, numerics
from fewshot_parser.common.results_io import read_result_rows
from tests import PROJECT_ROOT, load_benchmark

OLD_FIELDS = ["system", "setting", "dataset", "shot", "shuffle", "exact_match", "seconds",
              "code_version", "config_hash", "pretrain_code_version", "pretrain_config_hash"]


def finished_run(directory, shuffle: int, exact_match: float, provenance: dict = None) -> None:
    directory.mkdir(parents=True)
    (directory / "metrics.json").write_text(json.dumps({"test_exact_match": exact_match}))
    (directory / "config.json").write_text(json.dumps({"test_data_path": f"geo/lemma_data/shuffle_{shuffle}_shot_1/query.txt"}))
    if provenance is not None:
        (directory / "provenance.json").write_text(json.dumps(provenance))


def write_csv(path, rows, fields=FIELDS) -> str:
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    return str(path)


def row(shuffle: int, exact_match: float, **extra) -> dict:
    return {"system": "ProtoParser", "setting": "", "dataset": "geo", "shot": 1, "shuffle": shuffle,
            "exact_match": exact_match, "seconds": 1.0, **extra}


def test_numerics_name_threads_torch_and_the_processor():
    import torch

    recorded = numerics()
    assert list(recorded) == list(NUMERICS) == ["threads", "torch", "machine"]
    assert recorded["threads"] == str(torch.get_num_threads()) and recorded["torch"] == torch.__version__
    assert recorded["machine"] == cpu_model() and recorded["machine"] not in ("", "unknown")


def test_a_row_records_the_numerics_its_run_wrote_and_old_rows_still_read(tmp_path):
    assert FIELDS[:len(OLD_FIELDS)] == OLD_FIELDS and FIELDS[len(OLD_FIELDS):len(OLD_FIELDS) + 3] == ["threads", "torch", "machine"]
    results = str(tmp_path / "runs.csv")
    write_csv(results, [row(2, 10.0)], OLD_FIELDS)  # a file written before the new columns
    node = {"code_version": "abc", "threads": "1", "torch": "2.0.1", "machine": "Some CPU @ 2.1GHz"}
    finished_run(tmp_path / "ours" / "geo_1shot_s1", 1, 0.25, node)
    record(Job("ours", "geo", 1, 1, "experiments/geo_1shot.jsonnet", str(tmp_path / "ours" / "geo_1shot_s1")), 1.0, results)
    rows = {r["shuffle"]: r for r in read_rows(results)}
    assert (rows["1"]["threads"], rows["1"]["torch"], rows["1"]["machine"]) == ("1", "2.0.1", "Some CPU @ 2.1GHz")
    assert rows["2"]["threads"] == rows["2"]["machine"] == ""  # the old row keeps empty cells
    assert len(read_result_rows(results)) == 2
    # A run without recorded numerics gets empty cells, never the driver's own machine.
    finished_run(tmp_path / "ours" / "geo_1shot_s3", 3, 0.5)
    record(Job("ours", "geo", 1, 3, "experiments/geo_1shot.jsonnet", str(tmp_path / "ours" / "geo_1shot_s3")), 1.0, results)
    assert {r["shuffle"]: r["machine"] for r in read_rows(results)}["3"] == ""


def test_old_rows_without_the_new_columns_still_make_the_report(tmp_path):
    from fewshot_lab.commands.report import write_report
    from fewshot_lab.staleness import stale_reason

    results = write_csv(tmp_path / "old.csv", [row(s, 20.0 + s) for s in (1, 2, 3)], OLD_FIELDS)
    write_report(results, str(tmp_path / "tables"))
    assert (tmp_path / "tables" / "table1.md").is_file()
    assert stale_reason(read_rows(results)[0], run_grid.SYSTEMS)  # no provenance: stale, as before


def grid_jobs(tmp_path):
    return [Job("ours", "geo", 1, s, "experiments/geo_1shot.jsonnet", str(tmp_path / "grid" / f"s{s}")) for s in (1, 2, 3)]


def test_the_table_shows_each_committed_split_the_difference_and_why(tmp_path):
    jobs = grid_jobs(tmp_path)
    ours = write_csv(tmp_path / "ours.csv", [row(1, 2.84, threads=1, torch="2.1.0", machine="CPU A"),
                                             row(2, 9.95, threads=1, torch="2.1.0", machine="CPU A"),
                                             row(3, 28.44, threads=1, torch="2.1.0", machine="CPU A")])
    committed = write_csv(tmp_path / "committed.csv", [row(1, 3.32), row(2, 10.43), row(3, 27.96)], OLD_FIELDS)
    table = summary_table(jobs, ours, committed)
    lines = table.splitlines()
    assert any(line.split()[:4] == ["committed", "3.32", "10.43", "27.96"] for line in lines), table
    assert any(line.split()[:4] == ["difference", "-0.48", "-0.48", "+0.48"] for line in lines), table
    # geo 1-shot has 211 queries: one query is 0.47 points (and both sides are rounded to 0.01).
    assert f"agrees with {committed} within one query (one query = 0.47 points) on every split" in table
    assert "another thread count, torch build or processor sums floats in another order" in table
    assert "Committed rows: threads, torch and machine not recorded; this run: threads 1, torch 2.1.0, machine CPU A" in table

    beyond = write_csv(tmp_path / "beyond.csv", [row(1, 2.37, threads=2), row(2, 10.43, threads=2), row(3, 28.44, threads=2)])
    table = summary_table(jobs, beyond, committed)
    assert f"differs from {committed} by more than one query (one query = 0.47 points) on s1 (-0.95); " \
           "agrees exactly on s2 and within one query on s3" in table

    table = summary_table(jobs, ours, ours)
    assert f"agrees exactly with {ours} on every split" in table and "(identical per shuffle)" in table
    assert "numerics: threads 1, torch 2.1.0, machine CPU A" in table


def test_one_query_comes_from_the_splits_query_file_when_there(tmp_path, monkeypatch):
    split = tmp_path / "data" / "geo" / "lemma_data" / "shuffle_1_shot_1"
    split.mkdir(parents=True)
    (split / "query.txt").write_text("".join(f"q{i}\t( a:i s0 )\n" for i in range(50)))  # one query = 2 points
    monkeypatch.setenv("FEWSHOT_DATA_DIR", str(tmp_path / "data"))
    job = Job("ours", "geo", 1, 1, "experiments/geo_1shot.jsonnet", str(tmp_path / "grid" / "s1"))
    assert run_grid.query_size(job) == 50
    assert run_grid.query_size(job._replace(shuffle=2)) == 211  # not there: the benchmark's size
    ours = write_csv(tmp_path / "ours.csv", [row(1, 20.0, threads=1)])
    committed = write_csv(tmp_path / "committed.csv", [row(1, 22.0)])
    assert "within one query (one query = 2.00 points)" in summary_table([job], ours, committed)


def test_make_targets_run_with_the_committed_thread_count():
    # STAMP names a file that is not a makefile: with STAMP=Makefile, make remade "Makefile" by running
    # the virtualenv recipe for real (GNU make remakes makefiles even under -n).
    for target in ("geo-1shot", "best"):
        command = subprocess.run(["make", "-n", "-C", PROJECT_ROOT, target, "STAMP=README.md"],
                                 capture_output=True, text=True, check=True).stdout
        assert "--threads 1 " in command, command
    command = subprocess.run(["make", "-n", "-C", PROJECT_ROOT, "run", "THREADS=4", "STAMP=README.md"],
                             capture_output=True, text=True, check=True).stdout
    assert "--threads 4 " in command


def test_the_estimate_counts_a_pretraining_once(tmp_path):
    job = Job("ours", "geo", 1, 1, "c", "d")
    # A 30-minute pre-training, then one 1-minute fine-tune finished: 4 fine-tunes are left, one at a time.
    line = run_grid.progress_line(1, 5, 31 * 60.0, job, "done", spans=[(1800.0, 1860.0)], parallel=1)
    assert "~4 min left" in line, line
    # Two at a time, as the spans overlapped: 4 minutes of fine-tunes left take 2.
    line = run_grid.progress_line(2, 6, 32 * 60.0, job, "done", spans=[(1800.0, 1860.0), (1800.0, 1860.0)])
    assert "~2 min left" in line, line
    # Without the spans (the old estimate) the pre-training was spread over the fine-tunes.
    assert "~124 min left" in run_grid.progress_line(1, 5, 31 * 60.0, job, "done")
    # The spans come from the run's log and metrics.json.
    directory = tmp_path / "run"
    directory.mkdir()
    (tmp_path / "run.log").write_text(f"{START_MARK}100.0\n")
    (directory / "metrics.json").write_text("{}")
    import os

    os.utime(directory / "metrics.json", (160.0, 160.0))
    assert run_grid.run_span(Job("ours", "geo", 1, 1, "c", str(directory))) == (100.0, 160.0)
    assert run_grid.run_span(Job("ours", "geo", 1, 1, "c", str(tmp_path / "missing"))) is None


def test_thread_noise_table_per_column(tmp_path):
    benchmark = load_benchmark("thread_noise")
    one = write_csv(tmp_path / "t1.csv", [row(1, 3.32, threads=1), row(2, 10.43, threads=1),
                                          {**row(1, 20.0, threads=1), "dataset": "jobs"}])
    two = write_csv(tmp_path / "t2.csv", [row(1, 2.37, threads=2), row(2, 10.43, threads=2),
                                          {**row(1, 20.0, threads=2), "dataset": "jobs"}])
    first = benchmark.read_values(one, "ProtoParser", "", [1, 2, 3, 4, 5])
    second = benchmark.read_values(two, "ProtoParser", "", [1, 2, 3, 4, 5])
    table = benchmark.noise_table(first, second, ["threads 1", "threads 2"], data_dir=None).splitlines()
    assert table[0] == "| | jobs 1 | geo 1 |"
    assert "| mean, threads 1 | 20.00 | 6.88 |" in table
    assert "| mean, threads 2 | 20.00 | 6.40 |" in table
    assert "| mean abs. difference (points) | 0.00 | 0.47 |" in table
    assert "| max abs. difference (points) | 0.00 | 0.95 |" in table
    assert "| max abs. difference (queries) | 0.00 | 2.00 |" in table
    assert "| splits identical / compared | 1 / 1 | 1 / 2 |" in table


def test_thread_noise_side_gathers_several_files_first_file_first(tmp_path):
    benchmark = load_benchmark("thread_noise")
    one = write_csv(tmp_path / "one.csv", [row(1, 3.32, threads=1)])
    other = write_csv(tmp_path / "other.csv", [row(1, 9.99, threads=1), row(2, 10.43, threads=1)])
    values = benchmark.read_values(f"{one},{other}", "ProtoParser", "", [1, 2, 3, 4, 5])
    assert values == {("geo", 1, 1): (3.32, "1"), ("geo", 1, 2): (10.43, "1")}


def test_thread_noise_counts_queries_of_a_suite_draw(tmp_path):
    benchmark = load_benchmark("thread_noise")
    split = tmp_path / "draw_3" / "geo" / "lemma_data" / "shuffle_0_shot_1"
    split.mkdir(parents=True)
    (split / "query.txt").write_text("".join(f"what is s{i}\t( x )\n" for i in range(40)))
    assert benchmark.query_size("geo", 1, 3, str(tmp_path)) == 40  # a suite root: draw 3's own query set
    assert benchmark.query_size("geo", 1, 2, str(tmp_path)) == 211  # no such draw: the benchmark's size
