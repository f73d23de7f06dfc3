from typing import Any, Dict, Optional

from allennlp.common.checks import ConfigurationError
from allennlp.models import Model

from fewshot_parser.models.known_fallback import KnownFallback, fallback_config
from fewshot_parser.training.retention.method import RetentionContext, RetentionMethod


@RetentionMethod.register("pretrained_fallback")
class PretrainedFallback(RetentionMethod):
    """
    Keeps the pre-trained parser beside the fine-tuned one and answers with it whenever the fine-tuned
    parser's answer uses no new predicate (`models/known_fallback.py`). Fine-tuning itself is left as it
    is, so the fine-tuned parser is the same as without the method, and so is exact match on queries
    that need a new predicate; the method acts on the final model only: the archive holds a
    `fewshot_known_fallback` of both parsers. With an ensemble, the ensemble's answer is routed.

    Registered as a `RetentionMethod` with name "pretrained_fallback". It takes no parameters.
    """

    def __init__(self) -> None:
        self._pretrained: Optional[Model] = None
        self._pretrained_config: Optional[Dict[str, Any]] = None

    def prepare(self, context: RetentionContext) -> None:
        if context.pretrained_config is None:
            raise ConfigurationError(
                "retention 'pretrained_fallback': the pre-trained archive's model config is unknown"
            )
        self._pretrained = context.teacher
        self._pretrained_config = context.pretrained_config

    def final_model(self, model: Model, model_config: Dict[str, Any]) -> Optional[Dict[str, Any]]:
        """The routing model of the fine-tuned `model` and the pre-trained parser, and its `model` config."""
        if self._pretrained is None or self._pretrained_config is None:
            raise ConfigurationError("retention 'pretrained_fallback' was not prepared")
        return {
            "model": KnownFallback(model.vocab, model, self._pretrained),
            "config": fallback_config(model_config, self._pretrained_config),
        }
