"""
Classified entity slots with the authors' slot states (docs/reproduction.md note 3, "What still differs"
item 4): entity slots run an LSTM from the decoder state that scored their action, variable slots one chain
across the example (`modules/authors_slot_states.py`). Both read out through the template decoder's attention
key, attentional map and dropout; entity states feed the entity classifier of `ClassifiedEntities`, variable
states a bias-free layer over the variable names.

The faithful default (grid system `our-slot-states` gives the faithful row `classified_entities` with the
decoder's readout instead). It needs the authors' decoder (`decoder: {type: "authors"}`) and no unified slots.
"""

from typing import Any, List, Optional, Tuple

import torch
from allennlp.common.checks import ConfigurationError

from fewshot_parser.logical_forms.namespaces import VARIABLE_NAMESPACE
from fewshot_parser.modules.authors_slot_states import AuthorsSlotStates, RecordingCell
from fewshot_parser.modules.feeding_decoder import InputFeedingStackDecoder
from fewshot_parser.modules.slot_filler import SlotLayers
from fewshot_parser.modules.slot_variants.classified_entities import ClassifiedEntities
from fewshot_parser.modules.slot_variants.slot_variant import Choices, SlotVariant

# Indices of the padding and unknown entries of a padded AllenNLP namespace.
_RESERVED = 2


@SlotVariant.register("authors")
class AuthorsSlots(ClassifiedEntities):
    """
    `classified_entities` reading out through the decoder, with the authors' slot states (built after the
    classifier).

    Registered as a `SlotVariant` with name "authors".

    # Parameters

    parser : `ProtoParser`
        The parser being built (given by it).
    """

    def __init__(self, parser: Any) -> None:
        decoder = parser.decoder
        if not isinstance(decoder, InputFeedingStackDecoder):
            raise ConfigurationError("slot_variant 'authors' needs the authors' decoder (decoder: {type: 'authors'})")
        super().__init__(parser, readout="decoder")
        if decoder.output.out_features != decoder.hidden_dim:
            raise ConfigurationError(
                f"slot_variant 'authors' needs equal decoder and action sizes (decoder {decoder.hidden_dim}, "
                f"action {decoder.output.out_features})"
            )
        self._slot_states = AuthorsSlotStates(
            decoder.input_dim, decoder.action_dim, decoder.hidden_dim, parser.vocab.get_vocab_size(VARIABLE_NAMESPACE)
        )
        decoder.cell = RecordingCell(decoder.cell)

    def slot_layers(self, parser: Any) -> SlotLayers:
        """None: the slots have states of their own (`AuthorsSlotStates`) and read out through the decoder."""
        return SlotLayers(entities=False, variables=False)

    def extend(self, parser: Any) -> None:
        super().extend(parser)
        self._slot_states.extend(parser.vocab.get_vocab_size(VARIABLE_NAMESPACE))

    # -- the decoder states of the last run ------------------------------------------------------------

    def start_run(self, parser: Any) -> None:
        """Every decoder run follows an encoding or starts a decoding: its record starts here."""
        parser.decoder.cell.records = []

    @staticmethod
    def _step_states(parser: Any, projections: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        """
        `(h_t, c_t)` of the decoder run that gave `projections` `(batch, steps, action_dim)`: two `(batch, steps,
        hidden)`.
        """
        records = parser.decoder.cell.records
        if not records or len(records) != projections.size(1) or records[0][0].size(0) != projections.size(0):
            found = f"{len(records)} steps of {records[0][0].size(0)} rows" if records else "no steps"
            raise RuntimeError(
                f"the recorded decoder run ({found}) is not the one of these {projections.size(1)} steps "
                f"of {projections.size(0)} rows"
            )
        return torch.stack([h for h, _ in records], 1), torch.stack([c for _, c in records], 1)

    # -- entity slots ------------------------------------------------------------------------------------

    def _authors_entities(
        self,
        parser: Any,
        keys: torch.Tensor,
        num_steps: int,
        actions: torch.Tensor,
        projections: torch.Tensor,
        encoded: torch.Tensor,
        source_mask: torch.Tensor,
    ) -> Tuple[torch.Tensor, torch.Tensor]:
        """
        States `(rows, slots, hidden)` and log attention `(rows, slots, source_length)` of the entity slots of steps
        `keys`.
        """
        h, c = self._step_states(parser, projections)
        b, t = keys // num_steps, keys % num_steps
        step_actions = actions[b, t]
        types = parser.space()["entity_types"][step_actions]
        width = max(int((types != 0).sum(-1).max().item()) if types.numel() else 1, 1)
        decoder = parser.decoder
        inputs = torch.cat([decoder.input_embedding[step_actions], projections[b, t]], dim=-1)
        states = self._slot_states.entity_states(inputs, h[b, t], c[b, t], width)
        attention_keys = decoder.attention_key(encoded)[b]
        return states, self._slot_states.log_attention(states, attention_keys, source_mask[b])

    def entity_rows(
        self, parser, keys, num_steps, actions, projections, encoded, source_mask, source_types
    ) -> torch.Tensor:
        """The entity slots' attention (their copy distribution, for the entity attention loss), over every position."""
        return self._authors_entities(parser, keys, num_steps, actions, projections, encoded, source_mask)[1]

    def entity_values_log_probs(
        self, parser, keys, num_steps, actions, projections, encoded, source_mask, source_types
    ) -> torch.Tensor:
        states, log_attention = self._authors_entities(
            parser, keys, num_steps, actions, projections, encoded, source_mask
        )
        return self._entity_classifier(states, log_attention.exp(), encoded[keys // num_steps])

    # -- variable slots ----------------------------------------------------------------------------------

    def _variable_log_probs(
        self,
        parser: Any,
        states: torch.Tensor,
        rows: torch.Tensor,
        encoded: torch.Tensor,
        source_mask: torch.Tensor,
        attention_keys: torch.Tensor,
    ) -> torch.Tensor:
        """`(slots, num_variables)` log-probabilities from variable states `(slots, hidden)` of examples `rows`."""
        decoder = parser.decoder
        log_attention = self._slot_states.log_attention(states.unsqueeze(1), attention_keys[rows], source_mask[rows])
        context = torch.bmm(log_attention.exp(), encoded[rows]).squeeze(1)
        vector = decoder.dropout(torch.tanh(decoder.output(torch.cat([states, context], dim=-1))))
        return torch.log_softmax(self._slot_states.variable_readout(vector), dim=-1)

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
        The entity terms of `classified_entities`, plus the cross-entropy of the variable names along each
        example's chain of variable slots, teacher-forced: a per-example sum averaged over the batch.
        """
        is_variable = (slot_step >= 0) & (slot_is_variable == 1)
        loss, correct = super().slot_loss(
            parser,
            projections,
            encoded,
            source_mask,
            source_types,
            actions,
            slot_step.masked_fill(is_variable, -1),
            slot_order,
            slot_is_variable,
            entity_targets,
            variable_values,
            entity_values,
        )
        batch_index, slot_index = is_variable.nonzero(as_tuple=True)
        if batch_index.numel() == 0:
            return loss, correct
        scores, gold = self._variable_chain_scores(
            parser,
            projections,
            encoded,
            source_mask,
            batch_index,
            slot_step[batch_index, slot_index],
            slot_order[batch_index, slot_index],
            variable_values[batch_index, slot_index].clamp(min=0),
        )
        nll = -scores.gather(-1, gold.unsqueeze(-1)).squeeze(-1)
        smoothing = parser.label_smoothing
        if smoothing > 0:
            nll = (1 - smoothing) * nll - smoothing * scores.mean(-1)
        loss = loss + nll.sum() / actions.size(0)
        if not parser.training:
            correct = list(correct) + (scores.argmax(-1) == gold).tolist()
        return loss, correct

    def _variable_chain_scores(
        self,
        parser: Any,
        projections: torch.Tensor,
        encoded: torch.Tensor,
        source_mask: torch.Tensor,
        batch_index: torch.Tensor,
        steps: torch.Tensor,
        order: torch.Tensor,
        gold: torch.Tensor,
    ) -> Tuple[torch.Tensor, torch.Tensor]:
        """
        Teacher-forced log-probabilities `(slots, num_variables)` of the variable slots given by their
        example, step, order within the step and gold name (`(slots,)` each), and the gold names, both
        in chain order: by example, then step, then order.
        """
        num_steps = projections.size(1)
        ranked = ((batch_index * (num_steps + 1) + steps) * (int(order.max().item()) + 1) + order).argsort()
        batch_index, steps, order, gold = batch_index[ranked], steps[ranked], order[ranked], gold[ranked]
        position = self._chain_positions(batch_index, projections.size(0))
        # The first slot of an action reads the step's attentional vector, the others the previous slot's name.
        previous = self._slot_states.variable_embedding(torch.cat([gold[:1], gold[:-1]]))
        inputs = torch.where((order == 0).unsqueeze(-1), projections[batch_index, steps], previous)
        padded = inputs.new_zeros(projections.size(0), int(position.max().item()) + 1, inputs.size(-1))
        padded[batch_index, position] = inputs
        decoder = parser.decoder
        h0, c0 = decoder.initial_state(encoded, source_mask)
        states, _ = self._slot_states.variable_states(padded, h0, c0)
        scores = self._variable_log_probs(
            parser, states[batch_index, position], batch_index, encoded, source_mask, decoder.attention_key(encoded)
        )
        return scores, gold

    @staticmethod
    def _chain_positions(batch_index: torch.Tensor, batch_size: int) -> torch.Tensor:
        """The position of each slot in its example's chain, for slots sorted by example."""
        counts = torch.bincount(batch_index, minlength=batch_size)
        starts = torch.cumsum(counts, 0) - counts
        return torch.arange(batch_index.numel(), device=batch_index.device) - starts[batch_index]

    @torch.no_grad()
    def predict_slots(
        self, parser, actions, real, projections, encoded, source_mask, source_types
    ) -> Tuple[Choices, Choices]:
        """
        The entity values as `classified_entities`; variable names decoded greedily along each row's chain, slot by
        slot.
        """
        entity_choice = self.predict_entity_values(
            parser, actions, real, projections, encoded, source_mask, source_types
        )
        num_rows, num_steps = actions.shape
        counts = (parser.space()["num_variables"][actions] * real).flatten()
        step_keys = counts.nonzero().squeeze(-1)
        if step_keys.numel() == 0:
            return entity_choice, {}
        per_step = counts[step_keys]
        slot_keys = step_keys.repeat_interleave(per_step)
        order = torch.arange(slot_keys.numel(), device=actions.device) - (
            torch.cumsum(per_step, 0) - per_step
        ).repeat_interleave(per_step)
        rows, steps = slot_keys // num_steps, slot_keys % num_steps
        position = self._chain_positions(rows, num_rows)
        table = torch.full((num_rows, int(position.max().item()) + 1), -1, dtype=torch.long, device=actions.device)
        table[rows, position] = torch.arange(slot_keys.numel(), device=actions.device)
        every_row = torch.arange(num_rows, device=actions.device)
        decoder = parser.decoder
        h0, c0 = decoder.initial_state(encoded, source_mask)
        attention_keys = decoder.attention_key(encoded)
        chosen = torch.zeros_like(slot_keys)
        previous = torch.zeros(num_rows, dtype=torch.long, device=actions.device)
        state: Optional[Tuple[torch.Tensor, torch.Tensor]] = None
        for column in table.t():
            active = column >= 0
            slot = column.clamp(min=0)
            inputs = torch.where(
                (order[slot] == 0).unsqueeze(-1),
                projections[every_row, steps[slot]],
                self._slot_states.variable_embedding(previous),
            ) * active.unsqueeze(-1)
            states, state = self._slot_states.variable_states(inputs.unsqueeze(1), h0, c0, state)
            log_probs = self._variable_log_probs(
                parser, states.squeeze(1), every_row, encoded, source_mask, attention_keys
            )
            log_probs[:, :_RESERVED] = torch.finfo(log_probs.dtype).min  # never padding or unknown
            best = log_probs.argmax(-1)
            chosen[column[active]] = best[active]
            previous = torch.where(active, best, previous)
        variable_choice: Choices = {}
        for key, name in zip(slot_keys.tolist(), chosen.tolist()):
            variable_choice.setdefault(divmod(key, num_steps), []).append(name)
        return entity_choice, variable_choice
