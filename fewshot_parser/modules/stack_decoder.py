"""
The template decoder: a stack-LSTM over transition actions with dot-product attention.

At step t the LSTM continues from the decoder state of the current stack top (not necessarily
the previous step: after a REDUCE the popped elements' states are skipped), with input
`[c_{a_{t-1}}; mean of the states of the subtrees a_{t-1} combined]`. Its output state attends over
the encoder states, `h_t = tanh(W [h_dec; h_att])`, and action scores are `C h_t` over the
applicable actions. The action embedding matrix `C` is owned by the model, so it can be replaced or
extended (prototypes, new predicates) without touching this module.

Teacher forcing runs every step once for the whole batch (stack pointers come from the reader).
Decoding is a beam search (greedy = beam 1) over `StackDecoderState`s (`modules/state_machines/`), whose
step is the decoder's `take_step`.
"""

from typing import Callable, Dict, NamedTuple, Optional, Tuple

import torch
from allennlp.common import Registrable
from torch import nn

from fewshot_parser.modules.state_machines.beam_search import StackBeamSearch
from fewshot_parser.modules.state_machines.stack_state import StackDecoderState, applicable_mask

__all__ = ["DecoderOutput", "StackLSTMDecoder", "applicable_mask"]


class DecoderOutput(NamedTuple):
    # shape: (batch_size, num_steps, action_dim): h_t, the vector that scores actions
    projections: torch.Tensor
    # shape: (batch_size, num_steps, source_length): attention weights P(x_i | step t)
    attention: torch.Tensor
    # shape: (batch_size, num_steps, decoder_dim): the stack-LSTM output states
    states: torch.Tensor


class StackLSTMDecoder(nn.Module, Registrable):
    """
    The paper's template decoder, and the base of its alternatives (`proto_parser`'s `decoder`).

    Registered as a `StackLSTMDecoder` with name "stack" (the default); the authors' decoder is
    "authors" (`modules/feeding_decoder.py`).

    # Parameters

    encoder_dim : `int`
        Size of the encoder states attended over.
    action_dim : `int`
        Size of the action embeddings (and of `h_t`, which is scored against them).
    hidden_dim : `int`
        Size of the stack-LSTM.
    dropout : `float`
        Dropout on the LSTM input and on `h_t`.
    input_dropout : `bool`, optional (default = `True`)
        False applies `dropout` to `h_t` only (the attentional vector, as the authors' code does).
    cell_input_dim : `int`, optional (default = `action_dim + hidden_dim`)
        Width of the LSTM input (the authors' decoders feed more).
    start_dim : `int`, optional (default = `action_dim`)
        Size of the learned input of the first step.
    output_bias : `bool`, optional (default = `True`)
        Whether the attentional map `output` has a bias term.
    """

    def __init__(
        self,
        encoder_dim: int,
        action_dim: int,
        hidden_dim: int,
        dropout: float = 0.0,
        input_dropout: bool = True,
        cell_input_dim: Optional[int] = None,
        start_dim: Optional[int] = None,
        output_bias: bool = True,
    ) -> None:
        super().__init__()
        self.hidden_dim = hidden_dim
        self.action_dim = action_dim
        # Called as an LSTM cell; the authors' slot variant wraps it in a `RecordingCell`.
        self.cell: nn.Module = nn.LSTMCell(cell_input_dim or action_dim + hidden_dim, hidden_dim)
        self.initial = nn.Linear(encoder_dim, hidden_dim)
        self.start = nn.Parameter(torch.zeros(start_dim or action_dim).normal_(0, 0.1))
        self.attention_key = nn.Linear(encoder_dim, hidden_dim, bias=False)
        self.output = nn.Linear(hidden_dim + encoder_dim, action_dim, bias=output_bias)
        self.dropout = nn.Dropout(dropout)
        self.input_dropout = nn.Dropout(dropout if input_dropout else 0.0)

    default_implementation = "stack"
    # Whether the model must hand over the encoder's last memory cells (`encoder_cells`) before each run.
    reads_encoder_cells = False

    def extend(self, num_actions: int) -> None:
        """After the action vocabulary grew: this decoder reads the model's action rows, so nothing to add."""

    def initial_state(self, encoded: torch.Tensor, mask: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        # shape: (batch_size, encoder_dim)
        mean = (encoded * mask.unsqueeze(-1)).sum(1) / mask.sum(1, keepdim=True).clamp(min=1)
        h = torch.tanh(self.initial(mean))
        return h, torch.zeros_like(h)

    def attend(
        self, h: torch.Tensor, keys: torch.Tensor, encoded: torch.Tensor, mask: torch.Tensor
    ) -> Tuple[torch.Tensor, torch.Tensor]:
        """
        `h_t` and the attention weights for decoder states `h` of shape `(batch, hidden)` or
        `(batch, steps, hidden)`: returns `(batch, [steps,] action_dim)` and `(batch, [steps,] source_length)`.
        """
        single = h.dim() == 2
        if single:
            h = h.unsqueeze(1)
        # shape: (batch_size, steps, source_length)
        scores = torch.bmm(h, keys.transpose(1, 2))
        scores = scores.masked_fill(~mask.unsqueeze(1), torch.finfo(scores.dtype).min)
        weights = torch.softmax(scores, dim=-1)
        # shape: (batch_size, steps, encoder_dim)
        context = torch.bmm(weights, encoded)
        projection = self.dropout(torch.tanh(self.output(torch.cat([h, context], dim=-1))))
        if single:
            return projection.squeeze(1), weights.squeeze(1)
        return projection, weights

    def _input(self, embedding: torch.Tensor, states: torch.Tensor, popped: torch.Tensor) -> torch.Tensor:
        """`[action embedding; mean of popped states]` for a batch; `popped` is `(batch, k)`, -1 padded."""
        present = popped >= 0
        # shape: (batch_size, k, hidden_dim)
        gathered = states.gather(1, popped.clamp(min=0).unsqueeze(-1).expand(-1, -1, states.size(-1)))
        children = (gathered * present.unsqueeze(-1)).sum(1) / present.sum(1, keepdim=True).clamp(min=1)
        return self.input_dropout(torch.cat([embedding, children], dim=-1))

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
        Teacher-forced decoding of gold actions `(batch, steps)` (-1 padded), all examples at once.
        `previous_state` `(batch, steps)` and `popped_states` `(batch, steps, k)` index decoder states
        (0 = initial, t + 1 = after step t).
        """
        batch_size, num_steps = actions.shape
        batch = torch.arange(batch_size, device=actions.device)
        h0, c0 = self.initial_state(encoded, source_mask)
        # The input embeddings of all steps at once: start, then the previous gold action.
        # shape: (batch_size, num_steps, action_dim)
        embeddings = torch.cat(
            [self.start.expand(batch_size, 1, -1), action_embeddings[actions[:, :-1].clamp(min=0)]], dim=1
        )
        hs, cs = [h0], [c0]
        for step in range(num_steps):
            # shape: (batch_size, step + 1, hidden_dim)
            h_stack = torch.stack(hs, dim=1)
            c_stack = torch.stack(cs, dim=1)
            cell_input = self._input(embeddings[:, step], h_stack, popped_states[:, step])
            previous = previous_state[:, step].clamp(max=step)
            h, c = self.cell(cell_input, (h_stack[batch, previous], c_stack[batch, previous]))
            hs.append(h)
            cs.append(c)
        # Attention does not feed back into the LSTM, so it runs once for all steps.
        # shape: (batch_size, num_steps, hidden_dim)
        states = torch.stack(hs[1:], 1)
        projections, attention = self.attend(states, self.attention_key(encoded), encoded, source_mask)
        return DecoderOutput(projections, attention, states)

    def take_step(
        self,
        state: StackDecoderState,
        action_embeddings: torch.Tensor,
        keys: torch.Tensor,
        encoded: torch.Tensor,
        source_mask: torch.Tensor,
    ) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        """
        One search step of every hypothesis of `state`: the LSTM continues from the state below each
        stack top, reading the last action's row of `action_embeddings` (the start vector at the first
        step) and the popped states.

        # Returns

        The LSTM output and memory `(hypotheses, hidden_dim)`, `h_t` `(hypotheses, action_dim)` and the
        attention weights `(hypotheses, source_length)`.
        """
        rows = torch.arange(state.num_hypotheses, device=encoded.device)
        h_stack = torch.stack(state.hs, dim=1)
        c_stack = torch.stack(state.cs, dim=1)
        if state.previous_action is None:
            embedding = self.start.unsqueeze(0).expand(state.num_hypotheses, -1)
        else:
            embedding = action_embeddings[state.previous_action]
        cell_input = self._input(embedding, h_stack, state.popped)
        h, c = self.cell(cell_input, (h_stack[rows, state.previous], c_stack[rows, state.previous]))
        projection, attention = self.attend(h, keys, encoded, source_mask)
        return h, c, projection, attention

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
        """
        Beam search (greedy with `beam_size=1`) constrained to applicable actions, batched over
        examples and beams (`StackBeamSearch`). `score_fn(h_t, attention)` gives action scores
        `(hypotheses, num_actions)` from `h_t` `(hypotheses, action_dim)` and the step's attention
        weights `(hypotheses, source_length)`.

        # Returns

        actions `(batch, beam, steps)` (-1 after STOP), total log-probabilities `(batch, beam)`
        (best first), and `h_t` of every step `(batch, beam, steps, action_dim)`.
        """
        return StackBeamSearch(beam_size, max_steps).search(
            self, encoded, source_mask, action_embeddings, space, score_fn
        )


StackLSTMDecoder.register("stack")(StackLSTMDecoder)
