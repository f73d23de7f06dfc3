"""
ProtoParser with the last two details of the authors' decoder (docs/reproduction.md row 7, note 5):
a REDUCE reads a linear map of its children's inputs, and h_0 comes from the encoder's last memory
cells (`modules/reduce_input_decoder.py`). Built on `proto_parser_example_loss`, the faithful model,
with its `decoder: "authors"`; `proto_parser_authors` and the paper's model are unchanged.
"""
from typing import Any, Tuple

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import TextFieldTensors, Vocabulary
from allennlp.models import Model
from allennlp.modules.seq2seq_encoders import PytorchSeq2SeqWrapper
from allennlp.nn import util
from torch.nn.utils.rnn import pad_packed_sequence

from fewshot_parser.data.dataset_readers.fewshot_reader import ACTION_NAMESPACE
from fewshot_parser.models.example_loss import ExampleLossProtoParser
from fewshot_parser.modules.feeding_decoder import InputFeedingStackDecoder
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


@Model.register("proto_parser_authors_decoder")
class AuthorsDecoderProtoParser(ExampleLossProtoParser):
    """
    A `proto_parser_example_loss` with `decoder: "authors"` whose decoder also follows the authors'
    REDUCE input and initial state, each a switch.

    Registered as a `Model` with name "proto_parser_authors_decoder".

    # Parameters

    reduce_input : `str`, optional (default = `"inputs"`)
        `"inputs"`: a REDUCE reads `W [mean of its children's inputs; x]` (the authors').
        `"states"`: `[x; mean of the children's decoder states]` (ours).
    decoder_init : `str`, optional (default = `"last_cells"`)
        `"last_cells"`: `h_0 = tanh(W c_enc)` from the encoder's last cells (the authors'; needs the
        `lstm` encoder). `"mean"`: from the mean encoder output (ours).
    **kwargs
        Everything else, as for `proto_parser_example_loss`; `decoder` must be `"authors"`.
    """

    def __init__(self, vocab: Vocabulary, reduce_input: str = "inputs", decoder_init: str = "last_cells",
                 decoder_input_dim: int = 128, **kwargs: Any) -> None:
        if kwargs.get("decoder") != "authors":
            raise ConfigurationError("proto_parser_authors_decoder: set decoder to 'authors' (these are details of that decoder)")
        super().__init__(vocab, decoder_input_dim=decoder_input_dim, **kwargs)
        if decoder_init == "last_cells":
            module = getattr(self._encoder, "_module", None)
            if not isinstance(module, torch.nn.LSTM) or module.num_layers != 1:
                raise ConfigurationError("proto_parser_authors_decoder: decoder_init 'last_cells' needs a one-layer 'lstm' encoder")
        feeding: InputFeedingStackDecoder = self._decoder
        try:
            self._decoder = ReduceInputStackDecoder(
                feeding.attention_key.in_features, feeding.action_dim, feeding.hidden_dim,
                vocab.get_vocab_size(ACTION_NAMESPACE), decoder_input_dim, feeding.dropout.p,
                feeding.input_dropout.p > 0, reduce_input, decoder_init,
            )
        except ValueError as error:
            raise ConfigurationError(f"proto_parser_authors_decoder: {error}") from None
        self.decoder_init = decoder_init

    def encode(self, source_tokens: TextFieldTensors) -> Tuple[torch.Tensor, torch.Tensor]:
        if self.decoder_init == "mean":
            return super().encode(source_tokens)
        mask = util.get_text_field_mask(source_tokens)
        embedded = self._dropout(self._source_embedder(source_tokens))
        outputs, cells = encode_with_last_cells(self._encoder, embedded, mask)
        self._decoder.encoder_cells = cells
        return self._dropout(outputs), mask
