"""
The model names of the decoding mixins that preceded `proto_parser`'s decoding components
(`fewshot_parser/modules/decoding/`), as a translation between the two spellings of a model config.
Each old name is `{proto_parser|irnet_parser}[_entity_coverage][_missing_evidence][_slot_types[_scoped]]`
with the mixins' flat keys:

    old name part, its keys             new configuration
    _slot_types: slot_type_weight       decoding_scorers: [{type: slot_type_check, weight}, ...]
    _missing_evidence: evidence_weight, ...then {type: missing_evidence, weight, share, lift,
      evidence_share, evidence_lift,      min_count, actions}
      evidence_min_count, evidence_actions
    _scoped: names_per_slot,            rerankers: [{type: variable_scoping, names_per_slot,
      max_namings                         max_namings}, ...]
    _entity_coverage: coverage_weight,  ...then {type: entity_coverage, weight, beam_size}
      beam_size                           (the parser keeps its own beam_size, 1)

The scorers come in the order the mixins added their terms (slot types first), so that the sums are
the same; every other key is the parser's. The old parser `irnet_parser` (a subclass) is `proto_parser`
with the action scorer `schema_encoding` first in `action_scorers` (its `schema_threshold` becomes the
component's `threshold`). `translate_legacy_config` reads an old config (models
built from old names, `models/legacy_names.py`); `legacy_spelling` writes a new one the old way, so
that a config keeps the hash of the rows recorded before the components (`provenance.experiment_hash`).
Plain dictionaries only: nothing here imports a model.
"""

import re
from typing import Any, Dict, List, Optional

from fewshot_parser.common.config_walk import rewrite_bottom_up

_PATTERN = re.compile(r"^(proto_parser|irnet_parser)(_entity_coverage)?(_missing_evidence)?(_slot_types(_scoped)?)?$")
_PARSERS = ("proto_parser", "irnet_parser")

# (component type, name part, {old flat key: component key}), in the order of the name parts' keys.
_SCORERS = (
    ("slot_type_check", "_slot_types", {"slot_type_weight": "weight"}),
    (
        "missing_evidence",
        "_missing_evidence",
        {
            "evidence_weight": "weight",
            "evidence_share": "share",
            "evidence_lift": "lift",
            "evidence_min_count": "min_count",
            "evidence_actions": "actions",
        },
    ),
)
_RERANKERS = (
    ("variable_scoping", "_scoped", {"names_per_slot": "names_per_slot", "max_namings": "max_namings"}),
    ("entity_coverage", "_entity_coverage", {"coverage_weight": "weight", "beam_size": "beam_size"}),
)


def _legacy_names() -> List[str]:
    names = []
    for parser in _PARSERS:
        for coverage in ("", "_entity_coverage"):
            for evidence in ("", "_missing_evidence"):
                for checks in ("", "_slot_types", "_slot_types_scoped"):
                    if coverage or evidence or checks:
                        names.append(parser + coverage + evidence + checks)
    return names


# Every name the mixins registered (22).
LEGACY_MODEL_NAMES = _legacy_names()


def translate_irnet_parser(config: Dict[str, Any]) -> Dict[str, Any]:
    """The `proto_parser` config (with `type`) that an `irnet_parser` config (no `type`) was."""
    config = dict(config)
    scorer: Dict[str, Any] = {"type": "schema_encoding"}
    if "schema_threshold" in config:
        scorer["threshold"] = config.pop("schema_threshold")
    return {"type": "proto_parser", **config, "action_scorers": [scorer] + list(config.get("action_scorers", []))}


def _irnet_spelling(config: Dict[str, Any]) -> Dict[str, Any]:
    """A `proto_parser` config whose only action scorer is `schema_encoding`, as `irnet_parser`; others as they are."""
    scorers = config.get("action_scorers")
    if config.get("type") != "proto_parser" or not isinstance(scorers, list) or len(scorers) != 1:
        return config
    scorer = scorers[0]
    if not isinstance(scorer, dict) or scorer.get("type") != "schema_encoding" or set(scorer) - {"type", "threshold"}:
        return config
    old = {k: v for k, v in config.items() if k != "action_scorers"}
    old["type"] = "irnet_parser"
    if "threshold" in scorer:
        old["schema_threshold"] = scorer["threshold"]
    return old


def translate_legacy_config(name: str, config: Dict[str, Any]) -> Dict[str, Any]:
    """
    The `proto_parser` / `irnet_parser` config (with `type`) that the old model `name` with `config` (no `type`)
    was.
    """
    match = _PATTERN.match(name)
    if match is None or name not in LEGACY_MODEL_NAMES:
        raise ValueError(f"{name!r} is not an old decoding-mixin model name")
    config = dict(config)
    parts = {part for part in match.groups()[1:] if part}
    if "_slot_types" in name:
        parts.add("_slot_types")
    if name.endswith("_scoped"):
        parts.add("_scoped")

    def components(table: tuple) -> List[Dict[str, Any]]:
        return [
            {"type": kind, **{new: config.pop(old) for old, new in keys.items() if old in config}}
            for kind, part, keys in table
            if part in parts
        ]

    scorers, rerankers = components(_SCORERS), components(_RERANKERS)
    translated: Dict[str, Any] = {"type": match.group(1), **config}
    if scorers:
        translated["decoding_scorers"] = scorers + list(translated.get("decoding_scorers", []))
    if rerankers:
        translated["rerankers"] = rerankers + list(translated.get("rerankers", []))
    return translated


def _old_spelling(config: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    """A parser config with components as an old name and flat keys; None when no old name says it."""
    old: Dict[str, Any] = {k: v for k, v in config.items() if k not in ("type", "decoding_scorers", "rerankers")}
    parts = set()
    for table, given in ((_SCORERS, config.get("decoding_scorers", [])), (_RERANKERS, config.get("rerankers", []))):
        expected = [entry for entry in table if entry[0] in {c.get("type") for c in given if isinstance(c, dict)}]
        if [c.get("type") if isinstance(c, dict) else None for c in given] != [kind for kind, _, _ in expected]:
            return None  # an unknown component, a repeated one, or another order
        for (_, part, keys), component in zip(expected, given):
            flat = {new: old_key for old_key, new in keys.items()}
            if any(key != "type" and key not in flat for key in component):
                return None
            for key, value in component.items():
                if key != "type":
                    if flat[key] in old:
                        return None
                    old[flat[key]] = value
            parts.add(part)
    name = config["type"] + "".join(
        part for part in ("_entity_coverage", "_missing_evidence", "_slot_types", "_scoped") if part in parts
    )
    return {"type": name, **old} if name in LEGACY_MODEL_NAMES else None


def legacy_spelling(config: Any) -> Any:
    """
    `config` with every parser config that has decoding components, or the authors' options, written as
    its old name, where one says it.
    """

    def old_way(config: Dict[str, Any]) -> Dict[str, Any]:
        config = _irnet_spelling(_authors_spelling(config))
        if config.get("type") in _PARSERS and ("decoding_scorers" in config or "rerankers" in config):
            return _old_spelling(config) or config
        return config

    return rewrite_bottom_up(config, old_way)


# The models that held the authors' behaviours before they became `proto_parser`'s options and
# components (a chain of subclasses and mixins), with what each name added:
#   proto_parser_unrestricted                 restrict_training / restrict_decoding (both false by default)
#   proto_parser_authors                      + decoder, decoder_input_dim, reduce_input, decoder_init,
#                                               decoder_bias, similarity, predicate_dropout_unit
#   proto_parser_example_loss                 + per-example loss sums
#   proto_parser_classified_entities          example loss + classified entity slots (entity_readout)
#   proto_parser_authors_classified_entities  authors + classified entity slots (entity_readout)
#   proto_parser_authors_slots                example loss + the authors' slot states
# Their configs now say: restrict_training, rerankers [... , dead_ends] (restrict_decoding false),
# decoder {type: authors, input_dim, reduce_input, initial_state, bias}, similarity, predicate_dropout_unit,
# loss_reduction 'example', slot_variant {type: classified_entities, readout} or {type: authors}.
AUTHORS_MODEL_NAMES = {
    "proto_parser_unrestricted": (),
    "proto_parser_authors": (),
    "proto_parser_example_loss": ("example",),
    "proto_parser_classified_entities": ("example", "classified"),
    "proto_parser_authors_classified_entities": ("classified",),
    "proto_parser_authors_slots": ("example", "slots"),
}
_OUR_DECODER_DETAILS = ("states", "mean", True)
_PAPER_SWITCHES = {"similarity": "name", "predicate_dropout_unit": "predicate"}


def translate_authors_model(name: str, config: Dict[str, Any]) -> Dict[str, Any]:
    """
    The `proto_parser` config (with `type`) that the old model `name` of `AUTHORS_MODEL_NAMES` with `config` (no
    `type`) was.
    """
    if name not in AUTHORS_MODEL_NAMES:
        raise ValueError(f"{name!r} is not an old model of the authors' behaviours")
    parts = AUTHORS_MODEL_NAMES[name]
    config = dict(config)
    restrict_training = config.pop("restrict_training", False)
    restrict_decoding = config.pop("restrict_decoding", False)
    kind = config.pop("decoder", "stack")
    details = {
        "input_dim": config.pop("decoder_input_dim", 128),
        "reduce_input": config.pop("reduce_input", "states"),
        "initial_state": config.pop("decoder_init", "mean"),
        "bias": config.pop("decoder_bias", True),
    }
    readout = config.pop("entity_readout", "own")
    translated: Dict[str, Any] = {"type": "proto_parser", **config}
    if not restrict_training:
        translated["restrict_training"] = False
    if not restrict_decoding:
        translated["rerankers"] = list(config.get("rerankers", [])) + [{"type": "dead_ends"}]
    if kind == "authors":
        translated["decoder"] = {"type": "authors", **details}
    if "example" in parts:
        translated["loss_reduction"] = "example"
    if "classified" in parts:
        translated["slot_variant"] = {"type": "classified_entities", "readout": readout}
    if "slots" in parts:
        translated["slot_variant"] = {"type": "authors"}
    return translated


def _authors_spelling(config: Dict[str, Any]) -> Dict[str, Any]:
    """
    A `proto_parser` config with the authors' options as the old model that held them (as its configs spelled it);
    others as they are.
    """
    if config.get("type") != "proto_parser":
        return config
    rerankers = config.get("rerankers", [])
    dead_ends = isinstance(rerankers, list) and {"type": "dead_ends"} in rerankers
    decoder = config.get("decoder")
    slots = config.get("slot_variant")
    example = config.get("loss_reduction", "step") == "example"
    switches = {key: config[key] for key in _PAPER_SWITCHES if key in config and config[key] != _PAPER_SWITCHES[key]}
    if not (dead_ends or decoder or slots or example or switches or config.get("restrict_training", True) is False):
        return config
    old = {
        k: v
        for k, v in config.items()
        if k
        not in ("type", "rerankers", "decoder", "slot_variant", "loss_reduction", "restrict_training", *_PAPER_SWITCHES)
    }
    kept = [r for r in rerankers if r != {"type": "dead_ends"}]
    if kept:
        old["rerankers"] = kept
    old["restrict_training"] = config.get("restrict_training", True)
    old["restrict_decoding"] = not dead_ends
    if decoder:
        old["decoder"] = decoder["type"]
        details = (
            decoder.get("reduce_input", "inputs"),
            decoder.get("initial_state", "last_cells"),
            decoder.get("bias", False),
        )
        if details != _OUR_DECODER_DETAILS:
            old["reduce_input"], old["decoder_init"] = details[0], details[1]
            if not details[2]:
                old["decoder_bias"] = False
        if decoder.get("input_dim", 128) != 128:
            old["decoder_input_dim"] = decoder["input_dim"]
    old.update(switches)
    authors = bool(decoder) or bool(switches)
    name = (
        "proto_parser_example_loss" if example else "proto_parser_authors" if authors else "proto_parser_unrestricted"
    )
    if slots and slots.get("type") == "authors":
        name = "proto_parser_authors_slots"
        old["entity_readout"] = "decoder"
    elif slots:
        name = "proto_parser_classified_entities" if example else "proto_parser_authors_classified_entities"
        if slots.get("readout", "own") != "own":
            old["entity_readout"] = slots["readout"]
    return {"type": name, **old}
