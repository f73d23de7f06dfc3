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
from fewshot_parser.logical_forms.tree import parse
from fewshot_parser.modules.decoding.variable_scoping import VariableScoping, namings, scoping_errors
from fewshot_parser.modules.slot_filler import SlotFiller
from tests import FIXTURES_ROOT, fixture_split


def errors(logical_form: str):
    return scoping_errors(parse(logical_form, "lambda"))


def test_scoping_errors_find_free_variables_and_unused_binders():
    assert (
        errors("( lambda $0 e ( and ( state:t $0 ) ( next_to:t $0 ( argmax $1 ( state:t $1 ) ( size:i $1 ) ) ) ) )")
        == []
    )
    assert errors("( argmax $0 ( state:t $0 ) ( elevation:i $0 ) )") == []
    assert errors("( area:i s0 )") == []
    assert errors("( argmax $1 ( and ( place:t $0 ) ( loc:t $0 s0 ) ) ( elevation:i $0 ) )") == [
        "unused $1",
        "free $0",
        "free $0",
        "free $0",
    ]
    assert errors("( lambda $0 e ( state:t $1 ) )") == ["unused $0", "free $1"]


def test_namings_come_best_first_without_repeats():
    choices = [[(-0.1, 5), (-1.0, 6)], [(-0.2, 5), (-0.3, 6), (-3.0, 7)]]
    order = list(namings(choices, 10))
    totals = [sum(choices[s][i][0] for s, i in enumerate(indices)) for indices in order]
    assert order[0] == (0, 0) and len(order) == len(set(order)) == 6
    assert totals == sorted(totals, reverse=True)
    assert list(namings(choices, 2)) == order[:2] and list(namings([], 5)) == []


class TestVariableScoping(ModelTestCase):
    def setup_method(self):
        super().setup_method()
        torch.manual_seed(0)
        self.set_up_model(FIXTURES_ROOT + "/proto_parser/experiment.jsonnet", fixture_split("geo", "train"))

    def parser(self, scoped: bool, **settings) -> Model:
        config = json.loads(_jsonnet.evaluate_file(FIXTURES_ROOT + "/proto_parser/experiment.jsonnet"))["model"]
        if scoped:
            config.update(rerankers=[{"type": "variable_scoping", **settings}])
        model = Model.from_params(vocab=self.vocab, params=Params(copy.deepcopy(config)))
        model.load_state_dict(self.model.state_dict())
        model.eval()
        return model

    def test_an_ill_scoped_naming_is_replaced_by_a_well_scoped_one_of_the_same_template(self, monkeypatch):
        original = SlotFiller.variable_log_probs

        def scrambled(filler, projections, num_slots):
            # Random preferences over the names: the plain parser then writes ill-scoped LFs.
            log_probs = original(filler, projections, num_slots)
            noise = torch.randn(log_probs.shape, generator=torch.Generator().manual_seed(0)) * 20
            return torch.log_softmax(log_probs + noise, dim=-1)

        monkeypatch.setattr(SlotFiller, "variable_log_probs", scrambled)
        names = self.vocab.get_vocab_size("variables")
        plain = self.parser(False).forward_on_instances(self.instances)
        scoped = self.parser(True, names_per_slot=names, max_namings=10000).forward_on_instances(self.instances)
        repaired = [
            s["logical_form"]
            for p, s in zip(plain, scoped)
            if errors(p["logical_form"]) and not errors(s["logical_form"])
        ]
        assert repaired
        for p, s in zip(plain, scoped):
            assert [a.split("[")[0] for a in s["predicted_actions"]] == [
                a.split("[")[0] for a in p["predicted_actions"]
            ]
            if not errors(p["logical_form"]) or errors(s["logical_form"]):
                # A well-scoped LF is left as it was; so is a template that no naming can scope.
                assert s["logical_form"] == p["logical_form"]

    def test_the_reranker_is_the_models_own(self):
        assert isinstance(self.parser(True).rerankers[0], VariableScoping)
        assert self.parser(False).rerankers == []

    def test_bad_settings_are_configuration_errors(self):
        with pytest.raises(ConfigurationError, match="names_per_slot and max_namings must be >= 1"):
            self.parser(True, names_per_slot=0)


def test_a_parser_whose_slots_name_no_variables_is_a_configuration_error():
    class Filler:
        variable_decoder = None

    class Parser:
        action_space = type("Space", (), {"unified": False})()
        slot_filler = Filler()

    filling = type("Filling", (), {"steps": {0: []}})()
    with pytest.raises(ConfigurationError, match="does not name variables"):
        VariableScoping().revise(Parser(), filling)
