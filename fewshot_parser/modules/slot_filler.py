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

import torch
from allennlp.data import Vocabulary
from torch import nn

from fewshot_parser.logical_forms.namespaces import ENTITY_TYPE_NAMESPACE, VARIABLE_NAMESPACE
from fewshot_parser.modules.action_space import ActionSpace


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


class SlotFiller(nn.Module):
    """
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
    """

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
    ) -> None:
        super().__init__()
        self.type_embedding = nn.Embedding(max(num_entity_types, 2), label_dim)
        self.variable_position = nn.Embedding(max(max_variable_slots, 1), label_dim)
        self.entity_decoder = SlotDecoder(label_dim, projection_dim, hidden_dim)
        self.variable_decoder = SlotDecoder(label_dim, projection_dim, hidden_dim)
        self.copy_key = nn.Linear(encoder_dim, hidden_dim, bias=False)
        self.variable_output = nn.Linear(hidden_dim, num_variables)
        # Only with unified slots (`<s>`): one decoder choosing a variable name or a copy.
        self.unified_decoder = SlotDecoder(label_dim, projection_dim, hidden_dim) if unified else None

    @classmethod
    def for_vocabulary(
        cls, vocab: Vocabulary, action_space: ActionSpace, projection_dim: int, encoder_dim: int, hidden_dim: int
    ) -> "SlotFiller":
        """The slot filler for the entity types, variables and slots of `vocab` and its `ActionSpace`."""
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
        # shape: (rows, entity_slots, hidden_dim)
        states = self.entity_decoder(projections, self.type_embedding(entity_types))
        # shape: (rows, entity_slots, source_length)
        scores = torch.bmm(states, self.copy_key(encoded).transpose(1, 2))
        same_type = (source_types.unsqueeze(1) == entity_types.unsqueeze(-1)) & source_mask.unsqueeze(1)
        allowed = torch.where(same_type.any(-1, keepdim=True), same_type, source_mask.unsqueeze(1).expand_as(same_type))
        return torch.log_softmax(scores.masked_fill(~allowed, torch.finfo(scores.dtype).min), dim=-1)

    def variable_log_probs(self, projections: torch.Tensor, num_slots: int) -> torch.Tensor:
        """`(rows, num_slots, num_variables)` log-probabilities of the variable names of some rows."""
        positions = torch.arange(max(num_slots, 1), device=projections.device)
        inputs = self.variable_position(positions.clamp(max=self.variable_position.num_embeddings - 1))
        states = self.variable_decoder(projections, inputs.expand(projections.size(0), -1, -1))
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
        positions = torch.arange(max(num_slots, 1), device=projections.device)
        inputs = self.variable_position(positions.clamp(max=self.variable_position.num_embeddings - 1))
        states = self.unified_decoder(projections, inputs.expand(projections.size(0), -1, -1))
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
        """Grows the embeddings and output layer after the vocabulary grew (new rows start small)."""
        self.type_embedding = _grow_embedding(self.type_embedding, num_entity_types)
        self.variable_position = _grow_embedding(self.variable_position, max_variable_slots)
        old = self.variable_output
        if num_variables > old.out_features:
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
