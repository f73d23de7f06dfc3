import random
from typing import TYPE_CHECKING, Any, Dict, Optional

import numpy
import torch
from allennlp.training.callbacks.callback import TrainerCallback

if TYPE_CHECKING:
    from allennlp.training.gradient_descent_trainer import GradientDescentTrainer


@TrainerCallback.register("fewshot_random_state")
class RandomStateCallback(TrainerCallback):
    """
    Makes a resumed training (`allennlp train --recover`, or an interrupted pre-training picked up
    again) continue exactly like one that was never interrupted.

    AllenNLP's checkpoints hold the model, optimizer and scheduler, and on recovery the trainer
    replays the data loader over the completed epochs, which advances Python's global generator (the
    one batching and meta-batch sampling draw from) as the first run did. What it neither stores nor
    replays is the randomness of the forward passes: torch's generator (dropout), numpy's, and any
    `random.Random` a model module keeps for itself (ProtoParser's predicate dropout). This callback
    puts those into every checkpoint and restores them before training goes on.

    Registered as a `TrainerCallback` with name "fewshot_random_state".
    """

    def __init__(self, serialization_dir: str) -> None:
        super().__init__(serialization_dir)
        self._trainer: Optional["GradientDescentTrainer"] = None
        self._pending: Optional[Dict[str, Any]] = None

    def on_start(self, trainer: "GradientDescentTrainer", is_primary: bool = True, **kwargs: Any) -> None:
        self._trainer = trainer
        if self._pending is None:
            return
        # `load_state_dict` runs before `on_start`; the catch-up over completed epochs comes after
        # it and draws only from Python's global generator, which is therefore not touched here.
        state, self._pending = self._pending, None
        torch.set_rng_state(state["torch"])
        if torch.cuda.is_available() and state.get("cuda") is not None:
            torch.cuda.set_rng_state_all(state["cuda"])
        name, keys, position, has_gauss, cached = state["numpy"]
        numpy.random.set_state((name, numpy.array(keys, dtype=numpy.uint32), position, has_gauss, cached))
        generators = _module_generators(trainer.model)
        for key, generator_state in state["modules"].items():
            if key not in generators:
                raise ValueError(f"the checkpoint has a random generator for {key!r}, which this model lacks")
            generators[key].setstate(_as_tuple(generator_state))

    def state_dict(self) -> Dict[str, Any]:
        if self._trainer is None:
            return {}
        name, keys, position, has_gauss, cached = numpy.random.get_state()
        return {
            "torch": torch.get_rng_state(),
            "cuda": torch.cuda.get_rng_state_all() if torch.cuda.is_available() else None,
            # Plain Python values, so that the checkpoint loads with torch.load(weights_only=True).
            "numpy": (name, [int(k) for k in keys], int(position), int(has_gauss), float(cached)),
            "modules": {
                key: generator.getstate() for key, generator in _module_generators(self._trainer.model).items()
            },
        }

    def load_state_dict(self, state_dict: Dict[str, Any]) -> None:
        self._pending = state_dict or None


def _module_generators(model: torch.nn.Module) -> Dict[str, random.Random]:
    """Every `random.Random` held as an attribute of a module of `model`, keyed `module.attribute`."""
    found = {}
    for module_name, module in model.named_modules():
        for attribute, value in vars(module).items():
            if isinstance(value, random.Random):
                found[f"{module_name}.{attribute}" if module_name else attribute] = value
    return found


def _as_tuple(value: Any) -> Any:
    """`random.Random.setstate` wants tuples; a saved state may come back with lists."""
    return tuple(_as_tuple(v) for v in value) if isinstance(value, (list, tuple)) else value
