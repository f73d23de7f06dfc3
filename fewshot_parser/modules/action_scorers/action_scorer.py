from typing import Callable, Optional

import torch
from allennlp.common import Registrable
from allennlp.data import TextFieldTensors

from fewshot_parser.modules.parser_parts import ParserParts

# A function of one decoding step's `(hypotheses, dim)` projections and `(hypotheses, source_length)`
# attention giving `(hypotheses, num_actions)` score terms.
StepScores = Callable[[torch.Tensor, torch.Tensor], torch.Tensor]


class ActionScorer(torch.nn.Module, Registrable):
    """
    A term that `proto_parser` adds to the score of every action at every step, when it trains on a
    gold sequence and when it decodes, so the parser learns with it. Unlike a `DecodingScorer` the
    term may depend on the step (its projection and attention), and the component may hold trained
    parameters and add features to the utterance's word embeddings before the encoder.

    Parameters that depend on the parser (its vocabulary, embedding sizes) are made in `attach`,
    which the parser calls at the end of its constructor; the component's own constructor only
    keeps its settings, so building it draws no random numbers.

    The parser adds the terms of its `action_scorers` in list order, then its lexical-linking term.
    """

    def attach(self, parser: ParserParts) -> None:
        """Makes the parameters that depend on `parser`; raises `ConfigurationError` if it cannot serve it."""

    def reset(self) -> None:
        """Forgets what was computed from the vocabulary (the parser's vocabulary grew)."""

    def word_features(self, parser: ParserParts, source_tokens: TextFieldTensors) -> Optional[torch.Tensor]:
        """`(batch, source_length, word_dim)` added to the embedded utterance words, or None."""
        return None

    def teacher_forced(
        self, parser: ParserParts, projections: torch.Tensor, attention: torch.Tensor, source_tokens: TextFieldTensors
    ) -> Optional[torch.Tensor]:
        """`(batch, steps, num_actions)` terms for the `(batch, steps, dim)` projections of gold steps, or None."""
        raise NotImplementedError

    def decoding(self, parser: ParserParts, source_tokens: TextFieldTensors, beams: int) -> Optional[StepScores]:
        """The per-step terms of a search with `beams` hypotheses per utterance (batch x beams, in that order)."""
        raise NotImplementedError
