"""The attention regularizer Omega of the paper (Eq. 5-6)."""

from typing import List, Optional, Tuple

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import TextFieldTensors

from fewshot_parser.logical_forms.namespaces import ACTION_NAMESPACE
from fewshot_parser.modules.alignment import conditional_matrix, regularization, string_similarity_matrix
from fewshot_parser.modules.loss_terms.loss_term import LossTerm
from fewshot_parser.modules.loss_terms.reduction import per_example
from fewshot_parser.modules.parser_parts import ParserParts
from fewshot_parser.modules.predicate_parts import part_similarity_matrix
from fewshot_parser.modules.stack_decoder import DecoderOutput


@LossTerm.register("attention_regularizer")
class AttentionRegularizer(LossTerm):
    """
    Omega: at every gold step, how far the attention is from a prior over the utterance's words, a
    gated mix of the co-occurrence feature P(a | x) and the string-similarity feature of the action's
    predicates (`alignment.regularization`). The tables are recomputed for each training run, not saved.

    # Parameters

    decoder_dim : `int`
        Size of the decoder states, from which a learned gate mixes the two features (built only when the term
        is `active` and both features are on: the only case it is used).
    weight, in_meta_batches, reduction
        As `LossTerm`: Omega's weight (`attention_regularization`), in meta batches too
        (`meta_regularization`, the authors'), and the loss reduction.
    conditional_feature, similarity_feature : `bool`
        Use P(a | x) and the string similarity (the `-cond` and `-strsim` ablations switch one off).
    similarity : `str`
        `"name"`: similarity to the predicate name and its lexicon words; `"parts"`: to the authors' part
        words of the name (`modules/predicate_parts.py`).
    """

    SIMILARITIES = ("name", "parts")
    OPTIONAL_LAYERS = ("gate",)

    def __init__(
        self,
        decoder_dim: int,
        weight: float = 0.0,
        in_meta_batches: bool = False,
        reduction: str = "step",
        conditional_feature: bool = True,
        similarity_feature: bool = True,
        similarity: str = "name",
    ) -> None:
        super().__init__(weight, in_meta_batches, reduction)
        if similarity not in self.SIMILARITIES:
            raise ConfigurationError(f"similarity must be one of {list(self.SIMILARITIES)}, not {similarity!r}")
        self.gate: Optional[torch.nn.Linear] = None
        if self.active and conditional_feature and similarity_feature:
            self.gate = torch.nn.Linear(decoder_dim, 1)
        self.conditional_feature = conditional_feature
        self.similarity_feature = similarity_feature
        self.similarity = similarity
        # shape: (num_actions, num_tokens); set by the training callbacks
        self.conditional_table: Optional[torch.Tensor] = None
        self._similarity_table: Optional[torch.Tensor] = None

    def reset(self, conditional: bool = True) -> None:
        """Drops the tables (the vocabulary or the lexicon changed); P(a | x) too when `conditional`."""
        self._similarity_table = None
        if conditional:
            self.conditional_table = None

    def set_statistics(self, parser: ParserParts, examples: List[Tuple[List[str], List[str]]]) -> None:
        """Sets P(a | x) from `(utterance tokens, gold action strings)` of the training examples."""
        vocab = parser.vocab
        pairs = [
            (
                [vocab.get_token_index(a, ACTION_NAMESPACE) for a in actions],
                [vocab.get_token_index(t, "tokens") for t in tokens],
            )
            for tokens, actions in examples
        ]
        self.conditional_table = conditional_matrix(
            pairs, vocab.get_vocab_size(ACTION_NAMESPACE), vocab.get_vocab_size("tokens")
        )

    def similarity_table(self, parser: ParserParts) -> torch.Tensor:
        """`(num_actions, num_tokens)`: the string-similarity feature (see `similarity`)."""
        if self._similarity_table is None:
            vocab = parser.vocab
            tokens = [vocab.get_token_from_index(i, "tokens") for i in range(vocab.get_vocab_size("tokens"))]
            predicates = [a.predicates if a is not None else () for a in parser.action_space.actions]
            if self.similarity == "parts":
                self._similarity_table = part_similarity_matrix(predicates, tokens)
            else:
                self._similarity_table = string_similarity_matrix(predicates, tokens, parser.lexicon())
        return self._similarity_table

    def loss(
        self,
        parser: ParserParts,
        decoded: DecoderOutput,
        actions: torch.Tensor,
        source_tokens: TextFieldTensors,
        source_mask: torch.Tensor,
    ) -> torch.Tensor:
        """
        Omega for the gold `actions` `(batch, steps)` of a teacher-forced batch.
        """
        device = actions.device
        token_ids = parser.word_ids(source_tokens)
        gold = actions.clamp(min=0)
        batch_size, num_steps = gold.shape
        index = token_ids.unsqueeze(1).expand(batch_size, num_steps, -1)

        def prior(table: Optional[torch.Tensor], enabled: bool) -> torch.Tensor:
            if table is None or not enabled:
                return torch.zeros(batch_size, num_steps, token_ids.size(1), device=device)
            return table.to(device)[gold].gather(-1, index)

        conditional = prior(self.conditional_table, self.conditional_feature)
        similarity = prior(self.similarity_table(parser) if self.similarity_feature else None, self.similarity_feature)
        if self.conditional_feature and self.similarity_feature:
            if self.gate is None:
                raise ConfigurationError("the attention regularizer was built inactive (weight 0): it has no gate")
            gate = torch.sigmoid(self.gate(decoded.states)).squeeze(-1)
        else:
            gate = torch.full((batch_size, num_steps), 1.0 if self.conditional_feature else 0.0, device=device)
        space = parser.space()
        step_mask = (actions >= 0) & space["valid"][gold] & ~space["is_stop"][gold]
        omega = regularization(decoded.attention, conditional, similarity, gate, source_mask, step_mask)
        if self.reduction == "example":
            omega = omega * per_example(
                self.regularized_steps(parser, actions, source_tokens, source_mask).sum(-1), True
            )
        return omega

    def regularized_steps(
        self, parser: ParserParts, actions: torch.Tensor, source_tokens: TextFieldTensors, source_mask: torch.Tensor
    ) -> torch.Tensor:
        """`(batch, steps)`: the steps Omega averages over (a prior with mass)."""
        gold = actions.clamp(min=0)
        token_ids = parser.word_ids(source_tokens)
        index = token_ids.unsqueeze(1).expand(gold.size(0), gold.size(1), -1)
        has_prior = torch.zeros_like(gold, dtype=torch.bool)
        tables = [
            self.conditional_table if self.conditional_feature else None,
            self.similarity_table(parser) if self.similarity_feature else None,
        ]
        for table in tables:
            if table is not None:
                prior = table.to(actions.device)[gold].gather(-1, index) * source_mask.unsqueeze(1)
                has_prior = has_prior | (prior.sum(-1) > 0)
        space = parser.space()
        return (actions >= 0) & space["valid"][gold] & ~space["is_stop"][gold] & has_prior
