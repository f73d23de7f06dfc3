"""
What the decoding components of `proto_parser` see of a decoding pass: its inputs, its finished
hypotheses, and the slot choices of its templates. Plain data; the parser fills them in.
"""

from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple

import torch
from allennlp.data import TextFieldTensors

from fewshot_parser.logical_forms.transition_system import Step


def select_rows(tensors: Any, rows: torch.Tensor) -> Any:
    """The given batch rows of a (nested) dict of tensors, as a TextField's tensors are."""
    if isinstance(tensors, torch.Tensor):
        return tensors[rows]
    return {key: select_rows(value, rows) for key, value in tensors.items()}


class DecodingInputs(NamedTuple):
    """A batch to decode: the encoder's output and what the reader gave about each utterance."""

    # shape: (batch_size, source_length, encoder_dim)
    encoded: torch.Tensor
    # shape: (batch_size, source_length)
    source_mask: torch.Tensor
    # shape: (batch_size, source_length): entity type ids of the words (`entity_types` namespace)
    source_types: torch.Tensor
    metadata: List[Dict[str, Any]]
    source_tokens: Optional[TextFieldTensors] = None

    def select(self, examples: Sequence[int]) -> "DecodingInputs":
        """The same inputs for the given examples only, in that order."""
        rows = torch.tensor(list(examples), dtype=torch.long, device=self.encoded.device)
        return DecodingInputs(
            self.encoded[rows],
            self.source_mask[rows],
            self.source_types[rows],
            [self.metadata[b] for b in examples],
            None if self.source_tokens is None else select_rows(self.source_tokens, rows),
        )


class Hypothesis(NamedTuple):
    """A decoded LF (None when the actions build none), its actions (strings) and its log-probability."""

    logical_form: Optional[str]
    actions: List[str]
    score: float


class SlotFilling(NamedTuple):
    """
    One decoding pass's templates with their slots filled. A row is a hypothesis, `example * beams + k`.
    `steps` holds the steps of every finished hypothesis (those with a finite score), which a
    reranker's `revise` may replace before they become LFs.
    """

    # shape: (rows, steps): action ids, -1 after the end
    sequences: torch.Tensor
    # shape: (rows, steps, decoder_dim): the decoder's h_t along each template
    projections: torch.Tensor
    utterances: List[List[str]]
    entity_choice: Dict[Tuple[int, int], List[int]]
    variable_choice: Dict[Tuple[int, int], List[int]]
    steps: Dict[int, List[Step]]
