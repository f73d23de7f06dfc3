"""lab/scripts/finetune_probe.py: its scratch copy of an authors' work directory and its script settings."""
import os

import pytest

from tests import load_benchmark


def load_probe():
    return load_benchmark("finetune_probe", "lab/scripts")


SCRIPT = 'seed=124\nmodel_dir="saved_models/jobs/freq_0/shuffle_${shuffle}_shot_${k_shot_num}/"\nmax_epoch=60\nls=0.15\n'


def test_settings_replace_their_lines_and_unknown_names_are_refused():
    probe = load_probe()
    assert probe.with_settings(SCRIPT, ["max_epoch=0", "ls=0"], "s.sh") == SCRIPT.replace("max_epoch=60", "max_epoch=0").replace("ls=0.15", "ls=0")
    assert probe.with_settings(SCRIPT, [], "s.sh") == SCRIPT
    with pytest.raises(SystemExit, match="no 'lr=' line"):
        probe.with_settings(SCRIPT, ["lr=0.1"], "s.sh")
    with pytest.raises(SystemExit, match="no 'dropout=' line"):
        probe.with_settings(SCRIPT, ["dropout"], "s.sh")


def test_the_scratch_copy_links_the_work_directory_and_leaves_it_unchanged(tmp_path):
    probe = load_probe()
    work = tmp_path / "work"
    (work / "scripts" / "jobs" / "one_shot").mkdir(parents=True)
    (work / "scripts" / "jobs" / "one_shot" / "fine_tune_run.sh").write_text(SCRIPT)
    pretrained = work / "saved_models" / "jobs" / "freq_0"
    (pretrained / "shuffle_4_shot_1").mkdir(parents=True)
    (pretrained / "model.pretrain.bin").write_text("weights")
    (pretrained / "shuffle_4_shot_1" / "old.bin").write_text("a fine-tuned model")
    (work / "datasets").mkdir()
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    copy = probe.scratch_copy(str(work), str(scratch), "jobs", 1, 4)
    assert os.path.islink(os.path.join(copy, "datasets"))
    assert not os.path.islink(os.path.join(copy, "scripts"))
    copied = os.path.join(copy, "saved_models", "jobs", "freq_0")
    assert os.path.islink(os.path.join(copied, "model.pretrain.bin"))
    assert os.listdir(os.path.join(copied, "shuffle_4_shot_1")) == []  # the split's fine-tuned models are not carried
    with open(os.path.join(copy, "scripts", "jobs", "one_shot", "fine_tune_run.sh"), "a") as handle:
        handle.write("changed\n")
    assert (work / "scripts" / "jobs" / "one_shot" / "fine_tune_run.sh").read_text() == SCRIPT
