"""The constrained beam search of the stack-LSTM template decoder, batched over examples and beams."""

from typing import Callable, Dict, Protocol, Tuple

import torch

from fewshot_parser.modules.state_machines.stack_state import StackDecoderState, applicable_mask


class TransitionStep(Protocol):
    """What the search needs of a decoder (`StackLSTMDecoder` and its alternatives)."""

    def attention_key(self, encoded: torch.Tensor) -> torch.Tensor:
        """`(hypotheses, source_length, hidden_dim)` attention keys of the encoder states."""

    def initial_state(self, encoded: torch.Tensor, mask: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        """The initial LSTM output and memory `(hypotheses, hidden_dim)`."""

    def take_step(
        self,
        state: StackDecoderState,
        action_embeddings: torch.Tensor,
        keys: torch.Tensor,
        encoded: torch.Tensor,
        source_mask: torch.Tensor,
    ) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        """One step of every hypothesis of `state`: its LSTM output, memory, `h_t` and attention."""


class StackBeamSearch:
    """
    Beam search (greedy with `beam_size=1`) constrained to the actions each stack may take. The
    stacks are tensors (`StackDecoderState`), so each step runs once for all hypotheses of the batch;
    the step itself is the decoder's (`take_step`).

    # Parameters

    beam_size : `int`
        Hypotheses kept per example.
    max_steps : `int`
        Most decoding steps; at the last one only actions that finish the tree are allowed, if any.
    """

    def __init__(self, beam_size: int, max_steps: int) -> None:
        self.beam_size = beam_size
        self.max_steps = max_steps

    @torch.no_grad()
    def search(
        self,
        decoder: TransitionStep,
        encoded: torch.Tensor,
        source_mask: torch.Tensor,
        action_embeddings: torch.Tensor,
        space: Dict[str, torch.Tensor],
        score_fn: Callable[[torch.Tensor, torch.Tensor], torch.Tensor],
    ) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """
        `score_fn(h_t, attention)` gives action scores `(hypotheses, num_actions)` from `h_t`
        `(hypotheses, action_dim)` and the step's attention weights `(hypotheses, source_length)`;
        `action_embeddings` are the decoder's input rows.

        # Returns

        actions `(batch, beam, steps)` (-1 after STOP), total log-probabilities `(batch, beam)`
        (best first), and `h_t` of every step `(batch, beam, steps, action_dim)`.
        """
        batch_size, beams, max_steps = encoded.size(0), self.beam_size, self.max_steps
        device = encoded.device
        encoded = encoded.repeat_interleave(beams, 0)
        source_mask = source_mask.repeat_interleave(beams, 0)
        keys = decoder.attention_key(encoded)
        state = StackDecoderState.initial(*decoder.initial_state(encoded, source_mask), max_steps)
        beam_scores = torch.zeros(batch_size, beams, device=device)
        beam_scores[:, 1:] = float("-inf")  # all beams start as copies of the first
        offsets = (torch.arange(batch_size, device=device) * beams).unsqueeze(1)
        for step in range(max_steps):
            h, c, projection, attention = decoder.take_step(state, action_embeddings, keys, encoded, source_mask)
            logits = score_fn(projection, attention)
            mask = applicable_mask(space, state.stack_size)
            if step == max_steps - 1:
                # Out of steps: only actions that finish the tree are allowed, if any.
                closing = mask & space["is_stop"]
                mask = torch.where(closing.any(-1, keepdim=True), closing, mask)
            log_probs = torch.log_softmax(logits.masked_fill(~mask, float("-inf")), dim=-1)
            # A finished hypothesis continues only with the padding action, at no cost.
            log_probs = log_probs.masked_fill(state.finished.unsqueeze(1), float("-inf"))
            log_probs[:, 0] = torch.where(state.finished, torch.zeros_like(log_probs[:, 0]), log_probs[:, 0])
            num_actions = log_probs.size(1)
            candidates = (beam_scores.reshape(-1, 1) + log_probs).reshape(batch_size, beams * num_actions)
            beam_scores, best = candidates.topk(beams, dim=-1)
            parent = (offsets + best // num_actions).reshape(-1)
            action = (best % num_actions).reshape(-1)
            state.advance(parent, action, h, c, projection, space, step)
            if bool(state.finished.all()):
                break
        actions = torch.stack(state.history, 1).reshape(batch_size, beams, -1)
        steps_h = torch.stack(state.projections, 1).reshape(batch_size, beams, len(state.projections), -1)
        return actions, beam_scores, steps_h
