from typing import TYPE_CHECKING, Any, Dict

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
    """

    def on_start(self, trainer: "GradientDescentTrainer", is_primary: bool = True, **kwargs: Any) -> None:
        examples = []
        for instance in trainer.data_loader.iter_instances():
            metadata: Dict[str, Any] = instance["metadata"].metadata  # type: ignore
            if "actions" in metadata:
                examples.append((metadata["utterance"], metadata["actions"]))
        trainer.model.set_alignment_statistics(examples)  # type: ignore
