from typing import TYPE_CHECKING, Any, Dict, Optional

from allennlp.training.callbacks.callback import TrainerCallback

if TYPE_CHECKING:
    from allennlp.training.gradient_descent_trainer import GradientDescentTrainer


@TrainerCallback.register("fewshot_alignment_statistics")
class AlignmentStatisticsCallback(TrainerCallback):
    """
    Before training, counts how often each action co-occurs with each utterance word in the
    trainer's training data and gives the model `P(a | x)` for attention regularization (so when
    fine-tuning, the statistics include the support set).

    Registered as a `TrainerCallback` with name "fewshot_alignment_statistics".

    # Parameters

    extra_data_path : `str`, optional (default = `None`)
        Also count the examples of this file, read with the training data's reader (the authors
        compute fine-tuning statistics from the training set and the support set together).
    """

    def __init__(self, serialization_dir: str, extra_data_path: Optional[str] = None) -> None:
        super().__init__(serialization_dir)
        self.extra_data_path = extra_data_path

    def on_start(self, trainer: "GradientDescentTrainer", is_primary: bool = True, **kwargs: Any) -> None:
        examples = []
        instances = list(trainer.data_loader.iter_instances())
        if self.extra_data_path:
            instances = list(trainer.data_loader.reader.read(self.extra_data_path)) + instances  # type: ignore
        for instance in instances:
            metadata: Dict[str, Any] = instance["metadata"].metadata  # type: ignore
            if "actions" in metadata:
                examples.append((metadata["utterance"], metadata["actions"]))
        trainer.model.set_alignment_statistics(examples)  # type: ignore
