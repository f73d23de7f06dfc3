"""The two spellings of a parser with decoding components or the authors' behaviours: old model names and component lists."""
import pytest

from fewshot_parser.common.legacy_model_names import (
    LEGACY_MODEL_NAMES,
    legacy_spelling,
    translate_authors_model,
    translate_legacy_config,
)
from fewshot_parser.common.provenance import experiment_hash

FLAT = {"coverage_weight": 5, "beam_size": 10, "evidence_weight": 4, "evidence_share": 0.7, "evidence_lift": 2,
        "evidence_min_count": 3, "evidence_actions": "all", "slot_type_weight": 2, "names_per_slot": 4, "max_namings": 9}
PARTS = {"_entity_coverage": ("coverage_weight", "beam_size"), "_missing_evidence": ("evidence_weight", "evidence_share",
         "evidence_lift", "evidence_min_count", "evidence_actions"), "_slot_types": ("slot_type_weight",),
         "_scoped": ("names_per_slot", "max_namings")}


@pytest.mark.parametrize("name", LEGACY_MODEL_NAMES)
def test_every_old_config_is_spelled_back_as_it_was(name):
    old = {"dropout": 0.1, **{k: FLAT[k] for part, keys in PARTS.items() if part in name for k in keys}}
    new = translate_legacy_config(name, old)
    assert new["type"] in ("proto_parser", "irnet_parser") and not set(new) & set(FLAT)
    assert legacy_spelling(new) == {"type": name, **old}
    assert legacy_spelling({"model": {"members": [new, new]}}) == {"model": {"members": [{"type": name, **old}] * 2}}
    assert experiment_hash({"model": new}) == experiment_hash({"model": {"type": name, **old}})


def test_configs_no_old_name_says_keep_their_spelling():
    for config in (
        {"type": "proto_parser", "rerankers": [{"type": "variable_scoping"}]},  # scoping without the slot-type check
        {"type": "proto_parser", "decoding_scorers": [{"type": "missing_evidence"}, {"type": "slot_type_check"}]},
        {"type": "proto_parser", "beam_size": 5, "rerankers": [{"type": "entity_coverage", "beam_size": 5}]},
        {"type": "proto_parser_authors", "rerankers": [{"type": "entity_coverage"}]},
        {"type": "proto_parser", "rerankers": [{"type": "entity_coverage", "other": 1}]},
    ):
        assert legacy_spelling(config) == config


def test_a_parser_with_schema_encoding_alone_is_spelled_as_irnet_parser():
    """`irnet_parser` was a subclass; `proto_parser` with the `schema_encoding` action scorer hashes as it did."""
    new = {"type": "proto_parser", "dropout": 0.1, "action_scorers": [{"type": "schema_encoding", "threshold": 0.8}],
           "decoding_scorers": [{"type": "slot_type_check", "weight": 2}]}
    old = {"type": "irnet_parser_slot_types", "dropout": 0.1, "schema_threshold": 0.8, "slot_type_weight": 2}
    assert legacy_spelling(new) == old
    assert experiment_hash({"model": new}) == experiment_hash({"model": old})
    for other in ([{"type": "schema_encoding"}, {"type": "schema_encoding"}], [{"type": "schema_encoding", "x": 1}]):
        assert legacy_spelling({"type": "proto_parser", "action_scorers": other})["type"] == "proto_parser"


# An old config of each model of the authors' behaviours, as the faithful configs and their switch systems spelled it.
_AUTHORS_DECODER = {"decoder": "authors", "action_dim": 256, "reduce_input": "inputs", "decoder_init": "last_cells",
                    "decoder_bias": False, "similarity": "parts", "predicate_dropout_unit": "action"}
OLD_AUTHORS_CONFIGS = [
    {"type": "proto_parser_unrestricted", "restrict_training": True, "restrict_decoding": False},
    {"type": "proto_parser_authors", "restrict_training": False, "restrict_decoding": False, "similarity": "parts"},
    {"type": "proto_parser_example_loss", "restrict_training": False, "restrict_decoding": False, **_AUTHORS_DECODER},
    {"type": "proto_parser_classified_entities", "restrict_training": False, "restrict_decoding": False,
     "decoder": "authors", "action_dim": 256, "entity_readout": "decoder"},
    {"type": "proto_parser_authors_classified_entities", "restrict_training": False, "restrict_decoding": False,
     **_AUTHORS_DECODER, "entity_readout": "decoder"},
    {"type": "proto_parser_authors_slots", "restrict_training": False, "restrict_decoding": False, **_AUTHORS_DECODER,
     "entity_readout": "decoder"},
]


@pytest.mark.parametrize("old", OLD_AUTHORS_CONFIGS, ids=[c["type"] for c in OLD_AUTHORS_CONFIGS])
def test_the_old_models_of_the_authors_behaviours_translate_and_hash_as_before(old):
    config = dict(old)
    new = translate_authors_model(config.pop("type"), config)
    assert new["type"] == "proto_parser" and not any(key in new for key in ("restrict_decoding", "entity_readout", "decoder_init"))
    assert legacy_spelling(new) == old
    assert experiment_hash({"model": new}) == experiment_hash({"model": old})


def test_the_faithful_model_is_spelled_with_components():
    old = dict(OLD_AUTHORS_CONFIGS[-1])
    new = translate_authors_model(old.pop("type"), old)
    assert new == {"type": "proto_parser", "restrict_training": False, "rerankers": [{"type": "dead_ends"}],
                   "decoder": {"type": "authors", "input_dim": 128, "reduce_input": "inputs", "initial_state": "last_cells", "bias": False},
                   "action_dim": 256, "similarity": "parts", "predicate_dropout_unit": "action", "loss_reduction": "example",
                   "slot_variant": {"type": "authors"}}
