"""
Slot states as the authors' code computes them (docs/reproduction.md note 3, "What still differs" item 4),
for the template decoder of `modules/feeding_decoder.py` and its subclass.

Our slot decoders (`modules/slot_filler.py`) start an LSTM from the step's attentional vector and read the
slot's type or position embedding. The authors' differ in where their state comes from and what they read:

* an entity slot of the action `a_t` runs `entity_lstm` from the decoder's own state `(h_t, c_t)` (the
  state that scored `a_t`), reading `[input row of a_t; attentional vector of step t]` (the decoder's next
  input, before any REDUCE map) at each entity slot of the action;
* the variable slots of an example form one chain: `variable_lstm` starts from the decoder's initial
  state and runs on across all of them, reading the attentional vector of the step for the first slot
  of an action and the embedding of the previous slot's variable (gold in training, predicted in
  decoding) for the others.

Both read out as the decoder does: attention with the decoder's key, its map to the attentional vector
and its dropout. Entity states then feed the entity classifier; variable states a bias-free output layer
over the variable names.

`RecordingCell` wraps the decoder's LSTM cell so that the model can read `(h_t, c_t)` of every step of the
last decoder run (teacher-forced or greedy).
"""

from typing import List, Optional, Tuple

import torch
from torch import nn


class RecordingCell(nn.Module):
    """An LSTM cell that keeps the `(h, c)` of every call while `records` is a list."""

    def __init__(self, cell: nn.Module) -> None:
        super().__init__()
        self.cell = cell
        self.records: Optional[List[Tuple[torch.Tensor, torch.Tensor]]] = None

    def forward(
        self, inputs: torch.Tensor, state: Tuple[torch.Tensor, torch.Tensor]
    ) -> Tuple[torch.Tensor, torch.Tensor]:
        h, c = self.cell(inputs, state)
        if self.records is not None:
            self.records.append((h, c))
        return h, c


class AuthorsSlotStates(nn.Module):
    """
    The authors' entity and variable slot LSTMs with the variable embedding and output layer.

    # Parameters

    input_dim : `int`
        Size of the decoder's input action rows.
    action_dim : `int`
        Size of the decoder's attentional vector (and of the variable embeddings).
    hidden_dim : `int`
        Size of the decoder's LSTM state (both slot LSTMs have it, to start from the decoder's states).
    num_variables : `int`
        Size of the `variables` namespace.
    """

    def __init__(self, input_dim: int, action_dim: int, hidden_dim: int, num_variables: int) -> None:
        super().__init__()
        self.entity_lstm = nn.LSTM(input_dim + action_dim, hidden_dim, batch_first=True)
        self.variable_lstm = nn.LSTM(action_dim, hidden_dim, batch_first=True)
        self.variable_embedding = nn.Embedding(max(num_variables, 2), action_dim)
        nn.init.xavier_normal_(self.variable_embedding.weight)
        self.variable_readout = nn.Linear(action_dim, max(num_variables, 2), bias=False)

    @staticmethod
    def log_attention(states: torch.Tensor, keys: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """
        `(rows, slots, source_length)` log attention of slot states `(rows, slots, hidden)` over the rows'
        projected encoder states `keys` `(rows, source_length, hidden)`, padding `mask` `(rows, source_length)`.
        """
        scores = torch.bmm(states, keys.transpose(1, 2))
        return torch.log_softmax(scores.masked_fill(~mask.unsqueeze(1), torch.finfo(scores.dtype).min), dim=-1)

    def entity_states(self, inputs: torch.Tensor, h: torch.Tensor, c: torch.Tensor, num_slots: int) -> torch.Tensor:
        """
        `(rows, num_slots, hidden)` entity slot states of some steps: the entity LSTM reads the same input
        `(rows, input_dim + action_dim)` at each slot, starting from the step's decoder state `h`, `c` `(rows, hidden)`.
        """
        repeated = inputs.unsqueeze(1).expand(-1, max(num_slots, 1), -1).contiguous()
        states, _ = self.entity_lstm(repeated, (h.unsqueeze(0).contiguous(), c.unsqueeze(0).contiguous()))
        return states

    def variable_states(
        self,
        inputs: torch.Tensor,
        h0: torch.Tensor,
        c0: torch.Tensor,
        state: Optional[Tuple[torch.Tensor, torch.Tensor]] = None,
    ) -> Tuple[torch.Tensor, Tuple[torch.Tensor, torch.Tensor]]:
        """
        Runs the variable chain over `inputs` `(examples, slots, action_dim)` from `state` (default: the
        decoder's initial state `h0`, `c0` `(examples, hidden)`); returns the states and the last state.
        """
        if state is None:
            state = (h0.unsqueeze(0).contiguous(), c0.unsqueeze(0).contiguous())
        return self.variable_lstm(inputs, state)

    def extend(self, num_variables: int) -> None:
        """Grows the variable embedding and output layer after the vocabulary grew (trained rows kept)."""
        old = self.variable_embedding
        if num_variables > old.num_embeddings:
            grown = nn.Embedding(num_variables, old.embedding_dim).to(old.weight.device)
            nn.init.xavier_normal_(grown.weight)
            readout = nn.Linear(self.variable_readout.in_features, num_variables, bias=False).to(old.weight.device)
            nn.init.xavier_normal_(readout.weight)
            with torch.no_grad():
                grown.weight[: old.num_embeddings] = old.weight
                readout.weight[: self.variable_readout.out_features] = self.variable_readout.weight
            self.variable_embedding = grown
            self.variable_readout = readout
