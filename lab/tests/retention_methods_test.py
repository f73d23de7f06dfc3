"""The lab's retention methods (replay, distillation, anchoring, freezing) on the tiny few-shot fixture,
with the product's helpers (tests/training/retention_test.py)."""
import copy
import json
import os
from typing import Any, Dict, List, Optional

import _jsonnet
import pytest
import torch
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.data import DatasetReader
from allennlp.models import Model
from allennlp.models.archival import load_archive

import fewshot_lab  # noqa: F401
from fewshot_lab.training.retention.distillation import Distillation, known_action_kl
from fewshot_lab.training.retention.replay import Replay
from fewshot_parser.training.callbacks.prototypes import PrototypeInitCallback
from fewshot_parser.training.retention import RetentionContext, RetentionMethod
from fewshot_parser.training.retention.method import REPLAYED
from tests import PROJECT_ROOT, fixture_split, indexed_tensors
from tests.training.retention_test import (  # noqa: F401  (fixtures used by name)
    READER,
    built,
    distance_to_pretrained,
    experiment,
    fine_tune,
    in_project_root,
    pretrained,
    pretrained_block,
    weights,
)

pytestmark = pytest.mark.usefixtures("in_project_root")

def test_a_fisher_estimate_with_weight_zero_changes_nothing(tmp_path, monkeypatch, pretrained):
    """The Fisher estimate runs the model before fine-tuning; it leaves the random generators and the
    gradients as it found them, so with no pull fine-tuning is exactly the plain one."""
    plain = fine_tune(tmp_path / "plain", experiment(pretrained), monkeypatch)
    ewc = {"type": "anchoring", "weight": 0.0, "fisher": True, "fisher_batches": 2, "fisher_batch_size": 4}
    anchored = fine_tune(tmp_path / "ewc0", experiment(pretrained, [ewc]), monkeypatch)
    assert anchored == plain


# -- replay -----------------------------------------------------------------------------------------------


def context(model: Optional[Model] = None, reader: Optional[DatasetReader] = None) -> RetentionContext:
    reader = reader or DatasetReader.from_params(Params(dict(READER)))
    model = model or torch.nn.Linear(1, 1)  # replay reads data only
    train = fixture_split("geo", "train")
    return RetentionContext(model, model, {}, reader, train, seed=13)  # type: ignore[arg-type]


def locations(instances) -> List[str]:
    return [instance["metadata"].metadata["location"] for instance in instances]


def test_replay_draws_a_seeded_sample_of_the_training_file_only():
    train = fixture_split("geo", "train")
    with open(train) as handle:
        lines = len([line for line in handle if line.strip()])
    samples = {}
    for seed in (1, 1, 2):
        replay = Replay(examples=5, seed=seed)
        replay.prepare(context())
        samples.setdefault(seed, []).append(locations(replay.replayed_instances()))
    assert samples[1][0] == samples[1][1]  # same seed, same sample
    assert samples[2][0] != samples[1][0]
    for sample in (samples[1][0], samples[2][0]):
        assert len(sample) == len(set(sample)) == 5
        assert all(location.startswith(train + ":") for location in sample)
    everything = Replay(examples=100)
    everything.prepare(context())
    assert len(everything.replayed_instances()) == lines
    assert all(instance["metadata"].metadata[REPLAYED] for instance in everything.replayed_instances())


def test_replayed_examples_are_batched_with_the_support_data(tmp_path, pretrained):
    plain = built(experiment(pretrained), tmp_path / "plain")
    replaying = built(experiment(pretrained, [{"type": "replay", "examples": 4, "seed": 3}]), tmp_path / "replay")
    support = locations(plain.trainer.data_loader.iter_instances())
    seen = locations(replaying.trainer.data_loader.iter_instances())
    assert seen[: len(support)] == support and len(seen) == len(support) + 4
    files = {os.path.abspath(location.rpartition(":")[0]) for location in seen[len(support):]}
    assert files == {fixture_split("geo", "train")}
    batches = list(replaying.trainer.data_loader)
    assert sum(len(batch["metadata"]) for batch in batches) == len(seen)
    # The query set is read without replayed examples.
    queries = [len(list(run.evaluation_data_loader.iter_instances())) for run in (plain, replaying)]
    assert queries[0] == queries[1]


def test_replay_composes_with_recombination(tmp_path, pretrained):
    config = experiment(pretrained)
    config["dataset_reader"] = {"type": "fewshot_augmented", "reader": READER,
                                "generators": [[{"type": "forward", "pairs_per_predicate": 3}, {"type": "reverse"}]],
                                "support_data_path": config["train_data_path"],
                                "training_data_path": fixture_split("geo", "train")}
    augmented = locations(built(config, tmp_path / "augmented").trainer.data_loader.iter_instances())
    config["retention"] = [{"type": "replay", "examples": 3}]
    both = locations(built(config, tmp_path / "both").trainer.data_loader.iter_instances())
    assert both[: len(augmented)] == augmented and len(both) == len(augmented) + 3


def test_replay_fine_tunes_deterministically(tmp_path, monkeypatch, pretrained):
    config = experiment(pretrained, [{"type": "replay", "examples": 5}])
    first = fine_tune(tmp_path / "first", config, monkeypatch)
    assert fine_tune(tmp_path / "second", config, monkeypatch) == first
    assert len(first) > len(fine_tune(tmp_path / "plain", experiment(pretrained), monkeypatch))


# -- distillation ----------------------------------------------------------------------------------------


def extended_model(pretrained: str):
    """The pre-trained fixture model with its vocabulary extended by the support set, and its reader."""
    model = load_archive(pretrained).model
    reader = DatasetReader.from_params(Params(dict(READER)))
    model.vocab.extend_from_instances(list(reader.read(fixture_split("geo", "support"))))
    model.extend_embedder_vocab()
    return model, reader


def test_distillation_is_zero_when_the_student_is_the_teacher(pretrained):
    student, reader = extended_model(pretrained)
    student.eval()  # no dropout: the two passes are the same computation
    distillation = Distillation(weight=1.0, temperature=2.0)
    distillation.prepare(RetentionContext(student, copy.deepcopy(student), {}, reader, None))
    instances = list(reader.read(fixture_split("geo", "train")))[:4]
    for instance in instances[:3]:
        instance["metadata"].metadata[REPLAYED] = True
    batch = indexed_tensors(instances, student.vocab)
    assert distillation.penalty(student, batch).item() == 0.0
    with torch.no_grad():
        student.action_embedding[: student.action_embedding.size(0) // 2] += 0.5
    moved = distillation.penalty(student, batch)
    assert moved.item() > 0
    moved.backward()
    assert student.action_embedding.grad.abs().sum() > 0
    # Only replayed examples count.
    for instance in instances:
        instance["metadata"].metadata.pop(REPLAYED, None)
    assert distillation.penalty(student, indexed_tensors(instances, student.vocab)) is None


def test_the_distillation_term_covers_known_actions_only():
    teacher = torch.tensor([[1.0, 2.0, 3.0, -5.0]])
    known = torch.tensor([True, True, True, False])
    # The student differs only on an action that is not known: no term.
    assert known_action_kl(teacher, torch.tensor([[1.0, 2.0, 3.0, 9.0]]), known).item() == 0.0
    assert known_action_kl(teacher, torch.tensor([[3.0, 2.0, 1.0, -5.0]]), known).item() > 0


def test_distillation_fine_tunes_with_replay_and_needs_it(tmp_path, monkeypatch, pretrained):
    replay = [{"type": "replay", "examples": 5}]
    replayed = fine_tune(tmp_path / "replay", experiment(pretrained, replay), monkeypatch)
    distillation = [{"type": "distillation", "weight": 5.0}]
    distilled = fine_tune(tmp_path / "distill", experiment(pretrained, replay + distillation), monkeypatch)
    assert len(distilled) == len(replayed) and distilled != replayed
    with pytest.raises(ConfigurationError, match="replay"):
        built(experiment(pretrained, [{"type": "distillation"}]), tmp_path / "alone")


# -- anchoring -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("fisher", [False, True])
def test_anchoring_with_a_huge_weight_keeps_the_pretrained_weights_near(tmp_path, monkeypatch, pretrained, fisher):
    before = load_archive(pretrained).model.state_dict()
    fine_tune(tmp_path / "plain", experiment(pretrained), monkeypatch)
    anchoring = {"type": "anchoring", "weight": 1e6, "fisher": fisher, "fisher_batches": 2, "fisher_batch_size": 4}
    losses = fine_tune(tmp_path / "anchored", experiment(pretrained, [anchoring]), monkeypatch)
    free = distance_to_pretrained(weights(tmp_path / "plain"), before)
    anchored = distance_to_pretrained(weights(tmp_path / "anchored"), before)
    assert free.mean() > 0
    assert anchored.mean() < 0.5 * free.mean()
    assert all(loss == loss for loss in losses)  # no NaN


# -- freezing --------------------------------------------------------------------------------------------


def test_freezing_trains_only_the_new_action_rows(tmp_path, monkeypatch, pretrained):
    initialised = []
    on_start = PrototypeInitCallback.on_start

    def record(self, trainer, *args, **kwargs):
        on_start(self, trainer, *args, **kwargs)
        initialised.append(trainer.model.action_embedding.detach().clone())

    monkeypatch.setattr(PrototypeInitCallback, "on_start", record)
    fine_tune(tmp_path / "frozen", experiment(pretrained, [{"type": "freezing"}]), monkeypatch)
    before = load_archive(pretrained).model.state_dict()
    after = weights(tmp_path / "frozen")
    for name, value in before.items():
        assert torch.equal(pretrained_block(after[name], value.shape), value), name
    known = before["action_embedding"].size(0)
    assert after["action_embedding"].size(0) > known
    assert not torch.equal(after["action_embedding"][known:], initialised[0][known:])


def test_freezing_can_leave_named_modules_trainable(tmp_path, monkeypatch, pretrained):
    freezing = {"type": "freezing", "trainable": ["^_slot_filler\\."]}
    fine_tune(tmp_path / "slots", experiment(pretrained, [freezing]), monkeypatch)
    before = load_archive(pretrained).model.state_dict()
    after = weights(tmp_path / "slots")
    for name, value in before.items():
        unchanged = torch.equal(pretrained_block(after[name], value.shape), value)
        if not name.startswith("_slot_filler."):
            assert unchanged, name
    assert any(not torch.equal(pretrained_block(after[name], value.shape), value)
               for name, value in before.items() if name.startswith("_slot_filler."))


def test_freezing_refuses_weight_decay(tmp_path, pretrained):
    config = experiment(pretrained, [{"type": "freezing"}])
    config["trainer"]["optimizer"]["weight_decay"] = 0.1
    with pytest.raises(ConfigurationError, match="weight_decay"):
        built(config, tmp_path / "decay")


def test_the_fallback_routes_an_ensembles_answer(tmp_path, monkeypatch, pretrained):
    """With an ensemble, the archive is the fallback of the whole ensemble (its members as without the method)."""
    config = experiment(pretrained, [{"type": "pretrained_fallback"}])
    config["model"] = {"type": "fewshot_ensemble", "members": [config["model"]] * 2, "combine": "vote"}
    config["type"] = "fewshot_ensemble_finetune"
    fine_tune(tmp_path / "ensemble", config, monkeypatch)
    model = load_archive(str(tmp_path / "ensemble" / "model.tar.gz")).model
    assert type(model).__name__ == "KnownFallback" and type(model.parser).__name__ == "FewShotEnsemble"
    assert len(model.parser.members) == 2 and model.new_actions()
    assert "test_pretrained_share" in json.load(open(tmp_path / "ensemble" / "metrics.json"))


def test_an_ensemble_fine_tunes_every_member_with_the_retention_list(tmp_path, monkeypatch, pretrained):
    config = experiment(pretrained, [{"type": "freezing"}])
    config["model"] = {"type": "fewshot_ensemble", "members": [config["model"]] * 2, "combine": "vote"}
    config["type"] = "fewshot_ensemble_finetune"
    fine_tune(tmp_path / "ensemble", config, monkeypatch)
    before = load_archive(pretrained).model.state_dict()
    after = weights(tmp_path / "ensemble")
    for member in (0, 1):
        for name, value in before.items():
            trained = after[f"members.{member}.{name}"]
            assert torch.equal(pretrained_block(trained, value.shape), value), (member, name)


RETENTION_SYSTEMS = {"ours-replay": "replay", "ours-distill": "distill", "ours-anchor": "anchor",
                     "ours-freeze": "freeze"}


@pytest.mark.parametrize("system", sorted(RETENTION_SYSTEMS))
def test_retention_systems_are_the_faithful_row_plus_their_switch(system):
    from tests import rendered_row

    for dataset in ("jobs", "geo", "atis"):
        for shot in (1, 2):
            variant, faithful = rendered_row(system, dataset, shot), rendered_row("ours", dataset, shot)
            methods = variant.pop("retention")
            assert methods and variant == faithful  # same pre-trained archive and fine-tuning, plus the switch
            for method in methods:
                assert RetentionMethod.resolve_class_name(method["type"])


def faithful_on_the_fixture(pretrain_dir: str) -> Dict[str, Any]:
    """experiments/geo_1shot.jsonnet (the faithful model and readers) on the geo fixture, 2 epochs each."""
    ext = {"FEWSHOT_SPLIT": "0", "FEWSHOT_SEED": "13", "FEWSHOT_PRETRAIN_DIR": pretrain_dir}
    path = os.path.join(PROJECT_ROOT, "experiments", "geo_1shot.jsonnet")
    config = json.loads(_jsonnet.evaluate_file(path, ext_vars=ext))

    def on_fixture(value: Any) -> Any:
        if isinstance(value, dict):
            return {key: on_fixture(inner) for key, inner in value.items()}
        if isinstance(value, list):
            return [on_fixture(inner) for inner in value]
        if isinstance(value, str) and "lemma_data" in value:
            return fixture_split("geo", os.path.basename(value)[: -len(".txt")])
        return value

    config = on_fixture(config)
    config["pretraining"]["trainer"]["num_epochs"] = config["trainer"]["num_epochs"] = 2
    config["pretraining"]["data_loader"].update(batch_size=4, meta_templates=3, meta_queries_per_template=2)
    return config


def test_the_faithful_model_fine_tunes_with_every_method(tmp_path, monkeypatch):
    """The faithful row's model (the authors' decoder with its own input table, classified entities, the
    authors' slot states) takes every method; freezing keeps each of its pre-trained coordinates."""
    config = faithful_on_the_fixture(str(tmp_path / "pretrain"))
    assert config["model"]["slot_variant"] == {"type": "authors"} and config["model"]["decoder"]["type"] == "authors"
    plain = fine_tune(tmp_path / "plain", config, monkeypatch)
    replay = [{"type": "replay", "examples": 5}]
    ewc = {"type": "anchoring", "fisher": True, "fisher_batches": 2, "fisher_batch_size": 4}
    for name, methods in (("replay", replay), ("distill", replay + [{"type": "distillation"}]),
                          ("anchor", [ewc]), ("freeze", [{"type": "freezing"}])):
        losses = fine_tune(tmp_path / name, {**config, "retention": methods}, monkeypatch)
        assert losses != plain and all(loss == loss for loss in losses), name
    before = load_archive(str(tmp_path / "pretrain" / "geo-ours" / "model.tar.gz")).model.state_dict()
    after = weights(tmp_path / "freeze")
    for name, value in before.items():
        assert torch.equal(pretrained_block(after[name], value.shape), value), name
    for table in ("action_embedding", "_decoder.input_embedding"):
        assert after[table].size(0) > before[table].size(0)
