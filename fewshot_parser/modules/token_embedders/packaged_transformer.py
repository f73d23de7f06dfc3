from typing import Any, Dict, Optional

import torch
from allennlp.modules.token_embedders import PretrainedTransformerMismatchedEmbedder, TokenEmbedder

from fewshot_parser.common.packaged_models import resolve_pretrained_model
from fewshot_parser.modules.token_embedders.static_subword import mean_over_pieces


@TokenEmbedder.register("packaged_transformer_mismatched")
class PackagedTransformerMismatchedEmbedder(PretrainedTransformerMismatchedEmbedder):
    """
    AllenNLP's `pretrained_transformer_mismatched` embedder (contextual word vectors = mean of the
    transformer's outputs over each word's pieces) for a packaged model name or a local directory.

    With `train_parameters: false` the transformer is frozen and kept in eval mode, so its output for
    an utterance never changes; `cache: true` (the default when frozen) then stores each utterance's
    word vectors and serves repeats from memory, which turns every epoch after the first into the
    cost of a BiLSTM model. A cached utterance is computed alone, so its vectors do not depend on the
    batch that first met it (nor on where a resumed training started).
    """

    def __init__(
        self,
        model_name: str,
        train_parameters: bool = True,
        cache: Optional[bool] = None,
        max_length: Optional[int] = None,
        last_layer_only: bool = True,
        load_weights: bool = True,
        tokenizer_kwargs: Optional[Dict[str, Any]] = None,
        transformer_kwargs: Optional[Dict[str, Any]] = None,
        sub_token_mode: Optional[str] = "avg",
    ) -> None:
        super().__init__(
            resolve_pretrained_model(model_name),
            max_length=max_length,
            train_parameters=train_parameters,
            last_layer_only=last_layer_only,
            load_weights=load_weights,
            tokenizer_kwargs=tokenizer_kwargs,
            transformer_kwargs=transformer_kwargs,
            sub_token_mode=sub_token_mode,
        )
        if not train_parameters:
            # AllenNLP's mismatched embedder leaves a frozen transformer in training mode, so its dropout
            # would draw other vectors at every call (and the cache would keep the first draw).
            self._matched_embedder.eval_mode = True
            self._matched_embedder.transformer_model.eval()
        self._cache_enabled = (not train_parameters) if cache is None else cache
        if self._cache_enabled and train_parameters:
            raise ValueError("`cache: true` needs a frozen transformer (`train_parameters: false`)")
        self._cache: Dict[bytes, torch.Tensor] = {}

    def share_cache_with(self, other: "PackagedTransformerMismatchedEmbedder") -> bool:
        """
        Serves this embedder's utterances from `other`'s cache (and adds to it) when both cache and
        their transformers hold the same weights, so that they compute every word vector the other
        has; returns whether they now share. Used for an ensemble's members, which start from one
        pre-trained archive with one frozen transformer.
        """
        if not (self._cache_enabled and other._cache_enabled and self.sub_token_mode == other.sub_token_mode):
            return False
        ours, theirs = dict(self.named_parameters()), dict(other.named_parameters())
        if ours.keys() != theirs.keys() or any(
            ours[name].requires_grad or theirs[name].requires_grad or not torch.equal(ours[name], theirs[name])
            for name in ours
        ):
            return False
        self._cache = other._cache
        return True

    def _embed_alone(
        self,
        row: int,
        pieces: int,
        words: int,
        token_ids: torch.LongTensor,
        wordpiece_mask: torch.BoolTensor,
        offsets: torch.LongTensor,
        type_ids: Optional[torch.LongTensor],
        segment_concat_mask: Optional[torch.BoolTensor],
    ) -> torch.Tensor:
        """
        The word vectors of utterance `row` of a batch, computed by the transformer on that utterance
        alone, without the batch's padding: float sums depend on the shapes they run in, so a vector
        computed inside a padded batch would depend on which batch first met the utterance, and a
        resumed training, whose cache starts empty, would get other vectors than an uninterrupted one.
        """
        # With `max_length`, the indexer folds the pieces into segments marked by segment_concat_mask.
        length = pieces if segment_concat_mask is None else int(segment_concat_mask[row].sum())
        segments = None if segment_concat_mask is None else segment_concat_mask[row : row + 1, :length]
        with torch.no_grad():
            vectors = self._matched_embedder(
                token_ids[row : row + 1, :length],
                wordpiece_mask[row : row + 1, :pieces],
                type_ids=None if type_ids is None else type_ids[row : row + 1, :length],
                segment_concat_mask=segments,
            )
            return mean_over_pieces(vectors, offsets[row : row + 1, :words])[0].cpu()

    def forward(  # type: ignore
        self,
        token_ids: torch.LongTensor,
        mask: torch.BoolTensor,
        offsets: torch.LongTensor,
        wordpiece_mask: torch.BoolTensor,
        type_ids: Optional[torch.LongTensor] = None,
        segment_concat_mask: Optional[torch.BoolTensor] = None,
    ) -> torch.Tensor:
        if not self._cache_enabled or self.sub_token_mode != "avg":
            return super().forward(token_ids, mask, offsets, wordpiece_mask, type_ids, segment_concat_mask)
        # One key per utterance: its word pieces (padding stripped) and its word-to-piece offsets.
        piece_counts = wordpiece_mask.sum(-1).tolist()
        word_counts = mask.sum(-1).tolist()
        ids, spans = token_ids.cpu().numpy(), offsets.cpu().numpy()
        keys = [
            ids[row, : piece_counts[row]].tobytes() + b"|" + spans[row, : word_counts[row]].tobytes()
            for row in range(token_ids.size(0))
        ]
        for row, key in enumerate(keys):
            if key not in self._cache:
                self._cache[key] = self._embed_alone(
                    row,
                    piece_counts[row],
                    word_counts[row],
                    token_ids,
                    wordpiece_mask,
                    offsets,
                    type_ids,
                    segment_concat_mask,
                )
        output = torch.nn.utils.rnn.pad_sequence([self._cache[key] for key in keys], batch_first=True)
        if output.size(1) < mask.size(1):
            output = torch.nn.functional.pad(output, (0, 0, 0, mask.size(1) - output.size(1)))
        return output.to(token_ids.device)
