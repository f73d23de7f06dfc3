"""
Entity slots classified over known values (the slot variant `classified_entities` with per-example and
per-step losses, also on the authors' decoder with its details; fewshot_entity_values; EntityClassifier).
"""
import copy
import json
import os

import _jsonnet
import pytest
import torch
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.common.testing import ModelTestCase
from allennlp.data import DatasetReader
from allennlp.models import Model
from allennlp.models.archival import load_archive

import fewshot_parser  # noqa: F401
from fewshot_parser.common.provenance import PROJECT_ROOT
from fewshot_parser.data.dataset_readers.entity_values import ENTITY_VALUE_NAMESPACE
from fewshot_parser.modules.entity_classifier import EntityClassifier
from tests import FIXTURES_ROOT, fixture_model_config, fixture_split, indexed_tensors, rendered_experiment, rendered_row

GEO_READER = {"type": "fewshot_geoquery", "idiom_source": fixture_split("geo", "train"), "min_support": 2}
AUTHORS_SCORING = {"restrict_training": False, "rerankers": [{"type": "dead_ends"}]}
SWITCH = {**AUTHORS_SCORING, "loss_reduction": "example", "slot_variant": {"type": "classified_entities"}}
# The same behaviour with per-step loss means (system `step-loss`), and with the authors' decoder, its three
# details and the decoder's readout for entity slots (faithful defaults).
STEP_SWITCH = {**AUTHORS_SCORING, "slot_variant": {"type": "classified_entities"}}
DECODER_SWITCH = {**SWITCH, "decoder": {"type": "authors", "input_dim": 6, "reduce_input": "inputs", "initial_state": "last_cells",
                                        "bias": False},
                  "slot_variant": {"type": "classified_entities", "readout": "decoder"}, "decoder_dim": 8}


def wrapped(reader: dict) -> dict:
    return {"type": "fewshot_entity_values", "reader": reader}


def test_the_reader_names_each_entity_slots_value_in_slot_order_and_leaves_variables_out():
    reader = DatasetReader.from_params(Params(wrapped(dict(GEO_READER))))
    instances = list(reader.read(fixture_split("geo", "train")))
    checked = 0
    for instance in instances:
        values = [field.label for field in instance["entity_values"].field_list]
        flat = [value for step in instance["metadata"]["slot_values"] for value in step]
        kinds = instance["slot_is_variable"].array.tolist()
        steps = instance["slot_step"].array.tolist()
        assert len(values) == len(kinds)
        for value, kind, step, position in zip(values, kinds, steps, range(len(values))):
            if step < 0 or kind:
                assert value == -1
            else:
                assert value == flat[position] and value in instance["metadata"]["utterance"]
                checked += 1
    assert checked > 0
    # Without a logical form (prediction) the instance has no values.
    assert "entity_values" not in reader.text_to_instance("how big be s0").fields


def test_the_classifier_never_chooses_padding_or_unknown_and_grows_keeping_trained_rows():
    torch.manual_seed(0)
    classifier = EntityClassifier(state_dim=4, encoder_dim=6, num_values=5)
    states, encoded = torch.randn(3, 2, 4), torch.randn(3, 7, 6)
    attention = torch.softmax(torch.randn(3, 2, 7), -1)
    log_probs = classifier(states, attention, encoded)
    assert log_probs.shape == (3, 2, 5)
    assert torch.allclose(log_probs.exp().sum(-1), torch.ones(3, 2))
    assert (log_probs[..., :2].exp() == 0).all()
    old = classifier.readout.weight.detach().clone()
    classifier.extend(8)
    assert classifier.readout.weight.shape == (8, 4)
    assert torch.equal(classifier.readout.weight[:5], old)
    assert torch.allclose(classifier(states, attention, encoded)[..., :5].exp().sum(-1) > 0, torch.tensor(True))


class TestClassifiedEntitiesProtoParser(ModelTestCase):
    switch = SWITCH

    def setup_method(self):
        super().setup_method()
        reader = json.loads(_jsonnet.evaluate_file(FIXTURES_ROOT + "/proto_parser/experiment.jsonnet"))["dataset_reader"]
        self.config_path = fixture_model_config(str(self.TEST_DIR), "classified.json", self.switch, wrapped(reader))
        os.chdir(PROJECT_ROOT)
        self.set_up_model(self.config_path, fixture_split("geo", "train"))

    def tensors(self):
        return indexed_tensors(self.instances, self.vocab)

    def test_model_can_train_save_and_load(self):
        # The attention regularizer, whose gate this is, is off in this config (as in authors_decoder_test.py).
        self.ensure_model_can_train_save_and_load(self.config_path, tolerance=1e-3, gradients_to_ignore={"regularizer.gate.weight", "regularizer.gate.bias"})

    def test_the_value_loss_is_added_to_the_copy_loss_and_is_positive(self):
        self.model.train()
        tensors = self.tensors()
        with_values = self.model(**tensors)["loss"]
        tensors.pop("entity_values")
        copy_only = self.model(**tensors)["loss"]
        assert with_values.item() > copy_only.item() > 0

    def test_a_slots_choice_is_written_as_the_chosen_value_not_an_utterance_word(self):
        tensors = self.tensors()
        values = [self.vocab.get_token_from_index(i, ENTITY_VALUE_NAMESPACE) for i in range(self.vocab.get_vocab_size(ENTITY_VALUE_NAMESPACE))]
        checked = 0
        for row, instance in enumerate(self.instances):
            slots = [s for s, k in zip(instance["slot_step"].array.tolist(), instance["slot_is_variable"].array.tolist()) if s >= 0 and k == 0]
            if not slots:
                continue
            utterance = instance["metadata"]["utterance"]
            other = next(i for i, v in enumerate(values) if i >= 2 and v not in utterance)
            entity_choice = {(0, step): [other] * slots.count(step) for step in set(slots)}
            variable_choice = {(0, t): [2] * 4 for t in range(tensors["actions"].size(1))}
            steps = self.model.slots.steps(self.model, tensors["actions"][row].tolist(), 0, utterance, entity_choice, variable_choice)
            written = [v.value for step in steps for v in step.values if v.kind == "entity"]
            assert written == [values[other]] * len(slots)
            checked += 1
        assert checked > 0

    def test_decoding_chooses_known_values_for_entity_slots(self):
        self.model.eval()
        chosen = []
        predict = self.model.slots.predict_slots

        def recording(*args, **kwargs):
            entity_choice, variable_choice = predict(*args, **kwargs)
            chosen.extend(value for values in entity_choice.values() for value in values)
            return entity_choice, variable_choice

        self.model.slots.predict_slots = recording
        tensors = self.tensors()
        output = self.model(**tensors)
        assert len(output["logical_form"]) == len(self.instances)
        # The gold templates too, so that entity slots are filled whatever an untrained search takes.
        with torch.no_grad():
            decoded, encoded, mask = self.model.teacher_forced(tensors)
            actions = tensors["actions"]
            self.model.slots.predict_slots(self.model, actions.clamp(min=0), actions >= 0, decoded.projections, encoded, mask, tensors["source_entity_types"])
        assert chosen, "no entity slot was decoded"
        assert all(2 <= value < self.vocab.get_vocab_size(ENTITY_VALUE_NAMESPACE) for value in chosen)


class TestClassifiedEntitiesOnPerStepMeans(TestClassifiedEntitiesProtoParser):
    switch = STEP_SWITCH

    def value_loss(self, switch: dict) -> float:
        """The loss the value cross-entropy adds, on the fixture batch, for a model of `switch`'s type."""
        config = json.loads(_jsonnet.evaluate_file(FIXTURES_ROOT + "/proto_parser/experiment.jsonnet"))["model"]
        torch.manual_seed(0)
        model = Model.from_params(vocab=self.vocab, params=Params(copy.deepcopy({**config, **switch}))).eval()
        tensors = self.tensors()
        with torch.no_grad():
            with_values = model(**tensors)["loss"].item()
            tensors.pop("entity_values")
            return with_values - model(**tensors)["loss"].item()

    def test_the_value_loss_is_a_mean_over_entity_slots_here_and_a_per_example_sum_on_the_faithful_model(self):
        known = int((self.tensors()["entity_values"] >= 2).sum())
        assert known not in (0, len(self.instances))  # so the two reductions differ
        per_slot, per_example = self.value_loss(STEP_SWITCH), self.value_loss(SWITCH)
        assert per_slot > 0
        assert per_example == pytest.approx(per_slot * known / len(self.instances), rel=1e-4)


class TestClassifiedEntitiesOnTheAuthorsDecoder(TestClassifiedEntitiesProtoParser):
    switch = DECODER_SWITCH

    def test_entity_slots_read_out_through_the_decoders_layers(self):
        model = self.model
        classifier = model._slot_variant._entity_classifier
        assert classifier.attentional is model._decoder.output
        assert classifier.dropout is model._decoder.dropout
        assert model._slot_filler.copy_key is model._decoder.attention_key
        names = [name for name, _ in model.named_parameters()]
        assert not any(n.startswith("_slot_variant._entity_classifier.attentional") or n.startswith("_slot_filler.copy_key") for n in names)
        # A change of the decoder's map changes the entity values' scores.
        tensors = self.tensors()
        model.eval()
        with torch.no_grad():
            before = model(**tensors)["loss"]
            model._decoder.output.weight.mul_(2.0)
            assert not torch.isclose(model(**tensors)["loss"], before)

    def test_own_readout_keeps_layers_of_its_own(self):
        config = json.loads(_jsonnet.evaluate_file(FIXTURES_ROOT + "/proto_parser/experiment.jsonnet"))["model"]
        config.update({**DECODER_SWITCH, "slot_variant": {"type": "classified_entities", "readout": "own"}})
        model = Model.from_params(vocab=self.vocab, params=Params(copy.deepcopy(config)))
        assert model._slot_variant._entity_classifier.attentional is not model._decoder.output
        assert model._slot_filler.copy_key is not model._decoder.attention_key
        with pytest.raises(ConfigurationError, match="readout must be one of"):
            Model.from_params(vocab=self.vocab, params=Params(copy.deepcopy({**config, "slot_variant": {"type": "classified_entities", "readout": "shared"}})))


def test_a_tiny_experiment_pretrains_and_finetunes_with_the_switch_and_its_archive_loads(tmp_path, monkeypatch):
    monkeypatch.chdir(PROJECT_ROOT)
    pretrained = str(tmp_path / "pretrain" / "model.tar.gz")
    config = json.loads(_jsonnet.evaluate_file(os.path.join(FIXTURES_ROOT, "fewshot", "experiment.jsonnet"),
                                               ext_vars={"PRETRAINED": pretrained}))
    for part in (config, config["pretraining"]):
        part["dataset_reader"] = wrapped(part["dataset_reader"])
        part["model"].update(SWITCH)
    path = tmp_path / "experiment.json"
    path.write_text(json.dumps(config))
    from allennlp.commands.train import train_model_from_file

    train_model_from_file(str(path), str(tmp_path / "run"))
    assert "test_exact_match" in json.load(open(tmp_path / "run" / "metrics.json"))
    before = load_archive(pretrained).model
    after = load_archive(str(tmp_path / "run" / "model.tar.gz")).model
    for model in (before, after):
        size = model.vocab.get_vocab_size(ENTITY_VALUE_NAMESPACE)
        assert model._slot_variant._entity_classifier.readout.out_features == size > 2
    support_values = {v for line in open(fixture_split("geo", "support")) for v in line.split("\t")[1].split() if v[-1:].isdigit() and v[:-1].isalpha() and len(v) <= 3}
    assert support_values <= set(after.vocab.get_token_to_index_vocabulary(ENTITY_VALUE_NAMESPACE))


def test_the_faithful_config_is_the_copy_switch_with_only_the_slot_variant_and_reader_wrapper_added():
    faithful = rendered_row("ours", "geo", 1)
    copied = rendered_row("copy-entities", "geo", 1)
    assert copied.pop("pretrained_archive") == "p/geo-copy-entities/model.tar.gz"
    faithful.pop("pretrained_archive")
    for config in (faithful, faithful["pretraining"]):
        assert config["model"].pop("slot_variant") == {"type": "authors"}
        reader = config.pop("dataset_reader")
        assert reader["type"] == "fewshot_entity_values"
        config["dataset_reader"] = reader["reader"]
    for config in (copied["model"], copied["pretraining"]["model"]):
        assert "slot_variant" not in config and config["loss_reduction"] == "example"
    assert copied == faithful


def test_the_faithful_config_is_the_own_readout_switch_with_only_the_readout_added():
    faithful = rendered_row("ours", "geo", 1)
    own = rendered_row("own-entity-readout", "geo", 1)
    assert own.pop("pretrained_archive") == "p/geo-own-entity-readout/model.tar.gz"
    faithful.pop("pretrained_archive")
    for config in (faithful["model"], faithful["pretraining"]["model"]):
        assert config.pop("slot_variant") == {"type": "authors"}
    for config in (own["model"], own["pretraining"]["model"]):  # the authors' slot states need the decoder's readout
        assert config.pop("slot_variant") == {"type": "classified_entities", "readout": "own"}
    assert own == faithful


@pytest.mark.parametrize("system,slot_variant", [
    ("step_loss", {"type": "classified_entities", "readout": "decoder"}),
    ("our_decoder_details", {"type": "authors"}),
    ("own_entity_readout", {"type": "classified_entities", "readout": "own"}),
])
def test_switch_systems_of_the_faithful_row_keep_classified_slots(system, slot_variant):
    config = rendered_row(system.replace("_", "-"), "jobs", 2)
    for part in (config, config["pretraining"]):
        assert part["model"]["type"] == "proto_parser" and part["model"]["slot_variant"] == slot_variant
        assert part["dataset_reader"]["type"] == "fewshot_entity_values"
