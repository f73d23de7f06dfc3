"""Retention in fine-tuning (training/retention/): a config without `retention` fine-tunes exactly as before,
and the pre-trained fallback on the tiny few-shot fixture. The lab's methods are tested in
lab/tests/retention_methods_test.py, with the helpers here."""
import copy
import json
import os
from typing import Any, Dict, List

import _jsonnet
import pytest
import torch
from allennlp.commands.train import TrainModel, train_model
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.common.util import prepare_environment
from allennlp.data import Vocabulary
from allennlp.models import Model
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor
from allennlp.training import GradientDescentTrainer

import fewshot_parser  # noqa: F401
from fewshot_parser.models.known_fallback import EXCLUDED, KnownFallback
from tests import FIXTURES_ROOT, PROJECT_ROOT, fixture_split

pytestmark = pytest.mark.usefixtures("in_project_root")

READER = {"type": "fewshot_geoquery", "idiom_source": fixture_split("geo", "train"), "min_support": 2}


@pytest.fixture
def in_project_root(monkeypatch):
    monkeypatch.chdir(PROJECT_ROOT)


@pytest.fixture(scope="module")
def pretrained(tmp_path_factory) -> str:
    """The fixture's pre-trained archive, made once for the module."""
    from fewshot_parser.training.pretrain_finetune import ensure_pretrained

    archive = str(tmp_path_factory.mktemp("retention") / "pretrain" / "model.tar.gz")
    before = os.getcwd()
    os.chdir(PROJECT_ROOT)
    try:
        ensure_pretrained(archive, experiment(archive)["pretraining"])
    finally:
        os.chdir(before)
    return archive


def experiment(pretrained: str, retention: Any = "absent") -> Dict[str, Any]:
    """The fixture experiment (fixtures/fewshot) with dropout in fine-tuning, and `retention` unless "absent"."""
    config = json.loads(_jsonnet.evaluate_file(os.path.join(FIXTURES_ROOT, "fewshot", "experiment.jsonnet"),
                                               ext_vars={"PRETRAINED": pretrained}))
    config["model"]["dropout"] = 0.3  # fine-tuning draws from torch's generator, as the real configs do
    if retention != "absent":
        config["retention"] = retention
    return config


def fine_tune(directory, config: Dict[str, Any], monkeypatch) -> List[float]:
    """Runs `config` into `directory` as `allennlp train` would; returns the loss of every training batch."""
    losses: List[float] = []
    batch_outputs = GradientDescentTrainer.batch_outputs

    def recording(self, batch, for_training):
        output = batch_outputs(self, batch, for_training)
        if for_training:
            losses.append(output["loss"].item())
        return output

    monkeypatch.setattr(GradientDescentTrainer, "batch_outputs", recording)
    train_model(Params(copy.deepcopy(config)), str(directory))
    monkeypatch.setattr(GradientDescentTrainer, "batch_outputs", batch_outputs)
    return losses


def weights(directory) -> Dict[str, torch.Tensor]:
    return load_archive(os.path.join(str(directory), "model.tar.gz")).model.state_dict()


def pretrained_block(value: torch.Tensor, shape: torch.Size) -> torch.Tensor:
    """The leading block of `value` that a parameter of pre-trained shape `shape` occupies."""
    return value[tuple(slice(0, size) for size in shape)]


def distance_to_pretrained(after: Dict[str, torch.Tensor], before: Dict[str, torch.Tensor]) -> torch.Tensor:
    """Every pre-trained coordinate's absolute change."""
    return torch.cat([(pretrained_block(after[name], value.shape) - value).abs().flatten()
                      for name, value in before.items() if value.is_floating_point()])


# -- no retention: nothing changes ----------------------------------------------------------------------


@pytest.mark.parametrize("retention", [[], None])
def test_without_retention_fine_tuning_is_exactly_as_before(tmp_path, monkeypatch, pretrained, retention):
    """An empty or null `retention` gives the losses and weights of a config without the key, bit for bit."""
    before = fine_tune(tmp_path / "absent", experiment(pretrained), monkeypatch)
    after = fine_tune(tmp_path / "empty", experiment(pretrained, retention), monkeypatch)
    assert before and after == before
    first, second = weights(tmp_path / "absent"), weights(tmp_path / "empty")
    assert all(torch.equal(value, second[name]) for name, value in first.items())

def built(config: Dict[str, Any], directory) -> TrainModel:
    """`config` built as `allennlp train` builds it, to train in `directory`."""
    params = Params(copy.deepcopy(config))
    prepare_environment(params)  # takes the seeds, as `train_model` does
    return TrainModel.from_params(params, serialization_dir=str(directory), local_rank=0)


# -- fallback to the pre-trained parser ----------------------------------------------------------------


def predictions(archive: str, path: str) -> List[Dict[str, Any]]:
    from allennlp.predictors import Predictor

    predictor = Predictor.from_archive(load_archive(archive), dataset_reader_to_load="validation")
    return [predictor.predict_instance(instance) for instance in predictor._dataset_reader.read(path)]


def test_the_fallback_keeps_the_fine_tuned_parser_and_answers_known_utterances_with_the_pretrained_one(
        tmp_path, monkeypatch, pretrained):
    """Fine-tuning is untouched (same losses, same fine-tuned weights); the archive routes each utterance:
    an answer with a new action is the fine-tuned parser's, any other the pre-trained parser's, which
    never applies a new action."""
    plain = fine_tune(tmp_path / "plain", experiment(pretrained), monkeypatch)
    routed = fine_tune(tmp_path / "fallback", experiment(pretrained, [{"type": "pretrained_fallback"}]), monkeypatch)
    assert plain and routed == plain
    model = load_archive(str(tmp_path / "fallback" / "model.tar.gz")).model
    assert type(model).__name__ == "KnownFallback"
    fine_tuned = weights(tmp_path / "plain")
    assert all(torch.equal(value, model.parser.state_dict()[name]) for name, value in fine_tuned.items())
    before = load_archive(pretrained).model.state_dict()
    grown = model.pretrained.state_dict()
    assert all(torch.equal(pretrained_block(grown[name], value.shape), value) for name, value in before.items())
    new = model.new_actions()
    assert new, "the support set adds actions"
    alone, answers = [], []
    for path in (fixture_split("geo", "query"), fixture_split("geo", "train")):  # new and known predicates
        alone += predictions(str(tmp_path / "plain" / "model.tar.gz"), path)
        answers += predictions(str(tmp_path / "fallback" / "model.tar.gz"), path)
    for single, answer in zip(alone, answers):
        uses_new = any(action in new for action in single["predicted_actions"])
        if uses_new:
            assert answer["logical_form"] == single["logical_form"] and answer["answered_by"] == "fine-tuned"
        else:
            assert answer["answered_by"] == "pre-trained"
            assert not any(action in new for action in answer["predicted_actions"])
    assert model.pretrained.new_action_bias == EXCLUDED  # it cannot choose a new action
    # `allennlp predict` says which parser answered.
    predictor = Predictor.from_path(str(tmp_path / "fallback" / "model.tar.gz"), "proto_parser")
    line = fixture_split("geo", "train")
    with open(line, encoding="utf-8") as handle:
        utterance = handle.readline().split("\t")[0]
    assert predictor.predict_json({"utterance": utterance})["answered_by"] in ("fine-tuned", "pre-trained")
    metrics = json.load(open(tmp_path / "fallback" / "metrics.json"))
    assert {"test_exact_match", "test_finetuned_exact_match", "test_pretrained_share"} <= set(metrics)


class Scripted(Model):
    """A stand-in parser whose answers are given: per utterance, its actions (the LF is their join)."""

    def __init__(self, vocab: Vocabulary, answers: List[List[str]], new: List[bool]) -> None:
        super().__init__(vocab)
        self.answers, self.calls, self.new_action_bias = answers, 0, 0.0
        self.register_buffer("_new_action_mask", torch.tensor(new))

    @property
    def new_action_mask(self) -> torch.Tensor:
        return self._new_action_mask

    def forward(self, **inputs: Any) -> Dict[str, Any]:  # type: ignore
        self.calls += 1
        return {"logical_form": [" ".join(a) if a else None for a in self.answers],
                "predicted_actions": self.answers, "score": [-1.0] * len(self.answers)}


def test_the_fallback_routes_each_utterance_by_the_fine_tuned_answer():
    """Kept: answers with a new predicate. Routed: the others, also those that use an action the support set
    added for a known predicate (here an `and` of three)."""
    from fewshot_parser.logical_forms.namespaces import ACTION_NAMESPACE

    state, area, and2, and3 = ("GEN ( state:t <e:s> )", "GEN ( area:i <e:s> )",
                               "REDUCE ( and <NT> <NT> )", "REDUCE ( and <NT> <NT> <NT> )")
    vocab = Vocabulary()
    for action in (state, and2, area, and3):
        vocab.add_token_to_namespace(action, ACTION_NAMESPACE)
    added = [vocab.get_token_from_index(i, ACTION_NAMESPACE) in (area, and3)
             for i in range(vocab.get_vocab_size(ACTION_NAMESPACE))]
    fine_tuned = Scripted(vocab, [[area], [state], [state, and3], []], added)
    pretrained = Scripted(vocab, [[state], [state, state], [state], [state]], added)
    model = KnownFallback(vocab, fine_tuned, pretrained).eval()
    assert model.new_actions() == {area}
    gold = [area, state, state, state]
    output = model(metadata=[{"logical_form": form, "formalism": "lambda"} for form in gold])
    assert output["logical_form"] == [area, f"{state} {state}", state, state]
    assert output["answered_by"] == ["fine-tuned", "pre-trained", "pre-trained", "pre-trained"]
    metrics = model.get_metrics(reset=True)
    assert metrics["exact_match"] == pytest.approx(3 / 4) and metrics["finetuned_exact_match"] == pytest.approx(2 / 4)
    assert metrics["pretrained_share"] == pytest.approx(3 / 4)
    assert pretrained.new_action_bias == EXCLUDED
    only_new = KnownFallback(vocab, Scripted(vocab, [[area]], added), pretrained).eval()
    calls = pretrained.calls
    only_new()
    assert pretrained.calls == calls  # nothing to route: the pre-trained parser does not decode


# -- configuration ---------------------------------------------------------------------------------------


def test_an_unknown_key_or_type_is_an_error_naming_it(tmp_path, pretrained):
    with pytest.raises(ConfigurationError, match="exampels"):
        built(experiment(pretrained, [{"type": "pretrained_fallback", "exampels": 3}]), tmp_path / "key")
    with pytest.raises(ConfigurationError, match="rehearsal"):
        built(experiment(pretrained, [{"type": "rehearsal"}]), tmp_path / "type")
