"""
The Coarse2Fine baseline (Dong & Lapata, 2018, "Coarse-to-Fine Decoding for Neural Semantic
Parsing"), as the paper compares with it: decode a sketch of the LF first (entities and variables
abstracted to typed slots), encode the sketch, then decode the fine LF conditioned on the sketch and
the utterance, copying entities from the utterance and naming variables.
"""

from typing import Any, Dict, List, Optional, Tuple, cast

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.common.util import END_SYMBOL, START_SYMBOL
from allennlp.data import TextFieldTensors, Vocabulary
from allennlp.models import Model
from allennlp.modules import Seq2SeqEncoder, TextFieldEmbedder
from allennlp.nn import util

from fewshot_parser.data.dataset_readers.coarse2fine import (
    NO_VARIABLE,
    PREDICATE_NAMESPACE,
    PREDICATE_SLOT,
    SKETCH_NAMESPACE,
    VARIABLE_NAMESPACE,
)
from fewshot_parser.logical_forms.template import is_slot
from fewshot_parser.models.metrics import LogicalFormExactMatch
from fewshot_parser.modules.growth import grow_linear


def _attend(query: torch.Tensor, keys: torch.Tensor, values: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Dot-product attention: `query` `(batch, [steps,] dim)` over `keys`/`values` `(batch, length, dim)`."""
    single = query.dim() == 2
    if single:
        query = query.unsqueeze(1)
    scores = torch.bmm(query, keys.transpose(1, 2)).masked_fill(~mask.unsqueeze(1), torch.finfo(query.dtype).min)
    context = torch.bmm(torch.softmax(scores, dim=-1), values)
    return context.squeeze(1) if single else context


@Model.register("coarse2fine")
class Coarse2Fine(Model):
    """
    Utterance encoder (embedder + `encoder`), a sketch decoder (LSTM cell with dot-product attention
    over the utterance), a sketch encoder (bidirectional LSTM over the sketch tokens) and a fine
    decoder (LSTM over the sketch encoding, attending to the utterance) whose state at each slot of
    the sketch either points at an utterance position (entity slots, copy) or names a variable.
    Teacher forcing runs over time steps, batched over examples; decoding is greedy.

    Registered as a `Model` with name "coarse2fine".

    # Parameters

    vocab : `Vocabulary`
        With namespaces `sketch_tokens` and `c2f_variables` from the `fewshot_coarse2fine` reader.
    source_embedder : `TextFieldEmbedder`
    encoder : `Seq2SeqEncoder`
        Utterance encoder; its output size is the size of every decoder.
    sketch_embedding_dim : `int`, optional (default = `128`)
    dropout : `float`, optional (default = `0.3`)
    max_sketch_steps : `int`, optional (default = `100`)
    predicate_slots : `bool`, optional (default = `False`)
        The sketches have predicate slots `<p>` (the reader's `abstract_predicates`), which the fine
        decoder names from the `c2f_predicates` vocabulary.
    """

    def __init__(
        self,
        vocab: Vocabulary,
        source_embedder: TextFieldEmbedder,
        encoder: Seq2SeqEncoder,
        sketch_embedding_dim: int = 128,
        dropout: float = 0.3,
        max_sketch_steps: int = 100,
        predicate_slots: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(vocab, **kwargs)
        self._source_embedder = source_embedder
        self._encoder = encoder
        hidden = encoder.get_output_dim()
        self._dropout = torch.nn.Dropout(dropout)
        num_sketch = vocab.get_vocab_size(SKETCH_NAMESPACE)
        self._sketch_embedding = torch.nn.Embedding(num_sketch, sketch_embedding_dim)
        self._sketch_cell = torch.nn.LSTMCell(sketch_embedding_dim + hidden, hidden)
        self._sketch_attention_out = torch.nn.Linear(2 * hidden, hidden)
        self._sketch_output = torch.nn.Linear(hidden, num_sketch)
        self._sketch_encoder = torch.nn.LSTM(sketch_embedding_dim, hidden // 2, batch_first=True, bidirectional=True)
        self._fine_decoder = torch.nn.LSTM(hidden, hidden, batch_first=True)
        self._fine_attention_out = torch.nn.Linear(2 * hidden, hidden)
        self._copy = torch.nn.Linear(hidden, hidden, bias=False)
        self._variable_output = torch.nn.Linear(hidden, vocab.get_vocab_size(VARIABLE_NAMESPACE))
        self._predicate_output = (
            torch.nn.Linear(hidden, vocab.get_vocab_size(PREDICATE_NAMESPACE)) if predicate_slots else None
        )
        self._max_sketch_steps = max_sketch_steps
        self._start = vocab.get_token_index(START_SYMBOL, SKETCH_NAMESPACE)
        self._end = vocab.get_token_index(END_SYMBOL, SKETCH_NAMESPACE)
        self._exact_match = LogicalFormExactMatch()

    # -- vocabulary growth (the pt setting) ------------------------------------------------------------

    def extend_embedder_vocab(self, embedding_sources_mapping: Dict[str, str] = None) -> None:
        """Also grows the sketch embeddings and output layer, and the variable layer, by random rows."""
        super().extend_embedder_vocab(embedding_sources_mapping)
        num_sketch = self.vocab.get_vocab_size(SKETCH_NAMESPACE)
        if num_sketch > self._sketch_embedding.num_embeddings:
            old = self._sketch_embedding
            grown = torch.nn.Embedding(num_sketch, old.embedding_dim).to(old.weight.device)
            with torch.no_grad():
                grown.weight[: old.num_embeddings] = old.weight
            self._sketch_embedding = grown
        self._sketch_output = grow_linear(self._sketch_output, num_sketch)
        self._variable_output = grow_linear(self._variable_output, self.vocab.get_vocab_size(VARIABLE_NAMESPACE))
        if self._predicate_output is not None:
            self._predicate_output = grow_linear(self._predicate_output, self.vocab.get_vocab_size(PREDICATE_NAMESPACE))

    # -- pieces ------------------------------------------------------------------------------------

    def _encode(self, source_tokens: TextFieldTensors) -> Tuple[torch.Tensor, torch.Tensor]:
        mask = util.get_text_field_mask(source_tokens)
        encoded = self._dropout(self._encoder(self._dropout(self._source_embedder(source_tokens)), mask))
        return encoded, mask

    def _initial_state(self, encoded: torch.Tensor, mask: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        h = util.masked_mean(encoded, cast(torch.BoolTensor, mask.unsqueeze(-1)), dim=1)
        return h, torch.zeros_like(h)

    def _sketch_step(
        self,
        previous: torch.Tensor,
        state: Tuple[torch.Tensor, torch.Tensor],
        feed: torch.Tensor,
        encoded: torch.Tensor,
        mask: torch.Tensor,
    ) -> Tuple[torch.Tensor, Tuple[torch.Tensor, torch.Tensor], torch.Tensor]:
        """One sketch decoder step (input feeding): returns logits, the new state and the attentional vector."""
        h, c = self._sketch_cell(torch.cat([self._sketch_embedding(previous), feed], -1), state)
        attentional = self._sketch_attentional(h, encoded, mask)
        return self._sketch_output(attentional), (h, c), attentional

    def _sketch_attentional(self, h: torch.Tensor, encoded: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """The sketch decoder's attentional vector from its state `h` and the utterance."""
        context = _attend(h, encoded, encoded, mask)
        return self._dropout(torch.tanh(self._sketch_attention_out(torch.cat([h, context], -1))))

    def _fine_states(
        self, sketch: torch.Tensor, sketch_mask: torch.Tensor, encoded: torch.Tensor, mask: torch.Tensor
    ) -> torch.Tensor:
        """`(batch, sketch_length, hidden)`: the fine decoder's vector at every sketch position."""
        embedded = self._dropout(self._sketch_embedding(sketch))
        lengths = sketch_mask.sum(-1).clamp(min=1).cpu()
        packed = torch.nn.utils.rnn.pack_padded_sequence(embedded, lengths, batch_first=True, enforce_sorted=False)
        sketch_encoded, _ = self._sketch_encoder(packed)
        sketch_encoded, _ = torch.nn.utils.rnn.pad_packed_sequence(
            sketch_encoded, batch_first=True, total_length=sketch.size(1)
        )
        h0, c0 = self._initial_state(encoded, mask)
        states, _ = self._fine_decoder(self._dropout(sketch_encoded), (h0.unsqueeze(0), c0.unsqueeze(0)))
        return self._fine_attentional(states, encoded, mask)

    def _fine_attentional(self, states: torch.Tensor, encoded: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """The fine decoder's attentional vectors from its states `(batch, steps, hidden)` and the utterance."""
        context = _attend(states, encoded, encoded, mask)
        return self._dropout(torch.tanh(self._fine_attention_out(torch.cat([states, context], -1))))

    def _slot_log_probs(
        self, fine: torch.Tensor, encoded: torch.Tensor, mask: torch.Tensor
    ) -> Tuple[torch.Tensor, torch.Tensor]:
        """Copy log-probabilities `(batch, sketch_length, source_length)` and variable log-probabilities."""
        scores = torch.bmm(self._copy(fine), encoded.transpose(1, 2))
        copy = util.masked_log_softmax(scores, cast(torch.BoolTensor, mask.unsqueeze(1).expand_as(scores)))
        return copy, torch.log_softmax(self._variable_output(fine), dim=-1)

    # -- forward -----------------------------------------------------------------------------------

    def forward(  # type: ignore
        self,
        source_tokens: TextFieldTensors,
        metadata: List[Dict[str, Any]],
        sketch_tokens: Optional[TextFieldTensors] = None,
        slot_kind: Optional[torch.Tensor] = None,
        entity_targets: Optional[torch.Tensor] = None,
        variables: Optional[torch.Tensor] = None,
        predicates: Optional[torch.Tensor] = None,
    ) -> Dict[str, Any]:
        encoded, mask = self._encode(source_tokens)
        output: Dict[str, Any] = {}
        if sketch_tokens is not None:
            if slot_kind is None or entity_targets is None or variables is None:
                raise ConfigurationError(
                    "coarse2fine: with sketch_tokens, slot_kind, entity_targets and variables are needed"
                )
            sketch = util.get_token_ids_from_text_field_tensors(sketch_tokens)
            sketch_mask = util.get_text_field_mask(sketch_tokens)
            state = self._initial_state(encoded, mask)
            feed = torch.zeros_like(state[0])
            logits = []
            for t in range(sketch.size(1) - 1):
                step_logits, state, feed = self._sketch_step(sketch[:, t], state, feed, encoded, mask)
                logits.append(step_logits)
            sketch_loss = util.sequence_cross_entropy_with_logits(
                cast(torch.FloatTensor, torch.stack(logits, 1)),
                cast(torch.LongTensor, sketch[:, 1:].contiguous()),
                cast(torch.BoolTensor, sketch_mask[:, 1:].contiguous()),
            )
            fine = self._fine_states(sketch, sketch_mask, encoded, mask)
            copy, variable = self._slot_log_probs(fine, encoded, mask)
            entity_slots = (slot_kind == 1).float()
            variable_slots = (slot_kind == 2).float()
            gold_copy = util.logsumexp(copy.masked_fill(entity_targets <= 0, torch.finfo(copy.dtype).min), dim=-1)
            gold_variable = variable.gather(-1, variables.unsqueeze(-1)).squeeze(-1)
            slots = (entity_slots + variable_slots).sum()
            gold = (gold_copy * entity_slots).sum() + (gold_variable * variable_slots).sum()
            if self._predicate_output is not None and predicates is not None:
                predicate_slots = (slot_kind == 3).float()
                log_probs = torch.log_softmax(self._predicate_output(fine), dim=-1)
                gold = gold + (log_probs.gather(-1, predicates.unsqueeze(-1)).squeeze(-1) * predicate_slots).sum()
                slots = slots + predicate_slots.sum()
            slot_loss = -gold / slots.clamp(min=1)
            output["loss"] = sketch_loss + slot_loss
        if not self.training:
            output.update(self.decode(encoded, mask, metadata))
            if metadata and metadata[0].get("logical_form") is not None:
                self._exact_match(
                    output["logical_form"], [m["logical_form"] for m in metadata], metadata[0]["formalism"]
                )
        return output

    @torch.no_grad()
    def decode(self, encoded: torch.Tensor, mask: torch.Tensor, metadata: List[Dict[str, Any]]) -> Dict[str, Any]:
        """Greedy sketch, then the slots of the predicted sketch; returns sketches and LF strings."""
        batch_size = encoded.size(0)
        state = self._initial_state(encoded, mask)
        feed = torch.zeros_like(state[0])
        previous = encoded.new_full((batch_size,), self._start, dtype=torch.long)
        finished = torch.zeros(batch_size, dtype=torch.bool, device=encoded.device)
        sketch = [previous]
        for _ in range(self._max_sketch_steps):
            logits, state, feed = self._sketch_step(previous, state, feed, encoded, mask)
            logits[:, self._start] = torch.finfo(logits.dtype).min
            previous = logits.argmax(-1).masked_fill(finished, self._end)
            sketch.append(previous)
            finished = finished | (previous == self._end)
            if bool(finished.all()):
                break
        sketch_ids = torch.stack(sketch, 1)
        # Everything up to and including the first end symbol belongs to the sketch.
        ended = torch.cumsum((sketch_ids == self._end).long(), 1)
        sketch_mask = (ended == 0) | ((ended == 1) & (sketch_ids == self._end))
        fine = self._fine_states(sketch_ids, sketch_mask, encoded, mask)
        copy, variable = self._slot_log_probs(fine, encoded, mask)
        copy_choice, variable_choice = copy.argmax(-1).tolist(), variable.argmax(-1).tolist()
        predicate_choice = (
            self._predicate_output(fine).argmax(-1).tolist() if self._predicate_output is not None else None
        )
        sketches, forms = [], []
        for b in range(batch_size):
            tokens, filled = [], []
            for t in range(1, int(sketch_mask[b].sum())):
                token = self.vocab.get_token_from_index(int(sketch_ids[b, t]), SKETCH_NAMESPACE)
                if token == END_SYMBOL:
                    break
                tokens.append(token)
                if token == PREDICATE_SLOT and predicate_choice is not None:
                    filled.append(self.vocab.get_token_from_index(predicate_choice[b][t], PREDICATE_NAMESPACE))
                elif is_slot(token):
                    if token.startswith("<e:"):
                        filled.append(
                            metadata[b]["utterance"][min(copy_choice[b][t], len(metadata[b]["utterance"]) - 1)]
                        )
                    else:
                        name = self.vocab.get_token_from_index(variable_choice[b][t], VARIABLE_NAMESPACE)
                        filled.append(name if name != NO_VARIABLE else token)
                else:
                    filled.append(token)
            sketches.append(" ".join(tokens))
            forms.append(" ".join(filled))
        return {"sketch": sketches, "logical_form": forms}

    def make_output_human_readable(self, output_dict: Dict[str, Any]) -> Dict[str, Any]:
        return output_dict

    def get_metrics(self, reset: bool = False) -> Dict[str, float]:
        return self._exact_match.get_metric(reset) if not self.training else {}

    default_predictor = "coarse2fine"
