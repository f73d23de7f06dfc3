"""The two spellings of a recombination reader: old reader names with flat keys, and pair generators."""
import pytest

from fewshot_parser.common.legacy_reader_names import (
    LEGACY_READER_NAMES, legacy_reader_spelling, translate_legacy_reader,
)
from fewshot_parser.common.provenance import experiment_hash

COMMON = {"reader": {"type": "fewshot_geoquery"}, "support_data_path": "s.txt", "training_data_path": "t.txt",
          "pairs_per_predicate": 20, "reverse_pairs_per_predicate": 10, "support_repeat": 4, "balance": True}
# Every old reader as the old fewshot.libsonnet rendered it.
OLD = {
    "fewshot_augmented": {},
    "fewshot_augmented_reshaped": {"reshaped_pairs_per_predicate": 40},
    "fewshot_augmented_adjectives": {"reshaped_pairs_per_predicate": 40},
    "fewshot_augmented_reparented": {"reshaped_pairs_per_predicate": 40, "reparented_pairs_per_predicate": 10},
    "fewshot_augmented_subtrees": {"reshaped_pairs_per_predicate": 40, "subtree_pairs_per_example": 10,
                                   "adjectives": True},
}
FIRST = [{"type": "forward", "pairs_per_predicate": 20}, {"type": "reverse", "pairs_per_predicate": 10}]


@pytest.mark.parametrize("name", sorted(OLD))
def test_every_old_reader_is_spelled_back_as_it_was(name):
    old = {**COMMON, **OLD[name]}
    new = translate_legacy_reader(name, old)
    assert new["type"] == "fewshot_augmented" and new["generators"][0] == FIRST
    assert not set(new) & {"pairs_per_predicate", "reshaped_pairs_per_predicate", "adjectives"}
    assert legacy_reader_spelling(new) == {"type": name, **old}
    wrapped = {"dataset_reader": {"type": "fewshot_entity_values", "reader": new}}
    assert experiment_hash(wrapped) == experiment_hash({"dataset_reader": {"type": "fewshot_entity_values",
                                                                           "reader": {"type": name, **old}}})


def test_the_passes_each_old_reader_stood_for():
    def passes(name, **keys):
        return translate_legacy_reader(name, keys)["generators"][1:]

    assert passes("fewshot_augmented") == []
    assert passes("fewshot_augmented_reshaped") == [[{"type": "reshaped", "pairs_per_predicate": 10}]]  # defaults
    assert passes("fewshot_augmented_adjectives", reshaped_pairs_per_predicate=5) == \
        [[{"type": "adjectives", "pairs_per_predicate": 5}]]
    assert passes("fewshot_augmented_reparented", reshaped_pairs_per_predicate=0) == \
        [[{"type": "reshaped", "pairs_per_predicate": 0}], [{"type": "reparented", "pairs_per_predicate": 10}]]
    assert passes("fewshot_augmented_subtrees") == \
        [[{"type": "reshaped", "pairs_per_predicate": 10}], [{"type": "subtrees", "pairs_per_example": 10}]]
    assert set(LEGACY_READER_NAMES) == set(OLD) - {"fewshot_augmented"}


def test_bad_old_configs_are_refused():
    with pytest.raises(ValueError, match="reshaped_pairs_per_predicate must be at least 0"):
        translate_legacy_reader("fewshot_augmented_reshaped", {"reshaped_pairs_per_predicate": -1})
    with pytest.raises(ValueError, match="not both"):
        translate_legacy_reader("fewshot_augmented", {"pairs_per_predicate": 3, "generators": []})
    with pytest.raises(ValueError, match="not an old recombination reader"):
        translate_legacy_reader("fewshot_geoquery", {})


def test_configs_no_old_reader_says_keep_their_spelling():
    for generators in (
        [FIRST, [{"type": "reparented", "pairs_per_predicate": 3}], [{"type": "reshaped", "pairs_per_predicate": 3}]],
        [FIRST[::-1]],  # reverse before forward
        [[FIRST[0]]],  # no reverse pairs
        [FIRST, [{"type": "reshaped", "pairs_per_predicate": 3}, {"type": "reparented", "pairs_per_predicate": 3}]],
        [FIRST, [{"type": "subtrees", "pairs_per_example": 3}]],  # subtrees without reshaped pairs
        [FIRST, [{"type": "reshaped", "pairs_per_predicate": 3, "other": 1}]],
    ):
        config = {"type": "fewshot_augmented", "reader": {"type": "fewshot_geoquery"}, "generators": generators}
        assert legacy_reader_spelling(config) == config
