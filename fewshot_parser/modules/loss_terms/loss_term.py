"""What a loss term of `proto_parser` is: a weighted loss of a teacher-forced batch beyond actions and slots."""

import torch
from allennlp.common import Registrable
from allennlp.data import TextFieldTensors

from fewshot_parser.modules.loss_terms.reduction import REDUCTIONS, check_reduction
from fewshot_parser.modules.parser_parts import ParserParts
from fewshot_parser.modules.stack_decoder import DecoderOutput
from fewshot_parser.modules.unbuilt_layers import OptionalLayers

__all__ = ["LossTerm", "REDUCTIONS"]


class LossTerm(OptionalLayers, Registrable):
    """
    A term the parser adds, times `weight` (when not 0), to the loss of every teacher-forced batch in
    training, and of meta batches when `in_meta_batches`. Validation losses leave it out, so that they
    stay comparable across settings.

    # Parameters

    weight : `float`
        The term's weight (0: off).
    in_meta_batches : `bool`
        Also in predicate-dropout meta batches.
    reduction : `str`
        `"step"` (a mean over steps) or `"example"` (the authors': a mean over examples of per-example sums).

    An inactive term (weight 0) builds no layers (`OptionalLayers`: loading leaves out their stored weights).
    """

    def __init__(self, weight: float, in_meta_batches: bool, reduction: str) -> None:
        super().__init__()
        self.weight = weight
        self.in_meta_batches = in_meta_batches
        self.reduction = check_reduction(reduction)

    @property
    def active(self) -> bool:
        """Whether the term is ever added to a loss (a weight above 0): an inactive term builds no layers."""
        return self.weight > 0

    def reset(self) -> None:
        """The vocabulary or the lexicon changed: drop what was computed from them."""

    def loss(
        self,
        parser: ParserParts,
        decoded: DecoderOutput,
        actions: torch.Tensor,
        source_tokens: TextFieldTensors,
        source_mask: torch.Tensor,
    ) -> torch.Tensor:
        """The term for the gold `actions` `(batch, steps)` of a teacher-forced batch decoded as `decoded`."""
        raise NotImplementedError
