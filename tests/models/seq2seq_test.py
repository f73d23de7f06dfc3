from allennlp.common.testing import ModelTestCase

import fewshot_parser  # noqa: F401
from tests import FIXTURES_ROOT, fixture_split


class TestFewShotSeq2Seq(ModelTestCase):
    def setup_method(self):
        super().setup_method()
        self.set_up_model(FIXTURES_ROOT + "/seq2seq/experiment.jsonnet", fixture_split("geo", "train"))

    def test_model_can_train_save_and_load(self):
        self.ensure_model_can_train_save_and_load(self.param_file, tolerance=1e-2)

    def test_exact_match_is_reported_at_evaluation(self):
        self.model.eval()
        self.model.get_metrics(reset=True)
        self.model.forward_on_instances(self.instances)
        metrics = self.model.get_metrics(reset=True)
        assert set(metrics) >= {"exact_match", "exact_match_unordered"}
        assert 0.0 <= metrics["exact_match"] <= 1.0
