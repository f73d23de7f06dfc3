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
    cost of a BiLSTM model.
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
        missing = [row for row, key in enumerate(keys) if key not in self._cache]
        if missing:
            rows = torch.tensor(missing, device=token_ids.device)
            with torch.no_grad():
                pieces = self._matched_embedder(
                    token_ids[rows],
                    wordpiece_mask[rows],
                    type_ids=None if type_ids is None else type_ids[rows],
                    segment_concat_mask=None if segment_concat_mask is None else segment_concat_mask[rows],
                )
                words = mean_over_pieces(pieces, offsets[rows])
            for position, row in enumerate(missing):
                self._cache[keys[row]] = words[position, : word_counts[row]].cpu()
        output = torch.nn.utils.rnn.pad_sequence([self._cache[key] for key in keys], batch_first=True)
        if output.size(1) < mask.size(1):
            output = torch.nn.functional.pad(output, (0, 0, 0, mask.size(1) - output.size(1)))
        return output.to(token_ids.device)
