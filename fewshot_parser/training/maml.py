"""
PT-MAML (Huang et al. 2018) as the paper adapts it: model-agnostic meta-learning where a
pseudo-task is a group of training examples sharing one LF template.
"""

import inspect
from collections import defaultdict
from typing import Any, Dict, List, Sequence, Tuple, cast

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data.data_loaders.data_loader import TensorDict
from allennlp.training import GradientDescentTrainer, Trainer
from torch.func import functional_call


def select(batch: Any, rows: Sequence[int]) -> Any:
    """The `rows` of a collated batch: tensors and lists are indexed along their first dimension."""
    if isinstance(batch, torch.Tensor):
        return batch[torch.as_tensor(rows, dtype=torch.long, device=batch.device)]
    if isinstance(batch, dict):
        return {key: select(value, rows) for key, value in batch.items()}
    if isinstance(batch, list):
        return [batch[row] for row in rows]
    return batch


def pseudo_tasks(support: TensorDict, query: TensorDict) -> List[Tuple[List[int], List[int]]]:
    """(support rows, query rows) per template present in both halves of a meta batch, in order."""
    rows: Dict[str, Tuple[List[int], List[int]]] = defaultdict(lambda: ([], []))
    for half, batch in enumerate((support, query)):
        for row, metadata in enumerate(batch["metadata"]):
            rows[metadata["template"]][half].append(row)
    return [(s, q) for s, q in rows.values() if s and q]


class MamlTrainer(GradientDescentTrainer):
    """
    A `GradientDescentTrainer` that turns every meta batch of the `fewshot_episodes` data loader
    (`{"meta_support": ..., "meta_query": ...}`) into MAML's meta-objective (Finn et al. 2017): for
    each template of the batch (a pseudo-task), `inner_steps` gradient steps of size `inner_lr` on
    its meta-support examples give adapted weights, and the task's loss is the loss of its meta-test
    examples under those weights. The mean over tasks is minimised by the trainer's own optimizer
    (the outer learning rate). Supervised batches, validation and everything else are as in the
    parent class, so any model whose `forward` returns a loss can be meta-trained.

    Adapting to the support set of a split is then ordinary fine-tuning (the pt setting).

    Registered as a `Trainer` with name "fewshot_maml".

    # Parameters

    inner_lr : `float`, optional (default = `0.01`)
        Step size of the inner (task-adaptation) SGD steps.
    inner_steps : `int`, optional (default = `1`)
    first_order : `bool`, optional (default = `True`)
        Treat the inner gradients as constants (first-order MAML); False back-propagates through
        them (second order, much slower).
    """

    def __init__(
        self, *args: Any, inner_lr: float = 0.01, inner_steps: int = 1, first_order: bool = True, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        if inner_steps < 1 or inner_lr <= 0:
            raise ConfigurationError(
                f"fewshot_maml needs inner_steps >= 1 and inner_lr > 0, got {inner_steps} and {inner_lr}"
            )
        self.inner_lr = inner_lr
        self.inner_steps = inner_steps
        self.first_order = first_order

    @classmethod
    def from_partial_objects(  # type: ignore
        cls, inner_lr: float = 0.01, inner_steps: int = 1, first_order: bool = True, **kwargs: Any
    ) -> Trainer:
        return super().from_partial_objects(
            inner_lr=inner_lr, inner_steps=inner_steps, first_order=first_order, **kwargs
        )

    def batch_outputs(self, batch: TensorDict, for_training: bool) -> Dict[str, torch.Tensor]:
        if for_training and "meta_support" in batch:
            # The episode loader's meta batch: two batches of tensors.
            support, query = cast(TensorDict, batch["meta_support"]), cast(TensorDict, batch["meta_query"])
            return {"loss": self.meta_loss(support, query)}
        return super().batch_outputs(batch, for_training)

    def meta_loss(self, support: TensorDict, query: TensorDict) -> torch.Tensor:
        """Mean over the batch's pseudo-tasks of the meta-test loss after adapting to the meta-support set."""
        model = self._pytorch_model
        weights = {name: p for name, p in model.named_parameters() if p.requires_grad}
        tasks = pseudo_tasks(support, query)
        if not tasks:
            raise ConfigurationError("a meta batch has no template with both meta-support and meta-test examples")
        total = torch.zeros((), device=next(iter(weights.values())).device)
        for support_rows, query_rows in tasks:
            fast = dict(weights)
            task_support = select(support, support_rows)
            for _ in range(self.inner_steps):
                loss = functional_call(model, fast, args=(), kwargs=task_support)["loss"]
                grads = torch.autograd.grad(
                    loss, list(fast.values()), create_graph=not self.first_order, allow_unused=True
                )
                fast = {
                    name: w if g is None else w - self.inner_lr * (g.detach() if self.first_order else g)
                    for (name, w), g in zip(fast.items(), grads)
                }
            total = total + functional_call(model, fast, args=(), kwargs=select(query, query_rows))["loss"]
        return total / len(tasks)


# `from_partial_objects` takes the parent's arguments through **kwargs; AllenNLP's FromParams reads the
# signature to know them, so it gets the parent's named arguments plus the three MAML arguments.
_parent = inspect.signature(GradientDescentTrainer.from_partial_objects)
_own = [
    inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)
    for name, default, annotation in (("inner_lr", 0.01, float), ("inner_steps", 1, int), ("first_order", True, bool))
]
MamlTrainer.from_partial_objects.__func__.__signature__ = _parent.replace(  # type: ignore
    parameters=[inspect.Parameter("cls", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    + [p for p in _parent.parameters.values() if p.kind != p.VAR_KEYWORD]
    + _own
)
Trainer.register("fewshot_maml", constructor="from_partial_objects")(MamlTrainer)
