"""
A fine-tuned parser that answers with the pre-trained parser whenever it does not use a new predicate
(not in the paper). Fine-tuning on a support set moves weights every known predicate
shares, so the fine-tuned parser forgets some of what it knew. The pre-trained parser forgot
nothing, but cannot use a new predicate. This model keeps both and routes each utterance by the
fine-tuned parser's answer:

* the answer uses a new predicate (an action the support set added that produces a predicate no
  known action produces): it is kept, since only the fine-tuned parser can give it;
* otherwise the pre-trained parser's answer is given, decoded with every action the support set
  added excluded.

On an utterance whose logical form needs a new predicate, a fine-tuned answer without one is wrong,
and so is any answer of the pre-trained parser: exact match on new-predicate queries is the
fine-tuned parser's, exactly. On known predicates the routed answer is the pre-trained parser's,
except where the fine-tuned parser wrongly reaches for a new action. The cost is a second decoding
and a second set of weights in the archive. Built by the `pretrained_fallback` retention method
(`training/retention/fallback.py`) after fine-tuning.
"""

from typing import Any, Dict, FrozenSet, List, Optional, Protocol, cast

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import Vocabulary
from allennlp.models import Model
from allennlp.training.metrics import Average

from fewshot_parser.logical_forms.namespaces import ACTION_NAMESPACE
from fewshot_parser.logical_forms.transition_system import Action
from fewshot_parser.models.metrics import LogicalFormExactMatch

# Added to the pre-trained parser's score of every new action: it never chooses one.
EXCLUDED = -1e4


class MarksNewActions(Protocol):
    """A parser that marks the actions added after pre-training and adds a bias to their scores (`proto_parser`)."""

    new_action_bias: float

    @property
    def new_action_mask(self) -> torch.Tensor: ...


@Model.register("fewshot_known_fallback")
class KnownFallback(Model):
    """
    Registered as a `Model` with name "fewshot_known_fallback".

    Output: the keys the `proto_parser` predictor reads (`logical_form`, `predicted_actions`, `score`)
    and `answered_by` (`"fine-tuned"` or `"pre-trained"`) per example. Metrics: `exact_match` of the
    routed answers, `finetuned_exact_match` of the fine-tuned parser alone, and `pretrained_share`,
    the share of utterances the pre-trained parser answered.

    # Parameters

    vocab : `Vocabulary`
        The fine-tuned vocabulary (the pre-trained one extended with the support set).
    parser : `Model`
        The fine-tuned parser (`proto_parser` or a subclass; it marks its new actions), or a
        `fewshot_ensemble` of them (routed by the ensemble's answer).
    pretrained : `Model`
        The pre-trained parser, grown to the same vocabulary; it is never trained.
    """

    default_predictor = "proto_parser"

    def __init__(self, vocab: Vocabulary, parser: Model, pretrained: Model, **kwargs: Any) -> None:
        super().__init__(vocab, **kwargs)
        for name, member in (("parser", marking(parser)), ("pretrained", pretrained)):
            if not hasattr(member, "new_action_mask") or not hasattr(member, "new_action_bias"):
                raise ConfigurationError(
                    f"fewshot_known_fallback: its {name} must be a proto_parser (one that marks "
                    f"its new actions) or an ensemble of them, not {type(member).__name__}"
                )
        parser.vocab = pretrained.vocab = vocab
        self.parser = parser
        self.pretrained = pretrained
        cast(MarksNewActions, self.pretrained).new_action_bias = EXCLUDED
        self.pretrained.requires_grad_(False)
        self._new_actions: Optional[FrozenSet[str]] = None
        self._exact_match = LogicalFormExactMatch()
        self._finetuned_exact_match = LogicalFormExactMatch()
        self._pretrained_share = Average()

    def new_actions(self) -> FrozenSet[str]:
        """
        The actions that produce a new predicate (one no action of the pre-trained parser produced), by
        name. An action the support set added for a known predicate (a known predicate in a new
        template, an `and` of three) does not count: only the fine-tuned parser can use a new
        predicate, while a known one is the pre-trained parser's to answer with.
        """
        if self._new_actions is None:
            mask = marking(self.parser).new_action_mask.tolist()
            names = [self.vocab.get_token_from_index(i, ACTION_NAMESPACE) for i in range(len(mask))]
            produced = [() if name.startswith("@@") else Action.from_string(name).predicates for name in names]
            known = {predicate for added, predicates in zip(mask, produced) if not added for predicate in predicates}
            self._new_actions = frozenset(
                name
                for added, name, predicates in zip(mask, names, produced)
                if added and any(p not in known for p in predicates)
            )
        return self._new_actions

    def extend_embedder_vocab(self, embedding_sources_mapping: Optional[Dict[str, str]] = None) -> None:
        """Grows both parsers to the vocabulary (`Model.load` calls this before it loads the weights)."""
        self.parser.extend_embedder_vocab(embedding_sources_mapping)
        self.pretrained.extend_embedder_vocab(embedding_sources_mapping)
        self._new_actions = None

    def forward(self, **inputs: Any) -> Dict[str, Any]:  # type: ignore
        """In training, the fine-tuned parser's output; otherwise each example is routed by its fine-tuned answer."""
        finetuned = self.parser(**inputs)
        if self.training or "logical_form" not in finetuned:
            return finetuned
        new = self.new_actions()
        keep = [
            form is not None and any(action in new for action in actions)
            for form, actions in zip(finetuned["logical_form"], finetuned["predicted_actions"])
        ]
        result: Dict[str, Any] = {key: finetuned[key] for key in ("loss",) if key in finetuned}
        fallback = self.pretrained(**inputs) if not all(keep) else finetuned
        for key in ("logical_form", "predicted_actions", "score"):
            result[key] = [f if k else p for f, p, k in zip(finetuned[key], fallback[key], keep)]
        result["answered_by"] = ["fine-tuned" if k else "pre-trained" for k in keep]
        metadata: List[Dict[str, Any]] = inputs.get("metadata") or []
        if metadata and metadata[0].get("logical_form") is not None:
            gold = [m["logical_form"] for m in metadata]
            self._exact_match(result["logical_form"], gold, metadata[0]["formalism"])
            self._finetuned_exact_match(finetuned["logical_form"], gold, metadata[0]["formalism"])
        for k in keep:
            self._pretrained_share(float(not k))
        return result

    def get_metrics(self, reset: bool = False) -> Dict[str, float]:
        finetuned = self.parser.get_metrics(reset)
        self.pretrained.get_metrics(reset)
        if self.training:
            return finetuned
        metrics = dict(self._exact_match.get_metric(reset))
        metrics["finetuned_exact_match"] = self._finetuned_exact_match.get_metric(reset).get("exact_match", 0.0)
        metrics["pretrained_share"] = self._pretrained_share.get_metric(reset)
        return metrics


def marking(parser: Model) -> MarksNewActions:
    """The parser that marks the new actions: `parser` itself, or the first member of an ensemble."""
    members = getattr(parser, "members", None)
    return cast(MarksNewActions, members[0] if members is not None and len(members) else parser)


def fallback_config(parser_config: Dict[str, Any], pretrained_config: Dict[str, Any]) -> Dict[str, Any]:
    """The `model` config of a `fewshot_known_fallback` (what its archive holds)."""
    if not isinstance(parser_config, dict) or not isinstance(pretrained_config, dict):
        raise ConfigurationError("fewshot_known_fallback: the parser and pretrained configs must be objects")
    return {"type": "fewshot_known_fallback", "parser": parser_config, "pretrained": pretrained_config}
