"""The `missing_evidence` decoding scorer: evidence words from counts, the decoding penalty, and the archive round trip."""
import copy
import json

import _jsonnet
import pytest
import torch
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.common.testing import ModelTestCase
from allennlp.models import Model

import fewshot_parser  # noqa: F401
from fewshot_parser.logical_forms.namespaces import ACTION_NAMESPACE
from fewshot_parser.models.proto_parser import ProtoParser
from fewshot_parser.modules.decoding import DecodingInputs
from fewshot_lab.modules import MissingEvidence
from fewshot_lab.modules.evidence import evidence_words, missing_evidence
from tests import FIXTURES_ROOT, fixture_split


def scorer(model) -> MissingEvidence:
    """The model's missing-evidence scorer."""
    return next(s for s in model.decoding_scorers if isinstance(s, MissingEvidence))


def test_evidence_words_need_share_lift_and_count():
    # Action 0 always comes with word 1 (rare overall) and with word 2 (in every example: no lift);
    # action 1 comes with word 3 in only half its examples; action 2 has too few examples.
    examples = [([0], [1, 2]), ([0], [1, 2]), ([0], [1, 2]), ([1], [3, 2]), ([1], [4, 2]), ([1], [3, 2]),
                ([1], [4, 2]), ([2], [5, 2]), ([3], [2, 6]), ([3], [2, 6])]
    words, shares = evidence_words(examples, 4, 7, min_share=0.8, min_lift=2.0, min_count=3)
    assert words[0].tolist()[0] == 1 and shares[0, 0].item() == pytest.approx(1.0)
    assert 2 not in words[0].tolist()
    assert (words[1] < 0).all() and (words[2] < 0).all()  # share 0.5; one example
    assert (words[3] < 0).all()  # two examples, below min_count


def test_evidence_words_ignore_the_given_tokens_and_reject_bad_thresholds():
    examples = [([0], [0, 1])] * 5 + [([1], [2])] * 5
    words, _ = evidence_words(examples, 2, 3, min_share=0.8, min_lift=1.5, min_count=1, ignored_tokens=[0])
    assert words[0].tolist() == [1]
    with pytest.raises(ValueError, match="min_share"):
        evidence_words(examples, 2, 3, min_share=0.0)
    with pytest.raises(ValueError, match="min_lift"):
        evidence_words(examples, 2, 3, min_lift=0.5)


def test_missing_evidence_is_the_largest_share_the_utterance_lacks():
    words = torch.tensor([[1, 2], [3, -1], [-1, -1]])
    shares = torch.tensor([[0.9, 0.8], [1.0, 0.0], [0.0, 0.0]])
    token_ids = torch.tensor([[1, 2, 0], [2, 3, 0], [4, 0, 0]])
    missing = missing_evidence(token_ids, words, shares)
    assert torch.allclose(missing, torch.tensor([[0.0, 1.0, 0.0], [0.9, 0.0, 0.0], [0.9, 1.0, 0.0]]))


class TestMissingEvidenceParser(ModelTestCase):
    def setup_method(self):
        super().setup_method()
        self.set_up_model(FIXTURES_ROOT + "/proto_parser/experiment.jsonnet", fixture_split("geo", "train"))

    def evidence_model(self, weight: float, **extra) -> ProtoParser:
        config = json.loads(_jsonnet.evaluate_file(FIXTURES_ROOT + "/proto_parser/experiment.jsonnet"))["model"]
        config.update(decoding_scorers=[{"type": "missing_evidence", "weight": weight, "min_count": 1, **extra}])
        model = Model.from_params(vocab=self.vocab, params=Params(copy.deepcopy(config)))
        model.load_state_dict(self.model.state_dict())
        scorer(model).set_statistics(model, self.examples())
        model.eval()
        return model

    def examples(self):
        return [(i["metadata"].metadata["utterance"], i["metadata"].metadata["actions"]) for i in self.instances]

    def test_weight_zero_decodes_as_the_plain_parser(self):
        self.model.eval()
        plain = self.model.forward_on_instances(self.instances)
        penalised = self.evidence_model(0.0).forward_on_instances(self.instances)
        assert [o["logical_form"] for o in penalised] == [o["logical_form"] for o in plain]

    def test_the_penalty_lowers_exactly_the_actions_whose_evidence_is_missing(self):
        model = self.evidence_model(3.0)
        evidence = scorer(model)
        assert (evidence._evidence_words >= 0).any()  # the fixture's training set gives some actions evidence
        batch = self.dataset.as_tensor_dict()
        inputs = DecodingInputs(None, None, batch["source_entity_types"], [], batch["source_tokens"])
        penalty = evidence.scores(model, inputs)
        token_ids = model.word_ids(batch["source_tokens"])
        for b in range(token_ids.size(0)):
            present = set(token_ids[b].tolist())
            for a in range(evidence._evidence_words.size(0)):
                lacking = [s for w, s in zip(evidence._evidence_words[a].tolist(), evidence._evidence_shares[a].tolist())
                           if w >= 0 and w not in present]
                assert penalty[b, a].item() == pytest.approx(-3.0 * max(lacking, default=0.0))

    def test_the_evidence_words_travel_with_the_weights(self):
        model = self.evidence_model(2.0)
        config = json.loads(_jsonnet.evaluate_file(FIXTURES_ROOT + "/proto_parser/experiment.jsonnet"))["model"]
        config.update(decoding_scorers=[{"type": "missing_evidence", "weight": 2.0}])
        loaded = Model.from_params(vocab=self.vocab, params=Params(copy.deepcopy(config)))
        assert scorer(loaded)._evidence_words is None
        loaded.load_state_dict(model.state_dict())
        assert torch.equal(scorer(loaded)._evidence_words, scorer(model)._evidence_words)
        assert torch.equal(scorer(loaded)._evidence_shares, scorer(model)._evidence_shares)
        loaded.eval()
        assert [o["logical_form"] for o in loaded.forward_on_instances(self.instances)] == \
            [o["logical_form"] for o in model.forward_on_instances(self.instances)]
        # A plain parser's weights (no statistics yet) load too, as fine-tuning from a pre-trained archive does.
        fresh = Model.from_params(vocab=self.vocab, params=Params(copy.deepcopy(config)))
        assert not fresh.load_state_dict(self.model.state_dict(), strict=False).missing_keys

    def test_bad_settings_are_configuration_errors(self):
        with pytest.raises(ConfigurationError, match="weight must be >= 0"):
            self.evidence_model(-1.0)
        with pytest.raises(ConfigurationError, match="share must be in"):
            self.evidence_model(1.0, share=1.5)

    def test_reduce_actions_get_evidence_words_only_with_all(self):
        from fewshot_parser.logical_forms.actions import GEN

        gen_only = self.evidence_model(2.0)
        every = self.evidence_model(2.0, actions="all")
        actions = gen_only.action_space.actions
        has = lambda model, i: bool((scorer(model)._evidence_words[i] >= 0).any())  # noqa: E731
        reduce_rows = [i for i, a in enumerate(actions) if a is not None and a.kind != GEN]
        assert any(has(every, i) for i in reduce_rows)  # the fixture has REDUCE actions with evidence
        assert not any(has(gen_only, i) for i in reduce_rows)
        for i, action in enumerate(actions):
            if action is not None and action.kind == GEN:
                words = scorer(gen_only)._evidence_words
                assert torch.equal(words[i], scorer(every)._evidence_words[i][: words.size(1)]) \
                    or not has(every, i)
        with pytest.raises(ConfigurationError, match="actions must be"):
            self.evidence_model(2.0, actions="reduce")


def test_fine_tuning_counts_the_training_set_and_the_archive_decodes_with_it(tmp_path, monkeypatch):
    """The fixture's pre-training and fine-tuning with a `missing_evidence` scorer and the
    `fewshot_evidence_statistics` callback: the archive holds the training set's evidence words,
    fine-tuning's new actions have none, and the reloaded archive scores as the run did."""
    import os

    from allennlp.commands.train import train_model_from_file
    from allennlp.models.archival import load_archive

    from fewshot_parser.common.provenance import PROJECT_ROOT
    from fewshot_lab.modules.evidence import evidence_words as count_evidence

    monkeypatch.chdir(PROJECT_ROOT)
    pretrained = str(tmp_path / "pretrain" / "model.tar.gz")
    config = json.loads(_jsonnet.evaluate_file(os.path.join(FIXTURES_ROOT, "fewshot", "experiment.jsonnet"),
                                               ext_vars={"PRETRAINED": pretrained}))
    train = config["pretraining"]["train_data_path"]
    config["model"].update(decoding_scorers=[{"type": "missing_evidence", "weight": 2.0, "min_count": 2, "lift": 1.5}])
    config["trainer"]["callbacks"].append({"type": "fewshot_evidence_statistics", "data_path": train})
    path = tmp_path / "experiment.json"
    path.write_text(json.dumps(config))
    train_model_from_file(str(path), str(tmp_path / "run"))
    model = load_archive(str(tmp_path / "run" / "model.tar.gz")).model
    evidence = scorer(model)
    assert evidence._evidence_words is not None
    known = load_archive(pretrained).model.vocab.get_vocab_size(ACTION_NAMESPACE)
    assert (evidence._evidence_words[:known] >= 0).any()
    assert (evidence._evidence_words[known:] < 0).all()  # new actions: never in the training set
    # The stored words are those of the training set alone, counted with the model's vocabulary.
    reader = load_archive(str(tmp_path / "run" / "model.tar.gz")).validation_dataset_reader
    pairs = [([model.vocab.get_token_index(a, ACTION_NAMESPACE) for a in i["metadata"].metadata["actions"]],
              [model.vocab.get_token_index(t, "tokens") for t in i["metadata"].metadata["utterance"]])
             for i in reader.read(train)]
    words, _ = count_evidence(pairs, model.vocab.get_vocab_size(ACTION_NAMESPACE), model.vocab.get_vocab_size("tokens"),
                              0.8, 1.5, 2, [0, 1])
    for i, action in enumerate(model.action_space.actions):  # evidence_actions 'gen': REDUCE actions have none
        if action is None or action.kind != "GEN":
            words[i] = -1
    assert torch.equal(words[:, : evidence._evidence_words.size(1)], evidence._evidence_words)
    metrics = json.load(open(tmp_path / "run" / "metrics.json"))
    from allennlp.data.data_loaders import MultiProcessDataLoader
    from allennlp.training.util import evaluate as evaluate_model

    loader = MultiProcessDataLoader(reader, config["test_data_path"], batch_size=8)
    loader.index_with(model.vocab)
    model.eval()
    assert evaluate_model(model, loader, cuda_device=-1)["exact_match"] == pytest.approx(metrics["test_exact_match"])

