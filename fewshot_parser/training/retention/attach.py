"""
How `fewshot_pretrain_finetune` applies a config's `retention` list: each method is prepared, the
training data gains the replayed instances, and one forward hook adds the methods' terms to every
training loss. With no method nothing here runs, so fine-tuning computes exactly what it did before.
"""

from typing import Any, Dict, Iterable, List, Sequence

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import DatasetReader, Instance
from allennlp.models import Model

from fewshot_parser.data.dataset_readers.wrapping import WrappingReader
from fewshot_parser.training.retention.method import RetentionContext, RetentionMethod


class ReplayingReader(WrappingReader):
    """
    The fine-tuning reader, whose reading of the training data path (`data_path`) ends with the
    replayed instances; every other path, and prediction, are the wrapped reader's. Not registered:
    `attach_retention` builds it for the fine-tuning data loader.
    """

    def __init__(self, reader: DatasetReader, data_path: str, replayed: Sequence[Instance]) -> None:
        super().__init__()
        self.reader = reader
        self.data_path = data_path
        self.replayed = list(replayed)

    def _read(self, file_path: str) -> Iterable[Instance]:
        yield from self.reader.read(file_path)
        if file_path == self.data_path:
            yield from self.replayed


def attach_retention(methods: List[RetentionMethod], context: RetentionContext, train_data_path: str) -> DatasetReader:
    """
    Prepares `methods` for the fine-tuning of `context.model` and hooks their loss terms into its
    training forward passes; returns the reader the fine-tuning data loader should read
    `train_data_path` with (the context's, or a `ReplayingReader` when some method replays).
    """
    for method in methods:
        method.prepare(context)
    replayed = [instance for method in methods for instance in method.replayed_instances()]
    needy = [type(method).__name__ for method in methods if method.needs_replay]
    if needy and not replayed:
        raise ConfigurationError(
            f"retention: {', '.join(needy)} works on replayed examples; list a 'replay' method too"
        )
    add_penalties(context.model, methods)
    if not replayed:
        return context.reader
    return ReplayingReader(context.reader, train_data_path, replayed)


def add_penalties(model: Model, methods: Sequence[RetentionMethod]) -> None:
    """Adds the methods' `penalty` terms to the `loss` of every forward pass `model` makes in training mode."""
    methods = [method for method in methods if type(method).penalty is not RetentionMethod.penalty]
    if not methods:
        return

    def hook(module: Model, args: Any, kwargs: Dict[str, Any], output: Any) -> Any:
        if not module.training or not isinstance(output, dict) or "loss" not in output:
            return None
        terms = [term for term in (method.penalty(module, kwargs) for method in methods) if term is not None]
        if terms:
            output["loss"] = output["loss"] + torch.stack(terms).sum()
        return output

    model.register_forward_hook(hook, with_kwargs=True)


def check_optimizer(methods: Sequence[RetentionMethod], optimizer: torch.optim.Optimizer) -> None:
    """Lets every method refuse the fine-tuning trainer's optimizer."""
    for method in methods:
        method.check_optimizer(optimizer)
