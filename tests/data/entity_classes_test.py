"""Entity slots typed by class: `fewshot_parser.data.entity_classes` and the reader's `entity_classes`."""
import pytest
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.data import DatasetReader

import fewshot_parser  # noqa: F401
from fewshot_parser.data.entity_classes import shared_argument_classes
from fewshot_parser.data.examples import Example, parse_logical_form, read_training_examples
from fewshot_parser.logical_forms.template import Abstractor
from tests import fixture_split


def example(utterance: str, logical_form: str, formalism: str = "lambda") -> Example:
    logical_form, tree = parse_logical_form(logical_form, formalism)
    return Example("test", 1, utterance.split(), logical_form, tree)


def test_types_sharing_an_argument_position_form_one_class_transitively():
    examples = [
        example("river in s0", "( lambda $0 e ( and ( river:t $0 ) ( loc:t $0 s0 ) ) )"),
        example("city in co0", "( lambda $0 e ( and ( city:t $0 ) ( loc:t $0 co0 ) ) )"),
        example("area of co0", "( area:i co0 )"),
        example("area of c0", "( area:i c0 )"),
        example("length of r0", "( len:i r0 )"),
        # `n0` fills the first argument of named:t only, where no other type appears.
        example("city named n0", "( lambda $0 e ( and ( city:t $0 ) ( named:t $0 n0 ) ) )"),
    ]
    classes = shared_argument_classes(examples, Abstractor("lambda"))
    assert classes == {"s": "c+co+s", "co": "c+co+s", "c": "c+co+s", "r": "r", "n": "n"}


def test_jobs_types_stay_apart_on_the_fixture():
    jobs = read_training_examples(fixture_split("jobs", "train"), "prolog")
    assert all("+" not in name for name in shared_argument_classes(jobs, Abstractor("prolog")).values())


def test_a_class_gives_its_types_one_slot_type_and_an_unlisted_type_keeps_its_own():
    abstractor = Abstractor("lambda", entity_classes={"c": "place", "s": "place"})
    assert abstractor.slot_type("c") == abstractor.slot_type("s") == "place"
    assert abstractor.slot_type("r") == "r"
    assert abstractor.token_entity_type("s0") == "place"
    assert Abstractor("lambda", typed_entities=False).slot_type("c") == "entity"
    assert abstractor.cache_key() != Abstractor("lambda").cache_key()


def geo_reader(**settings) -> DatasetReader:
    config = {"type": "fewshot_geoquery", "idiom_source": fixture_split("geo", "train"), "min_support": 2,
              "entity_classes": {"type": "shared_arguments"}}
    config.update(settings)
    return DatasetReader.from_params(Params(config))


def test_slots_and_utterance_entities_carry_the_class_and_the_oracle_gives_back_the_logical_form():
    reader = geo_reader()
    examples = read_training_examples(fixture_split("geo", "train"), "lambda")
    name = shared_argument_classes(examples, Abstractor("lambda")).get("c", "c")
    instance = reader.text_to_instance("population of c0", "( population:i c0 )")
    assert f"<e:{name}>" in " ".join(instance["metadata"]["actions"])
    assert list(instance["source_entity_types"].labels)[-1] == name
    system = reader.transition_system
    for utterance, logical_form in [
        ("population of c0", "( population:i c0 )"),
        ("river in s0", "( lambda $0 e ( and ( river:t $0 ) ( loc:t $0 s0 ) ) )"),
    ]:
        assert system.to_logical_form(system.oracle_for_string(logical_form, utterance.split())) == logical_form


def test_given_classes_type_the_slots_with_the_users_names():
    reader = geo_reader(entity_classes={"type": "given", "classes": {"place": ["c", "s"]}})
    instance = reader.text_to_instance("population of c0", "( population:i c0 )")
    assert "<e:place>" in " ".join(instance["metadata"]["actions"])


def test_bad_settings_name_the_config_key():
    with pytest.raises(ConfigurationError, match="typed_entities: true"):
        geo_reader(typed_entities=False)
    reader = geo_reader(idiom_source=None)  # the classes are read on first use, as the idioms are
    with pytest.raises(ConfigurationError, match="idiom_source"):
        reader.text_to_instance("population of c0", "( population:i c0 )")
    with pytest.raises(ConfigurationError, match="'c' is in two classes"):
        geo_reader(entity_classes={"type": "given", "classes": {"a": ["c"], "b": ["c", "s"]}})
