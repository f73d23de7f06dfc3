"""How a loss term is reduced over a batch: the paper's means, or the authors' per-example sums."""

from typing import List, Optional

import torch
from allennlp.common.checks import ConfigurationError

REDUCTIONS = ("step", "example")


def check_reduction(reduction: str) -> str:
    """`reduction`, if it is one of `REDUCTIONS` (`ConfigurationError` if not)."""
    if reduction not in REDUCTIONS:
        raise ConfigurationError(f"loss_reduction must be one of {list(REDUCTIONS)}, not {reduction!r}")
    return reduction


def per_example(counts: torch.Tensor, over_examples_with_steps: bool = False) -> torch.Tensor:
    """
    The factor that turns a mean over the units counted in `counts` (`(batch,)`: units per example)
    into a mean over examples of per-example sums: total units / examples (those with a unit, or all).
    """
    examples = (counts > 0).sum() if over_examples_with_steps else torch.tensor(counts.numel(), device=counts.device)
    return counts.sum().float() / examples.clamp(min=1).float()


def sum_terms(terms: List[Optional[torch.Tensor]]) -> Optional[torch.Tensor]:
    """The sum of the tensors among `terms`, left to right (floating-point sums depend on the order); None if none."""
    total = None
    for term in terms:
        if term is not None:
            total = term if total is None else total + term
    return total
