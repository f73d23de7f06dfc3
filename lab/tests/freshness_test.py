"""The lab's `code` freshness: `run-grid --redo-stale --freshness code` retires a shared pre-trained archive
made by older code unless a certificate vouches for it."""
import json
import os

from fewshot_parser.commands.systems import read_systems
from tests import SYSTEMS_TABLES

# The rows of both tables: the lab's rows share archives with the product's.
SYSTEMS = read_systems(SYSTEMS_TABLES)


def test_redo_stale_retires_an_archive_made_by_other_code(tmp_path, monkeypatch):
    from fewshot_lab import staleness
    from fewshot_parser.commands import run_grid

    directory = tmp_path / "pretrain" / "geo-ours"
    directory.mkdir(parents=True)
    (directory / "model.tar.gz").write_bytes(b"x")
    (directory / "provenance.json").write_text(json.dumps({"code_version": "a" * 40, "config_hash": "b"}))
    monkeypatch.setattr(staleness, "code_unchanged_since", lambda version, **_: version == "c" * 40)
    archive = str(directory / "model.tar.gz")
    assert run_grid.archive_outdated(archive, [], {}, staleness.CodeFreshness())
    assert run_grid.retire_archive(archive) == str(directory) + ".stale"
    assert not directory.exists() and (tmp_path / "pretrain" / "geo-ours.stale" / "model.tar.gz").exists()
    directory.mkdir()
    (directory / "model.tar.gz").write_bytes(b"x")
    (directory / "provenance.json").write_text(json.dumps({"code_version": "c" * 40}))
    assert not run_grid.archive_outdated(archive, [], {}, staleness.CodeFreshness())


def test_redo_stale_keeps_an_archive_that_a_pretraining_certificate_covers(tmp_path, monkeypatch):
    """`--redo-stale` retires an archive made by older code only where the report would call its rows
    "pre-trained with older code": a `pretraining_same` certificate of a system sharing the archive
    keeps it; one of a system with another pre-training does not."""
    from fewshot_lab import staleness
    from fewshot_parser.commands import run_grid

    monkeypatch.setattr(run_grid, "SYSTEMS", SYSTEMS)  # chosen-fallback is a probe row (lab/systems.jsonnet)
    job = run_grid.plan(["chosen-fallback"], ["geo"], [1], [1], str(tmp_path / "runs"))[0]
    environment = {"FEWSHOT_PRETRAIN_DIR": str(tmp_path / "pretrain"), "FEWSHOT_SEED": "13"}
    archive = run_grid.pretrained_archive(job, environment)
    directory = os.path.dirname(archive)

    def made_by_older_code():
        os.makedirs(directory)
        with open(archive, "wb") as handle:
            handle.write(b"x")
        with open(os.path.join(directory, "provenance.json"), "w") as handle:
            json.dump({"code_version": "pretrained-with"}, handle)

    monkeypatch.setattr(staleness, "code_unchanged_since", lambda version, **_: version == "today")
    monkeypatch.setattr(staleness, "same_code", lambda first, second, config_json: first == second)
    certificate = {"dataset": "geo", "shot": "1", "shuffle": "1", "base_version": "pretrained-with",
                   "code_version": "today", "same": "no", "pretraining_same": "yes"}

    def outdated():
        return run_grid.archive_outdated(archive, [job], environment, staleness.CodeFreshness(SYSTEMS))

    made_by_older_code()
    other = SYSTEMS["ours"]  # the faithful row pre-trains another archive
    monkeypatch.setattr(staleness, "read_certifications",
                        lambda path=None: [{**certificate, "system": other[0], "setting": other[1]}])
    assert outdated()
    run_grid.retire_archive(archive)
    made_by_older_code()
    sharing = SYSTEMS["reshaped40-ens5"]  # shares contextual-schema's archive with chosen-fallback
    monkeypatch.setattr(staleness, "read_certifications",
                        lambda path=None: [{**certificate, "system": sharing[0], "setting": sharing[1]}])
    assert not outdated()
    assert os.path.isfile(archive)


def test_a_suite_row_pretrained_with_unknown_code_is_stale(tmp_path, monkeypatch):
    # The official rows' check: an archive made by code nobody can compare with today's is stale.
    from fewshot_lab.staleness import CodeFreshness
    from fewshot_parser.commands import run_grid
    from fewshot_parser.common.provenance import code_version
    from tests.commands.suite_grid_test import two_draws, write_suite_rows

    jobs, environment, hashes = two_draws(tmp_path, monkeypatch)
    results = tmp_path / "suite.csv"
    write_suite_rows(results, jobs, hashes, [code_version(), "e" * 40])
    assert run_grid.stale_keys(jobs, str(results), environment, CodeFreshness()) == {run_grid.job_key(jobs[1])}
