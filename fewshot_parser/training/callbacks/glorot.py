import re
from typing import TYPE_CHECKING, Any, Dict, List, Optional

import torch
from allennlp.training.callbacks.callback import TrainerCallback

if TYPE_CHECKING:
    from allennlp.training.gradient_descent_trainer import GradientDescentTrainer


@TrainerCallback.register("fewshot_glorot_init")
class GlorotInitCallback(TrainerCallback):
    """
    Re-initialises every parameter with two or more dimensions from a Glorot (Xavier) normal
    distribution when training starts, as the authors' pre-training script does before it loads
    GloVe (docs/reproduction.md row 9). Parameters whose names match one of `exclude` keep their
    values: by default the word embedder, whose rows already hold the GloVe vectors.

    A resumed training (`--recover`, or an interrupted pre-training picked up again) has restored
    its weights before `on_start`; the callback's checkpointed state tells it not to draw again.

    Registered as a `TrainerCallback` with name "fewshot_glorot_init".

    # Parameters

    exclude : `List[str]`, optional (default = `["^_source_embedder\\."]`)
        Regexes over parameter names (searched) that keep their initial values.
    """

    def __init__(self, serialization_dir: str, exclude: Optional[List[str]] = None) -> None:
        super().__init__(serialization_dir)
        self._exclude = [re.compile(p) for p in (exclude if exclude is not None else [r"^_source_embedder\."])]
        self._done = False

    def on_start(self, trainer: "GradientDescentTrainer", is_primary: bool = True, **kwargs: Any) -> None:
        if self._done:
            return
        initialised = glorot_initialise(trainer.model, self._exclude)
        if not initialised:
            raise ValueError("fewshot_glorot_init: no parameter with two or more dimensions is left to initialise")
        self._done = True

    def state_dict(self) -> Dict[str, Any]:
        return {"done": self._done}

    def load_state_dict(self, state_dict: Dict[str, Any]) -> None:
        self._done = bool(state_dict.get("done", False))


def glorot_initialise(model: torch.nn.Module, exclude: List["re.Pattern[str]"]) -> List[str]:
    """Xavier-normal initialisation, in place, of `model`'s matrices not matched by `exclude`; their names."""
    names = []
    with torch.no_grad():
        for name, parameter in model.named_parameters():
            if parameter.dim() < 2 or any(p.search(name) for p in exclude):
                continue
            torch.nn.init.xavier_normal_(parameter)
            names.append(name)
    return names
