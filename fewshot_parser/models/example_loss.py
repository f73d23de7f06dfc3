"""
ProtoParser with the authors' loss normalisation (docs/reproduction.md row 13, note 9).

`proto_parser` averages each loss term over what it is made of: the action loss over decoding
steps, the slot loss over slots, the attention regularizer over regularized steps and supervised
attention over steps. The authors' code sums each term over the steps (or slots) of an example and
averages those sums over the examples of the batch. With Adam the two differ mainly in scale (about
the number of steps per example, 4.5-7 here), which acts through gradient clipping, and in how much a
long example weighs against a short one.

Each term here is the parent's mean times its count divided by the number of examples: exactly the
mean over examples of per-example sums. The action and slot terms divide by the batch size; the
regularizer and supervised attention divide by the examples that have at least one such step, as the
authors' lists of per-example terms hold only those examples.
"""
from typing import Any, Dict, List, Tuple

import torch
from allennlp.data import TextFieldTensors
from allennlp.models import Model

from fewshot_parser.models.authors_parser import AuthorsProtoParser
from fewshot_parser.modules.stack_decoder import DecoderOutput


def per_example(counts: torch.Tensor, over_examples_with_steps: bool = False) -> torch.Tensor:
    """
    The factor that turns a mean over the units counted in `counts` (`(batch,)`: units per example)
    into a mean over examples of per-example sums: total units / examples.
    """
    examples = (counts > 0).sum() if over_examples_with_steps else torch.tensor(counts.numel(), device=counts.device)
    return counts.sum().float() / examples.clamp(min=1).float()


@Model.register("proto_parser_example_loss")
class ExampleLossProtoParser(AuthorsProtoParser):
    """
    A `proto_parser_authors` whose loss terms are per-example sums averaged over the batch, as in the
    authors' code, instead of per-step (or per-slot) means. It takes the same parameters.

    Registered as a `Model` with name "proto_parser_example_loss".
    """

    def action_loss(
        self, projections: torch.Tensor, actions: torch.Tensor, stack_size: torch.Tensor, *args: Any, **kwargs: Any
    ) -> torch.Tensor:
        mean = super().action_loss(projections, actions, stack_size, *args, **kwargs)
        steps = (actions >= 0) & self.space()["valid"][actions.clamp(min=0)]
        return mean * per_example(steps.sum(-1))

    def slot_loss(self, projections, encoded, source_mask, source_types, actions, slot_step, *args: Any) -> Tuple[torch.Tensor, List[bool]]:
        mean, correct = super().slot_loss(projections, encoded, source_mask, source_types, actions, slot_step, *args)
        return mean * per_example((slot_step >= 0).sum(-1)), correct

    def attention_omega(
        self, decoded: DecoderOutput, actions: torch.Tensor, source_tokens: TextFieldTensors, source_mask: torch.Tensor
    ) -> torch.Tensor:
        mean = super().attention_omega(decoded, actions, source_tokens, source_mask)
        return mean * per_example(self.regularized_steps(actions, source_tokens, source_mask).sum(-1), True)

    def attention_supervision(
        self, attention: torch.Tensor, actions: torch.Tensor, source_tokens: TextFieldTensors, source_mask: torch.Tensor
    ) -> torch.Tensor:
        mean = super().attention_supervision(attention, actions, source_tokens, source_mask)
        gold = actions.clamp(min=0)
        steps = (actions >= 0) & self.space()["valid"][gold]
        token_ids = self.word_ids(source_tokens)
        index = token_ids.unsqueeze(1).expand(gold.size(0), gold.size(1), -1)
        candidates = self.candidate_table().to(actions.device)[gold].gather(-1, index) * source_mask.unsqueeze(1)
        # The parent divides by every real step; the authors average over examples with a candidate word.
        with_candidates = (steps & (candidates.sum(-1) > 0)).sum(-1)
        factor = steps.sum().float() / (with_candidates > 0).sum().clamp(min=1).float()
        return mean * factor

    def regularized_steps(
        self, actions: torch.Tensor, source_tokens: TextFieldTensors, source_mask: torch.Tensor
    ) -> torch.Tensor:
        """`(batch, steps)`: the steps the attention regularizer averages over (a prior with mass)."""
        gold = actions.clamp(min=0)
        token_ids = self.word_ids(source_tokens)
        index = token_ids.unsqueeze(1).expand(gold.size(0), gold.size(1), -1)
        has_prior = torch.zeros_like(gold, dtype=torch.bool)
        tables: Dict[str, Any] = {
            "conditional": self._conditional_table if self._conditional_feature else None,
            "similarity": self.similarity_table() if self._similarity_feature else None,
        }
        for table in tables.values():
            if table is not None:
                prior = table.to(actions.device)[gold].gather(-1, index) * source_mask.unsqueeze(1)
                has_prior = has_prior | (prior.sum(-1) > 0)
        space = self.space()
        return (actions >= 0) & space["valid"][gold] & ~space["is_stop"][gold] & has_prior
