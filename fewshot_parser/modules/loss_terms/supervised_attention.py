"""The supervised-attention loss of the authors' scripts (their `--sup_attention`; not in the paper)."""

from typing import Optional

import torch
from allennlp.data import TextFieldTensors

from fewshot_parser.logical_forms.namespaces import ACTION_NAMESPACE
from fewshot_parser.modules.alignment import attention_candidate_matrix, supervised_attention_loss
from fewshot_parser.modules.loss_terms.loss_term import LossTerm
from fewshot_parser.modules.parser_parts import ParserParts
from fewshot_parser.modules.stack_decoder import DecoderOutput


@LossTerm.register("supervised_attention")
class SupervisedAttention(LossTerm):
    """
    At every gold step, minus the log attention weight on each utterance word that is a prefix of one
    of the action's symbols (or has one as prefix, or is a lexicon word of it), averaged over steps
    (`alignment.supervised_attention_loss`). With the authors' loss reduction, averaged over the
    examples with a candidate word instead.

    `candidates` (`(num_actions, num_tokens)`) is computed on first use, or set by the
    `fewshot_authors_attention_candidates` callback (the authors' own table).

    # Parameters

    weight, reduction
        As `LossTerm` (`supervised_attention`, `loss_reduction`); in meta batches too.
    """

    def __init__(self, weight: float = 0.0, reduction: str = "step") -> None:
        super().__init__(weight, True, reduction)
        self.candidates: Optional[torch.Tensor] = None

    def reset(self) -> None:
        """The vocabulary grew: the table is computed again when next needed."""
        self.candidates = None

    def candidate_table(self, parser: ParserParts) -> torch.Tensor:
        """`(num_actions, num_tokens)`: the words the loss points each action at."""
        if self.candidates is None:
            vocab = parser.vocab
            tokens = [vocab.get_token_from_index(i, "tokens") for i in range(vocab.get_vocab_size("tokens"))]
            strings = [
                vocab.get_token_from_index(i, ACTION_NAMESPACE) if a is not None else None
                for i, a in enumerate(parser.action_space.actions)
            ]
            self.candidates = attention_candidate_matrix(strings, tokens, parser.lexicon())
        return self.candidates

    def loss(
        self,
        parser: ParserParts,
        decoded: DecoderOutput,
        actions: torch.Tensor,
        source_tokens: TextFieldTensors,
        source_mask: torch.Tensor,
    ) -> torch.Tensor:
        """
        The loss of a teacher-forced batch: the `decoded` attention `(batch, steps, source_length)`, gold
        `actions` `(batch, steps)`.
        """
        token_ids = parser.word_ids(source_tokens)
        gold = actions.clamp(min=0)
        index = token_ids.unsqueeze(1).expand(gold.size(0), gold.size(1), -1)
        candidates = self.candidate_table(parser).to(actions.device)[gold].gather(-1, index)
        step_mask = (actions >= 0) & parser.space()["valid"][gold]
        loss = supervised_attention_loss(decoded.attention, candidates, source_mask, step_mask.float())
        if self.reduction == "example":
            # The mean is over every real step; the authors average over examples with a candidate word.
            with_candidates = (step_mask & ((candidates * source_mask.unsqueeze(1)).sum(-1) > 0)).sum(-1)
            loss = loss * (step_mask.sum().float() / (with_candidates > 0).sum().clamp(min=1).float())
        return loss
