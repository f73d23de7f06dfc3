"""The model names of the old decoding mixins: translated to `proto_parser` with decoding components."""
import copy
import json

import _jsonnet
import pytest
from allennlp.common import Params
from allennlp.common.testing import ModelTestCase
from allennlp.models import Model

import fewshot_parser  # noqa: F401
from fewshot_parser.models.legacy_names import LEGACY_MODEL_NAMES, translate_legacy_config
from fewshot_parser.models.proto_parser import ProtoParser
from fewshot_parser.modules.decoding import EntityCoverage, MissingEvidence, SlotTypeCheck, VariableScoping
from tests import FIXTURES_ROOT, fixture_split


def test_every_old_name_is_registered_and_none_is_a_class():
    assert len(LEGACY_MODEL_NAMES) == 22
    for name in LEGACY_MODEL_NAMES:
        assert name in Model.list_available() and not isinstance(Model.by_name(name), type)


def test_the_flat_keys_become_components_in_the_mixins_order():
    old = {"coverage_weight": 5.0, "beam_size": 5, "evidence_weight": 2.0, "evidence_share": 0.7,
           "evidence_actions": "all", "slot_type_weight": 3.0, "names_per_slot": 4, "dropout": 0.1}
    assert translate_legacy_config("irnet_parser_entity_coverage_missing_evidence_slot_types_scoped", old) == {
        "type": "irnet_parser", "dropout": 0.1,
        "decoding_scorers": [{"type": "slot_type_check", "weight": 3.0},
                             {"type": "missing_evidence", "weight": 2.0, "share": 0.7, "actions": "all"}],
        "rerankers": [{"type": "variable_scoping", "names_per_slot": 4},
                      {"type": "entity_coverage", "weight": 5.0, "beam_size": 5}],
    }
    assert translate_legacy_config("proto_parser_slot_types", {}) == {
        "type": "proto_parser", "decoding_scorers": [{"type": "slot_type_check"}]}
    with pytest.raises(ValueError):
        translate_legacy_config("proto_parser", {})


class TestLegacyNames(ModelTestCase):
    def setup_method(self):
        super().setup_method()
        self.set_up_model(FIXTURES_ROOT + "/proto_parser/experiment.jsonnet", fixture_split("geo", "train"))

    def build(self, **settings) -> Model:
        config = json.loads(_jsonnet.evaluate_file(FIXTURES_ROOT + "/proto_parser/experiment.jsonnet"))["model"]
        config.update(settings)
        model = Model.from_params(vocab=self.vocab, params=Params(copy.deepcopy(config)))
        model.load_state_dict(self.model.state_dict(), strict=False)
        model.eval()
        return model

    def test_every_old_name_builds_the_parser_with_its_components(self):
        for name in LEGACY_MODEL_NAMES:
            if name.startswith("irnet_parser"):
                continue  # the fixture's embedder suits proto_parser; irnet_parser's translation is the same
            model = self.build(type=name)
            assert type(model) is ProtoParser
            assert [type(s) for s in model.decoding_scorers] == \
                [SlotTypeCheck] * ("_slot_types" in name) + [MissingEvidence] * ("_missing_evidence" in name)
            assert [type(r) for r in model.rerankers] == \
                [VariableScoping] * name.endswith("_scoped") + [EntityCoverage] * ("_entity_coverage" in name)
            assert model.beam_size == 1

    def test_an_old_config_decodes_as_its_new_configuration(self):
        examples = [(i["metadata"].metadata["utterance"], i["metadata"].metadata["actions"]) for i in self.instances]
        old = self.build(type="proto_parser_entity_coverage_missing_evidence_slot_types_scoped", coverage_weight=1000.0,
                         beam_size=3, evidence_weight=5.0, evidence_min_count=1, slot_type_weight=4.0)
        new = self.build(decoding_scorers=[{"type": "slot_type_check", "weight": 4.0},
                                           {"type": "missing_evidence", "weight": 5.0, "min_count": 1}],
                         rerankers=[{"type": "variable_scoping"}, {"type": "entity_coverage", "weight": 1000.0, "beam_size": 3}])
        for model in (old, new):
            model.decoding_scorers[1].set_statistics(model, examples)
        assert old.forward_on_instances(self.instances) == new.forward_on_instances(self.instances)


def test_a_predictor_is_found_for_an_archive_that_names_an_old_model(tmp_path):
    """`allennlp predict` looks up the registered class's `default_predictor`: an old name must answer it
    (the best row's pre-trained archives name `irnet_parser`)."""
    from allennlp.commands.train import train_model
    from allennlp.models.archival import load_archive
    from allennlp.predictors import Predictor

    for name in ["irnet_parser"] + LEGACY_MODEL_NAMES:
        assert Model.resolve_class_name(name)[0].default_predictor == ProtoParser.default_predictor, name
    old = next(name for name in LEGACY_MODEL_NAMES if not name.startswith("irnet_parser"))
    config = json.loads(_jsonnet.evaluate_file(FIXTURES_ROOT + "/proto_parser/experiment.jsonnet"))
    config["model"]["type"] = old
    config["trainer"]["num_epochs"] = 1
    train_model(Params(config), str(tmp_path / "run"))
    predictor = Predictor.from_archive(load_archive(str(tmp_path / "run" / "model.tar.gz")))
    assert type(predictor._model) is ProtoParser
