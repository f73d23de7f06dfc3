"""
Slot-type check for ProtoParser's decoder. Not in the paper.

ProtoParser chooses a template action first and fills its slots afterwards, so nothing stops it
from choosing an action whose entity slot has a type the utterance has no entity of. Jobs: with
`req_exp` new and shown once as `req_exp ( ANS , year0 )`, the fine-tuned parser writes it for "show
me job pay greater than num_salary per year" and fills the slot with "show". The benchmark's gold
LFs never need such an action (`modules/slot_types.py`), so this parser charges it, at every decoding
step,

    slot_type_weight * [the action has an entity slot whose type no word of the utterance has]

The rule reads only the action's slots and the utterance's entity types: it is the same for known
and new actions. Training is unchanged (decoding only), and so is any pre-trained archive.
"""
from typing import Any, Callable, Dict, List, Optional, Tuple, Type

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import TextFieldTensors, Vocabulary
from allennlp.models import Model

from fewshot_parser.logical_forms.namespaces import ACTION_NAMESPACE, ENTITY_TYPE_NAMESPACE
from fewshot_parser.models.entity_coverage import EntityCoverageReranking
from fewshot_parser.models.irnet_parser import IRNetParser
from fewshot_parser.models.missing_evidence import MissingEvidencePenalty
from fewshot_parser.models.proto_parser import ProtoParser
from fewshot_parser.modules.slot_types import absent_slot_types, slot_type_matrix


class SlotTypeCheck:
    """
    Mixed into a ProtoParser class, right before it (after any re-ranking mixin, so that every
    decoding pass it makes is checked): lowers the decoding score of an action that needs an entity
    type the utterance lacks (module docstring).

    # Parameters

    slot_type_weight : `float`, optional (default = `2.0`)
        Score subtracted from such an action at each step (0 disables the check).
    **kwargs
        Everything else, as for the parser.
    """

    def __init__(self, vocab: Vocabulary, slot_type_weight: float = 2.0, **kwargs: Any) -> None:
        if slot_type_weight < 0:
            raise ConfigurationError(f"slot-type check: slot_type_weight must be >= 0, not {slot_type_weight}")
        super().__init__(vocab, **kwargs)  # type: ignore[call-arg]
        self.slot_type_weight = slot_type_weight
        self._slot_types: Optional[torch.Tensor] = None  # the slot_type_matrix, rebuilt when the vocabulary grows
        self._source_types: Optional[torch.Tensor] = None  # the entity types of the batch being decoded

    def slot_types(self) -> torch.Tensor:
        """`(num_actions, num_types + 1)`: the entity types each action of the vocabulary needs."""
        vocab: Vocabulary = self.vocab  # type: ignore[attr-defined]
        num_actions = vocab.get_vocab_size(ACTION_NAMESPACE)
        if self._slot_types is None or self._slot_types.size(0) != num_actions:
            actions = list(self.action_space.actions)  # type: ignore[attr-defined]
            actions += [None] * (num_actions - len(actions))
            types = vocab.get_token_to_index_vocabulary(ENTITY_TYPE_NAMESPACE)
            self._slot_types = slot_type_matrix(actions, types, vocab.get_vocab_size(ENTITY_TYPE_NAMESPACE))
        return self._slot_types

    def decode(
        self, encoded: torch.Tensor, source_mask: torch.Tensor, source_types: torch.Tensor,
        metadata: List[Dict[str, Any]], source_tokens: Optional[TextFieldTensors] = None,
    ) -> Dict[str, Any]:
        # `decoding_bonus` is called inside the parser's decode with the tokens only: keep the types.
        self._source_types = source_types
        try:
            return super().decode(encoded, source_mask, source_types, metadata, source_tokens)  # type: ignore[misc]
        finally:
            self._source_types = None

    def decoding_bonus(
        self, source_tokens: Optional[TextFieldTensors], beams: int
    ) -> Optional[Callable[[torch.Tensor, torch.Tensor], torch.Tensor]]:
        base = super().decoding_bonus(source_tokens, beams)  # type: ignore[misc]
        if self._source_types is None or self.slot_type_weight == 0:
            return base
        absent = absent_slot_types(self._source_types, self.slot_types())
        penalty = (-self.slot_type_weight * absent.float()).repeat_interleave(beams, 0)
        if base is None:
            return lambda projection, attention: penalty
        return lambda projection, attention: base(projection, attention) + penalty


def _register(name: str, bases: Tuple[Type, ...]) -> None:
    """Registers `name`: the parser `bases[-1]` with the mixins before it and the slot-type check."""
    title = "".join(part.title() for part in name.split("_"))
    cls = type(title, bases[:-1] + (SlotTypeCheck, bases[-1]), {
        "__module__": __name__,
        "__doc__": f"`{name[: -len('_slot_types')]}` with the slot-type check (`SlotTypeCheck`).\n\n"
                   f"    Registered as a `Model` with name \"{name}\".",
    })
    globals()[title] = Model.register(name)(cls)


# Every combination the Jsonnet switches can ask for: `<parser>[_entity_coverage][_missing_evidence]_slot_types`.
for _parser_name, _parser in (("proto_parser", ProtoParser), ("irnet_parser", IRNetParser)):
    for _suffix, _mixins in (
        ("", ()),
        ("_entity_coverage", (EntityCoverageReranking,)),
        ("_missing_evidence", (MissingEvidencePenalty,)),
        ("_entity_coverage_missing_evidence", (MissingEvidencePenalty, EntityCoverageReranking)),
    ):
        _register(f"{_parser_name}{_suffix}_slot_types", _mixins + (_parser,))
