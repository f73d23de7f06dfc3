"""
The abstraction of a retention method: something fine-tuning does so that the parser keeps what it
knew before the support set, listed under the `retention` key of a
`fewshot_pretrain_finetune` config. Each method is bound to one fine-tuning by `prepare`, before the
data loader and the trainer are built, and may then give extra training instances (replay), a term
added to every training loss (distillation, anchoring), leave parameters out of training (freezing),
or, after fine-tuning, replace the model to archive (fallback to the pre-trained parser).
"""

import logging
import random
from typing import Any, Dict, List, Optional, Sequence, Tuple

import torch
from allennlp.common import Registrable
from allennlp.common.checks import ConfigurationError
from allennlp.data import Batch, DatasetReader, Instance
from allennlp.models import Model
from allennlp.nn import util

logger = logging.getLogger(__name__)

# The metadata key that marks an instance replayed from the pre-training data.
REPLAYED = "replayed"


class RetentionContext:
    """
    What a retention method may use of one fine-tuning, gathered by `fewshot_pretrain_finetune` once
    the pre-trained weights are loaded into the model to fine-tune and its vocabulary is extended.

    # Parameters

    model : `Model`
        The model about to be fine-tuned (pre-trained weights, new rows for the support set's actions).
    teacher : `Model`
        The pre-trained model with the same extended vocabulary; it is never trained.
    pretrained_shapes : `Dict[str, torch.Size]`
        Each parameter's shape before the vocabulary was extended: the leading block of a grown
        parameter holds its pre-trained coordinates, the rest are rows added for the support set.
    reader : `DatasetReader`
        The fine-tuning reader; it also reads the pre-training file, as the pre-training reader does.
    training_data_path : `str`, optional
        The pre-training file (the `pretraining` config's `train_data_path`).
    seed : `int`
        The default seed of the methods' draws (the experiment's `finetune_seed`, else 13).
    pretrained_config : `Dict[str, Any]`, optional
        The `model` config of the pre-trained archive (what builds `teacher` again from an archive).
    """

    def __init__(
        self,
        model: Model,
        teacher: Model,
        pretrained_shapes: Dict[str, torch.Size],
        reader: DatasetReader,
        training_data_path: Optional[str],
        seed: int = 13,
        pretrained_config: Optional[Dict[str, Any]] = None,
    ) -> None:
        self.model = model
        self.pretrained_config = pretrained_config
        self.teacher = teacher
        self.pretrained_shapes = dict(pretrained_shapes)
        self.reader = reader
        self.training_data_path = training_data_path
        self.seed = seed
        self._instances: Dict[str, List[Instance]] = {}

    def training_instances(self, data_path: Optional[str] = None) -> List[Instance]:
        """Every instance of `data_path` (default: the pre-training file), read once, in file order."""
        path = data_path or self.training_data_path
        if path is None:
            raise ConfigurationError(
                "retention: this config has no 'pretraining' section, so the pre-training file is unknown; "
                "give the method a data_path"
            )
        if path not in self._instances:
            self._instances[path] = list(self.reader.read(path))
            logger.info("Retention: read %d instances of %s", len(self._instances[path]), path)
        return self._instances[path]

    def sample(self, count: int, seed: Optional[int], data_path: Optional[str] = None) -> List[Instance]:
        """A seeded sample of `count` instances of the pre-training file (all of them when it is smaller)."""
        instances = self.training_instances(data_path)
        return random.Random(self.seed if seed is None else seed).sample(instances, min(count, len(instances)))

    def pretrained_block(self, name: str, parameter: torch.Tensor) -> Optional[Tuple[slice, ...]]:
        """The index of `parameter`'s pre-trained coordinates (its leading block), or None for a new parameter."""
        shape = self.pretrained_shapes.get(name)
        if shape is None or len(shape) != parameter.dim():
            return None
        if any(old > new for old, new in zip(shape, parameter.shape)):
            return None
        return tuple(slice(0, size) for size in shape)

    def tensors(self, instances: Sequence[Instance]) -> Dict[str, Any]:
        """`instances` as one batch indexed with the model's vocabulary, on the model's device."""
        for instance in instances:
            self.reader.apply_token_indexers(instance)
        batch = Batch(list(instances))
        batch.index_instances(self.model.vocab)
        device = next(self.model.parameters()).device
        return util.move_to_device(batch.as_tensor_dict(), device)


class RetentionMethod(Registrable):
    """
    A way to keep the pre-trained parser's knowledge of known predicates while fine-tuning teaches it
    new ones. A method is built from its config alone; `prepare` binds it to one fine-tuning. The
    hooks a method leaves as they are do nothing, so a method overrides only what it changes.
    """

    # Whether the method works on replayed instances, so that the config must list a replay method too.
    needs_replay = False

    def prepare(self, context: RetentionContext) -> None:
        """Binds the method to one fine-tuning, before its data loader and trainer are built."""

    def replayed_instances(self) -> List[Instance]:
        """Instances fine-tuning trains on besides the support data (marked with `REPLAYED` in their metadata)."""
        return []

    def penalty(self, model: Model, batch: Dict[str, Any]) -> Optional[torch.Tensor]:
        """A term added to the loss of a training batch (`batch`: the model's keyword arguments), or None."""
        return None

    def check_optimizer(self, optimizer: torch.optim.Optimizer) -> None:
        """Refuses an optimizer the method cannot work with (raise `ConfigurationError`)."""

    def final_model(self, model: Model, model_config: Dict[str, Any]) -> Optional[Dict[str, Any]]:
        """
        After fine-tuning: `{"model": ..., "config": ...}`, a model to evaluate and archive instead of
        the fine-tuned `model` (whose `model` config is `model_config`) with its config, or None.
        """
        return None
