"""
Entity slots typed by interchangeable class (reader wrapper `fewshot_entity_classes`).
"""
import fewshot_lab  # noqa: F401
import pytest
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.data import DatasetReader
from fewshot_lab.data.dataset_readers.entity_classes import entity_classes

import fewshot_parser  # noqa: F401
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
    classes = entity_classes(examples, Abstractor("lambda"))
    assert classes == {"s": "c+co+s", "co": "c+co+s", "c": "c+co+s", "r": "r", "n": "n"}


def test_jobs_types_stay_apart_and_geo_places_merge_on_the_fixtures():
    jobs = entity_classes(read_training_examples(fixture_split("jobs", "train"), "prolog"), Abstractor("prolog"))
    assert all("+" not in name for name in jobs.values())
    geo = entity_classes(
        [example("city in s0 or c0", "( lambda $0 e ( and ( city:t $0 ) ( loc:t $0 s0 ) ) )"),
         example("population of c0", "( population:i c0 )"), example("population of s0", "( population:i s0 )")],
        Abstractor("lambda"),
    )
    assert geo == {"s": "c+s", "c": "c+s"}


def geo_reader(**reader) -> DatasetReader:
    inner = {"type": "fewshot_geoquery", "idiom_source": fixture_split("geo", "train"), "min_support": 2}
    inner.update(reader)
    return DatasetReader.from_params(Params({"type": "fewshot_entity_classes", "reader": inner}))


def test_slots_and_utterance_entities_carry_the_class_and_the_oracle_gives_back_the_logical_form():
    reader = geo_reader()
    classes = reader.abstractor.classes
    utterance, logical_form = "population of c0", "( population:i c0 )"
    instance = reader.text_to_instance(utterance, logical_form)
    name = classes.get("c", "c")
    assert f"<e:{name}>" in " ".join(instance["metadata"]["actions"])
    assert list(instance["source_entity_types"].labels)[-1] == name
    system = reader.transition_system
    for utterance, logical_form in [
        ("population of c0", "( population:i c0 )"),
        ("river in s0", "( lambda $0 e ( and ( river:t $0 ) ( loc:t $0 s0 ) ) )"),
    ]:
        assert system.to_logical_form(system.oracle_for_string(logical_form, utterance.split())) == logical_form


def test_the_reader_refuses_untyped_slots_and_a_missing_training_file():
    with pytest.raises(ConfigurationError, match="typed_entities: true"):
        geo_reader(typed_entities=False)
    with pytest.raises(ConfigurationError, match="idiom_source"):
        geo_reader(idiom_source=None)
