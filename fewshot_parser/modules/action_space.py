"""
What the model needs to know about each action of the vocabulary, as tensors.

Built from the `actions` namespace (whose strings are the action patterns), so it is rebuilt
whenever the vocabulary grows (new predicates at fine-tuning).
"""

from typing import Dict, List, Optional, Set

import torch
from allennlp.data import Vocabulary
from allennlp.data.vocabulary import DEFAULT_OOV_TOKEN

from fewshot_parser.logical_forms.actions import STOP, Action
from fewshot_parser.logical_forms.namespaces import ACTION_NAMESPACE, ENTITY_TYPE_NAMESPACE
from fewshot_parser.logical_forms.template import UNIFIED_SLOT, VARIABLE_SLOT, slot_type


class ActionSpace:
    """
    Per-action tensors for a vocabulary.

    # Attributes

    actions : `List[Optional[Action]]`
        The action of each index (None for padding and unknown).
    valid : `(num_actions,)` bool: a real action (can be predicted).
    arity : `(num_actions,)` long: subtrees popped.
    is_stop : `(num_actions,)` bool.
    entity_types : `(num_actions, max_entity_slots)` long: entity-type ids (namespace
        `entity_types`) of the action's entity slots in order, 0 where there is none.
    num_variables : `(num_actions,)` long: number of variable slots.
    num_unified : `(num_actions,)` long: number of unified slots `<s>` (variable or entity).
    """

    def __init__(self, vocab: Vocabulary) -> None:
        size = vocab.get_vocab_size(ACTION_NAMESPACE)
        self._tensors: Optional[Dict[str, torch.Tensor]] = None
        self.actions: List[Optional[Action]] = []
        for index in range(size):
            token = vocab.get_token_from_index(index, ACTION_NAMESPACE)
            self.actions.append(None if token.startswith("@@") else Action.from_string(token))
        typed = [s for a in self.actions if a is not None for s in a.slots]
        self.unified = UNIFIED_SLOT in typed
        max_entities = max(
            [sum(1 for s in a.slots if s not in (VARIABLE_SLOT, UNIFIED_SLOT)) for a in self.actions if a is not None]
            + [1]
        )
        self.valid = torch.tensor([a is not None for a in self.actions], dtype=torch.bool)
        self.arity = torch.tensor([a.arity if a else 0 for a in self.actions], dtype=torch.long)
        self.is_stop = torch.tensor([a is not None and a.kind == STOP for a in self.actions], dtype=torch.bool)
        self.num_variables = torch.tensor(
            [sum(1 for s in a.slots if s == VARIABLE_SLOT) if a else 0 for a in self.actions], dtype=torch.long
        )
        self.num_unified = torch.tensor(
            [sum(1 for s in a.slots if s == UNIFIED_SLOT) if a else 0 for a in self.actions], dtype=torch.long
        )
        self.entity_types = torch.zeros(size, max_entities, dtype=torch.long)
        oov = vocab.get_token_index(DEFAULT_OOV_TOKEN, ENTITY_TYPE_NAMESPACE)
        for index, action in enumerate(self.actions):
            if action is None:
                continue
            types = [slot_type(s) for s in action.slots if s not in (VARIABLE_SLOT, UNIFIED_SLOT)]
            for position, name in enumerate(types):
                self.entity_types[index, position] = vocab.get_token_to_index_vocabulary(ENTITY_TYPE_NAMESPACE).get(
                    name, oov
                )

    def tensors(self, device: torch.device) -> Dict[str, torch.Tensor]:
        """`valid`, `arity`, `is_stop`, `entity_types` and `num_variables` on `device` (kept while it is the same)."""
        if self._tensors is None or self._tensors["valid"].device != device:
            self._tensors = {
                name: getattr(self, name).to(device)
                for name in ("valid", "arity", "is_stop", "entity_types", "num_variables")
            }
        return self._tensors

    def __len__(self) -> int:
        return len(self.actions)

    def indices_with_predicates(self, predicates: Set[str]) -> List[int]:
        """Indices of the actions that produce any of `predicates` (e.g. the new ones)."""
        return [i for i, a in enumerate(self.actions) if a is not None and predicates.intersection(a.predicates)]
