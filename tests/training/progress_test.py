"""The progress callback's lines: epochs and batches when training starts, one line per epoch, the end."""
import re

import fewshot_parser  # noqa: F401
from tests import train_fixture_experiment


def test_progress_lines_name_the_epochs_and_batches(tmp_path, monkeypatch, capsys):
    callbacks = [{"type": "fewshot_progress", "label": "teaching"}, {"type": "fewshot_random_state"}]
    train_fixture_experiment(tmp_path, monkeypatch, {"trainer.callbacks": [*callbacks[:1], {"type": "fewshot_alignment_statistics"}, {"type": "fewshot_prototype_init"}, *callbacks[1:]]})
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("teaching:")]
    assert re.fullmatch(r"teaching: 2 epoch\(s\)( of \d+ batch\(es\))?", lines[0])
    assert [re.sub(r", loss [0-9.]+ \([0-9.]+ s\)$", "", line) for line in lines[1:3]] == [
        "teaching: epoch 1/2", "teaching: epoch 2/2"]
    assert re.fullmatch(r"teaching: done in [0-9.]+ s", lines[3]) and len(lines) == 4
