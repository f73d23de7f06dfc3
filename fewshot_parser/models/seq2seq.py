from typing import Any, Dict, List, Optional

import torch
from allennlp.data import TextFieldTensors
from allennlp.models import Model
from allennlp_models.generation.models.simple_seq2seq import SimpleSeq2Seq

from fewshot_parser.models.metrics import LogicalFormExactMatch
from fewshot_parser.modules.growth import grow_linear


@Model.register("fewshot_seq2seq")
class FewShotSeq2Seq(SimpleSeq2Seq):
    """
    allennlp-models' `simple_seq2seq` (LSTM encoder-decoder with attention) over LF tokens, plus
    the project's exact-match metrics on its best beam at evaluation time. All constructor
    arguments are those of `SimpleSeq2Seq`.

    Registered as a `Model` with name "fewshot_seq2seq".
    """

    # Set by `SimpleSeq2Seq`; grown with the target vocabulary.
    _output_projection_layer: torch.nn.Linear

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._exact_match = LogicalFormExactMatch()

    def forward(  # type: ignore
        self,
        source_tokens: TextFieldTensors,
        target_tokens: Optional[TextFieldTensors] = None,
        metadata: Optional[List[Dict[str, Any]]] = None,
    ) -> Dict[str, torch.Tensor]:
        output_dict = super().forward(source_tokens, target_tokens)
        if not self.training and metadata and metadata[0].get("logical_form") is not None:
            predicted = self._best_strings(output_dict["predictions"])
            gold = [m["logical_form"] for m in metadata]
            self._exact_match(predicted, gold, metadata[0]["formalism"])
        return output_dict

    def extend_embedder_vocab(self, embedding_sources_mapping: Dict[str, str] = None) -> None:
        """
        After the vocabulary grew (fine-tuning on a support set, the `pt` setting): besides the
        source embeddings (AllenNLP's mechanism), grows the target embeddings and the output layer by
        one randomly initialised row per new LF token, keeping the trained rows.
        """
        super().extend_embedder_vocab(embedding_sources_mapping)
        self._target_embedder.extend_vocab(self.vocab, vocab_namespace=self._target_namespace)
        self._output_projection_layer = grow_linear(
            self._output_projection_layer, self.vocab.get_vocab_size(self._target_namespace)
        )

    def _best_strings(self, predictions: torch.Tensor) -> List[str]:
        strings = []
        for indices in predictions[:, 0, :].tolist():
            if self._end_index in indices:
                indices = indices[: indices.index(self._end_index)]
            strings.append(" ".join(self.vocab.get_token_from_index(i, self._target_namespace) for i in indices))
        return strings

    def get_metrics(self, reset: bool = False) -> Dict[str, float]:
        metrics = super().get_metrics(reset)
        if not self.training:
            metrics.update(self._exact_match.get_metric(reset))
        return metrics

    default_predictor = "seq2seq"
