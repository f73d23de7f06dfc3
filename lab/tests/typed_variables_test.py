"""Typed variables: variable scoping that also keeps one variable from taking two conditions the training
file never puts on one variable."""

import copy
import json

import _jsonnet
import pytest
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.common.testing import ModelTestCase
from allennlp.models import Model
from fewshot_lab.modules.decoding.typed_variables import ConditionPairs, TypedVariables, variable_conditions

import fewshot_parser  # noqa: F401
from fewshot_parser.logical_forms.transition_system import TransitionSystem
from fewshot_parser.logical_forms.tree import parse
from fewshot_parser.modules.decoding.variable_scoping import VariableScoping
from tests import FIXTURES_ROOT, fixture_split

TRAINING = [
    "( lambda $0 e ( and ( state:t $0 ) ( exists $1 ( and ( city:t $1 ) ( named:t $1 n0 ) ( loc:t $1 $0 ) ) ) ) )",
    "( lambda $0 e ( and ( state:t $0 ) ( next_to:t $0 s0 ) ) )",
    "( count $0 ( and ( major:t $0 ) ( city:t $0 ) ( loc:t $0 s0 ) ) )",
    "( lambda $0 e ( and ( city:t $0 ) ( loc:t $0 s0 ) ) )",
]


def tree(logical_form):
    return parse(logical_form, "lambda")


def test_the_conditions_of_each_variable_are_its_one_argument_calls():
    assert variable_conditions(tree(TRAINING[2])) == {"$0": {"major:t", "city:t"}}
    assert variable_conditions(tree(TRAINING[0])) == {"$0": {"state:t"}, "$1": {"city:t"}}


def test_a_clash_is_two_common_conditions_that_never_share_a_variable():
    pairs = ConditionPairs((tree(lf) for lf in TRAINING), min_count=2)
    assert pairs.clashes(tree(WRONG)) == [frozenset({"city:t", "state:t"})]
    assert pairs.clashes(tree(TRAINING[0])) == []
    # major:t is used once (below min_count), capital:t never (a new predicate): neither is charged.
    assert pairs.clashes(tree("( lambda $0 e ( and ( major:t $0 ) ( state:t $0 ) ) )")) == []
    assert pairs.clashes(tree("( lambda $0 e ( and ( capital:t $0 ) ( state:t $0 ) ) )")) == []


WRONG = "( lambda $0 e ( and ( state:t $0 ) ( exists $1 ( and ( city:t $0 ) ( named:t $1 n0 ) ( loc:t $1 $0 ) ) ) ) )"


def test_a_naming_is_acceptable_when_well_scoped_and_free_of_clashes(tmp_path):
    training = tmp_path / "train.txt"
    training.write_text("".join(f"question {i}\t{lf}\n" for i, lf in enumerate(TRAINING * 2)))
    reranker = TypedVariables(str(training), min_count=2)
    system = TransitionSystem("lambda")

    def acceptable(logical_form):
        return reranker.acceptable(system.oracle_for_string(logical_form, "what state have city n0".split()))

    assert acceptable(TRAINING[0])
    assert not acceptable(WRONG)  # well scoped, but a state that is a city
    assert not acceptable("( lambda $0 e ( and ( state:t $1 ) ( next_to:t $1 s0 ) ) )")  # ill scoped
    assert acceptable("( lambda $0 e ( and ( major:t $0 ) ( city:t $0 ) ) )")  # seen together


class TestTypedVariables(ModelTestCase):
    def setup_method(self):
        super().setup_method()
        self.set_up_model(FIXTURES_ROOT + "/proto_parser/experiment.jsonnet", fixture_split("geo", "train"))

    def test_the_reranker_is_built_from_a_config_and_is_the_models_own(self):
        config = json.loads(_jsonnet.evaluate_file(FIXTURES_ROOT + "/proto_parser/experiment.jsonnet"))["model"]
        config["rerankers"] = [{"type": "typed_variables", "training_data": fixture_split("geo", "train")}]
        model = Model.from_params(vocab=self.vocab, params=Params(copy.deepcopy(config)))
        reranker = model.rerankers[0]
        assert isinstance(reranker, TypedVariables) and isinstance(reranker, VariableScoping)
        # The fixture never puts two of state:t, city:t, river:t on one variable.
        assert reranker.pairs.clashes(tree(WRONG)) == [frozenset({"city:t", "state:t"})]
        assert model.forward_on_instances(self.instances)  # decodes with it

    def test_bad_settings_are_configuration_errors(self):
        with pytest.raises(ConfigurationError, match="min_count must be >= 1"):
            TypedVariables(fixture_split("geo", "train"), min_count=0)
