"""lab/scripts/finetune_epochs.py: a draw's support samples count once, with their mean, in the sweep's table."""

from tests import load_benchmark


def test_samples_of_a_draw_are_averaged_before_the_paired_difference_over_draws():
    script = load_benchmark("finetune_epochs", "lab/scripts")
    # (dataset, shot, draw, sample, epochs) -> exact match; draw 1 has three samples, draw 2 one.
    values = {("atis", 1, 1, 0, 1): 10.0, ("atis", 1, 1, 1, 1): 20.0, ("atis", 1, 1, 2, 1): 30.0,
              ("atis", 1, 2, 0, 1): 50.0,
              ("atis", 1, 1, 0, 5): 40.0, ("atis", 1, 1, 1, 5): 20.0, ("atis", 1, 1, 2, 5): 30.0,
              ("atis", 1, 2, 0, 5): 56.0}
    assert script.by_draw(values, "atis", 1, 1) == {1: 20.0, 2: 50.0}
    assert script.by_draw(values, "atis", 1, 5) == {1: 30.0, 2: 56.0}
    known = {key: 90.0 if key[4] == 1 else 88.0 for key in values}
    text = script.table(values, known, {("atis", 1): 1}, {("atis", 1): 1}, "cmd")
    lines = {line.split(" | ")[2]: line for line in text.splitlines() if line.startswith("| atis")}
    # Paired over the two draws: +10 and +6, mean +8, standard error 2; retention 2 points lower.
    assert "| 43.00 ± 13.00 | +8.00 ± 2.00 | 88.00 | -2.00 | 2 |" in lines["5"]
    assert "| 35.00 ± 15.00 | – | 90.00 | – | 2 |" in lines["1 (reference) (configured)"]


def test_sample_zero_keeps_the_directory_name_of_the_sweeps_before_samples():
    script = load_benchmark("finetune_epochs", "lab/scripts")
    assert script.run_directory("r", ("geo", 2, 3, 0, 5)).endswith("geo_2shot_d3_e5")
    assert script.run_directory("r", ("geo", 2, 3, 1, 5)).endswith("geo_2shot_d3s1_e5")
