"""Lexicon entries of a split's new predicates use only what a user has before the queries (issue 52, leak a)."""
import copy
import glob
import json
import os

import pytest
from allennlp.common import Params
from allennlp.data import DatasetReader, Vocabulary
from allennlp.models import Model

import fewshot_parser  # noqa: F401
from fewshot_parser.data.paths import resolve_data_path
from fewshot_parser.data.predicate_names import load_lexicon
from tests import fixture_split

# The ATIS fixture split: `class_type` and `ground_fare` are new (support only); the query says
# "cost", a hand-written word of `ground_fare` that no training or support line has.
TRAIN, SUPPORT, QUERY = (fixture_split("atis", part) for part in ("train", "support", "query"))


def test_name_derived_words():
    from fewshot_parser.data.lexicons import is_name_derived

    assert is_name_derived("elev", "elevation:i") and is_name_derived("length", "len:i")
    assert is_name_derived("fare", "ground_fare") and is_name_derived("class", "class_type")
    assert not is_name_derived("busy", "class_type") and not is_name_derived("altitude", "elevation:i")


def test_new_predicates_keep_only_name_and_support_words():
    from fewshot_parser.data.lexicons import scope_lexicon

    lexicon = {"flight": ["fly", "trip"], "class_type": ["class", "first", "busy", "thrift"], "meal": ["food"]}
    support = [(["first", "class", "flight"], ["flight", "class_type"])]
    scoped = scope_lexicon(lexicon, {"flight"}, support)
    assert scoped == {"flight": ["fly", "trip"], "class_type": ["class", "first"], "meal": []}
    assert scope_lexicon(lexicon, {"flight"}, support, handwritten_new_predicate_entries=True) == lexicon
    described = scope_lexicon(lexicon, {"flight"}, support, descriptions={"class_type": ["busy"], "stop": ["layover"]})
    assert described["class_type"] == ["class", "first", "busy"] and described["stop"] == ["layover"]


def test_the_fixture_split_drops_query_only_words_of_new_predicates():
    from fewshot_parser.data.lexicons import split_lexicon

    full = load_lexicon("atis")
    assert "cost" in full["ground_fare"] and "thrift" in full["class_type"]
    scoped = split_lexicon("atis", TRAIN, SUPPORT)
    assert scoped["class_type"] == ["class", "first"]
    assert sorted(scoped["ground_fare"]) == ["fare", "much"]
    assert scoped["flight"] == full["flight"]  # known: whole
    assert split_lexicon("atis", TRAIN, SUPPORT, handwritten_new_predicate_entries=True) == full


def augmented(**settings) -> DatasetReader:
    return DatasetReader.from_params(Params({
        "type": "fewshot_augmented", "reader": {"type": "fewshot_atis", "idiom_source": TRAIN, "min_support": 2},
        "support_data_path": SUPPORT, "training_data_path": TRAIN, "lexicon": "atis", **settings,
    }))


FORWARD_REVERSE = [{"type": "forward"}, {"type": "reverse"}]


@pytest.mark.parametrize("later", [[], [[{"type": "reshaped"}]], [[{"type": "adjectives"}]],
                                   [[{"type": "reshaped"}], [{"type": "subtrees"}]],
                                   [[{"type": "reshaped"}], [{"type": "reparented"}]]])
def test_recombination_sees_only_the_split_lexicon(later, tmp_path):
    def passes():
        return {"generators": copy.deepcopy([FORWARD_REVERSE] + later)}

    lexicon = augmented(**passes()).context().statistics.lexicon
    assert "thrift" not in lexicon["class_type"] and "cost" not in lexicon["ground_fare"]
    assert "first" in lexicon["class_type"]
    leaky = augmented(**passes(), handwritten_new_predicate_entries=True).context().statistics.lexicon
    assert "thrift" in leaky["class_type"]
    descriptions = tmp_path / "mine.json"
    descriptions.write_text(json.dumps({"ground_fare": ["cost"]}))
    described = augmented(**passes(), lexicon_descriptions=str(descriptions)).context().statistics.lexicon
    assert "cost" in described["ground_fare"] and "thrift" not in described["class_type"]


def fine_tuning_model(**settings) -> Model:
    """A tiny `proto_parser` pre-trained (vocabulary) on the ATIS fixture's train file, then extended with its support set."""
    reader = DatasetReader.from_params(Params({"type": "fewshot_atis", "idiom_source": TRAIN, "min_support": 2}))
    vocab = Vocabulary.from_instances(reader.read(TRAIN))
    vocab.add_tokens_to_namespace(["thrift", "busy", "cost", "coach", "trip"], "tokens")
    model = Model.from_params(vocab=vocab, params=Params({
        "type": "proto_parser", "lexicon": "atis", "lexical_linking": True,
        "source_embedder": {"token_embedders": {"tokens": {"type": "embedding", "embedding_dim": 4}}},
        "encoder": {"type": "lstm", "input_size": 4, "hidden_size": 3, "bidirectional": True},
        "action_dim": 4, "decoder_dim": 6, **settings,
    }))
    vocab.extend_from_instances(list(reader.read(SUPPORT)))
    model.extend_embedder_vocab()
    return model


def linked(model: Model, predicate: str, word: str) -> float:
    """The best link of `word` to an action that writes `predicate`."""
    column = model.vocab.get_token_index(word, "tokens")
    rows = [i for i, action in enumerate(model.action_space.actions) if action is not None and predicate in action.predicates]
    assert rows, predicate
    return float(model.lexical_linking.table(model)[rows, column].max())


@pytest.mark.parametrize("settings", [{}, {"lexicon_training_data": TRAIN, "lexicon_support_data": SUPPORT}])
def test_the_model_links_new_predicates_only_to_name_and_support_words(settings):
    model = fine_tuning_model(**settings)
    for word in ("thrift", "busy", "coach"):
        assert linked(model, "class_type", word) == 0.0, word
    assert linked(model, "ground_fare", "cost") == 0.0
    assert linked(model, "class_type", "class") == 1.0
    # Known predicates keep their hand-written words ("trip" is one of `flight`'s).
    assert linked(model, "flight", "trip") == 1.0
    # Support words are kept when the model knows the support set.
    assert "trip" in model.lexicon()["flight"] and ("first" in model.lexicon()["class_type"]) == bool(settings)
    leaky = fine_tuning_model(handwritten_new_predicate_entries=True, **settings)
    assert linked(leaky, "class_type", "thrift") == 1.0 and linked(leaky, "ground_fare", "cost") == 1.0


BENCHMARK = os.path.dirname(os.path.dirname(resolve_data_path("geo/lemma_data")))


@pytest.mark.parametrize("dataset", ["jobs", "geo", "atis"])
def test_on_the_benchmark_no_new_predicate_keeps_a_word_only_evaluation_files_have(dataset):
    from fewshot_parser.data.lexicons import is_name_derived, read_pairs, split_lexicon

    splits = sorted(glob.glob(os.path.join(BENCHMARK, dataset, "lemma_data", "shuffle_*_shot_*")))
    if not splits:
        pytest.skip("the benchmark data is not set up (make data)")
    for split in splits:
        train, support = os.path.join(split, "train.txt"), os.path.join(split, "support.txt")
        seen = {word for utterance, _ in read_pairs(train) + read_pairs(support) for word in utterance}
        known = {label for _, labels in read_pairs(train) for label in labels}
        for predicate, words in split_lexicon(dataset, train, support).items():
            if predicate not in known:
                unseen = [w for w in words if w not in seen and not is_name_derived(w, predicate)]
                assert not unseen, (split, predicate, unseen)
    if dataset == "atis":
        shuffle = os.path.join(BENCHMARK, "atis", "lemma_data", "shuffle_1_shot_1")
        scoped = split_lexicon("atis", os.path.join(shuffle, "train.txt"), os.path.join(shuffle, "support.txt"))
        assert "thrift" not in scoped["class_type"] and "busy" not in scoped["class_type"]


def test_an_archived_model_keeps_its_scoped_lexicon_without_the_data_files(tmp_path):
    import shutil
    train, support = tmp_path / "train.txt", tmp_path / "support.txt"
    shutil.copy(TRAIN, train)
    shutil.copy(SUPPORT, support)
    settings = {"lexicon_training_data": str(train), "lexicon_support_data": str(support)}
    trained = fine_tuning_model(**settings)
    state, lexicon, links = trained.state_dict(), trained.lexicon(), trained.lexical_linking.table(trained)
    assert json.loads(bytes(state["_scoped_lexicon"].tolist()).decode()) == lexicon
    os.remove(train)
    os.remove(support)
    # As AllenNLP loads an archive: build from the config, extend the vocabulary, restore the weights.
    loaded = fine_tuning_model(**settings)
    loaded.load_state_dict(state)
    assert loaded.lexicon() == lexicon and "first" in lexicon["class_type"]
    assert bool((loaded.lexical_linking.table(loaded) == links).all())
    # A vocabulary grown after loading (fine-tuning a loaded archive) scopes the lexicon again.
    loaded.extend_embedder_vocab()
    with pytest.raises(FileNotFoundError):
        loaded.lexicon()
