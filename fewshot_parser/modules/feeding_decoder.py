"""
The template decoder of the authors' code (docs/reproduction.md row 7, note 5): input feeding and an
input action table of its own.

`StackLSTMDecoder` feeds the LSTM `[c_{a_{t-1}}; mean of the popped subtrees' states]`, where
`c_a` is the row of the model's output matrix `C`, so a prototype written into `C` also changes the
input of the next step. The authors' decoder differs in two ways, both kept here:

* input feeding (Luong et al., 2015): the previous step's attentional vector `h_{t-1}` (the vector
  that scored the previous action) is part of the LSTM input, so attention runs inside the step loop;
* its input embeddings are a table of their own (`input_embedding`, 128-d in their code), separate
  from the output matrix, so prototypes and new-predicate rows set only the output rows.

The stack pointers (which earlier state a step continues from, which states a REDUCE pools) are
`StackLSTMDecoder`'s. Decoding is greedy: the fed vector of a hypothesis is its own previous one
only when hypotheses are never reordered, i.e. with one beam.
"""

from typing import Callable, Dict, Optional, Tuple

import torch
from torch import nn

from fewshot_parser.modules.stack_decoder import DecoderOutput, StackLSTMDecoder


class InputFeedingStackDecoder(StackLSTMDecoder):
    """
    # Parameters

    encoder_dim, action_dim, hidden_dim, dropout, input_dropout
        As for `StackLSTMDecoder` (`action_dim` is the size of `h_t` and of the output rows).
    num_actions : `int`
        Rows of the input table (grown with `extend`).
    input_dim : `int`, optional (default = `128`)
        Size of the input action embeddings.
    cell_input_dim, output_bias
        As for `StackLSTMDecoder` (for the authors' variants; by default the LSTM reads the input row, the
        mean of the popped states and the previous attentional vector).
    """

    def __init__(
        self,
        encoder_dim: int,
        action_dim: int,
        hidden_dim: int,
        num_actions: int,
        input_dim: int = 128,
        dropout: float = 0.0,
        input_dropout: bool = True,
        cell_input_dim: Optional[int] = None,
        output_bias: bool = True,
    ) -> None:
        # Input: [previous action's input row; mean of popped states; previous attentional vector].
        super().__init__(
            encoder_dim,
            action_dim,
            hidden_dim,
            dropout,
            input_dropout,
            cell_input_dim=cell_input_dim or input_dim + hidden_dim + action_dim,
            start_dim=input_dim,
            output_bias=output_bias,
        )
        self.input_dim = input_dim
        self.input_embedding = nn.Parameter(torch.empty(num_actions, input_dim).normal_(0, 0.1))
        # The attentional vector of the step before, while `search` runs (None: the first step).
        self._fed: Optional[torch.Tensor] = None

    def extend(self, num_actions: int) -> None:
        """Adds random input rows for actions added to the vocabulary (new predicates)."""
        old = self.input_embedding.size(0)
        if num_actions > old:
            extra = torch.empty(num_actions - old, self.input_dim, device=self.input_embedding.device).normal_(0, 0.1)
            self.input_embedding = nn.Parameter(torch.cat([self.input_embedding.data, extra]))

    def _input(self, embedding: torch.Tensor, states: torch.Tensor, popped: torch.Tensor) -> torch.Tensor:
        base = super()._input(embedding, states, popped)
        fed = self._fed if self._fed is not None else base.new_zeros(base.size(0), self.action_dim)
        return torch.cat([base, fed], dim=-1)

    def attend(
        self, h: torch.Tensor, keys: torch.Tensor, encoded: torch.Tensor, mask: torch.Tensor
    ) -> Tuple[torch.Tensor, torch.Tensor]:
        projection, weights = super().attend(h, keys, encoded, mask)
        if h.dim() == 2:
            self._fed = projection
        return projection, weights

    def forward(
        self,
        encoded: torch.Tensor,
        source_mask: torch.Tensor,
        action_embeddings: torch.Tensor,
        actions: torch.Tensor,
        previous_state: torch.Tensor,
        popped_states: torch.Tensor,
    ) -> DecoderOutput:
        """
        Teacher-forced decoding as `StackLSTMDecoder.forward`, but step by step with attention (input
        feeding). `action_embeddings` (the output matrix) is not an input here: inputs come from
        `input_embedding`.
        """
        batch_size, num_steps = actions.shape
        batch = torch.arange(batch_size, device=actions.device)
        keys = self.attention_key(encoded)
        h0, c0 = self.initial_state(encoded, source_mask)
        # shape: (batch_size, num_steps, input_dim)
        embeddings = torch.cat(
            [self.start.expand(batch_size, 1, -1), self.input_embedding[actions[:, :-1].clamp(min=0)]], dim=1
        )
        hs, cs, projections, weights = [h0], [c0], [], []
        self._fed = None
        try:
            for step in range(num_steps):
                h_stack = torch.stack(hs, dim=1)
                c_stack = torch.stack(cs, dim=1)
                cell_input = self._input(embeddings[:, step], h_stack, popped_states[:, step])
                previous = previous_state[:, step].clamp(max=step)
                h, c = self.cell(cell_input, (h_stack[batch, previous], c_stack[batch, previous]))
                projection, attention = self.attend(h, keys, encoded, source_mask)
                hs.append(h)
                cs.append(c)
                projections.append(projection)
                weights.append(attention)
        finally:
            self._fed = None
        return DecoderOutput(torch.stack(projections, 1), torch.stack(weights, 1), torch.stack(hs[1:], 1))

    @torch.no_grad()
    def search(
        self,
        encoded: torch.Tensor,
        source_mask: torch.Tensor,
        action_embeddings: torch.Tensor,
        space: Dict[str, torch.Tensor],
        max_steps: int,
        score_fn: Callable[[torch.Tensor, torch.Tensor], torch.Tensor],
        beam_size: int = 1,
    ) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Greedy search as `StackLSTMDecoder.search`, with the input table and input feeding."""
        if beam_size != 1:
            raise ValueError(f"InputFeedingStackDecoder decodes greedily (beam_size 1), not with {beam_size} beams")
        self._fed = None
        try:
            return super().search(encoded, source_mask, self.input_embedding, space, max_steps, score_fn, 1)
        finally:
            self._fed = None
