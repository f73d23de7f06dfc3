"""Every baseline with an utterance encoder takes the packaged MiniLM as its words (issue 9's switch)."""
import pytest
from allennlp.common.testing import ModelTestCase

import fewshot_parser  # noqa: F401
from tests import FIXTURES_ROOT, fixture_split
from tests.models import POOLING_BIAS

GATE = {"regularizer.gate.weight", "regularizer.gate.bias"}  # proto_parser's gate gets no gradient on the fixture
# fixture directory -> gradients that legitimately stay zero in two epochs on the fixture
SYSTEMS = {"seq2seq": set(), "coarse2fine": set(), "irnet": GATE, "da": POOLING_BIAS, "ptmaml": GATE}


class TestBaselinesWithMiniLMWords(ModelTestCase):
    @pytest.mark.parametrize("system", sorted(SYSTEMS))
    def test_model_can_train_save_and_load(self, system):
        self.set_up_model(f"{FIXTURES_ROOT}/{system}/experiment_minilm.jsonnet", fixture_split("geo", "train"))
        model, _ = self.ensure_model_can_train_save_and_load(
            self.param_file, tolerance=1e-2, gradients_to_ignore=SYSTEMS[system]
        )
        embedders = model._source_embedder._token_embedders
        # MiniLM is frozen: its weights get no gradient and stay as packaged.
        assert not any(p.requires_grad for p in embedders["pieces"].parameters())
        assert (type(embedders["tokens"]).__name__ == "Embedding") == (system == "irnet")
