"""
The faithful model with the authors' slot states (docs/reproduction.md note 3, "What still differs" item 4):
entity slots run an LSTM from the decoder state that scored their action, variable slots one chain across
the example (`modules/authors_slot_states.py`). Both read out through the template decoder's attention key,
attentional map and dropout; entity states feed the entity classifier of `ClassifiedEntities`, variable
states a bias-free layer over the variable names.

The faithful default (`slot_states: 'authors'`; system `our-slot-states` turns it back to our slot LSTMs).
It needs the authors' decoder, classified entity slots reading out through the decoder, and no unified slots.
"""
from typing import Any, Dict, List, Optional, Tuple

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import TextFieldTensors, Vocabulary
from allennlp.models import Model

from fewshot_parser.logical_forms.namespaces import VARIABLE_NAMESPACE
from fewshot_parser.models.classified_entities import ClassifiedEntities
from fewshot_parser.models.example_loss import ExampleLossProtoParser
from fewshot_parser.modules.authors_slot_states import AuthorsSlotStates, RecordingCell
from fewshot_parser.modules.feeding_decoder import InputFeedingStackDecoder

# Indices of the padding and unknown entries of a padded AllenNLP namespace.
_RESERVED = 2


class AuthorsSlots:
    """
    Mixin for a `ClassifiedEntities` model on the authors' decoder whose slot states are the authors'.
    Builds its layers after every other parameter, so the others draw from the random generator as without it.
    """

    def __init__(self, vocab: Vocabulary, **kwargs: Any) -> None:
        super().__init__(vocab, **kwargs)
        decoder = self._decoder
        if not isinstance(decoder, InputFeedingStackDecoder):
            raise ConfigurationError("the authors' slot states need the authors' decoder (decoder 'authors')")
        if self.entity_readout != "decoder":
            raise ConfigurationError("the authors' slot states read out through the decoder: set entity_readout 'decoder'")
        if self.action_space.unified:
            raise ConfigurationError("the authors' slot states are for typed or untyped slots, not unified ones")
        if decoder.output.out_features != decoder.hidden_dim:
            raise ConfigurationError(
                f"the authors' slot states need equal decoder and action sizes (decoder {decoder.hidden_dim}, "
                f"action {decoder.output.out_features})"
            )
        self._slot_states = AuthorsSlotStates(
            decoder.input_dim, decoder.action_dim, decoder.hidden_dim, vocab.get_vocab_size(VARIABLE_NAMESPACE)
        )
        decoder.cell = RecordingCell(decoder.cell)
        self._freeze_unused_slot_layers()

    def _freeze_unused_slot_layers(self) -> None:
        """Our slot decoders stay in the model (so every parameter draws as without the switch) but are not trained."""
        filler = self._slot_filler
        for layer in (filler.entity_decoder, filler.variable_decoder, filler.type_embedding, filler.variable_position, filler.variable_output):
            layer.requires_grad_(False)

    # -- the decoder states of the last run ------------------------------------------------------------

    def encode(self, source_tokens: TextFieldTensors) -> Tuple[torch.Tensor, torch.Tensor]:
        """As the parent; every teacher-forced decoder run follows an encoding, so its record starts here."""
        self._decoder.cell.records = []
        return super().encode(source_tokens)

    def decode(self, *args: Any, **kwargs: Any) -> Dict[str, Any]:
        """As the parent; the search records its own steps."""
        self._decoder.cell.records = []
        return super().decode(*args, **kwargs)

    def _step_states(self, projections: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        """`(h_t, c_t)` of the decoder run that gave `projections` `(batch, steps, action_dim)`: two `(batch, steps, hidden)`."""
        records = self._decoder.cell.records
        if not records or len(records) != projections.size(1) or records[0][0].size(0) != projections.size(0):
            found = f"{len(records)} steps of {records[0][0].size(0)} rows" if records else "no steps"
            raise RuntimeError(
                f"the recorded decoder run ({found}) is not the one of these {projections.size(1)} steps "
                f"of {projections.size(0)} rows"
            )
        return torch.stack([h for h, _ in records], 1), torch.stack([c for _, c in records], 1)

    # -- entity slots ------------------------------------------------------------------------------------

    def _authors_entities(
        self, keys: torch.Tensor, num_steps: int, actions: torch.Tensor, projections: torch.Tensor,
        encoded: torch.Tensor, source_mask: torch.Tensor,
    ) -> Tuple[torch.Tensor, torch.Tensor]:
        """States `(rows, slots, hidden)` and log attention `(rows, slots, source_length)` of the entity slots of steps `keys`."""
        h, c = self._step_states(projections)
        b, t = keys // num_steps, keys % num_steps
        step_actions = actions[b, t]
        types = self.space()["entity_types"][step_actions]
        width = max(int((types != 0).sum(-1).max().item()) if types.numel() else 1, 1)
        decoder = self._decoder
        inputs = torch.cat([decoder.input_embedding[step_actions], projections[b, t]], dim=-1)
        states = self._slot_states.entity_states(inputs, h[b, t], c[b, t], width)
        attention_keys = decoder.attention_key(encoded)[b]
        return states, self._slot_states.log_attention(states, attention_keys, source_mask[b])

    def _entity_rows(
        self, keys: torch.Tensor, num_steps: int, actions: torch.Tensor, projections: torch.Tensor,
        encoded: torch.Tensor, source_mask: torch.Tensor, source_types: torch.Tensor,
    ) -> torch.Tensor:
        """The entity slots' attention (their copy distribution, for the entity attention loss), over every position."""
        return self._authors_entities(keys, num_steps, actions, projections, encoded, source_mask)[1]

    def _entity_values_log_probs(
        self, keys: torch.Tensor, num_steps: int, actions: torch.Tensor, projections: torch.Tensor,
        encoded: torch.Tensor, source_mask: torch.Tensor, source_types: torch.Tensor,
    ) -> torch.Tensor:
        states, log_attention = self._authors_entities(keys, num_steps, actions, projections, encoded, source_mask)
        return self._entity_classifier(states, log_attention.exp(), encoded[keys // num_steps])

    # -- variable slots ----------------------------------------------------------------------------------

    def _variable_log_probs(
        self, states: torch.Tensor, rows: torch.Tensor, encoded: torch.Tensor, source_mask: torch.Tensor,
        attention_keys: torch.Tensor,
    ) -> torch.Tensor:
        """`(slots, num_variables)` log-probabilities from variable states `(slots, hidden)` of examples `rows`."""
        decoder = self._decoder
        log_attention = self._slot_states.log_attention(states.unsqueeze(1), attention_keys[rows], source_mask[rows])
        context = torch.bmm(log_attention.exp(), encoded[rows]).squeeze(1)
        vector = decoder.dropout(torch.tanh(decoder.output(torch.cat([states, context], dim=-1))))
        return torch.log_softmax(self._slot_states.variable_readout(vector), dim=-1)

    def slot_loss(
        self, projections, encoded, source_mask, source_types, actions,
        slot_step, slot_order, slot_is_variable, entity_targets, variable_values,
    ) -> Tuple[torch.Tensor, List[bool]]:
        """
        The parent's entity terms, plus the cross-entropy of the variable names along each example's
        chain of variable slots, teacher-forced: a per-example sum averaged over the batch.
        """
        is_variable = (slot_step >= 0) & (slot_is_variable == 1)
        loss, correct = super().slot_loss(
            projections, encoded, source_mask, source_types, actions,
            slot_step.masked_fill(is_variable, -1), slot_order, slot_is_variable, entity_targets, variable_values,
        )
        batch_index, slot_index = is_variable.nonzero(as_tuple=True)
        if batch_index.numel() == 0:
            return loss, correct
        scores, gold = self._variable_chain_scores(
            projections, encoded, source_mask, batch_index, slot_step[batch_index, slot_index],
            slot_order[batch_index, slot_index], variable_values[batch_index, slot_index].clamp(min=0),
        )
        nll = -scores.gather(-1, gold.unsqueeze(-1)).squeeze(-1)
        if self._label_smoothing > 0:
            nll = (1 - self._label_smoothing) * nll - self._label_smoothing * scores.mean(-1)
        loss = loss + nll.sum() / actions.size(0)
        if not self.training:
            correct = list(correct) + (scores.argmax(-1) == gold).tolist()
        return loss, correct

    def _variable_chain_scores(
        self, projections: torch.Tensor, encoded: torch.Tensor, source_mask: torch.Tensor,
        batch_index: torch.Tensor, steps: torch.Tensor, order: torch.Tensor, gold: torch.Tensor,
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
        h0, c0 = self._decoder.initial_state(encoded, source_mask)
        states, _ = self._slot_states.variable_states(padded, h0, c0)
        scores = self._variable_log_probs(
            states[batch_index, position], batch_index, encoded, source_mask, self._decoder.attention_key(encoded)
        )
        return scores, gold

    @staticmethod
    def _chain_positions(batch_index: torch.Tensor, batch_size: int) -> torch.Tensor:
        """The position of each slot in its example's chain, for slots sorted by example."""
        counts = torch.bincount(batch_index, minlength=batch_size)
        starts = torch.cumsum(counts, 0) - counts
        return torch.arange(batch_index.numel(), device=batch_index.device) - starts[batch_index]

    @torch.no_grad()
    def _predict_slots(
        self, actions: torch.Tensor, real: torch.Tensor, projections: torch.Tensor,
        encoded: torch.Tensor, source_mask: torch.Tensor, source_types: torch.Tensor,
    ) -> Tuple[Dict[Tuple[int, int], List[int]], Dict[Tuple[int, int], List[int]]]:
        """The entity values as the parent; variable names decoded greedily along each row's chain, slot by slot."""
        entity_choice = self._predict_entity_values(actions, real, projections, encoded, source_mask, source_types)
        num_rows, num_steps = actions.shape
        counts = (self.space()["num_variables"][actions] * real).flatten()
        step_keys = counts.nonzero().squeeze(-1)
        if step_keys.numel() == 0:
            return entity_choice, {}
        per_step = counts[step_keys]
        slot_keys = step_keys.repeat_interleave(per_step)
        order = torch.arange(slot_keys.numel(), device=actions.device) - (torch.cumsum(per_step, 0) - per_step).repeat_interleave(per_step)
        rows, steps = slot_keys // num_steps, slot_keys % num_steps
        position = self._chain_positions(rows, num_rows)
        table = torch.full((num_rows, int(position.max().item()) + 1), -1, dtype=torch.long, device=actions.device)
        table[rows, position] = torch.arange(slot_keys.numel(), device=actions.device)
        every_row = torch.arange(num_rows, device=actions.device)
        h0, c0 = self._decoder.initial_state(encoded, source_mask)
        attention_keys = self._decoder.attention_key(encoded)
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
            log_probs = self._variable_log_probs(states.squeeze(1), every_row, encoded, source_mask, attention_keys)
            log_probs[:, :_RESERVED] = torch.finfo(log_probs.dtype).min  # never padding or unknown
            best = log_probs.argmax(-1)
            chosen[column[active]] = best[active]
            previous = torch.where(active, best, previous)
        variable_choice: Dict[Tuple[int, int], List[int]] = {}
        for key, name in zip(slot_keys.tolist(), chosen.tolist()):
            variable_choice.setdefault(divmod(key, num_steps), []).append(name)
        return entity_choice, variable_choice

    def extend_embedder_vocab(self, embedding_sources_mapping: Dict[str, str] = None) -> None:
        super().extend_embedder_vocab(embedding_sources_mapping)
        self._slot_states.extend(self.vocab.get_vocab_size(VARIABLE_NAMESPACE))
        self._freeze_unused_slot_layers()


@Model.register("proto_parser_authors_slots")
class AuthorsSlotsProtoParser(AuthorsSlots, ClassifiedEntities, ExampleLossProtoParser):
    """
    The faithful model (`proto_parser_classified_entities`) with the authors' slot states. It takes the
    same parameters.

    Registered as a `Model` with name "proto_parser_authors_slots".
    """
