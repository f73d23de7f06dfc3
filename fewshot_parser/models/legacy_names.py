"""
The model names of the decoding mixins, kept for archives and configs written before the decoding
components (`fewshot_parser/modules/decoding/`). Each old name is
`{proto_parser|irnet_parser}[_entity_coverage][_missing_evidence][_slot_types[_scoped]]` with the
mixins' flat keys; building it builds the new configuration instead:

    old key (model)                     new configuration
    _slot_types,       slot_type_weight decoding_scorers: [{type: slot_type_check, weight}, ...]
    _missing_evidence, evidence_weight, ...then {type: missing_evidence, weight, share, lift,
      evidence_share, evidence_lift,      min_count, actions}
      evidence_min_count, evidence_actions
    _scoped,           names_per_slot,  rerankers: [{type: variable_scoping, names_per_slot,
      max_namings                         max_namings}, ...]
    _entity_coverage,  coverage_weight, ...then {type: entity_coverage, weight, beam_size}
      beam_size                           (the parser itself keeps its default greedy beam_size 1)

The scorers come in the order the mixins added their terms (slot types first), so that the sums
are the same. Every other key goes to the parser unchanged. An archive's weights load as they are;
`proto_parser` moves the evidence statistics under its `missing_evidence` scorer.
"""
import re
from typing import Any, Dict, List

from allennlp.common import Params
from allennlp.models import Model

from fewshot_parser.models.irnet_parser import IRNetParser  # noqa: F401 (registers "irnet_parser")
from fewshot_parser.models.proto_parser import ProtoParser  # noqa: F401 (registers "proto_parser")

_PATTERN = re.compile(r"^(proto_parser|irnet_parser)(_entity_coverage)?(_missing_evidence)?(_slot_types(_scoped)?)?$")


def _legacy_names() -> List[str]:
    names = []
    for parser in ("proto_parser", "irnet_parser"):
        for coverage in ("", "_entity_coverage"):
            for evidence in ("", "_missing_evidence"):
                for checks in ("", "_slot_types", "_slot_types_scoped"):
                    if coverage or evidence or checks:
                        names.append(parser + coverage + evidence + checks)
    return names


# Every name the mixins registered (22).
LEGACY_MODEL_NAMES = _legacy_names()


def translate_legacy_config(name: str, config: Dict[str, Any]) -> Dict[str, Any]:
    """The `proto_parser` / `irnet_parser` config (with `type`) that the old model `name` with `config` (no `type`) was."""
    match = _PATTERN.match(name)
    if match is None or name not in LEGACY_MODEL_NAMES:
        raise ValueError(f"{name!r} is not an old decoding-mixin model name")
    parser, coverage, evidence, checks, scoped = match.groups()
    config = dict(config)

    def take(old: str, new: str) -> Dict[str, Any]:
        return {new: config.pop(old)} if old in config else {}

    scorers: List[Dict[str, Any]] = []
    rerankers: List[Dict[str, Any]] = []
    if checks:
        scorers.append({"type": "slot_type_check", **take("slot_type_weight", "weight")})
    if evidence:
        scorers.append({"type": "missing_evidence", **take("evidence_weight", "weight"), **take("evidence_share", "share"),
                        **take("evidence_lift", "lift"), **take("evidence_min_count", "min_count"),
                        **take("evidence_actions", "actions")})
    if scoped:
        rerankers.append({"type": "variable_scoping", **take("names_per_slot", "names_per_slot"),
                          **take("max_namings", "max_namings")})
    if coverage:
        rerankers.append({"type": "entity_coverage", **take("coverage_weight", "weight"), **take("beam_size", "beam_size")})
    translated: Dict[str, Any] = {"type": parser, **config}
    if scorers:
        translated["decoding_scorers"] = scorers + list(translated.get("decoding_scorers", []))
    if rerankers:
        translated["rerankers"] = rerankers + list(translated.get("rerankers", []))
    return translated


class LegacyModelName:
    """
    What an old name is registered as: not a class, a builder whose `from_params` translates the
    config (`translate_legacy_config`) and builds the parser it names.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.__doc__ = f"The old model name {name!r}, built as `translate_legacy_config` says (legacy_names.py)."

    def from_params(self, params: Params, constructor_to_call: Any = None, constructor_to_inspect: Any = None,
                    **extras: Any) -> Model:
        # `constructor_to_*` are what AllenNLP found on this builder: the parser's own are used instead.
        config = translate_legacy_config(self.name, params.as_dict(quiet=True))
        for key in list(params.keys()):  # consumed: the caller may check that nothing is left
            params.pop(key)
        return Model.from_params(params=Params(config), **extras)


for _name in LEGACY_MODEL_NAMES:
    Model.register(_name)(LegacyModelName(_name))  # type: ignore[arg-type]
