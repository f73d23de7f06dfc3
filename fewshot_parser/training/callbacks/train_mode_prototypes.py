"""
Prototypes computed the authors' way (docs/reproduction.md row 34): in training mode, so that the
decoder vectors averaged into a new action's prototype carry dropout, as the authors' fine-tuning script
computes them before its first epoch. `fewshot_prototype_init` computes them without dropout (Eq. 3).
"""

from typing import TYPE_CHECKING, Any, cast

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.training.callbacks.callback import TrainerCallback

from fewshot_parser.models.proto_parser import ProtoParser
from fewshot_parser.modules.prototypes import action_sums
from fewshot_parser.training.callbacks.prototypes import PrototypeInitCallback

if TYPE_CHECKING:
    from allennlp.training.gradient_descent_trainer import GradientDescentTrainer


@TrainerCallback.register("fewshot_prototype_init_train_mode")
class TrainModePrototypeInitCallback(PrototypeInitCallback):
    """
    `fewshot_prototype_init` with dropout on while the support set is decoded for the prototypes.
    A recovered run behaves as `fewshot_prototype_init` does (the rows are not set again).

    Registered as a `TrainerCallback` with name "fewshot_prototype_init_train_mode".
    """

    def on_start(self, trainer: "GradientDescentTrainer", is_primary: bool = True, **kwargs: Any) -> None:
        model = trainer.model
        new_actions = set(getattr(model, "new_actions", []))
        if self.initialized or not new_actions:
            super().on_start(trainer, is_primary, **kwargs)
            return
        if not isinstance(model, ProtoParser):
            raise ConfigurationError(
                f"fewshot_prototype_init_train_mode needs a proto_parser, not {type(model).__name__}"
            )
        was_training = model.training
        model.train()
        # One pass over the loader (it shuffles), summing each batch's vectors per action.
        sums = torch.zeros_like(model.action_embedding.data)
        counts = torch.zeros(sums.size(0), device=sums.device)
        with torch.no_grad():
            for batch in trainer.data_loader:
                projections = model.teacher_forced(batch)[0].projections
                batch_sums, batch_counts = action_sums(projections, cast(torch.Tensor, batch["actions"]), sums.size(0))
                sums, counts = sums + batch_sums, counts + batch_counts
        rows = [i for i in sorted(new_actions) if counts[i] > 0]
        if rows:
            index = torch.tensor(rows, dtype=torch.long, device=sums.device)
            model.action_embedding.data[index] = sums[index] / counts[index].unsqueeze(-1)
        model.train(was_training)
        self.initialized = True
