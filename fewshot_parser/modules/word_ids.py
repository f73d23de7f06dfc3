"""The `tokens` ids of an utterance, whichever other indexers embed it."""

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import TextFieldTensors


def vocabulary_word_ids(source_tokens: TextFieldTensors, needed_for: str) -> torch.Tensor:
    """
    `(batch, length)` ids of the utterance words in the `tokens` vocabulary. Per-word statistics
    (alignment priors, domain relevance) are indexed by them, so the reader must keep a single-id
    indexer named `tokens` even when the words are embedded by another one (e.g. MiniLM's pieces).
    `needed_for` names the feature in the error raised when it is missing.
    """
    if "tokens" not in source_tokens or "tokens" not in source_tokens["tokens"]:
        raise ConfigurationError(
            f"{needed_for} needs a single-id token indexer named 'tokens' in the dataset reader's "
            f"token_indexers (found: {sorted(source_tokens)}); embed it with {{type: 'empty'}} if the "
            "words should be represented only by another indexer"
        )
    return source_tokens["tokens"]["tokens"]
