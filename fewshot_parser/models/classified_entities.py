"""
ProtoParser whose entity slots are classified over a vocabulary of entity values, as in the authors'
code (docs/reproduction.md rows 16 and 36), instead of copied from the utterance.

The entity slot decoder and its copy distribution stay; the copy distribution becomes the slot's
attention over the utterance, and its loss (minus the log of the attention on the value's positions)
is the authors' entity attention loss (row 16). On top, `EntityClassifier`
(`modules/entity_classifier.py`) scores the values of the `entity_values` namespace from the slot's
state and attention context, trained by a label-smoothed cross-entropy; decoding writes the best
value (row 36). The values come from the `fewshot_entity_values` reader wrapper
(`data/dataset_readers/entity_values.py`): the training set's, extended by the support set's at
fine-tuning.

With `entity_readout: "decoder"` the slots read out as the authors' entity steps do, through the template
decoder's layers: the copy distribution (the slot's attention) uses the decoder's attention key, and the
attentional vector the decoder's map and dropout. `"own"` gives the slots layers of their own. The slot
state comes from our slot LSTM, or with `slot_states: "authors"` from the decoder (models/authors_slots.py).

`ClassifiedEntities` holds the behaviour, so that it sits on each model the faithful configs and their
switch systems use: the faithful `proto_parser_example_loss` (per-example loss sums) and the per-step
means of `proto_parser_authors` (system `step-loss`), one registered class each.
"""
from typing import Any, Dict, List, Optional, Tuple

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import Vocabulary
from allennlp.models import Model

from fewshot_parser.data.dataset_readers.entity_values import ENTITY_VALUE_NAMESPACE
from fewshot_parser.logical_forms.transition_system import Step
from fewshot_parser.models.authors_parser import AuthorsProtoParser
from fewshot_parser.models.example_loss import ExampleLossProtoParser
from fewshot_parser.modules.entity_classifier import EntityClassifier


class ClassifiedEntities:
    """
    Mixin for a `proto_parser_authors` (or a subclass) whose entity slots name a value of the
    `entity_values` vocabulary. Needs the `fewshot_entity_values` reader wrapper (training instances
    carry `entity_values`) and typed or untyped slots (not unified ones). The value loss is reduced as
    the base model reduces its slot loss: per-example sums averaged over the batch on
    `proto_parser_example_loss` and its subclasses, a mean over entity slots otherwise.

    # Parameters

    entity_readout : `str`, optional (default = `"own"`)
        `"own"`: the entity slots have their own attention key and attentional map. `"decoder"`: they
        share the template decoder's (`attention_key`, `output` and its dropout), as the authors' code.
    """

    def __init__(self, vocab: Vocabulary, entity_readout: str = "own", **kwargs: Any) -> None:
        super().__init__(vocab, **kwargs)
        if entity_readout not in ("own", "decoder"):
            raise ConfigurationError(f"entity_readout must be one of ['own', 'decoder'], not {entity_readout!r}")
        copy_key = self._slot_filler.copy_key
        self._entity_classifier = EntityClassifier(
            copy_key.out_features, copy_key.in_features, vocab.get_vocab_size(ENTITY_VALUE_NAMESPACE)
        )
        if entity_readout == "decoder":
            # Built first and then replaced, so that every other parameter draws from the random
            # generator as with layers of their own.
            decoder = self._decoder
            if decoder.attention_key.weight.shape != copy_key.weight.shape:
                raise ConfigurationError(
                    f"entity_readout 'decoder': the decoder's attention key is {tuple(decoder.attention_key.weight.shape)}, "
                    f"the entity slots need {tuple(copy_key.weight.shape)} (decoder and action sizes must agree)"
                )
            try:
                self._entity_classifier.share(decoder.output, decoder.dropout)
            except ValueError as error:
                raise ConfigurationError(f"entity_readout 'decoder': {error}") from None
            self._slot_filler.copy_key = decoder.attention_key
        self.entity_readout = entity_readout
        # The gold values of the batch whose slot loss is being computed (set by `forward`, `meta_loss`).
        self._gold_values: Optional[torch.Tensor] = None
        self._value_tokens: Optional[List[str]] = None

    def forward(self, entity_values: Optional[torch.Tensor] = None, **kwargs: Any) -> Dict[str, Any]:  # type: ignore
        self._gold_values = entity_values
        try:
            return super().forward(**kwargs)
        finally:
            self._gold_values = None

    def meta_loss(self, support: Dict[str, Any], query: Dict[str, Any]) -> torch.Tensor:
        self._gold_values = query.get("entity_values")
        try:
            return super().meta_loss(support, query)
        finally:
            self._gold_values = None

    def extend_embedder_vocab(self, embedding_sources_mapping: Dict[str, str] = None) -> None:
        super().extend_embedder_vocab(embedding_sources_mapping)
        self._entity_classifier.extend(self.vocab.get_vocab_size(ENTITY_VALUE_NAMESPACE))
        self._value_tokens = None

    def _entity_values_log_probs(
        self, keys: torch.Tensor, num_steps: int, actions: torch.Tensor, projections: torch.Tensor,
        encoded: torch.Tensor, source_mask: torch.Tensor, source_types: torch.Tensor,
    ) -> torch.Tensor:
        """Value log-probabilities `(rows, slots, num_values)` of the entity slots of the steps `keys`."""
        b, t = keys // num_steps, keys % num_steps
        types = self.space()["entity_types"][actions[b, t]]
        width = max(int((types != 0).sum(-1).max().item()) if types.numel() else 1, 1)
        filler = self._slot_filler
        states = filler.entity_decoder(projections[b, t], filler.type_embedding(types[:, :width]))
        attention = self._entity_rows(keys, num_steps, actions, projections, encoded, source_mask, source_types).exp()
        return self._entity_classifier(states, attention, encoded[b])

    def slot_loss(
        self, projections, encoded, source_mask, source_types, actions,
        slot_step, slot_order, slot_is_variable, entity_targets, variable_values,
    ) -> Tuple[torch.Tensor, List[bool]]:
        """
        The parent's slot loss (its copy term is the entity attention loss) plus the cross-entropy of
        each entity slot's gold value, reduced as the base model reduces its slot loss. The slot
        accuracy (evaluation) counts an entity slot right when its best value is the gold one.
        """
        loss, correct = super().slot_loss(
            projections, encoded, source_mask, source_types, actions,
            slot_step, slot_order, slot_is_variable, entity_targets, variable_values,
        )
        gold_values = self._gold_values
        if gold_values is None:
            return loss, correct
        num_steps = actions.size(1)
        batch_index, slot_index = ((slot_step >= 0) & (slot_is_variable == 0)).nonzero(as_tuple=True)
        if batch_index.numel() == 0:
            return loss, correct
        keys = batch_index * num_steps + slot_step[batch_index, slot_index]
        rows, inverse = torch.unique(keys, return_inverse=True)
        log_probs = self._entity_values_log_probs(
            rows, num_steps, actions.clamp(min=0), projections, encoded, source_mask, source_types
        )
        # shape: (entity_slots, num_values)
        scores = log_probs[inverse, slot_order[batch_index, slot_index]]
        gold = gold_values[batch_index, slot_index]
        known = gold >= 2  # not padding, not an unknown value
        nll = -scores.gather(-1, gold.clamp(min=0).unsqueeze(-1)).squeeze(-1)
        if self._label_smoothing > 0:
            allowed = scores > torch.finfo(scores.dtype).min / 2
            uniform = -(scores * allowed).sum(-1) / allowed.sum(-1).clamp(min=1)
            nll = (1 - self._label_smoothing) * nll + self._label_smoothing * uniform
        if isinstance(self, ExampleLossProtoParser):
            loss = loss + (nll * known).sum() / actions.size(0)
        else:
            loss = loss + (nll * known).sum() / known.sum().clamp(min=1)
        if correct:
            # The parent lists entity slots first (in slot order), then variable slots.
            right = (scores.argmax(-1) == gold).tolist()
            correct = right + correct[len(right):]
        return loss, correct

    @torch.no_grad()
    def _predict_slots(
        self, actions: torch.Tensor, real: torch.Tensor, projections: torch.Tensor,
        encoded: torch.Tensor, source_mask: torch.Tensor, source_types: torch.Tensor,
    ) -> Tuple[Dict[Tuple[int, int], List[int]], Dict[Tuple[int, int], List[int]]]:
        """The parent's variable choices; entity choices are indices of the best values."""
        _, variable_choice = super()._predict_slots(actions, real, projections, encoded, source_mask, source_types)
        return self._predict_entity_values(actions, real, projections, encoded, source_mask, source_types), variable_choice

    def _predict_entity_values(
        self, actions: torch.Tensor, real: torch.Tensor, projections: torch.Tensor,
        encoded: torch.Tensor, source_mask: torch.Tensor, source_types: torch.Tensor,
    ) -> Dict[Tuple[int, int], List[int]]:
        """The index of the best value of each entity slot, by `(row, step)` of the decoded `actions`."""
        num_steps = actions.size(1)
        entity_choice: Dict[Tuple[int, int], List[int]] = {}
        keys = ((self.space()["entity_types"][actions, 0] != 0) & real).flatten().nonzero().squeeze(-1)
        if keys.numel():
            best = self._entity_values_log_probs(
                keys, num_steps, actions, projections, encoded, source_mask, source_types
            ).argmax(-1)
            for key, values in zip(keys.tolist(), best.tolist()):
                entity_choice[divmod(key, num_steps)] = values
        return entity_choice

    def _steps(
        self, sequence: List[int], row: int, utterance: List[str],
        entity_choice: Dict[Tuple[int, int], List[int]], variable_choice: Dict[Tuple[int, int], List[int]],
    ) -> List[Step]:
        """
        The parent writes an entity slot's choice as a word of the utterance; here a choice is a value
        index, so the values are appended after the utterance and the choices shifted onto them.
        """
        if self._value_tokens is None:
            self._value_tokens = [
                self.vocab.get_token_from_index(i, ENTITY_VALUE_NAMESPACE)
                for i in range(self.vocab.get_vocab_size(ENTITY_VALUE_NAMESPACE))
            ]
        shifted = {key: [len(utterance) + value for value in values] for key, values in entity_choice.items()}
        return super()._steps(sequence, row, list(utterance) + self._value_tokens, shifted, variable_choice)


@Model.register("proto_parser_classified_entities")
class ClassifiedEntitiesProtoParser(ClassifiedEntities, ExampleLossProtoParser):
    """
    The faithful model: a `proto_parser_example_loss` with classified entity slots. It takes the same
    parameters.

    Registered as a `Model` with name "proto_parser_classified_entities".
    """


@Model.register("proto_parser_authors_classified_entities")
class AuthorsClassifiedEntitiesProtoParser(ClassifiedEntities, AuthorsProtoParser):
    """
    A `proto_parser_authors` (per-step loss means, system `step-loss`) with classified entity slots. It
    takes the same parameters.

    Registered as a `Model` with name "proto_parser_authors_classified_entities".
    """

