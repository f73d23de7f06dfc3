from typing import TYPE_CHECKING, Any

from allennlp.common.checks import ConfigurationError
from allennlp.training.callbacks.callback import TrainerCallback

if TYPE_CHECKING:
    from allennlp.training.gradient_descent_trainer import GradientDescentTrainer


@TrainerCallback.register("fewshot_domain_statistics")
class DomainStatisticsCallback(TrainerCallback):
    """
    Before training, gives a domain-adaptation model (`da_coarse2fine`) the utterances of the
    training data with their domain labels, from which it marks the domain-relevant words.

    Registered as a `TrainerCallback` with name "fewshot_domain_statistics".
    """

    def on_start(self, trainer: "GradientDescentTrainer", is_primary: bool = True, **kwargs: Any) -> None:
        examples = []
        for instance in trainer.data_loader.iter_instances():
            if "domain" not in instance.fields:
                raise ConfigurationError(
                    "fewshot_domain_statistics needs domain labels: set the dataset reader's domain_labels to true"
                )
            examples.append((instance["metadata"].metadata["utterance"], int(instance["domain"].label)))  # type: ignore
        trainer.model.set_domain_statistics(examples)  # type: ignore
