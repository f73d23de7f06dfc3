"""
While a grid pre-trains, its output shows which pre-training runs, its epoch of how many, the last loss and
the time left (`grid_progress`): one line per epoch when the output is not a terminal, the bar's postfix in
place on a terminal; and a misspelt key in a grid's config fails before anything runs.
"""
import json
import os

import pytest

from fewshot_parser.commands import grid_progress, run_grid
from fewshot_parser.commands.grid_progress import PretrainingProgress, read_progress
from fewshot_parser.common.errors import UserError
from tests import PROJECT_ROOT
from tests.commands.grid_fakes import fake_evaluate, fake_train
from tests.commands.ray_grid_test import fixture_grid


def staging(root, name: str, epochs: int, durations: list, losses: list) -> str:
    """A pre-training's staging directory as AllenNLP leaves it after `len(durations)` epochs."""
    directory = root / f"{name}.partial"
    directory.mkdir(parents=True)
    (directory / "config.json").write_text(json.dumps({"trainer": {"num_epochs": epochs}}))
    (directory / "out.log").write_text("")
    for epoch, (seconds, loss) in enumerate(zip(durations, losses)):
        (directory / f"metrics_epoch_{epoch}.json").write_text(json.dumps(
            {"epoch": epoch, "training_loss": loss, "training_duration": f"0:{int(seconds) // 60:02d}:{seconds % 60:09.6f}"}))
    return str(directory)


def test_progress_is_the_epoch_of_how_many_the_loss_and_the_time_left_of_this_process(tmp_path):
    # Epochs 0-2 trained by an interrupted process (10 s each), 3-5 by the one resuming it (30 s each).
    directory = staging(tmp_path, "geo-ours", 10, [10, 20, 30, 30, 60, 90], [3.0, 2.0, 1.5, 1.2, 1.1, 1.04321])
    progress = read_progress(directory, now=os.path.getmtime(os.path.join(directory, "config.json")) + 90)
    assert progress.epoch == 6 and progress.epochs == 10 and progress.loss == 1.04321
    assert progress.left == pytest.approx(4 * 30.0)
    assert progress.text() == "pre-training geo-ours: epoch 6/10, loss 1.0432, 1.5 min, ~2 min left"
    assert read_progress(str(tmp_path / "nothing.partial")) is None
    started = staging(tmp_path, "atis-ours", 30, [], [])
    assert read_progress(started, now=os.path.getmtime(os.path.join(started, "config.json")) + 6).text() == \
        "pre-training atis-ours: started, 30 epochs, 6 s"


def test_a_line_per_new_epoch_and_one_text_in_place(tmp_path):
    lines, texts = [], []
    watch = PretrainingProgress([str(tmp_path)], in_place=texts.append, line=lines.append, since=0)
    watch.poll()
    assert lines == [] and texts == []
    directory = staging(tmp_path, "geo-ours", 3, [1.0], [2.5])
    watch.poll()
    watch.poll()  # nothing new: nothing shown again
    assert len(lines) == 1 and lines[0].startswith("pre-training geo-ours: epoch 1/3, loss 2.5000, ")
    assert lines[0].endswith(" s, ~2 s left")
    assert len(texts) == 1 and texts[0].startswith("pre-training geo-ours: epoch 1/3")
    for epoch in (1, 2):  # two epochs between two looks, then the archive is in place
        with open(os.path.join(directory, f"metrics_epoch_{epoch}.json"), "w") as handle:
            json.dump({"training_loss": 1.0, "training_duration": f"0:00:0{epoch + 1}.000000"}, handle)
    os.replace(directory, str(tmp_path / "geo-ours"))
    watch.finished(str(tmp_path / "geo-ours" / "model.tar.gz"))
    assert lines[1].startswith("pre-training geo-ours: epoch 3/3, loss 1.0000") and len(lines) == 2
    assert texts[-1] == ""  # nothing pre-trains any more


def test_the_last_epoch_is_shown_once_when_a_poll_sees_the_pre_training_end_before_the_grid_does(tmp_path):
    lines = []
    watch = PretrainingProgress([str(tmp_path)], line=lines.append, since=0)
    directory = staging(tmp_path, "geo-ours", 2, [1.0, 2.0], [2.0, 1.0])
    watch.poll()
    os.replace(directory, str(tmp_path / "geo-ours"))
    watch.poll()  # the staging directory is gone: this look ends it
    watch.finished(str(tmp_path / "geo-ours" / "model.tar.gz"))  # and then the grid gets the result
    assert [line.split(",")[0] for line in lines] == ["pre-training geo-ours: epoch 2/2"]


def test_a_grid_shows_the_pre_trainings_epochs_before_its_first_run_finishes(tmp_path, monkeypatch, local_ray, capsys):
    monkeypatch.chdir(PROJECT_ROOT)
    monkeypatch.setattr(grid_progress, "POLL_SECONDS", 0.1)
    monkeypatch.setenv("FEWSHOT_FAKE_EPOCHS", "3")
    monkeypatch.setenv("FEWSHOT_FAKE_SECONDS", "1")
    run_grid.run_grid(fixture_grid(tmp_path, monkeypatch, [1, 2]), train=fake_train, evaluate=fake_evaluate)
    out = capsys.readouterr().out.splitlines()
    epochs = [i for i, line in enumerate(out) if line.startswith("  pre-training geo-fixture: epoch ")]
    assert [out[i].split(",")[0].split()[-1] for i in epochs] == ["1/3", "2/3", "3/3"], out
    assert "loss 2.0000" in out[epochs[0]] and " left" in out[epochs[0]]
    pretrained = next(i for i, line in enumerate(out) if line.startswith("pre-trained "))
    first_done = next(i for i, line in enumerate(out) if " done " in line)
    assert epochs[-1] < pretrained < first_done


def test_a_misspelt_key_in_a_grid_config_fails_before_anything_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(PROJECT_ROOT)
    config = tmp_path / "misspelt.jsonnet"
    config.write_text(f"(import '{PROJECT_ROOT}/fixtures/grid/geo_1shot.jsonnet') + {{ trainer+: {{ num_epochz: 3 }} }}")
    marks = tmp_path / "marks"
    monkeypatch.setenv("FEWSHOT_FAKE_MARKS", str(marks))
    args = fixture_grid(tmp_path, monkeypatch, [1])
    monkeypatch.setitem(run_grid.SYSTEMS, "fixture", ("ProtoParser", "fixture grid", str(config)))
    with pytest.raises(UserError) as error:
        run_grid.run_grid(args, train=fake_train, evaluate=fake_evaluate)
    assert str(error.value) == (f"{config}: Extra parameters passed to GradientDescentTrainer: {{'num_epochz': 3}} "
                                "(unknown key trainer.num_epochz)")
    assert not marks.exists() and not (tmp_path / "pretrain").exists()
