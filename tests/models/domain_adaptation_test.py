import torch
import pytest
from allennlp.common.testing import ModelTestCase

import fewshot_parser  # noqa: F401
from fewshot_parser.data.dataset_readers.coarse2fine import Coarse2FineReader
from fewshot_parser.models.domain_adaptation import relevance_attention, reverse_gradient
from tests import FIXTURES_ROOT, fit_fixture, fixture_split
from tests.models import POOLING_BIAS

TRAIN, SUPPORT = fixture_split("geo", "train"), fixture_split("geo", "support")


def test_reader_labels_the_first_file_source_and_the_rest_target():
    reader = Coarse2FineReader("lambda", domain_labels=True)
    instances = list(reader.read(f"{TRAIN}+{SUPPORT}*2"))
    train = sum(1 for line in open(TRAIN) if line.strip())
    support = sum(1 for line in open(SUPPORT) if line.strip())
    assert [i["domain"].label for i in instances] == [0] * train + [1] * (2 * support)
    assert "domain" not in next(iter(Coarse2FineReader("lambda").read(SUPPORT))).fields


def test_gradient_reversal_flips_the_gradient_only():
    x = torch.tensor([1.0, -2.0], requires_grad=True)
    y = reverse_gradient(x, 0.5)
    assert torch.equal(y, x)
    (y * torch.tensor([3.0, 4.0])).sum().backward()
    assert x.grad.tolist() == [-1.5, -2.0]


def test_relevance_scale_sharpens_attention_on_the_scaled_words():
    keys = torch.tensor([[[1.0, 0.0], [0.0, 1.0]]])
    query = torch.tensor([[0.5, 0.4]])
    mask = torch.ones(1, 2, dtype=torch.bool)
    plain = relevance_attention(query, keys, mask, torch.ones(1, 2))
    scaled = relevance_attention(query, keys, mask, torch.tensor([[1.0, 10.0]]))
    assert scaled[0, 1] > plain[0, 1]  # the second word's score 0.4 -> 4.0 wins the attention


class TestDomainAdaptiveCoarse2Fine(ModelTestCase):
    def setup_method(self):
        super().setup_method()
        self.set_up_model(FIXTURES_ROOT + "/da/experiment.jsonnet", f"{TRAIN}+{SUPPORT}*3")

    def test_model_can_train_save_and_load(self):
        model, _ = self.ensure_model_can_train_save_and_load(self.param_file, tolerance=1e-3, gradients_to_ignore=POOLING_BIAS)
        # The callback marked the target domain's words, and the archive keeps them.
        assert model.domain_relevant.sum() > 0

    def test_learns_the_fixture_naming_the_predicates_of_domain_general_sketches(self):
        """Trained long enough on the fixture, it reproduces well over half of the training LFs, every <p> named."""
        output, metrics = fit_fixture(self.model, self.instances, self.vocab)
        assert metrics["exact_match"] > 0.6
        assert any("<p>" in sketch.split() for sketch in output["sketch"])
        assert not any("<p>" in form.split() for form in output["logical_form"])

    def test_domain_relevant_words_are_over_represented_in_the_target(self):
        examples = [(["what", "river", "through"], 0), (["what", "state"], 0), (["what", "city"], 1)]
        self.model.set_domain_statistics(examples)
        relevant = {self.vocab.get_token_from_index(i, "tokens") for i in self.model.domain_relevant.nonzero().flatten().tolist()}
        assert relevant == {"city"}

    def test_training_adds_a_domain_loss(self):
        from allennlp.data import Batch

        batch = Batch(self.instances)
        batch.index_instances(self.vocab)
        tensors = batch.as_tensor_dict()
        self.model.train()
        output = self.model(**tensors)
        assert output["domain_loss"] > 0 and output["fine_domain_loss"] > 0
        del tensors["domain"]
        assert "domain_loss" not in self.model(**tensors)


def test_abstract_predicates_keeps_only_the_operators_in_the_sketch():
    reader = Coarse2FineReader("lambda", abstract_predicates=True)
    instance = reader.text_to_instance(
        "what state ha highest elev", "( argmax $0 ( state:t $0 ) ( elevation:i $0 ) )"
    )
    sketch = [t.text for t in instance["sketch_tokens"].tokens]
    assert sketch[1:-1] == "( argmax <v> ( <p> <v> ) ( <p> <v> ) )".split()
    assert [p for p in instance["predicates"].labels if p != "@none@"] == ["state:t", "elevation:i"]
    assert [int(k) for k in instance["slot_kind"].array].count(3) == 2

    prolog = Coarse2FineReader("prolog", abstract_predicates=True).text_to_instance(
        "job on platformid0 no experience", "job ( ANS ) , \\+ ( req_exp ( ANS ) ) , platform ( ANS , platformid0 )"
    )
    assert [p for p in prolog["predicates"].labels if p != "@none@"] == ["job", "req_exp", "platform"]
    assert "\\+" in [t.text for t in prolog["sketch_tokens"].tokens]
