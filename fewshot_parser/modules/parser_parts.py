"""What `proto_parser`'s alignment components (loss terms, action scorers, the lexicon scope) read of the parser."""

from typing import Dict, List, Protocol

import torch
from allennlp.data import TextFieldTensors, Vocabulary
from allennlp.modules import TextFieldEmbedder

from fewshot_parser.modules.action_space import ActionSpace


class ParserParts(Protocol):
    """
    The parser's vocabulary and actions, its scoped lexicon, the `tokens` ids of an utterance, and
    for action scorers its word embeddings, action rows and encoder dropout. Components get it as an
    argument of each call and keep no reference to it.
    """

    vocab: Vocabulary
    action_space: ActionSpace
    action_embedding: torch.nn.Parameter
    encoder_dropout: torch.nn.Dropout

    @property
    def source_embedder(self) -> TextFieldEmbedder:
        """The utterance's word embeddings."""
        ...

    def space(self) -> Dict[str, torch.Tensor]:
        """Per-action tensors on the model's device (`ActionSpace.tensors`)."""
        ...

    def lexicon(self) -> Dict[str, List[str]]:
        """The scoped lexicon (`LexiconScope`)."""
        ...

    def word_ids(self, source_tokens: TextFieldTensors) -> torch.Tensor:
        """`(batch, length)` ids of the utterance words in the `tokens` vocabulary."""
        ...

    # `(num_actions,)`: the actions added by a vocabulary extension after pre-training.
    new_action_mask: torch.Tensor
