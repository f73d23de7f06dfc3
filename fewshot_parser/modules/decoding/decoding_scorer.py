from typing import Any, Optional

import torch
from allennlp.common import Registrable

from fewshot_parser.modules.decoding.hypotheses import DecodingInputs


class DecodingScorer(torch.nn.Module, Registrable):
    """
    A term that `proto_parser` adds to the score of every action at every step of its template
    search, at evaluation and prediction only (training and teacher-forced scoring never see it).
    The term depends on the utterance, not on the step: `scores` gives one row per example.

    The parser adds the terms of its `decoding_scorers` in list order, after its own decoding terms
    (lexical linking, schema encoding); floating-point sums depend on that order.
    """

    def scores(self, parser: Any, inputs: DecodingInputs) -> Optional[torch.Tensor]:
        """
        `(batch_size, num_actions)` score terms for the utterances of `inputs`, or None for none.

        # Parameters

        parser : `ProtoParser`
            The parser decoding (its vocabulary, action space and `word_ids`).
        inputs : `DecodingInputs`
            The batch being decoded.
        """
        raise NotImplementedError
