"""The paper's slot filling as a component: `CopySlots`, the default `slot_variant`."""
import copy
import json

import _jsonnet
from allennlp.common import Params
from allennlp.data import DatasetReader, Vocabulary
from allennlp.models import Model

import fewshot_parser  # noqa: F401
from fewshot_parser.modules.slot_variants import CopySlots, SlotVariant
from tests import FIXTURES_ROOT, fixture_split, indexed_tensors


def test_the_default_slot_variant_is_the_copy_filler_and_adds_no_parameters():
    config = json.loads(_jsonnet.evaluate_file(FIXTURES_ROOT + "/proto_parser/experiment.jsonnet"))
    reader = DatasetReader.from_params(Params(config["dataset_reader"]))
    instances = list(reader.read(fixture_split("geo", "train")))
    vocab = Vocabulary.from_instances(instances)
    default = Model.from_params(vocab=vocab, params=Params(copy.deepcopy(config["model"])))
    named = Model.from_params(vocab=vocab, params=Params({**copy.deepcopy(config["model"]), "slot_variant": {"type": "copy"}}))
    assert type(default.slots) is CopySlots and SlotVariant.resolve_class_name("copy")[0] is CopySlots
    assert list(default.state_dict()) == list(named.state_dict())
    assert not any(name.startswith("_slot_variant") for name in default.state_dict())
    named.load_state_dict(default.state_dict())
    tensors = indexed_tensors(instances, vocab)
    default.eval(), named.eval()
    ours, theirs = default(**tensors), named(**tensors)
    assert ours["loss"].item() == theirs["loss"].item()
    assert ours["logical_form"] == theirs["logical_form"]
    # Every step of a gold template gets a value per slot from the component's choices.
    actions = tensors["actions"]
    decoded, encoded, mask = default.teacher_forced(tensors)
    entity_choice, variable_choice = default.slots.predict_slots(
        default, actions.clamp(min=0), actions >= 0, decoded.projections, encoded, mask, tensors["source_entity_types"]
    )
    steps = default.slots.steps(default, actions[0].tolist(), 0, instances[0]["metadata"]["utterance"],
                                entity_choice, variable_choice)
    assert [str(step.action) for step in steps] == instances[0]["metadata"]["actions"][: len(steps)]
    assert all(len(step.values) == len(step.action.slots) for step in steps)
