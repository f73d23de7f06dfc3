"""lab/scripts/component_reach.py: how many pairs of a kind a row's recombination reader makes, and
whether two rows differ beyond recombination."""

import copy

import pytest

import fewshot_lab  # noqa: F401
from tests import load_benchmark

TRAINING = [
    ("what are the city in s0", "( lambda $0 e ( and ( city:t $0 ) ( loc:t $0 s0 ) ) )"),
    (
        "which city in s0 has the largest population",
        "( argmax $0 ( and ( city:t $0 ) ( loc:t $0 s0 ) ) ( population:i $0 ) )",
    ),
    ("how many river are in s0", "( count $0 ( and ( river:t $0 ) ( loc:t $0 s0 ) ) )"),
    ("how long is r0", "( len:i r0 )"),
]
MODIFIER = ("how many big city are in s0", "( count $0 ( and ( major:t $0 ) ( city:t $0 ) ( loc:t $0 s0 ) ) )")
NO_MODIFIER = ("what is the longest river", "( argmax $0 ( river:t $0 ) ( len:i $0 ) )")


def write(path, lines):
    path.write_text("".join(f"{utterance}\t{lf}\n" for utterance, lf in lines))
    return str(path)


def row(tmp_path, support, generators):
    training = write(tmp_path / "train.txt", TRAINING)
    return {
        "dataset_reader": {
            "type": "fewshot_augmented",
            "reader": {"type": "fewshot_geoquery"},
            "support_data_path": write(tmp_path / "support.txt", [support]),
            "training_data_path": training,
            "generators": generators,
        },
        "train_data_path": str(tmp_path / "support.txt"),
        "trainer": {"num_epochs": 3},
        "teaching_recipe": True,
    }


def test_pairs_of_the_components_direction_are_counted(tmp_path):
    script = load_benchmark("component_reach", "lab/scripts")
    generators = [[{"type": "modifiers", "pairs_per_predicate": 5}]]
    assert script.component_pairs(row(tmp_path, MODIFIER, generators), ["modifier"]) > 0
    assert script.component_pairs(row(tmp_path, NO_MODIFIER, generators), ["modifier"]) == 0
    with pytest.raises(ValueError, match="no recombination reader"):
        script.component_pairs({"dataset_reader": {"type": "fewshot_geoquery"}}, ["modifier"])


def test_rows_may_differ_in_generators_and_teaching_recipe_only(tmp_path):
    script = load_benchmark("component_reach", "lab/scripts")
    with_ = row(tmp_path, MODIFIER, [[{"type": "modifiers"}]])
    without = copy.deepcopy(with_)
    without["dataset_reader"]["generators"] = []
    without["teaching_recipe"] = False
    script.check_settings(with_, without, "geo 1-shot")
    # The row without recombination: the reader the recombination reader wraps.
    plain = {**copy.deepcopy(with_), "dataset_reader": {"type": "fewshot_geoquery"}}
    script.check_settings(with_, plain, "geo 1-shot")
    assert script.unwrapped({"type": "wrapper", "reader": with_["dataset_reader"]}) == {
        "type": "wrapper",
        "reader": {"type": "fewshot_geoquery"},
    }
    other = copy.deepcopy(without)
    other["trainer"]["num_epochs"] = 4
    with pytest.raises(ValueError, match=r"geo 1-shot: the rows differ beyond recombination \(trainer\)"):
        script.check_settings(with_, other, "geo 1-shot")
