"""
Slot-type check for ProtoParser's decoder. Not in the paper.

ProtoParser chooses a template action first and fills its slots afterwards, so nothing stops it
from choosing an action whose entity slot has a type the utterance has no entity of. Jobs: with
`req_exp` new and shown once as `req_exp ( ANS , year0 )`, the fine-tuned parser writes it for "show
me job pay greater than num_salary per year" and fills the slot with "show". The benchmark's gold
LFs never need such an action (`modules/slot_types.py`), so this scorer charges it, at every decoding
step,

    weight * [the action has an entity slot whose type no word of the utterance has]

The rule reads only the action's slots and the utterance's entity types: it is the same for known
and new actions. Training is unchanged (decoding only), and so is any pre-trained archive.
"""

from typing import Any, Optional

import torch
from allennlp.common.checks import ConfigurationError

from fewshot_parser.logical_forms.namespaces import ACTION_NAMESPACE, ENTITY_TYPE_NAMESPACE
from fewshot_parser.modules.decoding.decoding_scorer import DecodingScorer
from fewshot_parser.modules.decoding.hypotheses import DecodingInputs
from fewshot_parser.modules.slot_types import absent_slot_types, slot_type_matrix


@DecodingScorer.register("slot_type_check")
class SlotTypeCheck(DecodingScorer):
    """
    Lowers the decoding score of an action that needs an entity type the utterance lacks (module
    docstring).

    Registered as a `DecodingScorer` with name "slot_type_check".

    # Parameters

    weight : `float`, optional (default = `2.0`)
        Score subtracted from such an action at each step (0 disables the check).
    """

    def __init__(self, weight: float = 2.0) -> None:
        super().__init__()
        if weight < 0:
            raise ConfigurationError(f"slot-type check: weight must be >= 0, not {weight}")
        self.weight = weight
        self._slot_types: Optional[torch.Tensor] = None  # the slot_type_matrix, rebuilt when the vocabulary grows

    def slot_types(self, parser: Any) -> torch.Tensor:
        """`(num_actions, num_types + 1)`: the entity types each action of the parser's vocabulary needs."""
        vocab = parser.vocab
        num_actions = vocab.get_vocab_size(ACTION_NAMESPACE)
        if self._slot_types is None or self._slot_types.size(0) != num_actions:
            actions = list(parser.action_space.actions)
            actions += [None] * (num_actions - len(actions))
            types = vocab.get_token_to_index_vocabulary(ENTITY_TYPE_NAMESPACE)
            self._slot_types = slot_type_matrix(actions, types, vocab.get_vocab_size(ENTITY_TYPE_NAMESPACE))
        return self._slot_types

    def scores(self, parser: Any, inputs: DecodingInputs) -> Optional[torch.Tensor]:
        if self.weight == 0:
            return None
        absent = absent_slot_types(inputs.source_types, self.slot_types(parser))
        return -self.weight * absent.float()
