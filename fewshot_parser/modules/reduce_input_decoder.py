"""
The two details of the authors' template decoder that `InputFeedingStackDecoder` does not follow
(docs/reproduction.md row 7, note 5), each optional:

* `reduce_input="inputs"`: the LSTM input of a REDUCE is `W [mean of the popped children's inputs; x]`,
  where `x = [input row of a_{t-1}; h_{t-1}]` and a child's input is what the LSTM read at the step
  that pushed it (for a child made by a REDUCE, its transformed input). A GEN reads `x` alone. Ours
  (`"states"`) reads `[x; mean of the popped children's decoder states]` at every step.
* `initial_state="last_cells"`: `h_0 = tanh(W c_enc)` from the encoder's last memory cells (both
  directions), `c_0 = 0`. Ours (`"mean"`) uses the mean encoder output. The cells are handed over by
  the model through `encoder_cells` before each decoding of a batch.
* `bias=False`: the map to the attentional vector (`output`) and the REDUCE map (`reduce`) have no
  bias term, as the authors' `att_vec_linear` and `input_stack_reduce_linear`. Ours have one.

Decoding stays greedy, as for `InputFeedingStackDecoder`: the children's inputs are kept per decoder
state, in the same order as the states, which one hypothesis per example never reorders.

`ReduceInputStackDecoder.authors` builds the decoder `proto_parser` gets as `decoder: {type: "authors"}`
(registered as a `StackLSTMDecoder` with name "authors").
"""

from typing import List, Optional, Tuple, cast

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.modules.seq2seq_encoders import PytorchSeq2SeqWrapper, Seq2SeqEncoder
from torch import nn
from torch.nn.utils.rnn import pad_packed_sequence

from fewshot_parser.modules.feeding_decoder import InputFeedingStackDecoder
from fewshot_parser.modules.stack_decoder import StackLSTMDecoder


class ReduceInputStackDecoder(InputFeedingStackDecoder):
    """
    # Parameters

    encoder_dim, action_dim, hidden_dim, num_actions, input_dim, dropout, input_dropout
        As for `InputFeedingStackDecoder`.
    reduce_input : `str`, optional (default = `"inputs"`)
        `"inputs"` (the authors') or `"states"` (ours, as `InputFeedingStackDecoder`).
    initial_state : `str`, optional (default = `"last_cells"`)
        `"last_cells"` (the authors') or `"mean"` (ours).
    bias : `bool`, optional (default = `False`)
        Whether `output` and `reduce` have a bias term (ours) or not (the authors').
    """

    def __init__(
        self,
        encoder_dim: int,
        action_dim: int,
        hidden_dim: int,
        num_actions: int,
        input_dim: int = 128,
        dropout: float = 0.0,
        input_dropout: bool = True,
        reduce_input: str = "inputs",
        initial_state: str = "last_cells",
        bias: bool = False,
    ) -> None:
        for name, value, allowed in (
            ("reduce_input", reduce_input, ("inputs", "states")),
            ("initial_state", initial_state, ("last_cells", "mean")),
        ):
            if value not in allowed:
                raise ConfigurationError(f"decoder 'authors': {name} must be one of {list(allowed)}, not {value!r}")
        # With reduced inputs the LSTM reads [input row; reduced input of the popped subtrees].
        width = input_dim + action_dim
        super().__init__(
            encoder_dim,
            action_dim,
            hidden_dim,
            num_actions,
            input_dim,
            dropout,
            input_dropout,
            cell_input_dim=width if reduce_input == "inputs" else None,
            output_bias=bias,
        )
        self.reduce_input = reduce_input
        self.initial_kind = initial_state
        self.reads_encoder_cells = initial_state == "last_cells"
        if reduce_input == "inputs":
            self.reduce = nn.Linear(2 * width, width, bias=bias)
        # Set by the model before each decoding: `(batch, encoder_dim)` last encoder cells.
        self.encoder_cells: Optional[torch.Tensor] = None
        # While a batch is decoded: the LSTM input of every decoder state so far (state 0: zeros).
        self._inputs: Optional[List[torch.Tensor]] = None

    @classmethod
    def authors(
        cls,
        encoder_dim: int,
        action_dim: int,
        hidden_dim: int,
        num_actions: int,
        dropout: float = 0.0,
        input_dropout: bool = True,
        input_dim: int = 128,
        reduce_input: str = "inputs",
        initial_state: str = "last_cells",
        bias: bool = False,
    ) -> InputFeedingStackDecoder:
        """
        The authors' template decoder, as `proto_parser`'s `decoder: {type: "authors"}` builds it (the
        defaults are the authors'): `InputFeedingStackDecoder` when `reduce_input` is "states",
        `initial_state` "mean" and `bias` true (ours), this decoder otherwise. Greedy decoding only.
        `__init__` checks `reduce_input` and `initial_state` (any other combination than ours builds this class).
        """
        if (reduce_input, initial_state, bias) == ("states", "mean", True):
            return InputFeedingStackDecoder(
                encoder_dim, action_dim, hidden_dim, num_actions, input_dim, dropout, input_dropout
            )
        return cls(
            encoder_dim,
            action_dim,
            hidden_dim,
            num_actions,
            input_dim,
            dropout,
            input_dropout,
            reduce_input,
            initial_state,
            bias,
        )

    def initial_state(self, encoded: torch.Tensor, mask: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        self._inputs = None  # a new batch starts here, in `forward` and in `search`
        if self.initial_kind == "mean":
            return super().initial_state(encoded, mask)
        cells = self.encoder_cells
        if cells is None or cells.size(0) != encoded.size(0):
            raise RuntimeError(
                "initial_state 'last_cells' needs the encoder's last cells of this batch in `encoder_cells`"
            )
        h = torch.tanh(self.initial(cells))
        return h, torch.zeros_like(h)

    def _input(self, embedding: torch.Tensor, states: torch.Tensor, popped: torch.Tensor) -> torch.Tensor:
        if self.reduce_input == "states":
            return super()._input(embedding, states, popped)
        fed = self._fed if self._fed is not None else embedding.new_zeros(embedding.size(0), self.action_dim)
        x = torch.cat([embedding, fed], dim=-1)
        if self._inputs is None:
            self._inputs = [torch.zeros_like(x)]
        # shape: (batch_size, states so far, input width)
        inputs = torch.stack(self._inputs, dim=1)
        present = popped >= 0
        gathered = inputs.gather(1, popped.clamp(min=0).unsqueeze(-1).expand(-1, -1, inputs.size(-1)))
        children = (gathered * present.unsqueeze(-1)).sum(1) / present.sum(1, keepdim=True).clamp(min=1)
        reduced = self.reduce(torch.cat([children, x], dim=-1))
        x = torch.where(present.any(1, keepdim=True), reduced, x)
        self._inputs.append(x)
        return self.input_dropout(x)


StackLSTMDecoder.register("authors", constructor="authors")(ReduceInputStackDecoder)


def encode_with_last_cells(
    encoder: Seq2SeqEncoder, inputs: torch.Tensor, mask: torch.Tensor
) -> Tuple[torch.Tensor, torch.Tensor]:
    """
    The outputs of a single-layer LSTM `encoder` (as its `forward` gives them) and its last memory
    cells, both directions concatenated: `(batch, length, out)` and `(batch, directions * hidden)`.
    """
    lstm = encoder_lstm(encoder)
    if lstm is None or not isinstance(encoder, PytorchSeq2SeqWrapper):
        raise ConfigurationError(
            f'a decoder that starts from the encoder\'s last cells needs an "lstm" encoder, '
            f"not {type(encoder).__name__}"
        )
    batch_size, length = mask.size()
    # The wrapper's own LSTM, as its forward runs it.
    packed, (_, cells), restoration = encoder.sort_and_run_forward(lstm, inputs, cast(torch.BoolTensor, mask))
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


def encoder_lstm(encoder: Seq2SeqEncoder) -> Optional[nn.LSTM]:
    """The one-layer `torch.nn.LSTM` an "lstm" encoder (a `PytorchSeq2SeqWrapper`) runs, or None."""
    lstms = (
        [m for m in encoder.children() if isinstance(m, nn.LSTM)] if isinstance(encoder, PytorchSeq2SeqWrapper) else []
    )
    return lstms[0] if len(lstms) == 1 and lstms[0].num_layers == 1 else None


def check_encoder(decoder: StackLSTMDecoder, encoder: Seq2SeqEncoder) -> None:
    """Raises `ConfigurationError` if `decoder` starts from the encoder's last cells and `encoder` has none."""
    if decoder.reads_encoder_cells and encoder_lstm(encoder) is None:
        raise ConfigurationError(
            "proto_parser: the decoder's initial_state 'last_cells' needs a one-layer 'lstm' encoder"
        )
