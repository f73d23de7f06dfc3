"""Predicate dropout (Algorithm 1) when a meta batch holds an action the vocabulary does not know: evaluating a
pre-trained archive on lines with an unseen template must not fail, and the unknown row takes no prototype."""

import pytest
import torch
from allennlp.data import Vocabulary

from fewshot_parser.logical_forms.namespaces import ACTION_NAMESPACE
from fewshot_parser.modules.action_space import ActionSpace
from fewshot_parser.modules.prototypes import PredicateDropout


@pytest.mark.parametrize("unit", ["predicate", "action"])
def test_unknown_and_padding_rows_take_no_prototype(unit):
    vocab = Vocabulary()
    for action in ("GEN ( city:t <v> )", "GEN ( state:t <v> )", "REDUCE ( and <NT> <NT> )"):
        vocab.add_token_to_namespace(action, ACTION_NAMESPACE)
    space = ActionSpace(vocab)
    unknown = vocab.get_token_index("@@UNKNOWN@@", ACTION_NAMESPACE)
    assert space.actions[unknown] is None
    present = torch.ones(vocab.get_vocab_size(ACTION_NAMESPACE), dtype=torch.bool)
    rows = PredicateDropout(share=1.0, unit=unit).rows(present, space)
    assert not rows[unknown] and not rows[0]
    assert rows.tolist() == [a is not None and bool(a.predicates) for a in space.actions]
