"""A decoding batch and a parser stand-in for the lab rerankers' tests (imported by them, not collected)."""

from typing import List

import torch

from fewshot_parser.modules.decoding.hypotheses import DecodingInputs, Hypothesis


def inputs(examples: int) -> DecodingInputs:
    return DecodingInputs(
        torch.zeros(examples, 1, 1),
        torch.ones(examples, 1),
        torch.zeros(examples, 1, dtype=torch.long),
        [{"formalism": "lambda", "utterance": ["x"]} for _ in range(examples)],
    )


class FakeParser:
    """Answers `search` with a fixed beam and counts the examples it was asked about; no entity coverage."""

    rerankers: list = []

    def __init__(self, beam: List[Hypothesis]) -> None:
        self.beam, self.asked = beam, []

    def search(self, selected: DecodingInputs, beam_size: int) -> List[List[Hypothesis]]:
        self.asked.append(len(selected.metadata))
        return [list(self.beam) for _ in selected.metadata]
