"""The authors' REDUCE input and initial decoder state (the `reduce_input`, `initial_state` and `bias` of `decoder: {type: authors}`, ReduceInputStackDecoder)."""
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
from allennlp.models.archival import load_archive
from allennlp.modules.seq2seq_encoders import LstmSeq2SeqEncoder

import fewshot_parser  # noqa: F401
from fewshot_parser.common.provenance import PROJECT_ROOT
from fewshot_parser.modules.reduce_input_decoder import ReduceInputStackDecoder, encode_with_last_cells
from tests import FIXTURES_ROOT, fixture_split, indexed_tensors, rendered_experiment, rendered_row, train_fixture_experiment

CONFIG = FIXTURES_ROOT + "/proto_parser/experiment.jsonnet"
DECODER = {"type": "authors", "input_dim": 6, "reduce_input": "inputs", "initial_state": "last_cells", "bias": False}
SWITCHES = {"restrict_training": False, "rerankers": [{"type": "dead_ends"}], "decoder": DECODER}


def test_encoder_outputs_are_the_wrappers_and_cells_are_each_examples_last_cells():
    torch.manual_seed(0)
    encoder = LstmSeq2SeqEncoder(input_size=4, hidden_size=3, bidirectional=True)
    inputs = torch.randn(4, 6, 4)
    lengths = [3, 6, 0, 2]  # unsorted, one empty row, none as long as the padding below
    mask = torch.arange(7).unsqueeze(0) < torch.tensor(lengths).unsqueeze(1)
    inputs = torch.cat([inputs, torch.zeros(4, 1, 4)], 1)
    outputs, cells = encode_with_last_cells(encoder, inputs, mask)
    assert torch.allclose(outputs, encoder(inputs, mask), atol=1e-6)
    assert cells.shape == (4, 6)
    for row, length in enumerate(lengths):
        if length == 0:
            assert not cells[row].any()
            continue
        _, (_, last) = encoder._module(inputs[row: row + 1, :length])
        assert torch.allclose(cells[row], torch.cat(list(last[:, 0]), -1), atol=1e-6)


class TestAuthorsDecoderProtoParser(ModelTestCase):
    def setup_method(self):
        super().setup_method()
        self.set_up_model(CONFIG, fixture_split("geo", "train"))

    def parser(self, **details) -> Model:
        config = json.loads(_jsonnet.evaluate_file(CONFIG))["model"]
        config.update({**SWITCHES, "decoder": {**DECODER, **details}})
        torch.manual_seed(0)
        return Model.from_params(vocab=self.vocab, params=Params(copy.deepcopy(config))).eval()

    def tensors(self):
        return indexed_tensors(self.instances, self.vocab)

    def test_model_can_train_save_and_load(self):
        overrides = {f"model.{key}": value for key, value in SWITCHES.items()}
        self.ensure_model_can_train_save_and_load(
            self.param_file, tolerance=1e-3, overrides=json.dumps(overrides),
        )

    @pytest.mark.parametrize("reduce_input,initial_state", [("inputs", "last_cells"), ("states", "last_cells"), ("inputs", "mean")])
    def test_search_along_the_gold_path_repeats_teacher_forcing(self, reduce_input, initial_state):
        """The search's stack bookkeeping (children's inputs, cells) gives the teacher-forced h_t at every step."""
        model = self.parser(reduce_input=reduce_input, initial_state=initial_state)
        tensors = self.tensors()
        actions = tensors["actions"]
        arity = model.space()["arity"][actions.clamp(min=0)]
        assert ((arity > 1) & (actions >= 0)).any()  # REDUCEs with several children are exercised
        with torch.no_grad():
            encoded, mask = model.encode(tensors["source_tokens"])
            matrix = model.action_matrix()
            forced = model._decoder(encoded, mask, matrix, actions, tensors["previous_state"], tensors["popped_states"])
            step = [0]

            def gold(projection: torch.Tensor, attention: torch.Tensor) -> torch.Tensor:
                target = actions[:, step[0]].clamp(min=0) if step[0] < actions.size(1) else torch.zeros_like(actions[:, 0])
                step[0] += 1
                return torch.nn.functional.one_hot(target, matrix.size(0)).float() * 1e4

            taken, _, projections = model._decoder.search(encoded, mask, matrix, model.space(), actions.size(1), gold, 1)
        steps = taken.size(-1)
        assert torch.equal(taken[:, 0], actions[:, :steps])
        valid = actions[:, :steps] >= 0
        assert torch.allclose(projections[:, 0][valid], forced.projections[:, :steps][valid], atol=1e-5)

    def test_a_reduce_reads_a_linear_map_of_its_childrens_inputs(self):
        """Teacher forcing against a step-by-step version of the authors' rule, one example at a time."""
        model = self.parser()
        tensors = self.tensors()
        decoder = model._decoder
        with torch.no_grad():
            encoded, mask = model.encode(tensors["source_tokens"])
            cells = decoder.encoder_cells
            forced = decoder(encoded, mask, model.action_matrix(), tensors["actions"], tensors["previous_state"],
                             tensors["popped_states"])
            keys = decoder.attention_key(encoded)
            reduced_steps = 0
            for row in range(encoded.size(0)):
                h = torch.tanh(decoder.initial(cells[row: row + 1]))
                hs, cs = [h], [torch.zeros_like(h)]
                inputs = [None]  # the input each decoder state was made from (state 0: none)
                fed = torch.zeros(1, decoder.action_dim)
                previous_action = None
                for t, action in enumerate(tensors["actions"][row].tolist()):
                    if action < 0:
                        break
                    row_embedding = decoder.start if previous_action is None else decoder.input_embedding[previous_action]
                    x = torch.cat([row_embedding.unsqueeze(0), fed], -1)
                    children = [s for s in tensors["popped_states"][row, t].tolist() if s >= 0]
                    if children:
                        reduced_steps += 1
                        mean = torch.stack([inputs[s] for s in children]).mean(0)
                        x = decoder.reduce(torch.cat([mean, x], -1))
                    inputs.append(x)
                    previous = tensors["previous_state"][row, t].item()
                    h, c = decoder.cell(x, (hs[previous], cs[previous]))
                    hs.append(h)
                    cs.append(c)
                    fed, _ = decoder.attend(h, keys[row: row + 1], encoded[row: row + 1], mask[row: row + 1])
                    assert torch.allclose(fed[0], forced.projections[row, t], atol=1e-5), (row, t)
                    previous_action = action
        assert reduced_steps > 0

    def test_each_detail_changes_what_the_decoder_computes(self):
        tensors = self.tensors()
        results = {}
        for details in [("inputs", "last_cells"), ("states", "last_cells"), ("inputs", "mean"), ("states", "mean")]:
            model = self.parser(reduce_input=details[0], initial_state=details[1])
            torch.manual_seed(1)
            for parameter in model._decoder.parameters():  # the same values wherever the shapes agree
                torch.nn.init.uniform_(parameter, -0.3, 0.3)
            decoded, _, _ = model.teacher_forced(tensors)
            results[details] = decoded.projections
        first = results[("inputs", "last_cells")]
        for details, projections in results.items():
            if details != ("inputs", "last_cells"):
                assert not torch.allclose(first, projections, atol=1e-4), details

    def test_the_authors_maps_have_no_bias_and_ours_have_one(self):
        authors, ours = self.parser(), self.parser(bias=True)
        assert authors._decoder.output.bias is None and authors._decoder.reduce.bias is None
        assert ours._decoder.output.bias is not None and ours._decoder.reduce.bias is not None
        # The same parameters otherwise, in the same order.
        names = [n for n, _ in ours.named_parameters() if n not in ("_decoder.output.bias", "_decoder.reduce.bias")]
        assert [n for n, _ in authors.named_parameters()] == names
        # Only the bias separates the two: with it zeroed, the same weights give the same vectors.
        tensors = self.tensors()
        with torch.no_grad():
            for name, parameter in ours.named_parameters():
                parameter.copy_(dict(authors.named_parameters()).get(name, torch.zeros_like(parameter)))
            assert torch.allclose(authors.teacher_forced(tensors)[0].projections, ours.teacher_forced(tensors)[0].projections, atol=1e-6)
            ours._decoder.output.bias.fill_(0.5)
            assert not torch.allclose(authors.teacher_forced(tensors)[0].projections, ours.teacher_forced(tensors)[0].projections, atol=1e-3)

    def test_wrong_settings_are_configuration_errors(self):
        with pytest.raises(ConfigurationError, match="reduce_input"):  # our decoder has no such details
            self.parser(type="stack")
        with pytest.raises(ConfigurationError, match="reduce_input"):
            self.parser(reduce_input="children")
        with pytest.raises(RuntimeError, match="last cells"):
            model = self.parser()
            encoded = torch.zeros(2, 3, model._decoder.attention_key.in_features)
            model._decoder.encoder_cells = None
            model._decoder.initial_state(encoded, torch.ones(2, 3, dtype=torch.bool))


def test_a_tiny_experiment_pretrains_and_finetunes_with_the_switch_and_its_archive_loads(tmp_path, monkeypatch):
    overrides = {f"{prefix}model.{key}": value for prefix in ("", "pretraining.") for key, value in SWITCHES.items()}
    pretrained = train_fixture_experiment(tmp_path, monkeypatch, overrides)
    assert "test_exact_match" in json.load(open(tmp_path / "run" / "metrics.json"))
    for archive in (pretrained, str(tmp_path / "run" / "model.tar.gz")):
        decoder = load_archive(archive).model._decoder
        assert isinstance(decoder, ReduceInputStackDecoder) and decoder.reduce_input == "inputs"


def test_the_faithful_config_is_the_switch_system_with_only_the_three_details_added():
    faithful = rendered_row("ours", "geo", 2)
    switched = rendered_row("our-decoder-details", "geo", 2)
    assert switched.pop("pretrained_archive") == "p/geo-our-decoder-details/model.tar.gz"
    faithful.pop("pretrained_archive")
    for config in (faithful["model"], faithful["pretraining"]["model"]):
        assert config.pop("decoder") == {"type": "authors", "reduce_input": "inputs", "initial_state": "last_cells", "bias": False}
    for config in (switched["model"], switched["pretraining"]["model"]):
        assert config.pop("decoder") == {"type": "authors", "reduce_input": "states", "initial_state": "mean", "bias": True}
    assert switched == faithful


def test_our_stack_decoder_switch_also_takes_back_the_details():
    config = rendered_row("stack-decoder", "geo", 2)["model"]
    assert config["type"] == "proto_parser" and "decoder" not in config and config["action_dim"] != 256
    assert config["slot_variant"]["type"] == "classified_entities"


def test_the_decoder_computes_what_the_authors_decoder_computes_on_the_same_weights():
    """benchmarks/decoder_differential.py: the authors' `decode` against ours, biases aside (needs their code)."""
    import importlib.util
    import shutil

    path = os.path.join(PROJECT_ROOT, "benchmarks", "decoder_differential.py")
    spec = importlib.util.spec_from_file_location("decoder_differential", path)
    differential = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(differential)
    if not os.path.isdir(os.path.join(differential.DEFAULT_REFERENCE, "src")) or shutil.which("patch") is None:
        pytest.skip("the authors' code (../shared/reference_impl) or `patch` is not here")
    results = differential.compare(differential.DEFAULT_REFERENCE, num_sequences=5, length=12, seed=3)
    assert all(reductions > 0 for reductions, _ in results[False])  # every sequence reads REDUCEs
    assert max(difference for _, difference in results[False]) < 1e-6
    # Our two biases are the difference that is left, so the comparison is not blind to a change.
    assert max(difference for _, difference in results[True]) > 1e-3
