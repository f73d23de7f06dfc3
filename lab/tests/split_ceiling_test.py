"""lab/scripts/split_ceiling.py --synthetic: the actions a config's recombination adds to the support actions."""
import fewshot_lab  # noqa: F401
from tests import load_benchmark
from tests.data.recombination.fixtures import SUPPORT, TRAINING, forward_reverse, write


def load():
    return load_benchmark("split_ceiling", "lab/scripts")


def rendered(tmp_path, reshaped: bool) -> dict:
    """A rendered config as far as the benchmark reads it: the fine-tuning and pre-training readers."""
    train, support = write(tmp_path / "train.txt", TRAINING), write(tmp_path / "support.txt", SUPPORT)
    base = {"type": "fewshot_geoquery", "idiom_source": train, "min_support": 2}
    reader = {"type": "fewshot_augmented", "reader": base, "support_data_path": support, "training_data_path": train}
    if reshaped:
        reader["generators"] = [forward_reverse(), [{"type": "reshaped", "pairs_per_predicate": 10}]]
    # The fine-tuning reader may wrap the recombining one (as the entity-value reader does).
    return {"dataset_reader": {"type": "some_wrapper", "reader": reader}, "pretraining": {"dataset_reader": base}}


def test_the_recombining_reader_is_found_inside_wrappers(tmp_path):
    split_ceiling = load()
    config = rendered(tmp_path, reshaped=True)
    assert split_ceiling.augmented_spec(config["dataset_reader"])["generators"][1][0]["type"] == "reshaped"
    assert split_ceiling.augmented_spec(config["pretraining"]["dataset_reader"]) is None
    assert split_ceiling.synthetic_actions({"dataset_reader": config["pretraining"]["dataset_reader"]}) == []


def test_reshaped_pairs_add_the_actions_that_plain_recombination_cannot(tmp_path):
    split_ceiling = load()
    reshaped = split_ceiling.synthetic_actions(rendered(tmp_path, reshaped=True))
    plain = split_ceiling.synthetic_actions(rendered(tmp_path, reshaped=False))
    actions = lambda sequences: {a for sequence in sequences for a in sequence}  # noqa: E731
    assert all(sequence[-1] == "STOP" for sequence in reshaped + plain)
    assert "( area:i <e:s> )" in actions(reshaped) - actions(plain)
    assert "( area:i <v> )" in actions(plain)
