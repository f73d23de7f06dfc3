import logging
from typing import Any, Dict, List, Optional, Tuple

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import Instance
from allennlp.models import Model

from fewshot_parser.training.retention.method import RetentionContext, RetentionMethod

logger = logging.getLogger(__name__)


def fisher_diagonal(
    context: RetentionContext, blocks: Dict[str, Tuple[slice, ...]], instances: List[Instance], batch_size: int
) -> Dict[str, torch.Tensor]:
    """
    A diagonal Fisher estimate on `instances`, batch by batch: the squared gradient of each batch's
    training loss (the model's own, in training mode), averaged over the batches, for the pre-trained
    block `blocks[name]` of each parameter. Torch's generators are restored afterwards, so that
    fine-tuning draws what it would have drawn without the estimate.
    """
    model = context.model
    parameters = dict(model.named_parameters())
    sums = {name: torch.zeros_like(parameters[name][block]) for name, block in blocks.items()}
    devices = [d.index for d in {p.device for p in parameters.values()} if d.type == "cuda"]
    batches = [instances[start : start + batch_size] for start in range(0, len(instances), batch_size)]
    was_training = model.training
    with torch.random.fork_rng(devices=devices):
        model.train()
        for chunk in batches:
            model.zero_grad(set_to_none=True)
            model(**context.tensors(chunk))["loss"].backward()
            for name, block in blocks.items():
                gradient = parameters[name].grad
                if gradient is not None:
                    sums[name] += gradient[block].detach() ** 2
        model.zero_grad(set_to_none=True)
    model.train(was_training)
    return {name: total / max(len(batches), 1) for name, total in sums.items()}


@RetentionMethod.register("anchoring")
class WeightAnchoring(RetentionMethod):
    """
    Keeps the fine-tuned weights near the pre-trained ones: `weight / 2 * sum_i F_i (w_i - w*_i)^2`
    over every pre-trained coordinate `w*_i` of the trainable parameters (the rows a vocabulary
    extension added have no pre-trained value and are free). With `fisher: false`, `F_i = 1` (L2-SP,
    Li et al. 2018); with `fisher: true`, `F` is a diagonal Fisher estimate on a seeded sample of the
    pre-training file, computed once before fine-tuning (elastic weight consolidation, Kirkpatrick et
    al. 2017): the squared gradient of the training loss of `fisher_batches` batches, averaged, then
    scaled to a mean of 1 over the anchored coordinates, so that `weight` means as much in both forms.
    (A batch's gradient stands for its examples' gradients: the estimate takes no loop over examples.)

    Registered as a `RetentionMethod` with name "anchoring".

    # Parameters

    weight : `float`, optional (default = `1.0`)
        Strength of the pull toward the pre-trained weights.
    fisher : `bool`, optional (default = `False`)
        Weight each coordinate by the Fisher estimate (EWC) instead of 1 (L2-SP).
    fisher_batches : `int`, optional (default = `4`)
        Batches of the pre-training file the estimate uses.
    fisher_batch_size : `int`, optional (default = `32`)
        Examples per batch of the estimate.
    seed : `int`, optional (default = `None`)
        Seed of the estimate's sample; by default the experiment's `finetune_seed` (13 without one).
    data_path : `str`, optional (default = `None`)
        The file of the estimate; by default the pre-training file.
    """

    def __init__(
        self,
        weight: float = 1.0,
        fisher: bool = False,
        fisher_batches: int = 4,
        fisher_batch_size: int = 32,
        seed: Optional[int] = None,
        data_path: Optional[str] = None,
    ) -> None:
        if weight < 0 or fisher_batches < 1 or fisher_batch_size < 1:
            raise ConfigurationError(
                "retention 'anchoring': weight must be at least 0 and fisher_batches, fisher_batch_size at "
                f"least 1, got {weight}, {fisher_batches}, {fisher_batch_size}"
            )
        self.weight = weight
        self.fisher = fisher
        self.fisher_batches = fisher_batches
        self.fisher_batch_size = fisher_batch_size
        self.seed = seed
        self.data_path = data_path
        self.blocks: Dict[str, Tuple[slice, ...]] = {}
        self.anchors: Dict[str, torch.Tensor] = {}
        self.importance: Dict[str, torch.Tensor] = {}

    def prepare(self, context: RetentionContext) -> None:
        for name, parameter in context.model.named_parameters():
            block = context.pretrained_block(name, parameter)
            if parameter.requires_grad and block is not None:
                self.blocks[name] = block
                self.anchors[name] = parameter.detach()[block].clone()
        if self.fisher and self.blocks:
            sample = context.sample(self.fisher_batches * self.fisher_batch_size, self.seed, self.data_path)
            importance = fisher_diagonal(context, self.blocks, sample, self.fisher_batch_size)
            mean = torch.cat([value.flatten() for value in importance.values()]).mean()
            if not mean > 0:
                raise ConfigurationError("retention 'anchoring': the Fisher estimate is zero everywhere (no gradient)")
            self.importance = {name: value / mean for name, value in importance.items()}
        logger.info("Anchoring %d parameters (%s)", len(self.blocks), "EWC" if self.fisher else "L2-SP")

    def penalty(self, model: Model, batch: Dict[str, Any]) -> Optional[torch.Tensor]:
        if not self.blocks or self.weight == 0:
            return None
        total: Optional[torch.Tensor] = None
        for name, parameter in model.named_parameters():
            block = self.blocks.get(name)
            if block is None:
                continue
            anchor = self.anchors[name]
            if anchor.device != parameter.device:
                anchor = self.anchors[name] = anchor.to(parameter.device)
            squares = (parameter[block] - anchor) ** 2
            if self.fisher:
                importance = self.importance[name]
                if importance.device != parameter.device:
                    importance = self.importance[name] = importance.to(parameter.device)
                squares = squares * importance
            term = squares.sum()
            total = term if total is None else total + term
        return None if total is None else 0.5 * self.weight * total
