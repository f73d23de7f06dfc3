"""
Untyped entity slots for new predicates only (reader wrapper `fewshot_untyped_new`, decoding scorer
`slot_type_check_any`).
"""
import fewshot_lab  # noqa: F401
import pytest
import torch
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.data import DatasetReader
from fewshot_lab.modules.decoding.slot_type_check_any import SlotTypeCheckAny

import fewshot_parser  # noqa: F401
from fewshot_parser.modules.decoding.slot_type_check import SlotTypeCheck
from tests import fixture_split


def geo_reader(**reader) -> DatasetReader:
    inner = {"type": "fewshot_geoquery", "idiom_source": fixture_split("geo", "train"), "min_support": 2}
    inner.update(reader)
    return DatasetReader.from_params(Params({"type": "fewshot_untyped_new", "reader": inner}))


def actions(reader: DatasetReader, utterance: str, logical_form: str):
    return reader.text_to_instance(utterance, logical_form)["metadata"]["actions"]


def test_a_new_predicate_takes_untyped_entity_slots_and_known_ones_stay_typed():
    reader = geo_reader()
    # `area:i` and `traverse:t` are absent from the fixture's training data; `loc:t` is known.
    new = actions(reader, "how big be s0", "( area:i s0 )")
    assert any("area:i <e:entity>" in a for a in new), new
    assert not any("<e:s>" in a for a in new)
    mixed = actions(
        reader, "river in s0 through s1", "( lambda $0 e ( and ( river:t $0 ) ( loc:t $0 s0 ) ( traverse:t $0 s1 ) ) )"
    )
    assert any("loc:t <v> <e:s>" in a for a in mixed), mixed
    assert any("traverse:t <v> <e:entity>" in a for a in mixed), mixed
    # The same LF through the plain reader: typed everywhere.
    plain = DatasetReader.from_params(
        Params({"type": "fewshot_geoquery", "idiom_source": fixture_split("geo", "train"), "min_support": 2})
    )
    assert any("area:i <e:s>" in a for a in actions(plain, "how big be s0", "( area:i s0 )"))


def test_the_oracle_with_untyped_slots_gives_back_the_logical_form():
    system = geo_reader().transition_system
    for utterance, logical_form in [
        ("how big be s0", "( area:i s0 )"),
        ("river through s0", "( lambda $0 e ( and ( river:t $0 ) ( traverse:t $0 s0 ) ) )"),
    ]:
        steps = system.oracle_for_string(logical_form, utterance.split())
        assert any("<e:entity>" in str(step.action) for step in steps)
        assert system.to_logical_form(steps) == logical_form


def test_the_reader_refuses_untyped_or_unified_slots_and_a_missing_training_file():
    with pytest.raises(ConfigurationError, match="typed_entities: true"):
        geo_reader(typed_entities=False)
    with pytest.raises(ConfigurationError, match="idiom_source"):
        geo_reader(idiom_source=None)


class _Parser:
    def __init__(self, vocab, action_space):
        self.vocab = vocab
        self.action_space = action_space


def test_the_any_check_lets_an_untyped_slot_pass_in_a_typed_vocabulary():
    from allennlp.data import Vocabulary

    from fewshot_parser.logical_forms.namespaces import ACTION_NAMESPACE, ENTITY_TYPE_NAMESPACE
    from fewshot_parser.modules.action_space import ActionSpace

    vocab = Vocabulary()
    for action in ["GEN ( area:i <e:entity> )", "GEN ( loc:t <v> <e:s> )"]:
        vocab.add_token_to_namespace(action, ACTION_NAMESPACE)
    for name in ["s", "c"]:
        vocab.add_token_to_namespace(name, ENTITY_TYPE_NAMESPACE)
    parser = _Parser(vocab, ActionSpace(vocab))
    untyped = vocab.get_token_index("GEN ( area:i <e:entity> )", ACTION_NAMESPACE)
    typed = vocab.get_token_index("GEN ( loc:t <v> <e:s> )", ACTION_NAMESPACE)
    plain, any_check = SlotTypeCheck().slot_types(parser), SlotTypeCheckAny().slot_types(parser)
    assert plain[untyped].any() and not any_check[untyped].any()
    assert torch.equal(plain[typed], any_check[typed])
    # An untyped vocabulary (words of type `entity`): the plain check.
    vocab.add_token_to_namespace("entity", ENTITY_TYPE_NAMESPACE)
    parser = _Parser(vocab, ActionSpace(vocab))
    assert torch.equal(SlotTypeCheck().slot_types(parser), SlotTypeCheckAny().slot_types(parser))
