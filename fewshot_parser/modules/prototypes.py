"""Action prototypes (the paper's Eq. 3): the mean decoder vector `h_t` over the steps that apply an action."""

from typing import Tuple

import torch


def action_sums(
    projections: torch.Tensor, actions: torch.Tensor, num_actions: int
) -> Tuple[torch.Tensor, torch.Tensor]:
    """
    Sum of `h_t` `(num_actions, action_dim)` and count `(num_actions,)` over the steps applying each
    action: `projections` `(batch, steps, action_dim)`, `actions` `(batch, steps)` (-1 padded).
    """
    flat_actions = actions.reshape(-1)
    keep = flat_actions >= 0
    flat = projections.reshape(-1, projections.size(-1))[keep]
    index = flat_actions[keep]
    sums = torch.zeros(num_actions, flat.size(-1), device=flat.device, dtype=flat.dtype).index_add(0, index, flat)
    counts = torch.zeros(num_actions, device=flat.device, dtype=flat.dtype).index_add(
        0, index, torch.ones_like(index, dtype=flat.dtype)
    )
    return sums, counts


def prototypes(projections: torch.Tensor, actions: torch.Tensor, num_actions: int) -> Tuple[torch.Tensor, torch.Tensor]:
    """`(num_actions, action_dim)` prototypes (zero where absent) and a `(num_actions,)` presence mask."""
    sums, counts = action_sums(projections, actions, num_actions)
    return sums / counts.clamp(min=1).unsqueeze(-1), counts > 0
