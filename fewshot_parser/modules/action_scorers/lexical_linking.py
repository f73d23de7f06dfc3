"""Lexical linking: a score for actions whose predicates the utterance names (not in the paper)."""

from typing import Optional

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import TextFieldTensors

from fewshot_parser.modules.action_scorers.action_scorer import ActionScorer, StepScores
from fewshot_parser.modules.alignment import link_similarity_matrix
from fewshot_parser.modules.parser_parts import ParserParts

POOLINGS = ("attention", "max", "both")


@ActionScorer.register("lexical_linking")
class LexicalLinking(ActionScorer):
    """
    Adds `w * sum_i a_t,i L[a, x_i]` to the score of action `a` at step `t`: `L` links actions to words
    whose string matches one of their predicates' names (or lexicon words) at least `threshold`, `a_t`
    is the step's attention and `w` is learned. `L` needs no training, so it scores a new predicate's
    actions as well as known ones. In training and decoding alike; the parser's `lexical_linking`
    adds it after its `action_scorers`.

    Registered as an `ActionScorer` with name "lexical_linking".

    # Parameters

    pooling : `str`
        `"attention"` (weighted by the step's attention), `"max"` (the best-linked word, the same at
        every step) or `"both"` (the sum, each with its own weight).
    threshold : `float`
        Least string similarity (`predicate_names.link_similarity`) of a linked word.
    """

    def __init__(self, pooling: str = "attention", threshold: float = 0.75) -> None:
        super().__init__()
        if pooling not in POOLINGS:
            raise ConfigurationError(f"link_pooling must be 'attention', 'max' or 'both', not {pooling!r}")
        self.pooling = pooling
        self.threshold = threshold
        # The learned weights of the attention and max poolings (those the pooling uses).
        self.weight = torch.nn.Parameter(torch.tensor(1.0)) if pooling in ("attention", "both") else None
        self.max_weight = torch.nn.Parameter(torch.tensor(1.0)) if pooling in ("max", "both") else None
        self._table: Optional[torch.Tensor] = None

    def reset(self) -> None:
        """The vocabulary or the lexicon changed: the table is computed again when next needed."""
        self._table = None

    def table(self, parser: ParserParts) -> torch.Tensor:
        """`(num_actions, num_tokens)`: string similarity of action predicates and words, 0 below the threshold."""
        if self._table is None:
            vocab = parser.vocab
            tokens = [vocab.get_token_from_index(i, "tokens") for i in range(vocab.get_vocab_size("tokens"))]
            predicates = [a.predicates if a is not None else () for a in parser.action_space.actions]
            self._table = link_similarity_matrix(predicates, tokens, parser.lexicon(), self.threshold)
        return self._table

    def links(self, parser: ParserParts, source_tokens: TextFieldTensors) -> torch.Tensor:
        """`(batch, source_length, num_actions)` links of each utterance word to each action."""
        ids = parser.word_ids(source_tokens)
        return self.table(parser).to(ids.device)[:, ids].permute(1, 2, 0)

    def scores(self, attention: torch.Tensor, links: torch.Tensor) -> torch.Tensor:
        """
        Pools `links` `(batch, source_length, num_actions)` for steps with `attention` `(batch, steps,
        source_length)`.
        """
        scores = torch.zeros(attention.size(0), attention.size(1), links.size(-1), device=links.device)
        if self.pooling in ("attention", "both"):
            assert self.weight is not None  # made in __init__
            scores = scores + self.weight * torch.bmm(attention, links)
        if self.pooling in ("max", "both"):
            assert self.max_weight is not None  # made in __init__
            scores = scores + self.max_weight * links.max(1)[0].unsqueeze(1)
        return scores

    def word_features(self, parser: ParserParts, source_tokens: TextFieldTensors) -> Optional[torch.Tensor]:
        return None

    def teacher_forced(
        self,
        parser: ParserParts,
        projections: Optional[torch.Tensor],
        attention: torch.Tensor,
        source_tokens: TextFieldTensors,
    ) -> torch.Tensor:
        """`(batch, steps, num_actions)` score terms of teacher-forced steps (the `projections` are not read)."""
        return self.scores(attention, self.links(parser, source_tokens))

    def decoding(self, parser: ParserParts, source_tokens: TextFieldTensors, beams: int) -> StepScores:
        """
        The decoding term: of one step's projections and attention `(hypotheses, source_length)`, `(hypotheses,
        num_actions)`.
        """
        hypothesis_links = self.links(parser, source_tokens).repeat_interleave(beams, 0)
        return lambda projection, attention: self.scores(attention.unsqueeze(1), hypothesis_links).squeeze(1)
