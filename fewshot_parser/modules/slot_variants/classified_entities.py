"""
Entity slots classified over a vocabulary of entity values, as in the authors' code (docs/reproduction.md
rows 16 and 36), instead of copied from the utterance.

The parser's entity slot decoder and its copy distribution stay; the copy distribution becomes the slot's
attention over the utterance, and its loss (minus the log of the attention on the value's positions) is the
authors' entity attention loss (row 16). On top, `EntityClassifier` (`modules/entity_classifier.py`) scores
the values of the `entity_values` namespace from the slot's state and attention context, trained by a
label-smoothed cross-entropy; decoding writes the best value (row 36). The values come from the
`fewshot_entity_values` reader wrapper (`data/dataset_readers/entity_values.py`): the training set's,
extended by the support set's at fine-tuning. Needs typed or untyped slots, not unified ones.

With `readout: "decoder"` the slots read out as the authors' entity steps do, through the template decoder's
layers: the copy distribution (the slot's attention) uses the decoder's attention key, and the attentional
vector the decoder's map and dropout. `"own"` gives the slots layers of their own.
"""

from typing import Any, List, Optional, Tuple

import torch
from allennlp.common.checks import ConfigurationError

from fewshot_parser.data.dataset_readers.entity_values import ENTITY_VALUE_NAMESPACE
from fewshot_parser.modules.entity_classifier import EntityClassifier
from fewshot_parser.modules.slot_filler import SlotLayers
from fewshot_parser.modules.slot_variants.copy_slots import CopySlots
from fewshot_parser.modules.slot_variants.slot_variant import Choices, SlotVariant


@SlotVariant.register("classified_entities")
class ClassifiedEntities(CopySlots):
    """
    Entity slots that name a value of the `entity_values` vocabulary. The value loss is reduced as the
    parser reduces its slot loss (`loss_reduction`): per-example sums averaged over the batch, or a mean
    over entity slots.

    Registered as a `SlotVariant` with name "classified_entities".

    # Parameters

    parser : `ProtoParser`
        The parser being built (given by it).
    readout : `str`, optional (default = `"own"`)
        `"own"`: the entity slots have their own attention key and attentional map. `"decoder"`: they
        share the template decoder's (`attention_key`, `output` and its dropout), as the authors' code.
    """

    def __init__(self, parser: Any, readout: str = "own") -> None:
        super().__init__(parser)
        if readout not in ("own", "decoder"):
            raise ConfigurationError(f"slot_variant: readout must be one of ['own', 'decoder'], not {readout!r}")
        if parser.action_space.unified:
            raise ConfigurationError(
                "slot_variant: classified entity slots are for typed or untyped slots, not unified ones"
            )
        decoder = parser.decoder
        # The entity slots' states are the size of the decoder's; they attend over the encoder states.
        state_dim, encoder_dim = decoder.attention_key.out_features, decoder.attention_key.in_features
        num_values = parser.vocab.get_vocab_size(ENTITY_VALUE_NAMESPACE)
        if readout == "decoder":
            try:
                self._entity_classifier = EntityClassifier(
                    state_dim, encoder_dim, num_values, attentional=decoder.output, dropout=decoder.dropout
                )
            except ValueError as error:
                raise ConfigurationError(
                    f"slot_variant readout 'decoder': {error} (decoder and action sizes must agree)"
                ) from None
        else:
            self._entity_classifier = EntityClassifier(state_dim, encoder_dim, num_values)
        self.readout = readout
        self._value_tokens: Optional[List[str]] = None

    def slot_layers(self, parser: Any) -> SlotLayers:
        """Every copy-and-name layer; with the decoder's readout, the decoder's attention key as the copy key."""
        return SlotLayers(copy_key=parser.decoder.attention_key if self.readout == "decoder" else None)

    def extend(self, parser: Any) -> None:
        self._entity_classifier.extend(parser.vocab.get_vocab_size(ENTITY_VALUE_NAMESPACE))
        self._value_tokens = None

    def entity_values_log_probs(
        self,
        parser: Any,
        keys: torch.Tensor,
        num_steps: int,
        actions: torch.Tensor,
        projections: torch.Tensor,
        encoded: torch.Tensor,
        source_mask: torch.Tensor,
        source_types: torch.Tensor,
    ) -> torch.Tensor:
        """Value log-probabilities `(rows, slots, num_values)` of the entity slots of the steps `keys`."""
        b, t = keys // num_steps, keys % num_steps
        types = parser.space()["entity_types"][actions[b, t]]
        width = max(int((types != 0).sum(-1).max().item()) if types.numel() else 1, 1)
        states = parser.slot_filler.entity_states(projections[b, t], types[:, :width])
        attention = self.entity_rows(
            parser, keys, num_steps, actions, projections, encoded, source_mask, source_types
        ).exp()
        return self._entity_classifier(states, attention, encoded[b])

    def slot_loss(
        self,
        parser: Any,
        projections: torch.Tensor,
        encoded: torch.Tensor,
        source_mask: torch.Tensor,
        source_types: torch.Tensor,
        actions: torch.Tensor,
        slot_step: torch.Tensor,
        slot_order: torch.Tensor,
        slot_is_variable: torch.Tensor,
        entity_targets: torch.Tensor,
        variable_values: torch.Tensor,
        entity_values: Optional[torch.Tensor],
    ) -> Tuple[torch.Tensor, List[bool]]:
        """
        The parser's copy-and-name slot loss (its copy term is the entity attention loss) plus the
        cross-entropy of each entity slot's gold value. The slot accuracy (evaluation) counts an entity
        slot right when its best value is the gold one.
        """
        loss, correct = super().slot_loss(
            parser,
            projections,
            encoded,
            source_mask,
            source_types,
            actions,
            slot_step,
            slot_order,
            slot_is_variable,
            entity_targets,
            variable_values,
            None,
        )
        if entity_values is None:
            return loss, correct
        num_steps = actions.size(1)
        batch_index, slot_index = ((slot_step >= 0) & (slot_is_variable == 0)).nonzero(as_tuple=True)
        if batch_index.numel() == 0:
            return loss, correct
        keys = batch_index * num_steps + slot_step[batch_index, slot_index]
        rows, inverse = torch.unique(keys, return_inverse=True)
        log_probs = self.entity_values_log_probs(
            parser, rows, num_steps, actions.clamp(min=0), projections, encoded, source_mask, source_types
        )
        # shape: (entity_slots, num_values)
        scores = log_probs[inverse, slot_order[batch_index, slot_index]]
        gold = entity_values[batch_index, slot_index]
        known = gold >= 2  # not padding, not an unknown value
        nll = -scores.gather(-1, gold.clamp(min=0).unsqueeze(-1)).squeeze(-1)
        smoothing = parser.label_smoothing
        if smoothing > 0:
            allowed = scores > torch.finfo(scores.dtype).min / 2
            uniform = -(scores * allowed).sum(-1) / allowed.sum(-1).clamp(min=1)
            nll = (1 - smoothing) * nll + smoothing * uniform
        if parser.loss_reduction == "example":
            loss = loss + (nll * known).sum() / actions.size(0)
        else:
            loss = loss + (nll * known).sum() / known.sum().clamp(min=1)
        if correct:
            # The parser lists entity slots first (in slot order), then variable slots.
            right = (scores.argmax(-1) == gold).tolist()
            correct = right + correct[len(right) :]
        return loss, correct

    @torch.no_grad()
    def predict_slots(
        self, parser, actions, real, projections, encoded, source_mask, source_types
    ) -> Tuple[Choices, Choices]:
        """The parser's variable choices; entity choices are indices of the best values."""
        _, variable_choice = super().predict_slots(
            parser, actions, real, projections, encoded, source_mask, source_types
        )
        return self.predict_entity_values(
            parser, actions, real, projections, encoded, source_mask, source_types
        ), variable_choice

    def predict_entity_values(
        self,
        parser: Any,
        actions: torch.Tensor,
        real: torch.Tensor,
        projections: torch.Tensor,
        encoded: torch.Tensor,
        source_mask: torch.Tensor,
        source_types: torch.Tensor,
    ) -> Choices:
        """The index of the best value of each entity slot, by `(row, step)` of the decoded `actions`."""
        num_steps = actions.size(1)
        entity_choice: Choices = {}
        keys = ((parser.space()["entity_types"][actions, 0] != 0) & real).flatten().nonzero().squeeze(-1)
        if keys.numel():
            best = self.entity_values_log_probs(
                parser, keys, num_steps, actions, projections, encoded, source_mask, source_types
            ).argmax(-1)
            for key, values in zip(keys.tolist(), best.tolist()):
                entity_choice[divmod(key, num_steps)] = values
        return entity_choice

    def slot_words(self, parser: Any, utterance: List[str], entity_choice: Choices) -> Tuple[List[str], Choices]:
        """A choice is a value index: the values follow the utterance's words, and the choices are shifted onto them."""
        if self._value_tokens is None:
            self._value_tokens = [
                parser.vocab.get_token_from_index(i, ENTITY_VALUE_NAMESPACE)
                for i in range(parser.vocab.get_vocab_size(ENTITY_VALUE_NAMESPACE))
            ]
        shifted = {key: [len(utterance) + value for value in values] for key, values in entity_choice.items()}
        return list(utterance) + self._value_tokens, shifted
