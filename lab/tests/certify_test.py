import csv
import os

import pytest

from fewshot_lab import staleness
from fewshot_lab.commands import certify
from fewshot_parser.commands.systems import read_systems
from tests import PROJECT_ROOT, SYSTEMS_TABLES

# The rows of both tables: the lab's rows share archives with the product's.
SYSTEMS = read_systems(SYSTEMS_TABLES)


def faithful_row():
    """A committed row of the faithful system (geo 1-shot, shuffle 1), with its provenance."""
    with open(os.path.join(PROJECT_ROOT, "results", "runs.csv"), newline="") as handle:
        return next(row for row in csv.DictReader(handle) if (row["system"], row["setting"], row["dataset"], row["shot"],
                                                              row["shuffle"]) == ("ProtoParser", "", "geo", "1", "1"))


def test_a_certificate_keeps_a_row_whose_code_changed_valid(monkeypatch):
    # The row's archive was pre-trained by the same code that fine-tuned it, so one certificate covers both.
    row = {**faithful_row()}
    row["pretrain_code_version"] = row["code_version"]
    # Pretend today's code differs from the code that made the row, and equals the certified version's.
    monkeypatch.setattr(staleness, "code_unchanged_since", lambda version, **_: version.startswith("certified"))
    monkeypatch.setattr(staleness, "same_code", lambda first, second, config_json: first == second)
    monkeypatch.setattr(staleness, "read_certifications", lambda path=None: [])
    assert staleness.stale_reason(row, SYSTEMS) == "code changed"
    certificate = {"system": "ProtoParser", "setting": "", "dataset": "geo", "shot": "1", "shuffle": "1",
                   "base_version": row["code_version"], "code_version": "certified-commit", "same": "yes"}
    monkeypatch.setattr(staleness, "read_certifications", lambda path=None: [certificate])
    assert staleness.stale_reason(row, SYSTEMS) is None
    for changed in ({"same": "no"}, {"shot": "2"}, {"base_version": "another-commit"}, {"code_version": "old"}):
        monkeypatch.setattr(staleness, "read_certifications", lambda path=None, c=changed: [{**certificate, **c}])
        assert staleness.stale_reason(row, SYSTEMS) is not None, changed


def test_certificates_chain_across_two_refactors(monkeypatch):
    """A row made before two certified refactors stays valid: its code equals the first base, the first
    certified code equals the second base, and the second certified code is today's."""
    row = {**faithful_row()}
    row["pretrain_code_version"] = row["code_version"]
    monkeypatch.setattr(staleness, "code_unchanged_since", lambda version, **_: version == "today")
    monkeypatch.setattr(staleness, "same_code", lambda first, second, config_json: first == second)
    first = {"system": "ProtoParser", "setting": "", "dataset": "geo", "shot": "1", "shuffle": "1",
             "base_version": row["code_version"], "code_version": "between", "same": "yes"}
    second = {**first, "base_version": "between", "code_version": "today"}
    monkeypatch.setattr(staleness, "read_certifications", lambda path=None: [second, first])
    assert staleness.stale_reason(row, SYSTEMS) is None
    for chain in ([first], [second], [first, {**second, "same": "no"}], [first, {**second, "base_version": "other"}]):
        monkeypatch.setattr(staleness, "read_certifications", lambda path=None, c=chain: c)
        assert staleness.stale_reason(row, SYSTEMS) == "code changed", chain


def test_differences_name_the_part_and_the_first_key():
    base = {"data": {"r0": "1:a"}, "training": {"loss": 1.0, "em": 0.5}, "decoding": ["( a )"]}
    assert certify.differences(base, base) == []
    changed = {**base, "training": {"loss": 1.5, "em": 0.5}, "decoding": ["( b )"]}
    assert certify.differences(base, changed) == ["training (loss)", "decoding"]


def test_verdicts_are_recorded_once_per_row_and_versions(tmp_path):
    path = str(tmp_path / "certifications.csv")
    row = {"system": "ProtoParser", "setting": "", "dataset": "geo", "shot": 1, "shuffle": 1, "base_version": "a",
           "code_version": "b", "same": "no", "base_fingerprint": "x", "fingerprint": "y", "differs_in": "data", "seconds": 1}
    certify.record(path, row)
    certify.record(path, {**row, "same": "yes", "differs_in": ""})
    certify.record(path, {**row, "dataset": "jobs"})
    rows = staleness.read_certifications(path)
    assert [(r["dataset"], r["same"]) for r in rows] == [("geo", "yes"), ("jobs", "no")]


@pytest.mark.skipif(not os.path.isdir(os.path.join(PROJECT_ROOT, "data", "jobs")), reason="needs the benchmark data (make data)")
def test_the_fingerprint_of_a_row_is_deterministic(tmp_path):
    data = os.path.join(PROJECT_ROOT, "data")
    first, log = certify.run_fingerprint(PROJECT_ROOT, "ours", "jobs", 1, 1, str(tmp_path / "a"), data)
    assert first is not None, log
    second, log = certify.run_fingerprint(PROJECT_ROOT, "ours", "jobs", 1, 1, str(tmp_path / "b"), data)
    assert second is not None, log
    assert certify.differences(first, second) == []
    assert first["data"] and first["training"] and len(first["decoding"]) == 12
    assert any(key.startswith("pretrain/") for key in first["training"])


def test_a_pretraining_certificate_keeps_only_the_pretrained_archive_valid(monkeypatch):
    """A certificate whose fine-tuning changed but whose data and pre-training losses agree clears
    "pre-trained with older code", never "code changed"."""
    row = {**faithful_row()}
    row["pretrain_code_version"] = "pretrained-with"
    monkeypatch.setattr(staleness, "code_unchanged_since", lambda version, **_: version in (row["code_version"], "today"))
    monkeypatch.setattr(staleness, "same_code", lambda first, second, config_json: first == second)
    certificate = {"system": "ProtoParser", "setting": "", "dataset": "geo", "shot": "1", "shuffle": "1",
                   "base_version": "pretrained-with", "code_version": "today", "same": "no", "pretraining_same": "no"}
    monkeypatch.setattr(staleness, "read_certifications", lambda path=None: [certificate])
    assert staleness.stale_reason(row, SYSTEMS) == "pre-trained with older code"
    monkeypatch.setattr(staleness, "read_certifications", lambda path=None: [{**certificate, "pretraining_same": "yes"}])
    assert staleness.stale_reason(row, SYSTEMS) is None
    # The same certificate does not cover fine-tuning code.
    row["code_version"] = "pretrained-with"
    assert staleness.certified(row, "pretrained-with", None, pretraining=True)
    assert not staleness.certified(row, "pretrained-with", None)


def test_pretraining_agreement_looks_at_data_and_pretraining_losses_only():
    base = {"data": {"r0": "1:a"}, "training": {"pretrain/m0:loss": 1.0, "run/m0:loss": 2.0}, "decoding": ["( a )"]}
    assert certify.pretraining_agrees(base, {**base, "training": {"pretrain/m0:loss": 1.0, "run/m0:loss": 3.0},
                                             "decoding": ["( b )"]})
    assert not certify.pretraining_agrees(base, {**base, "training": {"pretrain/m0:loss": 1.5, "run/m0:loss": 2.0}})
    assert not certify.pretraining_agrees(base, {**base, "data": {"r0": "1:b"}})


def test_a_stored_base_fingerprint_is_reused_only_when_its_stamp_matches(tmp_path):
    import json

    work = tmp_path / "row"
    work.mkdir()
    expected = certify.stamp("a" * 40, str(tmp_path))
    (work / "fingerprint.json").write_text(json.dumps({"data": {}, "training": {}, "decoding": []}))
    assert certify.stored_fingerprint(str(work), expected) is None  # no stamp: computed by whom?
    (work / certify.STAMP).write_text(json.dumps(expected))
    assert certify.stored_fingerprint(str(work), expected) == {"data": {}, "training": {}, "decoding": []}
    assert certify.stored_fingerprint(str(work), {**expected, "machine": "another CPU"}) is None
    assert certify.stored_fingerprint(str(work), {**expected, "commit": "b" * 40}) is None


def test_a_pretraining_certificate_of_a_row_sharing_the_archive_counts(monkeypatch):
    """Rows of one variant share a pre-trained archive, so a `pretraining_same` certificate of one of
    them clears "pre-trained with older code" for the others; one of a row with another pre-training
    does not."""
    with open(os.path.join(PROJECT_ROOT, "results", "runs.csv"), newline="") as handle:
        best = SYSTEMS["chosen-fallback"]
        row = next(r for r in csv.DictReader(handle)
                   if (r["system"], r["setting"], r["dataset"], r["shot"], r["shuffle"]) == (*best[:2], "geo", "1", "1"))
    row = {**row, "pretrain_code_version": "pretrained-with"}
    monkeypatch.setattr(staleness, "code_unchanged_since",
                        lambda version, **_: version in (row["code_version"], "today"))
    monkeypatch.setattr(staleness, "same_code", lambda first, second, config_json: first == second)
    certificate = {"dataset": "geo", "shot": "1", "shuffle": "1", "base_version": "pretrained-with",
                   "code_version": "today", "same": "no", "pretraining_same": "yes"}
    other = SYSTEMS["ours"]  # the faithful row pre-trains another archive
    monkeypatch.setattr(staleness, "read_certifications",
                        lambda path=None: [{**certificate, "system": other[0], "setting": other[1]}])
    assert staleness.stale_reason(row, SYSTEMS) == "pre-trained with older code"
    sharing = SYSTEMS["reshaped40-ens5"]  # the former best row shares contextual-schema's archive
    monkeypatch.setattr(staleness, "read_certifications",
                        lambda path=None: [{**certificate, "system": sharing[0], "setting": sharing[1]}])
    assert staleness.stale_reason(row, SYSTEMS) is None


def test_a_pretraining_certificate_of_a_sharing_row_counts_on_a_suite_draw_too(monkeypatch):
    """A draw's row is checked with its config rendered for the draw; a certificate of a system that
    pre-trains the same archive still clears "pre-trained with older code" there."""
    import json

    from fewshot_parser.common.provenance import experiment_hash

    best = SYSTEMS["chosen-fallback"]
    config = staleness._rendered(os.path.join(PROJECT_ROOT, best[2].format(dataset="geo", shot=1)), 0,
                                 os.path.join("data", "dev", "draw_1"), os.path.join("runs", "pretrain", "dev", "draw_1"))
    row = {"system": best[0], "setting": best[1], "dataset": "geo", "shot": "1", "shuffle": "1",
           "code_version": "made-with", "config_hash": experiment_hash(json.loads(config)),
           "pretrain_code_version": "pretrained-with"}
    monkeypatch.setattr(staleness, "code_unchanged_since", lambda version, **_: version in ("made-with", "today"))
    monkeypatch.setattr(staleness, "same_code", lambda first, second, config_json: first == second)
    certificate = {"dataset": "geo", "shot": "1", "shuffle": "1", "base_version": "pretrained-with",
                   "code_version": "today", "same": "no", "pretraining_same": "yes"}
    other = SYSTEMS["ours"]
    monkeypatch.setattr(staleness, "read_certifications",
                        lambda path=None: [{**certificate, "system": other[0], "setting": other[1]}])
    draw = ("data/dev", "runs/pretrain/dev")
    assert staleness.draw_stale_reason(row, SYSTEMS, *draw) == "pre-trained with older code"
    sharing = SYSTEMS["reshaped40-ens5"]
    monkeypatch.setattr(staleness, "read_certifications",
                        lambda path=None: [{**certificate, "system": sharing[0], "setting": sharing[1]}])
    assert staleness.draw_stale_reason(row, SYSTEMS, *draw) is None


def test_the_miniature_holds_every_file_a_2shot_row_pretrains_on(tmp_path):
    """A pt baseline pre-trains on shuffle 0 of its own shot (`shuffle_0_shot_2/train.txt` for 2-shot):
    the certify miniature must hold it, or the row cannot be certified."""
    from fewshot_lab.fingerprint import QUERY_LINES, TRAIN_LINES, miniature

    source = tmp_path / "data"
    for folder in ("shuffle_0_shot_1", "shuffle_0_shot_2", "shuffle_1_shot_2", "shuffle_3_shot_2"):
        directory = source / "jobs" / "lemma_data" / folder
        directory.mkdir(parents=True)
        for name in ("train.txt", "support.txt", "query.txt"):
            (directory / name).write_text("".join(f"u{i}\t( f{i} )\n" for i in range(100)))
    miniature(str(source), "jobs", 2, 1, str(tmp_path / "mini"))
    made = tmp_path / "mini" / "jobs" / "lemma_data"
    assert sorted(p.name for p in made.iterdir()) == ["shuffle_0_shot_1", "shuffle_0_shot_2", "shuffle_1_shot_2"]
    assert len((made / "shuffle_0_shot_2" / "train.txt").read_text().splitlines()) == TRAIN_LINES
    assert len((made / "shuffle_1_shot_2" / "query.txt").read_text().splitlines()) == QUERY_LINES
    assert len((made / "shuffle_1_shot_2" / "support.txt").read_text().splitlines()) == 100


def test_a_renamed_row_is_run_under_its_old_name_at_the_base(tmp_path, monkeypatch):
    import argparse

    ran = []

    def fake_fingerprint(tree, system, dataset, shot, shuffle, work, data_dir):
        ran.append((tree, system))
        return {"data": {}, "training": {}, "decoding": []}, ""

    monkeypatch.setattr(certify, "code_version", lambda: "c" * 40)
    monkeypatch.setattr(certify, "base_tree", lambda revision, work: ("b" * 40, "BASE"))
    monkeypatch.setattr(certify, "run_fingerprint", fake_fingerprint)
    arguments = dict(base="HEAD", datasets=["geo"], shots=[1], shuffle=1, jobs=1, work=str(tmp_path), record=str(tmp_path / "c.csv"),
                     keep_weights=False)
    certify.certify_from_args(argparse.Namespace(systems=["best"], renamed=["best=old-best"], **arguments))
    assert ran == [("BASE", "old-best"), (PROJECT_ROOT, "best")]
    with open(tmp_path / "c.csv", newline="") as handle:
        recorded = list(csv.DictReader(handle))
    assert [(r["setting"], r["same"]) for r in recorded] == [(SYSTEMS["best"][1], "yes")]
    with pytest.raises(certify.UserError, match="--renamed best: give NAME=BASE_NAME"):
        certify.certify_from_args(argparse.Namespace(systems=["best"], renamed=["best"], **arguments))


def test_rows_certified_several_at_a_time_are_all_recorded(tmp_path, monkeypatch):
    """`--jobs 2` runs the fingerprints of two rows at once; every row gets one verdict, in the asked order,
    and a row whose current fingerprint differs is recorded as changed."""
    import argparse
    import threading

    running, most = [0], [0]
    lock = threading.Lock()

    def fake_fingerprint(root, system, dataset, shot, shuffle, work, data_dir):
        import time

        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.05)
        with lock:
            running[0] -= 1
        changed = root == certify.PROJECT_ROOT and dataset == "jobs" and shot == 2
        return {"data": {}, "training": {"loss": 2.0 if changed else 1.0}, "decoding": []}, ""

    monkeypatch.setattr(certify, "code_version", lambda: "c" * 40)
    monkeypatch.setattr(certify, "base_tree", lambda revision, work: ("b" * 40, str(tmp_path / "tree")))
    monkeypatch.setattr(certify, "run_fingerprint", fake_fingerprint)
    record = str(tmp_path / "certifications.csv")
    args = argparse.Namespace(
        base="HEAD", systems=["ours"], datasets=["jobs", "geo"], shots=[1, 2], shuffle=1, jobs=2, renamed=[],
        work=str(tmp_path / "work"), record=record, keep_weights=False,
    )
    certify.certify_from_args(args)
    rows = staleness.read_certifications(record)
    assert [(r["dataset"], r["shot"], r["same"]) for r in rows] == [
        ("jobs", "1", "yes"), ("jobs", "2", "no"), ("geo", "1", "yes"), ("geo", "2", "yes")
    ]
    assert most[0] == 2


@pytest.mark.parametrize("keep", [False, True])
def test_the_miniatures_weights_are_deleted_once_the_fingerprint_is_stored(tmp_path, monkeypatch, keep):
    """Each side's work folder keeps its fingerprint, config and log; its checkpoints and archives (~0.6 GB
    a row) go, unless --keep-weights."""
    import argparse
    import json

    def fake_fingerprint(root, system, dataset, shot, shuffle, work, data_dir):
        os.makedirs(os.path.join(work, "run"))
        for name in ("run/model.tar.gz", "run/best.th", "run/config.json", "fingerprint.json"):
            with open(os.path.join(work, name), "w") as handle:
                handle.write(json.dumps({"data": {}, "training": {}, "decoding": []}))
        return {"data": {}, "training": {}, "decoding": []}, ""

    monkeypatch.setattr(certify, "code_version", lambda: "c" * 40)
    monkeypatch.setattr(certify, "base_tree", lambda revision, work: ("b" * 40, str(tmp_path / "tree")))
    monkeypatch.setattr(certify, "run_fingerprint", fake_fingerprint)
    args = argparse.Namespace(
        base="HEAD", systems=["ours"], datasets=["jobs"], shots=[1], shuffle=1, jobs=1, renamed=[],
        work=str(tmp_path / "work"), record=str(tmp_path / "c.csv"), keep_weights=keep,
    )
    certify.certify_from_args(args)
    for side in ("current", "b" * 12):
        work = tmp_path / "work" / side / "ours_jobs_1shot_s1"
        assert (work / "fingerprint.json").is_file() and (work / "run" / "config.json").is_file()
        assert (work / "run" / "model.tar.gz").exists() == keep and (work / "run" / "best.th").exists() == keep
    assert [r["same"] for r in staleness.read_certifications(str(tmp_path / "c.csv"))] == ["yes"]
