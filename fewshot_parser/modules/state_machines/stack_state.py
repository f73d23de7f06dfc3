"""
The state of a batched search of the stack-LSTM template decoder, and the transition system's
constraint on the actions a stack may take.
"""

from dataclasses import dataclass
from typing import Dict, List, Optional

import torch


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


@dataclass
class StackDecoderState:
    """
    Every hypothesis of a batched template search (batch x beams, in that order), as tensors.

    Decoder state `0` is the initial one and state `t + 1` the one after step `t`; a stack element is
    the index of the decoder state that pushed it.

    # Attributes

    hs, cs : `List[torch.Tensor]`
        The LSTM output and memory of every decoder state so far, each `(hypotheses, hidden_dim)`.
    stack_states : `torch.Tensor`
        `(hypotheses, max_steps + 1)`: the decoder-state index of each stack element (bottom first).
    stack_size : `torch.Tensor`
        `(hypotheses,)`: the height of each stack.
    finished : `torch.Tensor`
        `(hypotheses,)`: whether the hypothesis took STOP.
    popped : `torch.Tensor`
        `(hypotheses, k)`: the decoder states the last action popped (-1 padded), which the next
        step's input pools.
    previous : `torch.Tensor`
        `(hypotheses,)`: the decoder state the next step continues from (the one below the top).
    previous_action : `Optional[torch.Tensor]`
        `(hypotheses,)`: the last action taken; None before the first step.
    history : `List[torch.Tensor]`
        The action of every step so far, each `(hypotheses,)` (-1 after STOP).
    projections : `List[torch.Tensor]`
        `h_t` of every step so far, each `(hypotheses, action_dim)`.
    """

    hs: List[torch.Tensor]
    cs: List[torch.Tensor]
    stack_states: torch.Tensor
    stack_size: torch.Tensor
    finished: torch.Tensor
    popped: torch.Tensor
    previous: torch.Tensor
    previous_action: Optional[torch.Tensor]
    history: List[torch.Tensor]
    projections: List[torch.Tensor]

    @classmethod
    def initial(cls, h0: torch.Tensor, c0: torch.Tensor, max_steps: int) -> "StackDecoderState":
        """Empty stacks over the initial decoder states `h0`, `c0` (`(hypotheses, hidden_dim)`)."""
        hypotheses, device = h0.size(0), h0.device
        return cls(
            hs=[h0],
            cs=[c0],
            # The stack is never deeper than max_steps.
            stack_states=torch.zeros(hypotheses, max_steps + 1, dtype=torch.long, device=device),
            stack_size=torch.zeros(hypotheses, dtype=torch.long, device=device),
            finished=torch.zeros(hypotheses, dtype=torch.bool, device=device),
            popped=torch.full((hypotheses, 1), -1, dtype=torch.long, device=device),
            previous=torch.zeros(hypotheses, dtype=torch.long, device=device),
            previous_action=None,
            history=[],
            projections=[],
        )

    @property
    def num_hypotheses(self) -> int:
        return self.stack_size.size(0)

    def advance(
        self,
        parent: torch.Tensor,
        action: torch.Tensor,
        h: torch.Tensor,
        c: torch.Tensor,
        projection: torch.Tensor,
        space: Dict[str, torch.Tensor],
        step: int,
    ) -> None:
        """
        The transition: each hypothesis continues hypothesis `parent` (`(hypotheses,)`) of the step's
        outputs `h`, `c`, `projection` with `action` (`(hypotheses,)`), popping the action's arity off
        its stack and pushing the new element (decoder state `step + 2`). A finished hypothesis only
        continues, with no action. A hypothesis with no finite score left (more beams than applicable
        paths) may hold an action its stack cannot take: it pops what there is, and is never output.
        """
        hypotheses, device = self.num_hypotheses, self.stack_size.device
        max_steps = self.stack_states.size(1) - 1
        positions = torch.arange(max_steps + 1, device=device).unsqueeze(0)
        rows = torch.arange(hypotheses, device=device)
        # Reorder every per-hypothesis tensor by the chosen parents.
        self.hs = [x[parent] for x in self.hs] + [h[parent]]
        self.cs = [x[parent] for x in self.cs] + [c[parent]]
        self.history = [x[parent] for x in self.history]
        self.projections = [x[parent] for x in self.projections] + [projection[parent]]
        stack_states, stack_size, finished = self.stack_states[parent], self.stack_size[parent], self.finished[parent]
        self.history.append(action.masked_fill(finished, -1))
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
        self.previous = torch.where(bottom > 0, below, torch.ones_like(below))
        stack_states[rows, bottom.clamp(max=max_steps)] = step + 2
        self.popped = popped
        self.stack_states = stack_states
        self.stack_size = bottom + 1
        self.finished = finished | space["is_stop"][action]
        self.previous_action = action
