from typing import Any, Dict, List, Optional, Tuple

import torch
from allennlp.common import Registrable

from fewshot_parser.logical_forms.actions import STOP_ACTION
from fewshot_parser.logical_forms.namespaces import VARIABLE_NAMESPACE
from fewshot_parser.logical_forms.template import UNIFIED_SLOT, VARIABLE_SLOT, SlotValue
from fewshot_parser.logical_forms.transition_system import Step
from fewshot_parser.modules.slot_filler import SlotLayers

# What a slot prediction is: per `(row, step)` of the decoded actions, one choice per slot of the action.
Choices = Dict[Tuple[int, int], List[int]]


class SlotVariant(torch.nn.Module, Registrable):
    """
    How `proto_parser` fills the slots of its templates: the paper's copying and naming (`copy`, the
    default, `copy_slots.py`) or another way. The parser builds it right after its decoder, handing it the
    parser (whose vocabulary, action space and decoder it may read then); it keeps no reference to the
    parser: every hook is given it again, and reads only its public interface.

    The parser then builds the copy-and-name slot layers (`parser.slot_filler`, `modules/slot_filler.py`)
    that the variant asks for (`slot_layers`).
    """

    def slot_layers(self, parser: Any) -> SlotLayers:
        """Which of the parser's copy-and-name slot layers this variant uses (the parser builds only those)."""
        return SlotLayers()

    def start_run(self, parser: Any) -> None:
        """Called before each encoding and each decoding of a batch."""

    def extend(self, parser: Any) -> None:
        """After the parser's vocabulary grew (new predicates, values, variables)."""

    def entity_rows(
        self,
        parser: Any,
        keys: torch.Tensor,
        num_steps: int,
        actions: torch.Tensor,
        projections: torch.Tensor,
        encoded: torch.Tensor,
        source_mask: torch.Tensor,
        source_types: torch.Tensor,
    ) -> torch.Tensor:
        """Log attention `(rows, slots, source_length)` of the entity slots of the steps `keys` (= b * steps + t)."""
        raise NotImplementedError

    def slot_loss(
        self,
        parser: Any,
        projections: torch.Tensor,
        encoded: torch.Tensor,
        source_mask: torch.Tensor,
        source_types: torch.Tensor,
        actions: torch.Tensor,
        slot_step: torch.Tensor,
        slot_order: torch.Tensor,
        slot_is_variable: torch.Tensor,
        entity_targets: torch.Tensor,
        variable_values: torch.Tensor,
        entity_values: Optional[torch.Tensor],
    ) -> Tuple[torch.Tensor, List[bool]]:
        """The slot loss of a teacher-forced batch and, when not training, whether each slot was right."""
        raise NotImplementedError

    def predict_slots(
        self,
        parser: Any,
        actions: torch.Tensor,
        real: torch.Tensor,
        projections: torch.Tensor,
        encoded: torch.Tensor,
        source_mask: torch.Tensor,
        source_types: torch.Tensor,
    ) -> Tuple[Choices, Choices]:
        """The entity and variable choices of decoded `actions` (`real`: steps that are not padding)."""
        raise NotImplementedError

    def slot_words(self, parser: Any, utterance: List[str], entity_choice: Choices) -> Tuple[List[str], Choices]:
        """The words entity choices index into and the choices as indices of those words."""
        return utterance, entity_choice

    def steps(
        self,
        parser: Any,
        sequence: List[int],
        row: int,
        utterance: List[str],
        entity_choice: Choices,
        variable_choice: Choices,
    ) -> List[Step]:
        """The actions of decoded `sequence` (row `row` of its pass) with their slot values, up to STOP."""
        utterance, entity_choice = self.slot_words(parser, utterance, entity_choice)
        vocab = parser.vocab
        steps = []
        for t, index in enumerate(sequence):
            action = parser.action_space.actions[index] if index >= 0 else None
            if action is None:
                break
            values: List[SlotValue] = []
            entities = variables = 0
            for slot in action.slots:
                if slot == UNIFIED_SLOT:
                    choice = variable_choice[row, t][len(values)]
                    num_variables = vocab.get_vocab_size(VARIABLE_NAMESPACE)
                    if choice < num_variables:
                        values.append(SlotValue("variable", vocab.get_token_from_index(choice, VARIABLE_NAMESPACE)))
                    else:
                        values.append(SlotValue("entity", utterance[min(choice - num_variables, len(utterance) - 1)]))
                elif slot == VARIABLE_SLOT:
                    name = vocab.get_token_from_index(variable_choice[row, t][variables], VARIABLE_NAMESPACE)
                    values.append(SlotValue("variable", name))
                    variables += 1
                else:
                    position = min(entity_choice[row, t][entities], len(utterance) - 1)
                    values.append(SlotValue("entity", utterance[position]))
                    entities += 1
            steps.append(Step(action, tuple(values)))
            if action == STOP_ACTION:
                break
        return steps
