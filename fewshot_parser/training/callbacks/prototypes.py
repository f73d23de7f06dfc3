from typing import TYPE_CHECKING, Any, Dict, List, cast

import torch
from allennlp.training.callbacks.callback import TrainerCallback

from fewshot_parser.common.phases import phase
from fewshot_parser.modules.prototypes import action_sums

if TYPE_CHECKING:
    from allennlp.training.gradient_descent_trainer import GradientDescentTrainer


@TrainerCallback.register("fewshot_prototype_init")
class PrototypeInitCallback(TrainerCallback):
    """
    Before fine-tuning, sets the embedding of every action new to the model (`model.new_actions`,
    rows added when the vocabulary was extended with the support set) to its prototype: the mean
    decoder vector `h_t` at the steps applying it on the trainer's training data (the support
    set), computed without dropout (paper Eq. 3). Runs once: a `--recover` keeps the trained rows
    (and only reads the data, to draw the same random numbers as the interrupted run did).

    Registered as a `TrainerCallback` with name "fewshot_prototype_init".
    """

    def __init__(self, serialization_dir: str) -> None:
        super().__init__(serialization_dir)
        self.initialized = False

    def on_start(self, trainer: "GradientDescentTrainer", is_primary: bool = True, **kwargs: Any) -> None:
        model = trainer.model
        new_actions = list(getattr(model, "new_actions", []))
        if self.initialized:
            if new_actions:
                # A recovered run reads the training data once, as the first run did here, so that the
                # loader's shuffling (Python's global generator) stays in step with an uninterrupted run.
                for _ in trainer.data_loader:
                    pass
            return
        if new_actions:
            with phase("prototypes"):
                self._initialize(model, trainer, new_actions)
        self.initialized = True

    @staticmethod
    def _initialize(model: Any, trainer: "GradientDescentTrainer", new_actions: List[int]) -> None:
        """Sets the new actions' rows to their prototypes (see the class docstring)."""
        was_training = model.training
        model.eval()
        totals = torch.zeros_like(model.action_embedding.data)
        counts = torch.zeros(model.action_embedding.size(0), device=totals.device)
        with torch.no_grad():
            for batch in trainer.data_loader:
                decoded, _, _ = model.teacher_forced(batch)
                sums, batch_counts = action_sums(
                    decoded.projections, cast(torch.Tensor, batch["actions"]), totals.size(0)
                )
                totals += sums
                counts += batch_counts
            rows = torch.tensor([i for i in new_actions if counts[i] > 0], dtype=torch.long, device=totals.device)
            if rows.numel():
                model.action_embedding.data[rows] = totals[rows] / counts[rows].unsqueeze(-1)
        model.train(was_training)

    def state_dict(self) -> Dict[str, Any]:
        return {"initialized": self.initialized}

    def load_state_dict(self, state_dict: Dict[str, Any]) -> None:
        self.initialized = state_dict["initialized"]
