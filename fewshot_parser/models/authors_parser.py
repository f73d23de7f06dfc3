"""
ProtoParser with more behaviours of the authors' code, each a switch (docs/reproduction.md rows 7,
19 and 23). `proto_parser` keeps the paper's reading; the faithful configs turn these on.

* `decoder: "authors"`: input feeding and a separate input action table
  (`modules/feeding_decoder.py`); prototypes and new-predicate rows then set only output rows. Two
  details of that decoder (row 7, note 5) are switches of their own (`modules/reduce_input_decoder.py`):
  `reduce_input: "inputs"`, a REDUCE reads a linear map of its children's inputs, and
  `decoder_init: "last_cells"`, h_0 comes from the encoder's last memory cells. `decoder_bias: false`
  drops the bias of the attentional-vector and REDUCE maps, as theirs have none.
* `similarity: "parts"`: the string-similarity feature compares a word with the `_` parts of a
  predicate's name, expanded by the authors' table of part words (`modules/predicate_parts.py`).
* `predicate_dropout_unit: "action"`: in a meta batch each action row of the meta-support set
  takes its prototype independently with probability `predicate_dropout` and keeps its trained
  embedding otherwise, as the authors' `ProtoDropout` (a Bernoulli draw per row). The paper's
  Algorithm 1 (`"predicate"`) drops a share of the predicates and gives all their actions prototypes.
"""
from typing import Any, Dict, Optional, Tuple

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import TextFieldTensors, Vocabulary
from allennlp.models import Model
from allennlp.modules.seq2seq_encoders import PytorchSeq2SeqWrapper
from allennlp.nn import util
from torch.nn.utils.rnn import pad_packed_sequence

from fewshot_parser.logical_forms.namespaces import ACTION_NAMESPACE
from fewshot_parser.models.unrestricted import UnrestrictedProtoParser
from fewshot_parser.modules.feeding_decoder import InputFeedingStackDecoder
from fewshot_parser.modules.predicate_parts import part_similarity_matrix
from fewshot_parser.modules.reduce_input_decoder import ReduceInputStackDecoder


def encode_with_last_cells(encoder: PytorchSeq2SeqWrapper, inputs: torch.Tensor, mask: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    """
    The outputs of a single-layer LSTM `encoder` (as its `forward` gives them) and its last memory
    cells, both directions concatenated: `(batch, length, out)` and `(batch, directions * hidden)`.
    """
    batch_size, length = mask.size()
    packed, (_, cells), restoration = encoder.sort_and_run_forward(encoder._module, inputs, mask)
    outputs, _ = pad_packed_sequence(packed, batch_first=True)
    # shape: (valid rows, directions * hidden), rows in sorted order
    cells = torch.cat(list(cells), dim=-1)
    valid = outputs.size(0)
    if valid < batch_size:  # all-padding rows: zero outputs and cells, as the wrapper gives
        outputs = torch.cat([outputs, outputs.new_zeros(batch_size - valid, *outputs.shape[1:])], 0)
        cells = torch.cat([cells, cells.new_zeros(batch_size - valid, cells.size(-1))], 0)
    if outputs.size(1) < length:
        outputs = torch.cat([outputs, outputs.new_zeros(batch_size, length - outputs.size(1), outputs.size(-1))], 1)
    return outputs.index_select(0, restoration), cells.index_select(0, restoration)


@Model.register("proto_parser_authors")
class AuthorsProtoParser(UnrestrictedProtoParser):
    """
    A `proto_parser_unrestricted` with the authors' decoder, string similarity and predicate dropout
    available as switches.

    Registered as a `Model` with name "proto_parser_authors".

    # Parameters

    decoder : `str`, optional (default = `"stack"`)
        `"stack"`: our stack-LSTM decoder (input tied to the output rows, no input feeding).
        `"authors"`: `InputFeedingStackDecoder` with a `decoder_input_dim` input table. Greedy only.
    decoder_input_dim : `int`, optional (default = `128`)
        Size of the input action table of the `"authors"` decoder (128 in their code).
    reduce_input : `str`, optional (default = `"states"`)
        For the `"authors"` decoder: `"states"`, a REDUCE reads `[x; mean of the children's decoder
        states]` (ours); `"inputs"`, it reads `W [mean of its children's inputs; x]` (the authors').
    decoder_init : `str`, optional (default = `"mean"`)
        For the `"authors"` decoder: `"mean"`, h_0 from the mean encoder output (ours);
        `"last_cells"`, `h_0 = tanh(W c_enc)` from the encoder's last cells (the authors'; needs the
        one-layer `lstm` encoder).
    decoder_bias : `bool`, optional (default = `True`)
        For the `"authors"` decoder: whether the map to the attentional vector and the REDUCE map have
        a bias term (ours) or not (`false`, the authors').
    similarity : `str`, optional (default = `"name"`)
        `"name"`: the whole predicate name (and `lexicon` words), as `proto_parser`. `"parts"`: the
        authors' `_` parts with their part table (the `lexicon` option is then not used).
    predicate_dropout_unit : `str`, optional (default = `"predicate"`)
        `"predicate"`: Algorithm 1, a share `predicate_dropout` of the meta-support predicates takes
        prototypes. `"action"`: each action row of the meta-support set takes its prototype with
        probability `predicate_dropout`, independently (the authors' code, p = 0.5).
    **kwargs
        Everything else, as for `proto_parser_unrestricted`.
    """

    def __init__(
        self,
        vocab: Vocabulary,
        decoder: str = "stack",
        decoder_input_dim: int = 128,
        similarity: str = "name",
        predicate_dropout_unit: str = "predicate",
        reduce_input: str = "states",
        decoder_init: str = "mean",
        decoder_bias: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(vocab, **kwargs)
        for name, value, allowed in (
            ("decoder", decoder, ("stack", "authors")),
            ("similarity", similarity, ("name", "parts")),
            ("predicate_dropout_unit", predicate_dropout_unit, ("predicate", "action")),
            ("reduce_input", reduce_input, ("states", "inputs")),
            ("decoder_init", decoder_init, ("mean", "last_cells")),
        ):
            if value not in allowed:
                raise ConfigurationError(f"proto_parser_authors: {name} must be one of {list(allowed)}, not {value!r}")
        if decoder == "authors":
            if self.beam_size != 1:
                raise ConfigurationError(f"proto_parser_authors: decoder 'authors' is greedy; set beam_size to 1 (got {self.beam_size})")
            stack = self._decoder
            self._decoder = InputFeedingStackDecoder(
                stack.attention_key.in_features, stack.action_dim, stack.hidden_dim,
                vocab.get_vocab_size(ACTION_NAMESPACE), decoder_input_dim, stack.dropout.p, stack.input_dropout.p > 0,
            )
        if (reduce_input, decoder_init, decoder_bias) != ("states", "mean", True):
            if decoder != "authors":
                raise ConfigurationError(
                    "proto_parser_authors: reduce_input, decoder_init and decoder_bias are details of decoder 'authors'; set it"
                )
            module = getattr(self._encoder, "_module", None)
            if decoder_init == "last_cells" and (not isinstance(module, torch.nn.LSTM) or module.num_layers != 1):
                raise ConfigurationError("proto_parser_authors: decoder_init 'last_cells' needs a one-layer 'lstm' encoder")
            # Built after the input-feeding decoder, not instead of it, so that every parameter draws
            # from the random generator in the order the recorded faithful rows were made with.
            feeding = self._decoder
            self._decoder = ReduceInputStackDecoder(
                feeding.attention_key.in_features, feeding.action_dim, feeding.hidden_dim,
                vocab.get_vocab_size(ACTION_NAMESPACE), decoder_input_dim, feeding.dropout.p,
                feeding.input_dropout.p > 0, reduce_input, decoder_init, decoder_bias,
            )
        self.decoder_kind = decoder
        self.decoder_init = decoder_init
        self.similarity = similarity
        self.predicate_dropout_unit = predicate_dropout_unit
        # While `meta_loss` runs with action-wise dropout: the share of rows that take prototypes.
        self._row_rate: Optional[float] = None

    def encode(self, source_tokens: TextFieldTensors) -> Tuple[torch.Tensor, torch.Tensor]:
        """As `proto_parser`; with `decoder_init` "last_cells" it also hands the decoder the encoder's last cells."""
        if self.decoder_init == "mean":
            return super().encode(source_tokens)
        mask = util.get_text_field_mask(source_tokens)
        embedded = self._dropout(self._source_embedder(source_tokens))
        outputs, cells = encode_with_last_cells(self._encoder, embedded, mask)
        self._decoder.encoder_cells = cells
        return self._dropout(outputs), mask

    def extend_embedder_vocab(self, embedding_sources_mapping: Dict[str, str] = None) -> None:
        super().extend_embedder_vocab(embedding_sources_mapping)
        if isinstance(self._decoder, InputFeedingStackDecoder):
            self._decoder.extend(self.vocab.get_vocab_size(ACTION_NAMESPACE))

    def similarity_table(self) -> torch.Tensor:
        if self.similarity == "name":
            return super().similarity_table()
        if self._similarity_table is None:
            tokens = [self.vocab.get_token_from_index(i, "tokens") for i in range(self.vocab.get_vocab_size("tokens"))]
            predicates = [a.predicates if a is not None else () for a in self.action_space.actions]
            self._similarity_table = part_similarity_matrix(predicates, tokens)
        return self._similarity_table

    def meta_loss(self, support: Dict[str, Any], query: Dict[str, Any]) -> torch.Tensor:
        """
        With `predicate_dropout_unit` "action": `prototypes` keeps each present action row with
        probability `predicate_dropout`, and every predicate of the kept rows is dropped, so exactly
        the kept rows take their prototypes in `ProtoParser.meta_loss` (rows that produce no
        predicate keep their embedding, as in the paper's setting).
        """
        if self.predicate_dropout_unit == "predicate":
            return super().meta_loss(support, query)
        rate = self.predicate_dropout
        self._row_rate, self.predicate_dropout = rate, 1.0
        try:
            return super().meta_loss(support, query)
        finally:
            self._row_rate, self.predicate_dropout = None, rate

    def prototypes(self, projections: torch.Tensor, actions: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        prototypes, present = super().prototypes(projections, actions)
        if self._row_rate is not None:
            # One draw per action row from the model's seeded generator, as ProtoDropout draws one per row.
            draws = torch.tensor([self._random.random() for _ in range(present.numel())], device=present.device)
            present = present & (draws < self._row_rate)
        return prototypes, present
