"""The parser's alignment components: the lexicon scope, Omega, supervised attention and lexical linking."""
import copy
import json

import _jsonnet
import pytest
import torch
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.data import DatasetReader, Vocabulary
from allennlp.models import Model

import fewshot_parser  # noqa: F401
from fewshot_parser.modules.action_scorers.lexical_linking import LexicalLinking
from fewshot_parser.modules.lexicon_scope import LexiconScope
from fewshot_parser.modules.loss_terms.attention_regularizer import AttentionRegularizer
from fewshot_parser.modules.loss_terms.supervised_attention import SupervisedAttention
from tests import FIXTURES_ROOT, fixture_split, indexed_tensors

SETTINGS = {"lexicon": "geo", "lexical_linking": True, "link_pooling": "both", "attention_regularization": 1.0,
            "supervised_attention": 1.0}


@pytest.fixture(scope="module")
def fixture():
    config = json.loads(_jsonnet.evaluate_file(FIXTURES_ROOT + "/proto_parser/experiment.jsonnet"))
    reader = DatasetReader.from_params(Params(config["dataset_reader"]))
    instances = list(reader.read(fixture_split("geo", "train")))
    vocab = Vocabulary.from_instances(instances)
    model = Model.from_params(vocab=vocab, params=Params({**copy.deepcopy(config["model"]), **SETTINGS}))
    return model, instances, indexed_tensors(instances, vocab)


def test_the_parser_builds_its_components_and_each_owns_its_parameters(fixture):
    model, _, _ = fixture
    assert isinstance(model.lexicon_scope, LexiconScope) and isinstance(model.regularizer, AttentionRegularizer)
    assert isinstance(model.supervision, SupervisedAttention) and isinstance(model.lexical_linking, LexicalLinking)
    assert {"lexical_linking.weight", "lexical_linking.max_weight", "regularizer.gate.weight"} <= set(model.state_dict())


def test_the_scoped_lexicon_round_trips_through_the_state_dict(fixture):
    model, _, _ = fixture
    lexicon = model.lexicon()
    assert lexicon and model.lexicon_scope.stored == lexicon
    stored = model.state_dict()[model.LEXICON_KEY]
    scope = LexiconScope()
    scope.load(stored)
    assert scope.stored == lexicon


def test_loss_terms_are_finite_and_reach_the_attention(fixture):
    model, instances, tensors = fixture
    model.train()
    model.set_alignment_statistics([([t.text for t in i["source_tokens"].tokens], i["metadata"].metadata["actions"])
                                    for i in instances])
    assert model.regularizer.conditional_table is not None
    decoded, _, mask = model.teacher_forced(tensors)
    args = (tensors["actions"], tensors["source_tokens"], mask)
    omega = model.regularizer.loss(model, decoded, *args)
    supervised = model.supervision.loss(model, decoded, *args)
    assert torch.isfinite(omega) and torch.isfinite(supervised) and supervised > 0
    (omega + supervised).backward()
    assert model.regularizer.gate.weight.grad is not None
    assert model.regularizer.regularized_steps(model, *args).any()


def test_linking_scores_teacher_forced_and_decoding_steps_alike(fixture):
    model, _, tensors = fixture
    linking = model.lexical_linking
    assert linking.table(model).shape == (model.action_embedding.size(0), model.vocab.get_vocab_size("tokens"))
    links = linking.links(model, tensors["source_tokens"])
    attention = torch.softmax(torch.randn(links.size(0), 2, links.size(1)), -1)
    forced = linking.teacher_forced(model, None, attention, tensors["source_tokens"])
    step = linking.decoding(model, tensors["source_tokens"], beams=1)(None, attention[:, 0])
    assert torch.allclose(forced[:, 0], step)
    with pytest.raises(ConfigurationError, match="link_pooling"):
        LexicalLinking("mean", 0.75)
