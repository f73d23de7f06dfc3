from typing import Any, Dict, List, Optional, Tuple

import torch
from allennlp.common import Registrable

# What a slot prediction is: per `(row, step)` of the decoded actions, one choice per slot of the action.
Choices = Dict[Tuple[int, int], List[int]]


class SlotVariant(torch.nn.Module, Registrable):
    """
    Another way of filling the slots of `proto_parser`'s templates than the paper's. The parser builds
    it after all its other parameters (so that they draw from the random generator as without it),
    handing it the parser; it keeps no reference to the parser: every hook is given it again.

    The parser's own copy-and-name slot filler (`modules/slot_filler.py`) stays in the model; a variant
    decides which of its parts are used.
    """

    # Prefixes of the variant's layers in archives of the old models that held them at the top level
    # (`proto_parser_classified_entities` and its kind); the parser moves them under the variant on load.
    legacy_state_prefixes: Tuple[str, ...] = ()

    def start_run(self, parser: Any) -> None:
        """Called before each encoding and each decoding of a batch."""

    def extend(self, parser: Any) -> None:
        """After the parser's vocabulary grew (new predicates, values, variables)."""

    def entity_rows(
        self, parser: Any, keys: torch.Tensor, num_steps: int, actions: torch.Tensor, projections: torch.Tensor,
        encoded: torch.Tensor, source_mask: torch.Tensor, source_types: torch.Tensor,
    ) -> torch.Tensor:
        """Log attention `(rows, slots, source_length)` of the entity slots of the steps `keys` (= b * steps + t)."""
        return parser.copy_entity_rows(keys, num_steps, actions, projections, encoded, source_mask, source_types)

    def slot_loss(
        self, parser: Any, projections: torch.Tensor, encoded: torch.Tensor, source_mask: torch.Tensor,
        source_types: torch.Tensor, actions: torch.Tensor, slot_step: torch.Tensor, slot_order: torch.Tensor,
        slot_is_variable: torch.Tensor, entity_targets: torch.Tensor, variable_values: torch.Tensor,
        entity_values: Optional[torch.Tensor],
    ) -> Tuple[torch.Tensor, List[bool]]:
        """The slot loss of a teacher-forced batch and, when not training, whether each slot was right."""
        raise NotImplementedError

    def predict_slots(
        self, parser: Any, actions: torch.Tensor, real: torch.Tensor, projections: torch.Tensor,
        encoded: torch.Tensor, source_mask: torch.Tensor, source_types: torch.Tensor,
    ) -> Tuple[Choices, Choices]:
        """The entity and variable choices of decoded `actions` (`real`: steps that are not padding)."""
        raise NotImplementedError

    def slot_words(self, parser: Any, utterance: List[str], entity_choice: Choices) -> Tuple[List[str], Choices]:
        """The words entity choices index into and the choices as indices of those words."""
        return utterance, entity_choice
