"""
The template decoder: a stack-LSTM over transition actions with dot-product attention.

At step t the LSTM continues from the decoder state of the current stack top (not necessarily
the previous step: after a REDUCE the popped elements' states are skipped), with input
`[c_{a_{t-1}}; mean of the states of the subtrees a_{t-1} combined]`. Its output state attends over
the encoder states, `h_t = tanh(W [h_dec; h_att])`, and action scores are `C h_t` over the
applicable actions. The action embedding matrix `C` is owned by the model, so it can be replaced or
extended (prototypes, new predicates) without touching this module.

Teacher forcing runs every step once for the whole batch (stack pointers come from the reader);
beam search (greedy = beam 1) keeps the stacks as tensors, so it is batched over examples and beams.
"""
from typing import Callable, Dict, List, NamedTuple, Optional, Tuple

import torch
from allennlp.common import Registrable
from torch import nn

from fewshot_parser.modules.action_space import ActionSpace


class DecoderOutput(NamedTuple):
    # shape: (batch_size, num_steps, action_dim): h_t, the vector that scores actions
    projections: torch.Tensor
    # shape: (batch_size, num_steps, source_length): attention weights P(x_i | step t)
    attention: torch.Tensor
    # shape: (batch_size, num_steps, decoder_dim): the stack-LSTM output states
    states: torch.Tensor


def applicable_mask(space: Dict[str, torch.Tensor], stack_size: torch.Tensor) -> torch.Tensor:
    """
    Which actions may be taken with the given stack heights.

    # Parameters

    space : `Dict[str, torch.Tensor]` with `valid`, `arity`, `is_stop` (each `(num_actions,)`).
    stack_size : `(...)` long tensor.

    # Returns

    `(..., num_actions)` bool mask.
    """
    size = stack_size.unsqueeze(-1)
    mask = space["valid"] & (space["arity"] <= size)
    stop_ok = size == 1
    return mask & (~space["is_stop"] | stop_ok)


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
    """

    def __init__(
        self, encoder_dim: int, action_dim: int, hidden_dim: int, dropout: float = 0.0, input_dropout: bool = True
    ) -> None:
        super().__init__()
        self.hidden_dim = hidden_dim
        self.action_dim = action_dim
        self.cell = nn.LSTMCell(action_dim + hidden_dim, hidden_dim)
        self.initial = nn.Linear(encoder_dim, hidden_dim)
        self.start = nn.Parameter(torch.zeros(action_dim).normal_(0, 0.1))
        self.attention_key = nn.Linear(encoder_dim, hidden_dim, bias=False)
        self.output = nn.Linear(hidden_dim + encoder_dim, action_dim)
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

    def _input(
        self, embedding: torch.Tensor, states: torch.Tensor, popped: torch.Tensor
    ) -> torch.Tensor:
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
        """
        Beam search (greedy with `beam_size=1`) constrained to applicable actions, batched over
        examples and beams: the stacks are tensors, so each step runs once for all hypotheses.
        `score_fn(h_t, attention)` gives action scores `(hypotheses, num_actions)` from `h_t`
        `(hypotheses, action_dim)` and the step's attention weights `(hypotheses, source_length)`.

        # Returns

        actions `(batch, beam, steps)` (-1 after STOP), total log-probabilities `(batch, beam)`
        (best first), and `h_t` of every step `(batch, beam, steps, action_dim)`.
        """
        batch_size, beams = encoded.size(0), beam_size
        device = encoded.device
        hypotheses = batch_size * beams
        encoded = encoded.repeat_interleave(beams, 0)
        source_mask = source_mask.repeat_interleave(beams, 0)
        rows = torch.arange(hypotheses, device=device)
        keys = self.attention_key(encoded)
        h0, c0 = self.initial_state(encoded, source_mask)
        hs, cs = [h0], [c0]
        # Decoder-state index of each stack element; the stack is never deeper than max_steps.
        stack_states = torch.zeros(hypotheses, max_steps + 1, dtype=torch.long, device=device)
        stack_size = torch.zeros(hypotheses, dtype=torch.long, device=device)
        finished = torch.zeros(hypotheses, dtype=torch.bool, device=device)
        beam_scores = torch.zeros(batch_size, beams, device=device)
        beam_scores[:, 1:] = float("-inf")  # all beams start as copies of the first
        history: List[torch.Tensor] = []
        projections: List[torch.Tensor] = []
        previous_action: Optional[torch.Tensor] = None
        popped = torch.full((hypotheses, 1), -1, dtype=torch.long, device=device)
        previous = torch.zeros(hypotheses, dtype=torch.long, device=device)
        positions = torch.arange(max_steps + 1, device=device).unsqueeze(0)
        offsets = (torch.arange(batch_size, device=device) * beams).unsqueeze(1)
        for step in range(max_steps):
            h_stack = torch.stack(hs, dim=1)
            c_stack = torch.stack(cs, dim=1)
            if previous_action is None:
                embedding = self.start.unsqueeze(0).expand(hypotheses, -1)
            else:
                embedding = action_embeddings[previous_action]
            cell_input = self._input(embedding, h_stack, popped)
            h, c = self.cell(cell_input, (h_stack[rows, previous], c_stack[rows, previous]))
            projection, attention = self.attend(h, keys, encoded, source_mask)
            logits = score_fn(projection, attention)
            mask = applicable_mask(space, stack_size)
            if step == max_steps - 1:
                # Out of steps: only actions that finish the tree are allowed, if any.
                closing = mask & space["is_stop"]
                mask = torch.where(closing.any(-1, keepdim=True), closing, mask)
            log_probs = torch.log_softmax(logits.masked_fill(~mask, float("-inf")), dim=-1)
            # A finished hypothesis continues only with the padding action, at no cost.
            log_probs = log_probs.masked_fill(finished.unsqueeze(1), float("-inf"))
            log_probs[:, 0] = torch.where(finished, torch.zeros_like(log_probs[:, 0]), log_probs[:, 0])
            num_actions = log_probs.size(1)
            candidates = (beam_scores.reshape(-1, 1) + log_probs).reshape(batch_size, beams * num_actions)
            beam_scores, best = candidates.topk(beams, dim=-1)
            parent = (offsets + best // num_actions).reshape(-1)
            action = (best % num_actions).reshape(-1)
            # Reorder every per-hypothesis tensor by the chosen parents.
            hs = [x[parent] for x in hs] + [h[parent]]
            cs = [x[parent] for x in cs] + [c[parent]]
            history = [x[parent] for x in history]
            projections = [x[parent] for x in projections] + [projection[parent]]
            stack_states, stack_size, finished = stack_states[parent], stack_size[parent], finished[parent]
            history.append(action.masked_fill(finished, -1))
            # Pop `arity` elements and push the new one (its state will be step + 2). A hypothesis with no
            # finite score left (more beams than applicable paths) may hold an action its stack cannot take:
            # it pops what there is, and is never output.
            arity = space["arity"][action].masked_fill(finished, 0)
            bottom = (stack_size - arity).clamp(min=0)
            in_popped = (positions >= bottom.unsqueeze(1)) & (positions < stack_size.unsqueeze(1))
            width = int(arity.max().item()) if hypotheses else 0
            popped = torch.full((hypotheses, max(width, 1)), -1, dtype=torch.long, device=device)
            if width:
                order = torch.cumsum(in_popped.long(), dim=1) - 1
                r, col = in_popped.nonzero(as_tuple=True)
                popped[r, order[r, col]] = stack_states[r, col]
            below = stack_states.gather(1, (bottom - 1).clamp(min=0).unsqueeze(1)).squeeze(1)
            previous = torch.where(bottom > 0, below, torch.ones_like(below))
            stack_states[rows, bottom.clamp(max=max_steps)] = step + 2
            stack_size = bottom + 1
            finished = finished | space["is_stop"][action]
            previous_action = action
            if bool(finished.all()):
                break
        actions = torch.stack(history, 1).reshape(batch_size, beams, -1)
        steps_h = torch.stack(projections, 1).reshape(batch_size, beams, len(projections), -1)
        return actions, beam_scores, steps_h


StackLSTMDecoder.register("stack")(StackLSTMDecoder)
