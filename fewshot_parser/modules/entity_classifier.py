"""
An entity slot filled by classification over a vocabulary of entity values, as in the authors' code
(docs/reproduction.md rows 16 and 36): the slot's state attends over the utterance, the attentional
vector `tanh(W [state; context])` scores every known value (a bias-free output layer), and the
prediction is the best value other than padding and unknown. A value missing from that vocabulary (an
entity seen neither in training nor in the support set) can never be predicted.

Given `attentional` and `dropout`, the classifier reads out through them: the template decoder's own map
to the attentional vector and its dropout, as the authors' entity steps do (their shared `step`).
"""

from typing import Optional

import torch
from torch import nn

# Indices of the padding and unknown entries of a padded AllenNLP namespace.
_RESERVED = 2


class EntityClassifier(nn.Module):
    """
    # Parameters

    state_dim : `int`
        Size of the entity slot decoder's states.
    encoder_dim : `int`
        Size of the encoder states the attention reads.
    num_values : `int`
        Size of the `entity_values` namespace (padding and unknown included).
    attentional : `nn.Linear`, optional
        A map `(state_dim + encoder_dim) -> state_dim` to share (the decoder's) instead of one of its own.
    dropout : `nn.Module`, optional
        The dropout applied to the attentional vector (with a shared map: the decoder's); none by default.
    """

    def __init__(
        self,
        state_dim: int,
        encoder_dim: int,
        num_values: int,
        attentional: Optional[nn.Linear] = None,
        dropout: Optional[nn.Module] = None,
    ) -> None:
        super().__init__()
        shape = (state_dim + encoder_dim, state_dim)
        if attentional is not None and (attentional.in_features, attentional.out_features) != shape:
            raise ValueError(
                f"the decoder's attentional map is {attentional.in_features} -> {attentional.out_features}; "
                f"entity slots need {shape[0]} -> {shape[1]}"
            )
        self.attentional = attentional if attentional is not None else nn.Linear(*shape, bias=False)
        self.readout = nn.Linear(state_dim, max(num_values, _RESERVED), bias=False)
        self.dropout: nn.Module = dropout if dropout is not None else nn.Identity()

    def forward(self, states: torch.Tensor, attention: torch.Tensor, encoded: torch.Tensor) -> torch.Tensor:
        """
        states : `(rows, slots, state_dim)`; attention : `(rows, slots, source_length)` weights (rows
        sum to 1); encoded : `(rows, source_length, encoder_dim)`.

        Returns `(rows, slots, num_values)` log-probabilities; padding and unknown get none.
        """
        context = torch.bmm(attention, encoded)
        vector = self.dropout(torch.tanh(self.attentional(torch.cat([states, context], dim=-1))))
        scores = self.readout(vector)
        reserved = torch.arange(scores.size(-1), device=scores.device) < _RESERVED
        scores = scores.masked_fill(reserved, torch.finfo(scores.dtype).min)
        return torch.log_softmax(scores, dim=-1)

    def extend(self, num_values: int) -> None:
        """
        Grows the output layer after the vocabulary grew: trained rows kept, new rows drawn as a fresh
        Glorot-normal layer of the new size would draw them (the authors re-create the layer that way).
        """
        old = self.readout
        if num_values <= old.out_features:
            return
        grown = nn.Linear(old.in_features, num_values, bias=False).to(old.weight.device)
        with torch.no_grad():
            nn.init.xavier_normal_(grown.weight)
            grown.weight[: old.out_features] = old.weight
        self.readout = grown
