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
    ("missing_evidence", "_missing_evidence", {"evidence_weight": "weight", "evidence_share": "share",
                                               "evidence_lift": "lift", "evidence_min_count": "min_count",
                                               "evidence_actions": "actions"}),
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
    """The `proto_parser` / `irnet_parser` config (with `type`) that the old model `name` with `config` (no `type`) was."""
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
        return [{"type": kind, **{new: config.pop(old) for old, new in keys.items() if old in config}}
                for kind, part, keys in table if part in parts]

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
        for (kind, part, keys), component in zip(expected, given):
            flat = {new: old_key for old_key, new in keys.items()}
            if any(key != "type" and key not in flat for key in component):
                return None
            for key, value in component.items():
                if key != "type":
                    if flat[key] in old:
                        return None
                    old[flat[key]] = value
            parts.add(part)
    name = config["type"] + "".join(part for part in ("_entity_coverage", "_missing_evidence", "_slot_types", "_scoped")
                                    if part in parts)
    return {"type": name, **old} if name in LEGACY_MODEL_NAMES else None


def legacy_spelling(config: Any) -> Any:
    """`config` with every parser config that has decoding components written as its old name, where one says it."""
    def old_way(config: Dict[str, Any]) -> Dict[str, Any]:
        config = _irnet_spelling(config)
        if config.get("type") in _PARSERS and ("decoding_scorers" in config or "rerankers" in config):
            return _old_spelling(config) or config
        return config

    return rewrite_bottom_up(config, old_way)
