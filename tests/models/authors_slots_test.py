"""
The authors' slot states (the slot variant `authors`, modules/authors_slot_states.py): entity slots start
from the decoder state of their step, variable slots form one chain per example; both read out through
the decoder.
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
from allennlp.models import Model

import fewshot_parser  # noqa: F401
from fewshot_parser.common.provenance import PROJECT_ROOT
from fewshot_parser.modules.authors_slot_states import AuthorsSlotStates
from tests import FIXTURES_ROOT, fixture_model_config, fixture_split, indexed_tensors, rendered_experiment, rendered_row

READER = {"type": "fewshot_entity_values",
          "reader": {"type": "fewshot_geoquery", "idiom_source": fixture_split("geo", "train"), "min_support": 2}}
DECODER = {"type": "authors", "input_dim": 6, "reduce_input": "inputs", "initial_state": "last_cells", "bias": False}
SWITCH = {"decoder": DECODER, "slot_variant": {"type": "authors"}, "loss_reduction": "example", "decoder_dim": 8,
          "restrict_training": False, "rerankers": [{"type": "dead_ends"}]}


def model_config() -> dict:
    config = json.loads(_jsonnet.evaluate_file(FIXTURES_ROOT + "/proto_parser/experiment.jsonnet"))["model"]
    config.update(copy.deepcopy(SWITCH))
    return config


class TestAuthorsSlots(ModelTestCase):
    def setup_method(self):
        super().setup_method()
        self.config_path = fixture_model_config(str(self.TEST_DIR), "authors_slots.json", SWITCH, READER)
        os.chdir(PROJECT_ROOT)
        self.set_up_model(self.config_path, fixture_split("geo", "train"))

    def tensors(self):
        return indexed_tensors(self.instances, self.vocab)

    def test_model_can_train_save_and_load(self):
        # The variable embeddings feed only the second and later variable slots of an action, which the
        # fixture's validation file (the gradient check's batch) does not have.
        self.ensure_model_can_train_save_and_load(self.config_path, tolerance=1e-3, gradients_to_ignore={
            "_slot_variant._slot_states.variable_embedding.weight"})

    def test_our_slot_layers_are_not_built(self):
        names = [name for name, _ in self.model.named_parameters()]
        # The parser builds none of its copy-and-name slot layers: the slots have states of their own.
        assert not any(name.startswith("_slot_filler.") for name in names)
        assert not any(name.startswith("_slot_filler.") for name in self.model.state_dict())
        filler = self.model.slot_filler
        assert filler.entity_decoder is filler.variable_decoder is filler.type_embedding is None
        assert filler.variable_position is filler.variable_output is filler.copy_key is None
        assert all(p.requires_grad for _, p in self.model.named_parameters())
        assert any(name.startswith("_slot_variant._slot_states.variable_lstm") for name in names)
        # The regularizer is off in this config: it has no gate.
        assert not any(name.startswith("regularizer.") for name in names)

    def test_entity_states_start_from_the_decoder_state_of_their_step(self):
        model = self.model.eval()
        tensors = self.tensors()
        with torch.no_grad():
            decoded, encoded, mask = model.teacher_forced(tensors)
            actions = tensors["actions"].clamp(min=0)
            h, c = model._slot_variant._step_states(model, decoded.projections)
            assert h.shape[:2] == actions.shape
            # The recorded h_t are the decoder's own states.
            assert torch.allclose(h, decoded.states)
            steps = (model.space()["entity_types"][actions, 0] != 0) & (tensors["actions"] >= 0)
            keys = steps.flatten().nonzero().squeeze(-1)
            assert keys.numel() > 0
            states, log_attention = model._slot_variant._authors_entities(model, keys, actions.size(1), actions, decoded.projections, encoded, mask)
            b, t = keys // actions.size(1), keys % actions.size(1)
            x = torch.cat([model._decoder.input_embedding[actions[b, t]], decoded.projections[b, t]], -1)
            cell = torch.nn.LSTMCell(x.size(-1), h.size(-1))
            lstm = model._slot_variant._slot_states.entity_lstm
            cell.weight_ih.copy_(lstm.weight_ih_l0), cell.weight_hh.copy_(lstm.weight_hh_l0)
            cell.bias_ih.copy_(lstm.bias_ih_l0), cell.bias_hh.copy_(lstm.bias_hh_l0)
            first, _ = cell(x, (h[b, t], c[b, t]))
            assert torch.allclose(states[:, 0], first, atol=1e-6)
            assert torch.allclose(log_attention.exp().sum(-1), torch.ones(log_attention.shape[:2]))
            # Padding positions get no attention.
            assert (log_attention.exp() * ~mask[b].unsqueeze(1)).sum() == 0

    def chain(self, tensors, projections=None):
        model = self.model
        decoded, encoded, mask = model.teacher_forced(tensors)
        projections = decoded.projections if projections is None else projections
        is_variable = (tensors["slot_step"] >= 0) & (tensors["slot_is_variable"] == 1)
        b, s = is_variable.nonzero(as_tuple=True)
        steps, order = tensors["slot_step"][b, s], tensors["slot_order"][b, s]
        scores, _ = model._slot_variant._variable_chain_scores(model, projections, encoded, mask, b, steps, order, tensors["variable_values"][b, s].clamp(min=0))
        ranked = ((b * 1000 + steps) * 10 + order).argsort()
        return decoded.projections, scores, b[ranked], steps[ranked]

    def test_the_variable_chain_runs_on_across_actions_and_never_looks_ahead(self):
        self.model.eval()
        tensors = self.tensors()
        with torch.no_grad():
            projections, scores, rows, steps = self.chain(tensors)
            # An example with variable slots at two or more steps.
            row = next(r for r in rows.unique().tolist() if len(set(steps[rows == r].tolist())) >= 2)
            mine = (rows == row).nonzero().squeeze(-1)
            first, last = int(steps[mine[0]]), int(steps[mine[-1]])
            changed = projections.clone()
            changed[row, first] += 1.0
            _, after, _, _ = self.chain(tensors, changed)
            # The attentional vector read by the first action's slot changes the state of a later action's slot.
            later = mine[steps[mine] == last]
            assert not torch.allclose(after[later], scores[later])
            # Other examples' chains are their own.
            assert torch.allclose(after[rows != row], scores[rows != row])
            changed = projections.clone()
            changed[row, last] += 1.0
            _, after, _, _ = self.chain(tensors, changed)
            earlier = mine[steps[mine] < last]
            assert torch.allclose(after[earlier], scores[earlier])

    def test_greedy_names_follow_the_chain_the_loss_trains(self):
        """With the gold templates, the greedy names are the best names of the teacher-forced chain wherever
        the chain's earlier names were the gold ones (names are the only inputs where the two can differ)."""
        model = self.model.eval()
        tensors = self.tensors()
        with torch.no_grad():
            _, scores, rows, steps = self.chain(tensors)
            decoded, encoded, mask = model.teacher_forced(tensors)
            actions = tensors["actions"]
            _, choice = model.slots.predict_slots(model, actions.clamp(min=0), actions >= 0, decoded.projections, encoded, mask, tensors["source_entity_types"])
        scores[:, :2] = torch.finfo(scores.dtype).min
        is_variable = (tensors["slot_step"] >= 0) & (tensors["slot_is_variable"] == 1)
        b, s = is_variable.nonzero(as_tuple=True)
        order = tensors["slot_order"][b, s]
        gold = tensors["variable_values"][b, s]
        ranked = ((b * 1000 + tensors["slot_step"][b, s]) * 10 + order).argsort()
        order, gold = order[ranked], gold[ranked]
        predicted = [choice[int(r), int(t)][int(k)] for r, t, k in zip(rows, steps, order)]
        checked = 0
        for i, name in enumerate(predicted):
            # Names fed so far along this chain are gold, so the greedy inputs equal the teacher-forced ones.
            fed = [j for j in range(i) if rows[j] == rows[i]]
            if all(predicted[j] == int(gold[j]) for j in fed):
                assert name == int(scores[i].argmax())
                checked += 1
        assert checked > 0

    def test_decoding_names_known_variables_for_every_variable_slot(self):
        model = self.model.eval()
        tensors = self.tensors()
        with torch.no_grad():
            decoded, encoded, mask = model.teacher_forced(tensors)
            actions = tensors["actions"]
            _, variable_choice = model.slots.predict_slots(model, actions.clamp(min=0), actions >= 0, decoded.projections, encoded, mask, tensors["source_entity_types"])
        counts = model.space()["num_variables"][actions.clamp(min=0)] * (actions >= 0)
        expected = {(r, t): int(counts[r, t]) for r, t in counts.nonzero().tolist()}
        assert expected and {key: len(names) for key, names in variable_choice.items()} == expected
        size = model.vocab.get_vocab_size("variables")
        assert all(2 <= name < size for names in variable_choice.values() for name in names)
        output = model(**tensors)
        assert len(output["logical_form"]) == len(self.instances)

    def test_a_mismatched_record_is_an_error_not_a_silent_misreading(self):
        model = self.model.eval()
        tensors = self.tensors()
        with torch.no_grad():
            decoded, _, _ = model.teacher_forced(tensors)
        with pytest.raises(RuntimeError, match="recorded decoder run"):
            model._slot_variant._step_states(model, decoded.projections[:, :-1])


def test_the_variable_layers_grow_keeping_trained_rows():
    states = AuthorsSlotStates(input_dim=3, action_dim=4, hidden_dim=4, num_variables=5)
    old = states.variable_readout.weight.detach().clone()
    states.extend(7)
    assert states.variable_embedding.num_embeddings == 7 and states.variable_readout.out_features == 7
    assert torch.equal(states.variable_readout.weight[:5], old)


def test_the_switch_refuses_settings_it_is_not_built_for():
    from allennlp.data import DatasetReader, Vocabulary

    reader = DatasetReader.from_params(Params(copy.deepcopy(READER)))
    vocab = Vocabulary.from_instances(reader.read(fixture_split("geo", "train")))
    with pytest.raises(ConfigurationError, match="Extra parameters"):  # it always reads out through the decoder
        Model.from_params(vocab=vocab, params=Params({**model_config(), "slot_variant": {"type": "authors", "readout": "own"}}))
    config = model_config()
    with pytest.raises(ConfigurationError, match="needs the authors' decoder"):
        Model.from_params(vocab=vocab, params=Params({**config, "decoder": {"type": "stack"}}))


def test_the_faithful_config_has_the_authors_slot_states_and_our_slot_states_is_the_same_but_the_slot_variant():
    faithful = rendered_row("ours", "geo", 2)
    switched = rendered_row("our-slot-states", "geo", 2)
    assert switched.pop("pretrained_archive") == "p/geo-our-slot-states/model.tar.gz"
    faithful.pop("pretrained_archive")
    for config in (faithful["model"], faithful["pretraining"]["model"]):
        assert config.pop("slot_variant") == {"type": "authors"}
    for config in (switched["model"], switched["pretraining"]["model"]):
        assert config.pop("slot_variant") == {"type": "classified_entities", "readout": "decoder"}
    assert switched == faithful


def test_a_tiny_experiment_pretrains_with_meta_batches_and_finetunes_with_grown_vocabularies(tmp_path, monkeypatch):
    from allennlp.commands.train import train_model_from_file
    from allennlp.models.archival import load_archive

    monkeypatch.chdir(PROJECT_ROOT)
    pretrained = str(tmp_path / "pretrain" / "model.tar.gz")
    config = json.loads(_jsonnet.evaluate_file(os.path.join(FIXTURES_ROOT, "fewshot", "experiment.jsonnet"),
                                               ext_vars={"PRETRAINED": pretrained}))
    for part in (config, config["pretraining"]):
        part["dataset_reader"] = {"type": "fewshot_entity_values", "reader": part["dataset_reader"]}
        part["model"].update(SWITCH)
    path = tmp_path / "experiment.json"
    path.write_text(json.dumps(config))
    train_model_from_file(str(path), str(tmp_path / "run"))
    assert "test_exact_match" in json.load(open(tmp_path / "run" / "metrics.json"))
    model = load_archive(str(tmp_path / "run" / "model.tar.gz")).model
    size = model.vocab.get_vocab_size("variables")
    states = model._slot_variant._slot_states
    assert states.variable_readout.out_features == states.variable_embedding.num_embeddings == size
    assert model.slot_filler.variable_output is None and not list(model.slot_filler.parameters())
