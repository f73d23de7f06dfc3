"""
The authors' literal slots (logical_forms/literal_slots.py, reader wrapper `fewshot_literal_slots`):
atoms matching a pattern are entity slots wherever they occur, in the utterance or not.
"""
import os

import pytest
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.common.testing import ModelTestCase
from allennlp.data import DatasetReader

import fewshot_parser  # noqa: F401
from fewshot_parser.common.provenance import PROJECT_ROOT
from fewshot_lab.logical_forms.literal_slots import LiteralSlotAbstractor
from fewshot_parser.logical_forms.template import Abstractor, fill
from fewshot_parser.data.examples import parse_logical_form
from tests import fixture_model_config, fixture_split

JOBS_LITERALS = ".*id[012]|num_salary|year[01]?|hour|month|20"
UTTERANCE = "job in locid0 pay num_salary".split()
LF = "job ( ANS ) , loc ( ANS , locid0 ) , salary_greater_than ( ANS , num_salary , year )"


def jobs_reader(pattern: str = JOBS_LITERALS) -> DatasetReader:
    return DatasetReader.from_params(Params({
        "type": "fewshot_literal_slots", "literal_pattern": pattern,
        "reader": {"type": "fewshot_jobs", "idiom_source": fixture_split("jobs", "train"), "min_support": 2,
                   "typed_entities": False},
    }))


def test_a_literal_absent_from_the_utterance_becomes_a_slot_and_fill_restores_it():
    _, tree = parse_logical_form(LF, "prolog")
    ours, _ = Abstractor("prolog", typed_entities=False).abstract(tree, UTTERANCE)
    template, values = LiteralSlotAbstractor("prolog", JOBS_LITERALS, typed_entities=False).abstract(tree, UTTERANCE)
    assert "year" in str(ours) and "year" not in str(template)
    assert [value.value for value in values] == ["ANS", "ANS", "locid0", "ANS", "num_salary", "year"]
    assert fill(template, values) == tree


def test_other_atoms_variables_and_the_cache_key_follow_the_settings():
    abstractor = LiteralSlotAbstractor("prolog", JOBS_LITERALS)
    assert abstractor.is_literal("year") and abstractor.is_literal("languageid1")
    assert not abstractor.is_literal("years") and not abstractor.is_literal("ANS")
    assert abstractor.token_entity_type("hour") == "hour" and abstractor.token_entity_type("pay") is None
    assert abstractor.cache_key() != Abstractor("prolog").cache_key()
    with pytest.raises(ValueError, match="literal_pattern"):
        LiteralSlotAbstractor("prolog", "year(")


def test_the_wrapper_reads_literal_slots_into_actions_and_slot_values():
    reader = jobs_reader()
    instance = reader.text_to_instance(" ".join(UTTERANCE), LF)
    actions = instance["metadata"]["actions"]
    assert "GEN ( salary_greater_than <v> <e:entity> <e:entity> )" in actions
    assert ["ANS", "num_salary", "year"] in instance["metadata"]["slot_values"]
    # The transition system (and its idioms) come from the literal abstractor, through the wrapper.
    assert isinstance(reader.transition_system.abstractor, LiteralSlotAbstractor)
    plain = DatasetReader.from_params(Params({"type": "fewshot_jobs", "typed_entities": False}))
    assert "GEN ( salary_greater_than <v> <e:entity> year )" in plain.text_to_instance(" ".join(UTTERANCE), LF)["metadata"]["actions"]


def test_bad_settings_are_configuration_errors():
    with pytest.raises(ConfigurationError, match="literal_pattern"):
        jobs_reader("year(")
    with pytest.raises(ConfigurationError, match="few-shot LF reader"):
        DatasetReader.from_params(Params({"type": "fewshot_literal_slots", "literal_pattern": "year",
                                          "reader": {"type": "sequence_tagging"}}))


class TestLiteralSlotsModel(ModelTestCase):
    """The faithful model trains, saves and loads on templates whose `e` (never in an utterance) is a slot."""

    def setup_method(self):
        super().setup_method()
        reader = {"type": "fewshot_entity_values", "reader": {
            "type": "fewshot_literal_slots", "literal_pattern": "e",
            "reader": {"type": "fewshot_geoquery", "idiom_source": fixture_split("geo", "train"), "min_support": 2,
                       "typed_entities": False}}}
        model = {"decoder": {"type": "authors", "input_dim": 6, "reduce_input": "inputs", "initial_state": "last_cells", "bias": False},
                 "slot_variant": {"type": "authors"}, "loss_reduction": "example", "decoder_dim": 8,
                 "restrict_training": False, "rerankers": [{"type": "dead_ends"}]}
        self.config_path = fixture_model_config(str(self.TEST_DIR), "literal_slots.json", model, reader)
        os.chdir(PROJECT_ROOT)
        self.set_up_model(self.config_path, fixture_split("geo", "train"))

    def test_model_can_train_save_and_load(self):
        lambdas = [i for i in self.instances if "e" in [v for step in i["metadata"]["slot_values"] for v in step]]
        assert lambdas, "the fixture has lambda LFs whose `e` is now a slot"
        self.ensure_model_can_train_save_and_load(self.config_path, tolerance=1e-3, gradients_to_ignore={
            "_slot_variant._slot_states.variable_embedding.weight"})
