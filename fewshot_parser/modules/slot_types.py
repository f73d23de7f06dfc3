"""
Which actions an utterance can fill, by the entity types of its words: the tables of the slot-type
check (`models/slot_type_check.py`). Not in the paper.

An action such as `GEN ( req_exp <v> <e:year> )` has an entity slot of type `year`; the slot
decoder fills it from an utterance entity of that type (`year0`). An utterance with no entity of
the type cannot fill it: the benchmark's gold LFs never need one (0 of the 17,791 examples of the
three datasets' shuffle-0 training, support and query sets), yet the fine-tuned parser writes such
actions and fills the slot with whatever word is left ("show me job pay greater than num_salary per
year" -> `req_exp ( ANS , show )`).
"""

from typing import Dict, Optional, Sequence

import torch

from fewshot_parser.logical_forms.actions import Action
from fewshot_parser.logical_forms.template import ENTITY_SLOT_PREFIX, slot_type


def slot_type_matrix(actions: Sequence[Optional[Action]], entity_types: Dict[str, int], num_types: int) -> torch.Tensor:
    """
    `(num_actions, num_types + 1)` bool: the entity types each action's slots need, from the
    `entity_types` vocabulary (label -> index). A type the vocabulary lacks, which no utterance word
    can have, is the extra last column.
    """
    matrix = torch.zeros(len(actions), num_types + 1, dtype=torch.bool)
    for row, action in enumerate(actions):
        for slot in action.slots if action is not None else ():
            if slot.startswith(ENTITY_SLOT_PREFIX):
                matrix[row, entity_types.get(slot_type(slot), num_types)] = True
    return matrix


def absent_slot_types(source_types: torch.Tensor, needed: torch.Tensor) -> torch.Tensor:
    """
    `(batch, num_actions)` bool: the action needs an entity type that no word of the utterance has.
    `source_types` is `(batch, length)` entity-type ids (padding included: no slot needs it),
    `needed` the `slot_type_matrix`.
    """
    present = torch.zeros(source_types.size(0), needed.size(1), dtype=torch.bool, device=source_types.device)
    present.scatter_(1, source_types, True)
    present[:, -1] = False
    # shape: (batch, num_actions, num_types + 1)
    lacking = needed.to(source_types.device).unsqueeze(0) & ~present.unsqueeze(1)
    return lacking.any(-1)
