import logging
import re
from typing import Callable, Dict, List, Sequence

import torch
from allennlp.common.checks import ConfigurationError

from fewshot_parser.training.retention.method import RetentionContext, RetentionMethod

logger = logging.getLogger(__name__)

# The parameters whose rows are actions: the action matrix C (output rows, and input rows of our
# stack decoder) and the separate input table of the authors' decoder.
ACTION_TABLES = ("action_embedding", "_decoder.input_embedding")


@RetentionMethod.register("freezing")
class Freezing(RetentionMethod):
    """
    Fine-tuning trains only what the new predicates need: the rows the vocabulary extension added to
    the action tables (`ACTION_TABLES`), plus every parameter matching one of `trainable`; everything
    else keeps its pre-trained value. A parameter with no new row is left out of training
    (`requires_grad` false); an action table keeps `requires_grad` and gets a gradient mask that zeroes
    its pre-trained rows, so that an optimizer without weight decay (Adam, SGD) never moves them
    (`check_optimizer` refuses weight decay on a masked table).

    Registered as a `RetentionMethod` with name "freezing".

    # Parameters

    trainable : `List[str]`, optional (default = `[]`)
        Regular expressions over parameter names (`re.search`) of parameters trained whole, e.g.
        `['^_slot_filler\\.']` for the slot decoders or a small adapter's name.
    new_rows : `str`, optional (default = `"actions"`)
        `"actions"`: only the new rows of the action tables train. `"all"`: the new rows of every
        parameter the vocabulary extension grew train too (new words, entity types, variables,
        entity values).
    """

    def __init__(self, trainable: Sequence[str] = (), new_rows: str = "actions") -> None:
        if new_rows not in ("actions", "all"):
            raise ConfigurationError(f"retention 'freezing': new_rows must be 'actions' or 'all', not {new_rows!r}")
        try:
            self.trainable = [re.compile(pattern) for pattern in trainable]
        except re.error as error:
            raise ConfigurationError(f"retention 'freezing': bad trainable pattern: {error}") from None
        self.new_rows = new_rows
        self.masked: Dict[str, torch.Tensor] = {}  # name -> bool mask of the coordinates that train
        self._masked_parameters: List[torch.nn.Parameter] = []

    def prepare(self, context: RetentionContext) -> None:
        trained: List[str] = []
        for name, parameter in context.model.named_parameters():
            if not parameter.requires_grad:
                continue
            if any(pattern.search(name) for pattern in self.trainable):
                trained.append(name)
                continue
            block = context.pretrained_block(name, parameter)
            grown = block is not None and tuple(parameter.shape) != tuple(context.pretrained_shapes[name])
            if grown and (name in ACTION_TABLES or self.new_rows == "all"):
                mask = torch.ones_like(parameter, dtype=torch.bool)
                mask[block] = False
                self.masked[name] = mask
                self._masked_parameters.append(parameter)
                parameter.register_hook(_masking(mask))
                trained.append(f"{name} ({int(mask.sum())} new coordinates)")
            else:
                parameter.requires_grad_(False)
        if not trained:
            raise ConfigurationError(
                "retention 'freezing' leaves nothing to train: no new action rows and no trainable parameter"
            )
        logger.info("Freezing everything but: %s", ", ".join(trained))

    def check_optimizer(self, optimizer: torch.optim.Optimizer) -> None:
        masked = {id(p) for p in self._masked_parameters}
        for group in optimizer.param_groups:
            if group.get("weight_decay", 0) and any(id(p) in masked for p in group["params"]):
                raise ConfigurationError(
                    "retention 'freezing' masks the gradient of pre-trained action rows, which weight decay would "
                    "still move; use an optimizer without weight_decay"
                )


def _masking(mask: torch.Tensor) -> Callable[[torch.Tensor], torch.Tensor]:
    """A gradient hook that zeroes the gradient outside `mask`."""

    def hook(gradient: torch.Tensor) -> torch.Tensor:
        return gradient.masked_fill(~mask.to(gradient.device), 0.0)

    return hook
