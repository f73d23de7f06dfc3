import json
import os

from allennlp.common.testing import ModelTestCase

import fewshot_parser  # noqa: F401
from fewshot_parser.logical_forms.tree import parse
from tests import FIXTURES_ROOT, PROJECT_ROOT, fit_fixture, fixture_split


class TestCoarse2Fine(ModelTestCase):
    def setup_method(self):
        super().setup_method()
        self.set_up_model(FIXTURES_ROOT + "/coarse2fine/experiment.jsonnet", fixture_split("geo", "train"))

    def test_model_can_train_save_and_load(self):
        self.ensure_model_can_train_save_and_load(self.param_file, tolerance=1e-3)

    def test_batch_predictions_are_consistent(self):
        self.ensure_batch_predictions_are_consistent()

    def test_learns_the_fixture_and_fills_sketches_with_copies_and_variables(self):
        """Trained long enough on the fixture, it reproduces most training LFs exactly."""
        output, metrics = fit_fixture(self.model, self.instances, self.vocab)
        assert metrics["exact_match"] > 0.8, list(zip(output["logical_form"], [i["metadata"].metadata["logical_form"] for i in self.instances]))
        for instance, form, sketch in zip(self.instances, output["logical_form"], output["sketch"]):
            parse(form, "lambda")  # every prediction is a well-formed LF
            assert len(sketch.split()) == len(form.split())

    def test_pt_setting_grows_the_sketch_vocabulary(self, tmp_path, monkeypatch):
        from allennlp.commands.train import train_model_from_file
        from allennlp.models.archival import load_archive

        monkeypatch.chdir(PROJECT_ROOT)
        pretrained = str(tmp_path / "pretrain" / "model.tar.gz")
        monkeypatch.setenv("PRETRAINED", pretrained)
        train_model_from_file(os.path.join(FIXTURES_ROOT, "coarse2fine", "pt.jsonnet"), str(tmp_path / "run"))
        before = load_archive(pretrained).model
        after = load_archive(str(tmp_path / "run" / "model.tar.gz")).model
        size = after.vocab.get_vocab_size("sketch_tokens")
        assert size > before.vocab.get_vocab_size("sketch_tokens")
        assert after._sketch_output.out_features == size and after._sketch_embedding.num_embeddings == size
        assert "test_exact_match" in json.load(open(tmp_path / "run" / "metrics.json"))
