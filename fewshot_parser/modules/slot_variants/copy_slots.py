"""
The paper's slot filling (Sec. 3.2): entity slots copy a word of the utterance, variable slots name a
variable; with unified slots (`<s>`) one decoder does either. The layers are the parser's `SlotFiller`
(`modules/slot_filler.py`); this component decides how its distributions make a loss and a prediction.
"""

from typing import Any, Dict, List, Optional, Tuple

import torch

from fewshot_parser.logical_forms.namespaces import ENTITY_TYPE_NAMESPACE, NOT_AN_ENTITY
from fewshot_parser.modules.loss_terms.reduction import per_example
from fewshot_parser.modules.slot_variants.slot_variant import Choices, SlotVariant


@SlotVariant.register("copy")
class CopySlots(SlotVariant):
    """
    Copy entities from the utterance, name variables: the default of `proto_parser` (`slot_variant`
    unset). It has no layers of its own, so the parser's parameters and state-dict keys are the same
    with it as without it.

    Registered as a `SlotVariant` with name "copy".

    # Parameters

    parser : `ProtoParser`, optional
        The parser being built (given by it; not kept).
    """

    def __init__(self, parser: Any = None) -> None:
        super().__init__()

    def entity_rows(
        self,
        parser: Any,
        keys: torch.Tensor,
        num_steps: int,
        actions: torch.Tensor,
        projections: torch.Tensor,
        encoded: torch.Tensor,
        source_mask: torch.Tensor,
        source_types: torch.Tensor,
    ) -> torch.Tensor:
        """Copy log-probabilities `(rows, slots, source_length)` for the steps `keys` (= b * steps + t)."""
        b, t = keys // num_steps, keys % num_steps
        types = parser.space()["entity_types"][actions[b, t]]
        width = int((types != 0).sum(-1).max().item()) if types.numel() else 1
        return parser.slot_filler.entity_log_probs(
            projections[b, t], encoded[b], source_mask[b], source_types[b], types[:, : max(width, 1)]
        )

    def slot_loss(
        self,
        parser: Any,
        projections: torch.Tensor,
        encoded: torch.Tensor,
        source_mask: torch.Tensor,
        source_types: torch.Tensor,
        actions: torch.Tensor,
        slot_step: torch.Tensor,
        slot_order: torch.Tensor,
        slot_is_variable: torch.Tensor,
        entity_targets: torch.Tensor,
        variable_values: torch.Tensor,
        entity_values: Optional[torch.Tensor],
    ) -> Tuple[torch.Tensor, List[bool]]:
        """
        Copy loss of entity slots and cross-entropy of variable slots, teacher-forced on gold actions,
        reduced as the parser's `loss_reduction` says; only decoder steps that have slots are run
        through the slot decoders. When not training, also whether each slot's best choice was right.
        """
        loss, correct = self._mean_slot_loss(
            parser,
            projections,
            encoded,
            source_mask,
            source_types,
            actions,
            slot_step,
            slot_order,
            slot_is_variable,
            entity_targets,
            variable_values,
        )
        if parser.loss_reduction == "example":
            loss = loss * per_example((slot_step >= 0).sum(-1))
        return loss, correct

    def _mean_slot_loss(
        self,
        parser,
        projections,
        encoded,
        source_mask,
        source_types,
        actions,
        slot_step,
        slot_order,
        slot_is_variable,
        entity_targets,
        variable_values,
    ) -> Tuple[torch.Tensor, List[bool]]:
        """`slot_loss` as a mean over slots."""
        gold = actions.clamp(min=0)
        num_steps = actions.size(1)
        smoothing = parser.label_smoothing
        batch_index, slot_index = (slot_step >= 0).nonzero(as_tuple=True)
        keys = batch_index * num_steps + slot_step[batch_index, slot_index]
        order = slot_order[batch_index, slot_index]
        is_variable = slot_is_variable[batch_index, slot_index].bool()
        if parser.action_space.unified:
            return self._unified_slot_loss(
                parser,
                keys,
                num_steps,
                order,
                is_variable,
                projections,
                encoded,
                source_mask,
                source_types,
                entity_targets[batch_index, slot_index],
                variable_values[batch_index, slot_index],
            )
        losses = []
        correct = torch.zeros(0, dtype=torch.bool, device=actions.device)
        entity = ~is_variable
        if entity.any():
            rows, inverse = torch.unique(keys[entity], return_inverse=True)
            log_probs = self.entity_rows(parser, rows, num_steps, gold, projections, encoded, source_mask, source_types)
            # shape: (entity_slots, source_length)
            scores = log_probs[inverse, order[entity]]
            targets = entity_targets[batch_index[entity], slot_index[entity]] > 0
            nll = -torch.logsumexp(scores.masked_fill(~targets, torch.finfo(scores.dtype).min), -1)
            losses.append(nll.masked_fill(~targets.any(-1), 0.0))
            correct = targets.gather(-1, scores.argmax(-1, keepdim=True)).squeeze(-1)
        if is_variable.any():
            rows, inverse = torch.unique(keys[is_variable], return_inverse=True)
            log_probs = parser.slot_filler.variable_log_probs(
                projections[rows // num_steps, rows % num_steps], int(order[is_variable].max().item()) + 1
            )
            # shape: (variable_slots, num_variables)
            scores = log_probs[inverse, order[is_variable]]
            gold_names = variable_values[batch_index[is_variable], slot_index[is_variable]].clamp(min=0)
            nll = -scores.gather(-1, gold_names.unsqueeze(-1)).squeeze(-1)
            if smoothing > 0:
                nll = (1 - smoothing) * nll - smoothing * scores.mean(-1)
            losses.append(nll)
            correct = torch.cat([correct, scores.argmax(-1) == gold_names])
        if not losses:
            return projections.sum() * 0.0, []
        loss = torch.cat(losses).sum() / keys.numel()
        return loss, correct.tolist() if not parser.training else []

    @staticmethod
    def copyable(parser: Any, source_mask: torch.Tensor, source_types: torch.Tensor) -> torch.Tensor:
        """Utterance positions an entity may be copied from: tokens that look like entities."""
        none = parser.vocab.get_token_index(NOT_AN_ENTITY, ENTITY_TYPE_NAMESPACE)
        return source_mask & (source_types != none)

    def _unified_slot_loss(
        self,
        parser,
        keys,
        num_steps,
        order,
        is_variable,
        projections,
        encoded,
        source_mask,
        source_types,
        entity_targets,
        variable_values,
    ) -> Tuple[torch.Tensor, List[bool]]:
        """Slot loss with unified slots: each slot's target is a variable name or a set of positions."""
        if keys.numel() == 0:
            return projections.sum() * 0.0, []
        smoothing = parser.label_smoothing
        rows, inverse = torch.unique(keys, return_inverse=True)
        b, t = rows // num_steps, rows % num_steps
        log_probs = parser.slot_filler.unified_log_probs(
            projections[b, t],
            encoded[b],
            self.copyable(parser, source_mask, source_types)[b],
            int(order.max().item()) + 1,
        )
        # shape: (slots, num_variables + source_length)
        scores = log_probs[inverse, order]
        num_variables = scores.size(-1) - entity_targets.size(-1)
        variable_target = torch.zeros_like(scores, dtype=torch.bool)
        variable_target[torch.arange(scores.size(0), device=scores.device), variable_values.clamp(min=0)] = True
        entity_target = torch.cat(
            [torch.zeros_like(scores[:, :num_variables], dtype=torch.bool), entity_targets > 0], -1
        )
        targets = torch.where(is_variable.unsqueeze(-1), variable_target, entity_target)
        nll = -torch.logsumexp(scores.masked_fill(~targets, torch.finfo(scores.dtype).min), -1)
        nll = nll.masked_fill(~targets.any(-1), 0.0)
        if smoothing > 0:
            allowed = scores > torch.finfo(scores.dtype).min / 2
            uniform = -(scores * allowed).sum(-1) / allowed.sum(-1).clamp(min=1)
            nll = (1 - smoothing) * nll + smoothing * uniform
        correct = [] if parser.training else targets.gather(-1, scores.argmax(-1, keepdim=True)).squeeze(-1).tolist()
        return nll.mean(), correct

    @torch.no_grad()
    def predict_slots(
        self,
        parser: Any,
        actions: torch.Tensor,
        real: torch.Tensor,
        projections: torch.Tensor,
        encoded: torch.Tensor,
        source_mask: torch.Tensor,
        source_types: torch.Tensor,
    ) -> Tuple[Choices, Choices]:
        """Best copy position of every entity slot and best name of every variable slot, by (b, t)."""
        space = parser.space()
        filler = parser.slot_filler
        num_steps = actions.size(1)
        entity_choice: Dict[Tuple[int, int], List[int]] = {}
        variable_choice: Dict[Tuple[int, int], List[int]] = {}
        if parser.action_space.unified:
            counts = parser.action_space.num_unified.to(actions.device)[actions] * real
            keys = (counts > 0).flatten().nonzero().squeeze(-1)
            if keys.numel():
                b, t = keys // num_steps, keys % num_steps
                log_probs = filler.unified_log_probs(
                    projections[b, t],
                    encoded[b],
                    self.copyable(parser, source_mask, source_types)[b],
                    int(counts.max().item()),
                )
                # Unified choices are stored in `variable_choice`: an index below the number of
                # variables names one, the rest are utterance positions offset by that number.
                for key, choices in zip(keys.tolist(), log_probs.argmax(-1).tolist()):
                    variable_choice[divmod(key, num_steps)] = choices
            return entity_choice, variable_choice
        keys = ((space["entity_types"][actions, 0] != 0) & real).flatten().nonzero().squeeze(-1)
        if keys.numel():
            best = self.entity_rows(
                parser, keys, num_steps, actions, projections, encoded, source_mask, source_types
            ).argmax(-1)
            for key, positions in zip(keys.tolist(), best.tolist()):
                entity_choice[divmod(key, num_steps)] = positions
        counts = space["num_variables"][actions] * real
        keys = (counts > 0).flatten().nonzero().squeeze(-1)
        if keys.numel():
            log_probs = filler.variable_log_probs(
                projections[keys // num_steps, keys % num_steps], int(counts.max().item())
            )
            log_probs[..., :2] = torch.finfo(log_probs.dtype).min  # never padding or unknown
            for key, names in zip(keys.tolist(), log_probs.argmax(-1).tolist()):
                variable_choice[divmod(key, num_steps)] = names
        return entity_choice, variable_choice
