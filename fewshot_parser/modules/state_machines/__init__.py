"""
The template search of `proto_parser`, apart from the decoder, as allennlp-semparse keeps its state
machines:

* `StackDecoderState` (`stack_state.py`): the hypotheses of a batched search, their decoder states,
  stacks and histories, and the transition that pushes an action on them (`applicable_mask` says
  which actions a stack may take);
* the transition step is the decoder's (`StackLSTMDecoder.take_step`, `modules/stack_decoder.py`): one
  LSTM step and its attention for every hypothesis;
* `StackBeamSearch` (`beam_search.py`): the constrained beam search (greedy with one beam) over them.
"""

from fewshot_parser.modules.state_machines.beam_search import StackBeamSearch
from fewshot_parser.modules.state_machines.stack_state import StackDecoderState, applicable_mask
