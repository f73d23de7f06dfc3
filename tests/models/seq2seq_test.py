from allennlp.common.testing import ModelTestCase

import fewshot_parser  # noqa: F401
from tests import FIXTURES_ROOT, fixture_split, rendered_row


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


def test_pt_setting_grows_the_output_vocabulary_and_the_archive_predicts(tmp_path, monkeypatch):
    import json
    import os

    from allennlp.commands.train import train_model_from_file
    from allennlp.models.archival import load_archive
    from allennlp.predictors import Predictor

    from tests import PROJECT_ROOT

    monkeypatch.chdir(PROJECT_ROOT)
    pretrained = str(tmp_path / "pretrain" / "model.tar.gz")
    monkeypatch.setenv("PRETRAINED", pretrained)
    train_model_from_file(os.path.join(FIXTURES_ROOT, "seq2seq", "pt.jsonnet"), str(tmp_path / "run"))
    before = load_archive(pretrained).model
    after = load_archive(str(tmp_path / "run" / "model.tar.gz")).model
    grown = after.vocab.get_vocab_size("tokens")
    assert grown > before.vocab.get_vocab_size("tokens")  # LF tokens of the support set's new predicates
    assert after._output_projection_layer.out_features == grown
    assert after._target_embedder.weight.size(0) == grown
    # Known LF tokens keep their ids, so their trained rows carry over into the grown matrices.
    assert after.vocab.get_token_index("state:t", "tokens") == before.vocab.get_token_index("state:t", "tokens")
    assert "test_exact_match" in json.load(open(tmp_path / "run" / "metrics.json"))
    predictor = Predictor.from_path(str(tmp_path / "run" / "model.tar.gz"), "seq2seq")
    assert "predicted_tokens" in predictor.predict_json({"source": "what is the area of s0"})


def test_os_and_cb_data_are_train_plus_support(monkeypatch):
    """cb trains on train + support; os repeats the support set 10 times (1-shot) or 5 times (2-shot)."""
    import json
    import os
    from collections import Counter

    import _jsonnet
    import pytest
    from allennlp.common import Params
    from allennlp.data import DatasetReader

    from fewshot_parser.data.paths import resolve_data_path
    from tests import PROJECT_ROOT

    ext = {"FEWSHOT_SPLIT": "1", "FEWSHOT_SEED": "13", "FEWSHOT_PRETRAIN_DIR": "runs/pretrain"}
    if not os.path.isfile(resolve_data_path("geo/lemma_data/shuffle_1_shot_1/train.txt")):
        pytest.skip("benchmark data not set up")

    def pairs(path):
        return Counter(tuple(line.rstrip("\n").split("\t")) for line in open(resolve_data_path(path)))

    for shot, factor in ((1, 10), (2, 5)):
        base = f"geo/lemma_data/shuffle_1_shot_{shot}/"
        train, support = pairs(base + "train.txt"), pairs(base + "support.txt")
        for setting, repeat in (("cb", 1), ("os", factor)):
            config = rendered_row(f"seq2seq-{setting}", "geo", shot)
            reader = DatasetReader.from_params(Params(config["dataset_reader"]))
            read = Counter(
                (" ".join(t.text for t in i["source_tokens"].tokens[1:-1]), i["metadata"].metadata["logical_form"])
                for i in reader.read(config["train_data_path"])
            )
            expected = Counter(train)
            for pair, count in support.items():
                expected[pair] += count * repeat
            assert read == expected, (setting, shot)
