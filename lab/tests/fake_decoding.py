"""
A decoding batch, a parser stand-in and a fixture parser for the lab rerankers' tests (imported by
them, not collected).
"""

import copy
import json
from typing import Any, Callable, Dict, List, Optional

import _jsonnet
import torch
from allennlp.common import Params
from allennlp.common.testing import ModelTestCase
from allennlp.models import Model

from fewshot_parser.modules.decoding.hypotheses import DecodingInputs, Hypothesis
from tests import FIXTURES_ROOT, fixture_split

EXPERIMENT = FIXTURES_ROOT + "/proto_parser/experiment.jsonnet"


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


class FixtureParserTest(ModelTestCase):
    """The fixture ProtoParser trained on nothing (seed 0), and copies of it with other rerankers."""

    def setup_method(self):
        super().setup_method()
        torch.manual_seed(0)
        self.set_up_model(EXPERIMENT, fixture_split("geo", "train"))

    def parser(self, rerankers: List[Dict[str, Any]]) -> Model:
        config = json.loads(_jsonnet.evaluate_file(EXPERIMENT))["model"]
        config.update(rerankers=rerankers)
        model = Model.from_params(vocab=self.vocab, params=Params(copy.deepcopy(config)))
        model.load_state_dict(self.model.state_dict())
        model.eval()
        return model

    def assert_only_flagged_lfs_change(self, model: Model, flags: Callable[[Optional[str], str], bool]) -> None:
        """Decoded with `model`, every fixture LF the plain parser gives and `flags` passes stays the same."""
        plain = self.parser([]).forward_on_instances(self.instances)
        checked = model.forward_on_instances(self.instances)
        for p, c in zip(plain, checked):
            if not flags(p["logical_form"], "lambda"):
                assert c["logical_form"] == p["logical_form"]
