"""lab/scripts/pretraining_minutes.py: finished pre-trainings' minutes merged into a committed ledger."""

from tests import load_benchmark


def pretraining(root, draw, name, duration, finished=True):
    folder = root / "dev" / f"draw_{draw}"
    (folder / name).mkdir(parents=True)
    (folder / f"{name}.log").write_text(
        f'{{"training_duration": "0:01:00.0"}}\n{{"training_duration": "{duration}"}}\n'
    )
    if finished:
        (folder / name / "model.tar.gz").write_bytes(b"")


def test_finished_pretrainings_are_merged_and_kept_after_their_logs_are_gone(tmp_path):
    script = load_benchmark("pretraining_minutes", "lab/scripts")
    ledger = str(tmp_path / "ledger.csv")
    first, second = tmp_path / "first", tmp_path / "second"
    pretraining(first, 3, "geo-ours", "0:14:30.0")
    pretraining(first, 4, "geo-ours", "0:02:00.0", finished=False)  # its log holds part of the time
    assert script.record(str(first), ledger) == 1
    pretraining(second, 5, "jobs-contextual-schema-classes", "1:02:06.0")
    assert script.record(str(second), ledger) == 1
    assert script.read_ledger(ledger) == {
        ("dev", 3, "geo", "ours"): 14.5,
        ("dev", 5, "jobs", "contextual-schema-classes"): 62.1,
    }
    assert script.read_ledger(str(tmp_path / "none.csv")) == {}
