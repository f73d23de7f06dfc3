"""The `slot_type_check` decoding scorer: the tables and the decoding penalty."""
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
from fewshot_parser.logical_forms.actions import Action
from fewshot_parser.logical_forms.namespaces import ENTITY_TYPE_NAMESPACE
from fewshot_parser.logical_forms.template import ENTITY_SLOT_PREFIX, slot_type
from fewshot_parser.modules.decoding import template_search
from fewshot_parser.modules.decoding import DecodingInputs, SlotTypeCheck
from fewshot_parser.modules.slot_types import absent_slot_types, slot_type_matrix
from tests import FIXTURES_ROOT, fixture_split


def test_the_matrix_lists_each_actions_entity_slot_types():
    actions = [Action.from_string("GEN ( from <v> <e:ci> )"), None, Action.from_string("GEN ( flight <v> )"),
               Action.from_string("GEN ( req_exp <v> <e:year> )")]
    matrix = slot_type_matrix(actions, {"ci": 3, "ti": 4}, 5)
    assert matrix.shape == (4, 6)
    assert matrix[0].nonzero().flatten().tolist() == [3]
    assert not matrix[1].any() and not matrix[2].any()
    assert matrix[3].nonzero().flatten().tolist() == [5]  # a type the vocabulary lacks: its own column


def test_an_action_is_absent_when_the_utterance_lacks_one_of_its_types():
    needed = torch.tensor([[0, 0, 1, 0, 0], [0, 0, 1, 1, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 1]], dtype=torch.bool)
    source_types = torch.tensor([[2, 2, 0], [2, 3, 0], [1, 0, 0]])  # 0 padding, 1 no entity
    absent = absent_slot_types(source_types, needed)
    assert absent.tolist() == [[False, True, False, True], [False, False, False, True], [True, True, False, True]]


class TestSlotTypeCheck(ModelTestCase):
    def setup_method(self):
        super().setup_method()
        self.set_up_model(FIXTURES_ROOT + "/proto_parser/experiment.jsonnet", fixture_split("geo", "train"))

    def checked_model(self, weight: float) -> Model:
        config = json.loads(_jsonnet.evaluate_file(FIXTURES_ROOT + "/proto_parser/experiment.jsonnet"))["model"]
        config.update(decoding_scorers=[{"type": "slot_type_check", "weight": weight}])
        model = Model.from_params(vocab=self.vocab, params=Params(copy.deepcopy(config)))
        model.load_state_dict(self.model.state_dict())
        model.eval()
        return model

    def violations(self, outputs) -> int:
        """Predicted actions with an entity slot of a type the utterance has no word of."""
        count = 0
        for instance, output in zip(self.instances, outputs):
            types = set(instance["source_entity_types"].labels)
            for action in output["predicted_actions"]:
                slots = Action.from_string(action).slots if action.startswith(("GEN", "REDUCE")) else ()
                count += sum(slot.startswith(ENTITY_SLOT_PREFIX) and slot_type(slot) not in types for slot in slots)
        return count

    def test_weight_zero_decodes_as_the_plain_parser(self):
        self.model.eval()
        plain = self.model.forward_on_instances(self.instances)
        checked = self.checked_model(0.0).forward_on_instances(self.instances)
        assert [o["logical_form"] for o in checked] == [o["logical_form"] for o in plain]

    def test_a_large_weight_leaves_no_slot_without_an_entity_of_its_type(self, monkeypatch):
        checked = self.checked_model(1e4)
        # Push every action with an entity slot up, so that the plain parser writes them everywhere.
        typed = checked.decoding_scorers[0].slot_types(checked).any(1).float() * 50.0
        original = template_search.decoding_terms

        def favour_typed(model, source_tokens, beams):
            base = original(model, source_tokens, beams)
            return lambda projection, attention: typed + (0.0 if base is None else base(projection, attention))

        monkeypatch.setattr(template_search, "decoding_terms", favour_typed)
        self.model.eval()
        assert self.violations(self.model.forward_on_instances(self.instances)) > 0
        assert self.violations(checked.forward_on_instances(self.instances)) == 0

    def test_the_penalty_is_the_weight_on_exactly_the_absent_actions(self):
        model = self.checked_model(3.0)
        check = model.decoding_scorers[0]
        assert isinstance(check, SlotTypeCheck)
        batch = self.dataset.as_tensor_dict()
        penalty = check.scores(model, DecodingInputs(None, None, batch["source_entity_types"], [], batch["source_tokens"]))
        types = model.vocab.get_index_to_token_vocabulary(ENTITY_TYPE_NAMESPACE)
        for b, instance in enumerate(self.instances):
            present = set(instance["source_entity_types"].labels)
            for a, action in enumerate(model.action_space.actions):
                needs = {slot_type(s) for s in (action.slots if action is not None else ()) if s.startswith(ENTITY_SLOT_PREFIX)}
                assert penalty[b, a].item() == (-3.0 if needs - present else 0.0)
        assert check.slot_types(model).size(1) == len(types) + 1

    def test_a_negative_weight_is_a_configuration_error(self):
        with pytest.raises(ConfigurationError, match="weight must be >= 0"):
            self.checked_model(-1.0)
