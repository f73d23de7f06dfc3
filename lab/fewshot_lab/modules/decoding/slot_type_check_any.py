"""
The slot-type check with untyped slots in a typed vocabulary (`fewshot_untyped_new` reader).

`slot_type_check` charges an action whose entity slot has a type no utterance word has. An untyped
slot `<e:entity>` among typed ones names no word's type, so it would be charged at every step and
the new predicates' actions with it lose `weight` each time. This variant requires nothing of an
untyped slot there (any word may fill it), and checks typed slots as `slot_type_check` does. Where
the vocabulary itself is untyped (words of type `entity`), it is `slot_type_check`.
"""

from typing import Any

import torch

from fewshot_parser.logical_forms.namespaces import ACTION_NAMESPACE, ENTITY_TYPE_NAMESPACE
from fewshot_parser.logical_forms.template import ENTITY_SLOT_PREFIX, slot_type
from fewshot_parser.modules.decoding.decoding_scorer import DecodingScorer
from fewshot_parser.modules.decoding.slot_type_check import SlotTypeCheck
from fewshot_lab.data.dataset_readers.untyped_new import ANY_ENTITY


@DecodingScorer.register("slot_type_check_any")
class SlotTypeCheckAny(SlotTypeCheck):
    """
    `slot_type_check` that lets an untyped slot pass in a typed vocabulary (module docstring).

    Registered as a `DecodingScorer` with name "slot_type_check_any".

    # Parameters

    weight : `float`, optional (default = `2.0`)
        As for `slot_type_check`.
    """

    def slot_types(self, parser: Any) -> torch.Tensor:
        vocab = parser.vocab
        num_actions = vocab.get_vocab_size(ACTION_NAMESPACE)
        if self._slot_types is None or self._slot_types.size(0) != num_actions:
            types = vocab.get_token_to_index_vocabulary(ENTITY_TYPE_NAMESPACE)
            num_types = vocab.get_vocab_size(ENTITY_TYPE_NAMESPACE)
            matrix = torch.zeros(num_actions, num_types + 1, dtype=torch.bool)
            for row, action in enumerate(parser.action_space.actions):
                for slot in action.slots if action is not None else ():
                    if not slot.startswith(ENTITY_SLOT_PREFIX):
                        continue
                    name = slot_type(slot)
                    if name == ANY_ENTITY and name not in types:
                        continue
                    matrix[row, types.get(name, num_types)] = True
            self._slot_types = matrix
        return self._slot_types
