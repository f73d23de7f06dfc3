"""
Slot filling: the values of the slots of each generated action.

One LSTM decoder per slot kind, with the same architecture (paper Sec. 3.2): for an action with
`k` slots of a kind, an LSTM started from that step's `h_t` runs over the `k` slot labels and
each output scores the candidates:

* entity slots point at utterance positions (copying), restricted to tokens of the slot's entity
  type when the utterance has any;
* variable slots choose a variable name (`$0`, `$1`, `ANS`, ...) from the `variables` vocabulary.

All slots of a batch are filled in one pass over the decoder steps that have slots ("rows"; the
inputs are the slot labels, not previous predictions), for training and for prediction alike.
"""

from dataclasses import dataclass
from typing import Optional

import torch
from allennlp.data import Vocabulary
from torch import nn

from fewshot_parser.logical_forms.namespaces import ENTITY_TYPE_NAMESPACE, VARIABLE_NAMESPACE
from fewshot_parser.modules.action_space import ActionSpace
from fewshot_parser.modules.unbuilt_layers import OptionalLayers


class SlotDecoder(nn.Module):
    """An LSTM over the slots of one kind of every step, started from the step's `h_t`."""

    def __init__(self, input_dim: int, projection_dim: int, hidden_dim: int) -> None:
        super().__init__()
        self.initial = nn.Linear(projection_dim, hidden_dim)
        self.lstm = nn.LSTM(input_dim, hidden_dim, batch_first=True)

    def forward(self, projections: torch.Tensor, inputs: torch.Tensor) -> torch.Tensor:
        """projections: `(rows, projection_dim)`; inputs: `(rows, slots, input_dim)` -> `(rows, slots, hidden_dim)`."""
        h0 = torch.tanh(self.initial(projections)).unsqueeze(0)
        outputs, _ = self.lstm(inputs, (h0, torch.zeros_like(h0)))
        return outputs


@dataclass(frozen=True)
class SlotLayers:
    """
    Which of its layers a `SlotFiller` builds: those its `SlotVariant` uses (`SlotVariant.slot_layers`).
    With unified slots the filler builds its unified decoder instead of the entity and variable decoders.

    # Parameters

    entities : `bool`
        The entity slot decoder, the entity-type embedding and the copy key (copied entity slots).
    variables : `bool`
        The variable slot decoder, the slot-position embedding and the output layer over the variable names.
    copy_key : `nn.Linear`, optional
        A layer the parser already has (the decoder's attention key) that the filler shares as its copy key
        instead of building one.
    """

    entities: bool = True
    variables: bool = True
    copy_key: Optional[nn.Linear] = None


class SlotFiller(OptionalLayers):
    """
    Only the layers `layers` names are built (with unified slots: the unified decoder, the slot-position
    embedding, the variable-name output layer and the copy key); asking for a distribution whose layers
    were not built is an error, and loading leaves out stored weights of layers not built (`OptionalLayers`).

    # Parameters

    projection_dim : `int`
        Size of the template decoder's `h_t`.
    encoder_dim : `int`
        Size of the encoder states (copy candidates).
    hidden_dim : `int`
        Size of the slot LSTMs.
    num_entity_types : `int`
        Size of the `entity_types` vocabulary.
    num_variables : `int`
        Size of the `variables` vocabulary.
    max_variable_slots : `int`
        Most variable slots in one action.
    label_dim : `int`
        Size of the slot-label embeddings (entity types, slot positions).
    unified : `bool`
        Unified slots (`<s>`): one decoder choosing a variable name or a copy.
    layers : `SlotLayers`, optional (default = every layer)
        Which layers to build.
    """

    OPTIONAL_LAYERS = (
        "type_embedding",
        "variable_position",
        "entity_decoder",
        "variable_decoder",
        "copy_key",
        "variable_output",
        "unified_decoder",
    )

    def __init__(
        self,
        projection_dim: int,
        encoder_dim: int,
        hidden_dim: int,
        num_entity_types: int,
        num_variables: int,
        max_variable_slots: int,
        label_dim: int = 32,
        unified: bool = False,
        layers: Optional[SlotLayers] = None,
    ) -> None:
        super().__init__()
        layers = layers or SlotLayers()
        entities = layers.entities and not unified
        variables = layers.variables and not unified
        names = variables or unified
        self.type_embedding = nn.Embedding(max(num_entity_types, 2), label_dim) if entities else None
        self.variable_position = nn.Embedding(max(max_variable_slots, 1), label_dim) if names else None
        self.entity_decoder = SlotDecoder(label_dim, projection_dim, hidden_dim) if entities else None
        self.variable_decoder = SlotDecoder(label_dim, projection_dim, hidden_dim) if variables else None
        self.copy_key: Optional[nn.Linear] = None
        if layers.copy_key is not None:
            self.copy_key = layers.copy_key
        elif entities or unified:
            self.copy_key = nn.Linear(encoder_dim, hidden_dim, bias=False)
        self.variable_output = nn.Linear(hidden_dim, num_variables) if names else None
        self.unified_decoder = SlotDecoder(label_dim, projection_dim, hidden_dim) if unified else None

    @classmethod
    def for_vocabulary(
        cls,
        vocab: Vocabulary,
        action_space: ActionSpace,
        projection_dim: int,
        encoder_dim: int,
        hidden_dim: int,
        layers: Optional[SlotLayers] = None,
    ) -> "SlotFiller":
        """The slot filler (its `layers`) for the entity types, variables and slots of `vocab` and its `ActionSpace`."""
        return cls(
            projection_dim,
            encoder_dim,
            hidden_dim,
            vocab.get_vocab_size(ENTITY_TYPE_NAMESPACE),
            vocab.get_vocab_size(VARIABLE_NAMESPACE),
            int(max(action_space.num_variables.max().item(), action_space.num_unified.max().item()))
            if len(action_space)
            else 1,
            unified=action_space.unified,
            layers=layers,
        )

    def entity_log_probs(
        self,
        projections: torch.Tensor,
        encoded: torch.Tensor,
        source_mask: torch.Tensor,
        source_types: torch.Tensor,
        entity_types: torch.Tensor,
    ) -> torch.Tensor:
        """
        Copy distributions for the entity slots of some decoder steps ("rows").

        # Parameters

        projections : `(rows, projection_dim)`, `h_t` of each row's step.
        encoded, source_mask, source_types : the row's utterance: encoder states
            `(rows, source_length, encoder_dim)`, mask and entity-type ids `(rows, source_length)`.
        entity_types : `(rows, entity_slots)` type ids of the row's entity slots (0: none).

        # Returns

        `(rows, entity_slots, source_length)` log-probabilities over utterance positions.
        """
        assert self.copy_key is not None, "the slot filler was built without its entity layers"
        # shape: (rows, entity_slots, hidden_dim)
        states = self.entity_states(projections, entity_types)
        # shape: (rows, entity_slots, source_length)
        scores = torch.bmm(states, self.copy_key(encoded).transpose(1, 2))
        same_type = (source_types.unsqueeze(1) == entity_types.unsqueeze(-1)) & source_mask.unsqueeze(1)
        allowed = torch.where(same_type.any(-1, keepdim=True), same_type, source_mask.unsqueeze(1).expand_as(same_type))
        return torch.log_softmax(scores.masked_fill(~allowed, torch.finfo(scores.dtype).min), dim=-1)

    def entity_states(self, projections: torch.Tensor, entity_types: torch.Tensor) -> torch.Tensor:
        """`(rows, entity_slots, hidden_dim)`: entity slot decoder states over slot types `(rows, entity_slots)`."""
        assert self.entity_decoder is not None and self.type_embedding is not None, (
            "the slot filler was built without its entity layers"
        )
        return self.entity_decoder(projections, self.type_embedding(entity_types))

    def _position_inputs(self, rows: int, num_slots: int, device: torch.device) -> torch.Tensor:
        """`(rows, num_slots, label_dim)`: the slot-position embeddings of the variable or unified slots."""
        assert self.variable_position is not None, "the slot filler was built without its variable layers"
        positions = torch.arange(max(num_slots, 1), device=device)
        inputs = self.variable_position(positions.clamp(max=self.variable_position.num_embeddings - 1))
        return inputs.expand(rows, -1, -1)

    def variable_log_probs(self, projections: torch.Tensor, num_slots: int) -> torch.Tensor:
        """`(rows, num_slots, num_variables)` log-probabilities of the variable names of some rows."""
        assert self.variable_decoder is not None and self.variable_output is not None, (
            "the slot filler was built without its variable layers"
        )
        inputs = self._position_inputs(projections.size(0), num_slots, projections.device)
        states = self.variable_decoder(projections, inputs)
        return torch.log_softmax(self.variable_output(states), dim=-1)

    def unified_log_probs(
        self,
        projections: torch.Tensor,
        encoded: torch.Tensor,
        copyable: torch.Tensor,
        num_slots: int,
    ) -> torch.Tensor:
        """
        For unified slots: `(rows, num_slots, num_variables + source_length)` log-probabilities of
        naming each variable (the first `num_variables` entries; padding and unknown excluded) or
        copying each utterance position that holds an entity (`copyable`, `(rows, source_length)`).
        """
        assert self.unified_decoder is not None, "the slot filler was built for typed slots"
        assert self.variable_output is not None and self.copy_key is not None
        states = self.unified_decoder(
            projections, self._position_inputs(projections.size(0), num_slots, projections.device)
        )
        variable_scores = self.variable_output(states)
        variable_scores[..., :2] = torch.finfo(variable_scores.dtype).min  # padding, unknown
        copy_scores = torch.bmm(states, self.copy_key(encoded).transpose(1, 2))
        copy_scores = copy_scores.masked_fill(~copyable.unsqueeze(1), torch.finfo(copy_scores.dtype).min)
        return torch.log_softmax(torch.cat([variable_scores, copy_scores], dim=-1), dim=-1)

    def extend_to(self, vocab: Vocabulary, action_space: ActionSpace) -> None:
        """`extend` to the entity types, variables and slots of a grown `vocab` and its `ActionSpace`."""
        self.extend(
            vocab.get_vocab_size(ENTITY_TYPE_NAMESPACE),
            vocab.get_vocab_size(VARIABLE_NAMESPACE),
            int(max(action_space.num_variables.max().item(), action_space.num_unified.max().item())),
        )

    def extend(self, num_entity_types: int, num_variables: int, max_variable_slots: int) -> None:
        """Grows the embeddings and output layer (those built) after the vocabulary grew (new rows start small)."""
        if self.type_embedding is not None:
            self.type_embedding = _grow_embedding(self.type_embedding, num_entity_types)
        if self.variable_position is not None:
            self.variable_position = _grow_embedding(self.variable_position, max_variable_slots)
        old = self.variable_output
        if old is not None and num_variables > old.out_features:
            grown = nn.Linear(old.in_features, num_variables).to(old.weight.device)
            with torch.no_grad():
                grown.weight.zero_()
                grown.bias.fill_(-5.0)  # unseen names start unlikely
                grown.weight[: old.out_features] = old.weight
                grown.bias[: old.out_features] = old.bias
            self.variable_output = grown


def _grow_embedding(embedding: nn.Embedding, size: int) -> nn.Embedding:
    if size <= embedding.num_embeddings:
        return embedding
    grown = nn.Embedding(size, embedding.embedding_dim).to(embedding.weight.device)
    with torch.no_grad():
        grown.weight[: embedding.num_embeddings] = embedding.weight
    return grown
