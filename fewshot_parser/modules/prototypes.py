"""Action prototypes (the paper's Eq. 3): the mean decoder vector `h_t` over the steps that apply an action."""

import math
import random
from typing import Tuple

import torch
from allennlp.common.checks import ConfigurationError

from fewshot_parser.modules.action_space import ActionSpace


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


class PredicateDropout(torch.nn.Module):
    """
    Which action rows take their prototypes in a meta batch (Algorithm 1): the rows of a random share
    `share` of the predicates the meta-support rows use, or with unit `"action"` (the authors') each
    meta-support row with probability `share`. Rows that use no predicate keep their embedding. Draws
    from its own seeded generator (saved in checkpoints by the `fewshot_random_state` callback).

    # Parameters

    share : `float`
        The share r of predicates (or rows) dropped.
    unit : `str`
        `"predicate"` (the paper's) or `"action"`.
    """

    UNITS = ("predicate", "action")

    def __init__(self, share: float = 0.5, unit: str = "predicate", seed: int = 13) -> None:
        super().__init__()
        if unit not in self.UNITS:
            raise ConfigurationError(f"predicate_dropout_unit must be one of {list(self.UNITS)}, not {unit!r}")
        self.share = share
        self.unit = unit
        self._random = random.Random(seed)

    def rows(self, present: torch.Tensor, action_space: ActionSpace) -> torch.Tensor:
        """`(num_actions,)`: the rows among `present` that take their prototypes (never padding or unknown)."""
        share = self.share
        if self.unit == "action":
            # One draw per action row, as the authors' ProtoDropout; every predicate of the kept rows is then
            # dropped, so exactly those rows take prototypes.
            draws = torch.tensor([self._random.random() for _ in range(present.numel())], device=present.device)
            present, share = present & (draws < self.share), 1.0
        # Draws happen before the unknown rows leave `present`, so a batch without them draws as before.
        present = present & action_space.valid.to(present.device)
        predicates = sorted(
            {p for i in present.nonzero().squeeze(-1).tolist() for p in action_space.actions[i].predicates}
        )
        dropped = set(self._random.sample(predicates, math.ceil(share * len(predicates)))) if predicates else set()
        mask = torch.zeros_like(present)
        mask[action_space.indices_with_predicates(dropped)] = True
        return mask & present
