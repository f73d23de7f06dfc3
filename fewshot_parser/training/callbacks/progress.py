import os
import re
import sys
import time
from typing import TYPE_CHECKING, Any, Dict, Optional

from allennlp.training.callbacks.callback import TrainerCallback

from fewshot_parser.common.allennlp_internals import loaded_instances, trainer_epochs

if TYPE_CHECKING:
    from allennlp.training.gradient_descent_trainer import GradientDescentTrainer

# The serialization directory of one of several models a run trains in turn (an ensemble's member): `member_<i>`.
_MEMBER_DIRECTORY = re.compile(r"^member_(\d+)$")


@TrainerCallback.register("fewshot_progress")
class ProgressCallback(TrainerCallback):
    """
    Short progress lines on stdout while a model trains: when it starts (epochs, batches per epoch),
    one line per epoch (epoch, training loss, seconds) and when it ends; AllenNLP's batch progress
    bars stay on stderr. A run that trains several models in turn, each in
    `member_<i>/` (an ensemble), names each as "member i+1 of `members`".

    The callback only writes text: it draws no random numbers and changes no state, so adding it
    to a trainer's callbacks changes none of its numbers (`allennlp teach` adds it to the recipe it
    runs).

    Registered as a `TrainerCallback` with name "fewshot_progress".

    # Parameters

    members : `int`, optional (default = `1`)
        How many models the run trains one after the other (an ensemble's size), for the label.
    label : `str`, optional (default = `"fine-tuning"`)
        What the lines call the training.
    """

    def __init__(self, serialization_dir: str, members: int = 1, label: str = "fine-tuning") -> None:
        super().__init__(serialization_dir)
        self._members = members
        self._label = label
        self._started = 0.0
        self._epoch_started = 0.0

    @property
    def name(self) -> str:
        """`fine-tuning`, or `fine-tuning member 2 of 5` in an ensemble member's directory."""
        member = _MEMBER_DIRECTORY.match(os.path.basename(os.path.normpath(self.serialization_dir)))
        if member is None or self._members <= 1:
            return self._label
        return f"{self._label} member {int(member.group(1)) + 1} of {self._members}"

    @staticmethod
    def _write(text: str) -> None:
        print(text, file=sys.stdout, flush=True)

    def on_start(self, trainer: "GradientDescentTrainer", is_primary: bool = True, **kwargs: Any) -> None:
        if not is_primary:
            return
        self._started = self._epoch_started = time.time()
        self._write(f"{self.name}: {trainer_epochs(trainer) or '?'} epoch(s){_batches(trainer.data_loader)}")

    def on_epoch(
        self,
        trainer: "GradientDescentTrainer",
        metrics: Dict[str, Any],
        epoch: int,
        is_primary: bool = True,
        **kwargs: Any,
    ) -> None:
        if not is_primary or epoch < 0:
            return
        now = time.time()
        loss = metrics.get("training_loss")
        loss_text = f", loss {loss:.4f}" if isinstance(loss, (int, float)) else ""
        self._write(
            f"{self.name}: epoch {epoch + 1}/{trainer_epochs(trainer) or '?'}{loss_text} "
            f"({now - self._epoch_started:.1f} s)"
        )
        self._epoch_started = now

    def on_end(
        self,
        trainer: "GradientDescentTrainer",
        metrics: Optional[Dict[str, Any]] = None,
        epoch: Optional[int] = None,
        is_primary: bool = True,
        **kwargs: Any,
    ) -> None:
        if not is_primary:
            return
        self._write(f"{self.name}: done in {time.time() - self._started:.1f} s")


def _batches(loader: Any) -> str:
    """
    The text ` of N batch(es)` when the loader already holds its instances and batches them by size
    (so that counting reads nothing and draws nothing), else an empty string.
    """
    instances = loaded_instances(loader)
    size = getattr(loader, "batch_size", None)
    if not instances or not size or getattr(loader, "batch_sampler", None) is not None:
        return ""
    count = len(instances) // size if getattr(loader, "drop_last", False) else -(-len(instances) // size)
    return f" of {count} batch(es)"
