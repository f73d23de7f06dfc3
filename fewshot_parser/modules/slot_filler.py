"""
Slot filling: the values of the slots of each generated action.

One LSTM decoder per slot kind, with the same architecture (paper Sec. 3.2): for an action with
`k` slots of a kind, an LSTM started from that step's `h_t` runs over the `k` slot labels and
each output scores the candidates:

* entity slots point at utterance positions (copying), restricted to tokens of the slot's entity
  type when the utterance has any;
* variable slots choose a variable name (`$0`, `$1`, `ANS`, ...) from the `variables` vocabulary.

All slots of all steps of a batch are filled in one pass (the inputs are the slot labels, not
previous predictions), both for training and for prediction.
"""
from typing import Tuple

import torch
from torch import nn


class SlotDecoder(nn.Module):
    """An LSTM over the slots of one kind of every step, started from the step's `h_t`."""

    def __init__(self, input_dim: int, projection_dim: int, hidden_dim: int) -> None:
        super().__init__()
        self.initial = nn.Linear(projection_dim, hidden_dim)
        self.lstm = nn.LSTM(input_dim, hidden_dim, batch_first=True)

    def forward(self, projections: torch.Tensor, inputs: torch.Tensor) -> torch.Tensor:
        """
        projections: `(batch, steps, projection_dim)`; inputs: `(batch, steps, slots, input_dim)`.
        Returns `(batch, steps, slots, hidden_dim)`.
        """
        batch_size, num_steps, num_slots, input_dim = inputs.shape
        h0 = torch.tanh(self.initial(projections)).reshape(1, batch_size * num_steps, -1)
        outputs, _ = self.lstm(inputs.reshape(batch_size * num_steps, num_slots, input_dim), (h0, torch.zeros_like(h0)))
        return outputs.reshape(batch_size, num_steps, num_slots, -1)


class SlotFiller(nn.Module):
    """
    # Parameters

    projection_dim : `int`
        Size of the template decoder's `h_t`.
    encoder_dim : `int`
        Size of the encoder states (copy candidates).
    hidden_dim : `int`
        Size of the slot LSTMs.
    num_entity_types : `int`
        Size of the `entity_types` vocabulary.
    num_variables : `int`
        Size of the `variables` vocabulary.
    max_variable_slots : `int`
        Most variable slots in one action.
    """

    def __init__(
        self,
        projection_dim: int,
        encoder_dim: int,
        hidden_dim: int,
        num_entity_types: int,
        num_variables: int,
        max_variable_slots: int,
        label_dim: int = 32,
    ) -> None:
        super().__init__()
        self.type_embedding = nn.Embedding(max(num_entity_types, 2), label_dim)
        self.variable_position = nn.Embedding(max(max_variable_slots, 1), label_dim)
        self.entity_decoder = SlotDecoder(label_dim, projection_dim, hidden_dim)
        self.variable_decoder = SlotDecoder(label_dim, projection_dim, hidden_dim)
        self.copy_key = nn.Linear(encoder_dim, hidden_dim, bias=False)
        self.variable_output = nn.Linear(hidden_dim, num_variables)

    def forward(
        self,
        projections: torch.Tensor,
        encoded: torch.Tensor,
        source_mask: torch.Tensor,
        source_types: torch.Tensor,
        entity_types: torch.Tensor,
        num_variable_slots: int,
    ) -> Tuple[torch.Tensor, torch.Tensor]:
        """
        # Parameters

        projections : `(batch, steps, projection_dim)`, `h_t` of each step.
        encoded, source_mask : the encoder states `(batch, source_length, encoder_dim)` and mask.
        source_types : `(batch, source_length)` entity-type ids of the utterance tokens.
        entity_types : `(batch, steps, entity_slots)` type ids of each step's entity slots (0: none).
        num_variable_slots : how many variable slot positions to score.

        # Returns

        entity log-probabilities `(batch, steps, entity_slots, source_length)` and variable
        log-probabilities `(batch, steps, variable_slots, num_variables)`.
        """
        batch_size, num_steps = projections.shape[:2]
        # shape: (batch_size, steps, entity_slots, hidden_dim)
        entity_states = self.entity_decoder(projections, self.type_embedding(entity_types))
        keys = self.copy_key(encoded)
        # shape: (batch_size, steps, entity_slots, source_length)
        scores = torch.einsum("btkh,bnh->btkn", entity_states, keys)
        same_type = source_types[:, None, None, :] == entity_types.unsqueeze(-1)
        same_type = same_type & source_mask[:, None, None, :]
        allowed = torch.where(same_type.any(-1, keepdim=True), same_type, source_mask[:, None, None, :].expand_as(same_type))
        entity_log_probs = torch.log_softmax(scores.masked_fill(~allowed, torch.finfo(scores.dtype).min), dim=-1)

        positions = torch.arange(max(num_variable_slots, 1), device=projections.device)
        inputs = self.variable_position(positions.clamp(max=self.variable_position.num_embeddings - 1))
        inputs = inputs.expand(batch_size, num_steps, -1, -1)
        variable_states = self.variable_decoder(projections, inputs)
        variable_log_probs = torch.log_softmax(self.variable_output(variable_states), dim=-1)
        return entity_log_probs, variable_log_probs
