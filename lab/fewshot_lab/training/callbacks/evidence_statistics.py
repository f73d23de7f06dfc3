from typing import TYPE_CHECKING, Any, Dict, List, Tuple

from allennlp.common.checks import ConfigurationError
from allennlp.training.callbacks.callback import TrainerCallback

from fewshot_lab.modules.decoding.missing_evidence import MissingEvidence

if TYPE_CHECKING:
    from allennlp.training.gradient_descent_trainer import GradientDescentTrainer


@TrainerCallback.register("fewshot_evidence_statistics")
class EvidenceStatisticsCallback(TrainerCallback):
    """
    Before fine-tuning, reads the training set and gives a parser's missing-evidence penalty (its
    `missing_evidence` decoding scorer, `modules/decoding/missing_evidence.py`) the evidence words of
    its known actions. The counts are the training set's alone: the support set is too small to
    attest an action, and its new actions must have no evidence words.

    Registered as a `TrainerCallback` with name "fewshot_evidence_statistics".

    # Parameters

    data_path : `str`
        The training set, read with the trainer's dataset reader (an augmenting reader reads every
        path but the support set unchanged).
    """

    def __init__(self, serialization_dir: str, data_path: str) -> None:
        super().__init__(serialization_dir)
        self.data_path = data_path

    def on_start(self, trainer: "GradientDescentTrainer", is_primary: bool = True, **kwargs: Any) -> None:
        model = trainer.model
        scorers = [s for s in getattr(model, "decoding_scorers", ()) if isinstance(s, MissingEvidence)]
        if not scorers:
            raise ConfigurationError(
                f"fewshot_evidence_statistics: the model ({type(model).__name__}) has no missing-evidence "
                "penalty; give it a 'missing_evidence' decoding scorer"
            )
        examples: List[Tuple[List[str], List[str]]] = []
        for instance in trainer.data_loader.reader.read(self.data_path):  # type: ignore[attr-defined]
            metadata: Dict[str, Any] = instance["metadata"].metadata  # type: ignore
            if "actions" in metadata:
                examples.append((metadata["utterance"], metadata["actions"]))
        if not examples:
            raise ConfigurationError(f"fewshot_evidence_statistics: {self.data_path} has no examples with actions")
        for scorer in scorers:
            scorer.set_statistics(model, examples)
