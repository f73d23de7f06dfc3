"""Adjective words for reshaped pairs: "how high is r0" where the support says "the highest"."""
import json

import pytest
from allennlp.common import Params
from allennlp.data import DatasetReader

import fewshot_parser  # noqa: F401
from fewshot_lab.data import AdjectivePairs
from fewshot_parser.data.recombination import ReshapedPairs
from fewshot_parser.data.recombination.superlatives import positive_form
from tests import PROJECT_ROOT
import reshaping_test
from tests.data.recombination import fixtures

# The reshaping fixtures, with "highest" an operator word (it predicts `argmax`) and "long" an
# adjective (the training utterances also say "longest").
TRAINING = fixtures.TRAINING + [
    ("which city has the highest population", "( argmax $0 ( city:t $0 ) ( population:i $0 ) )"),
    ("which state has the highest population", "( argmax $0 ( state:t $0 ) ( population:i $0 ) )"),
    ("what is the highest populated river", "( argmax $0 ( river:t $0 ) ( population:i $0 ) )"),
]
# `elevation:i` shown only as the key of an `argmax`, spoken by the superlative alone, which the
# lexicon (as the shipped geo lexicon does) ties to the predicate.
LEXICON = {"elevation:i": ["high"]}
SUPPORT = [("which state is the highest", "( argmax $0 ( state:t $0 ) ( elevation:i $0 ) )")]


@pytest.mark.parametrize("superlative, adjective", [
    ("highest", "high"), ("largest", "large"), ("biggest", "big"), ("smallest", "small"), ("longest", "long"),
    ("lowest", "low"), ("densest", "dense"), ("widest", "wide"), ("earliest", "early"), ("cheapest", "cheap"),
    ("hottest", "hot"), ("tallest", "tall"), ("strongest", "strong"), ("fewest", "few"),
    ("best", None), ("most", None), ("least", None), ("river", None), ("s0est", None),
])
def test_positive_form_undoes_the_superlative(superlative, adjective):
    assert positive_form(superlative) == adjective


def pairs(generator_class, support=SUPPORT):
    """Forward and reverse pairs, then 10 reshaped pairs made by `generator_class` (the old recombiners)."""
    training, support = fixtures.examples(TRAINING), fixtures.examples(support, source="support.txt")
    return fixtures.synthesize(training, support, generator_class(pairs_per_predicate=10), lexicon=LEXICON)


def test_an_adjective_slot_gets_the_support_superlatives_adjective():
    mine, plain = pairs(AdjectivePairs), pairs(ReshapedPairs)
    spoken = {(" ".join(p.utterance), p.logical_form) for p in mine if p.direction == "reshaped"}
    assert ("how high is r0", "( elevation:i r0 )") in spoken
    assert not [p for p in plain if p.direction == "reshaped" and "high" in p.utterance]
    # Elsewhere (the replaced words are not an adjective, or the pair is not reshaped) nothing changes.
    assert ("what is the elevation s0", "( elevation:i s0 )") in spoken
    changed = [(a, b) for a, b in zip(mine, plain) if a != b]
    assert len(mine) == len(plain) and changed
    for a, b in changed:
        assert a.direction == "reshaped" and a.logical_form == b.logical_form and "how" in a.utterance
        assert "high" in a.utterance and "elevation" in b.utterance


def test_support_words_that_name_the_predicate_are_kept():
    named = [("which state has the highest elevation", "( argmax $0 ( state:t $0 ) ( elevation:i $0 ) )")]
    assert pairs(AdjectivePairs, named) == pairs(ReshapedPairs, named)


def test_the_reader_and_the_jsonnet_switch(tmp_path, monkeypatch):
    train = fixtures.write(tmp_path / "train.txt", TRAINING)
    support = fixtures.write(tmp_path / "support.txt", SUPPORT)
    lexicon = tmp_path / "lexicon.json"
    lexicon.write_text(json.dumps(LEXICON), encoding="utf-8")
    reader = DatasetReader.from_params(Params({
        "type": "fewshot_augmented",
        "reader": {"type": "fewshot_geoquery", "idiom_source": train, "min_support": 2},
        "support_data_path": support, "training_data_path": train,
        "generators": [fixtures.forward_reverse(), [{"type": "adjectives", "pairs_per_predicate": 10}]],
        # The user's own words: a hand-written lexicon entry of a new predicate keeps only the words of
        # its name and support utterances ("highest", not "high"; tests/data/lexicons_test.py).
        "lexicon_descriptions": str(lexicon)}))
    assert "how high is r0".split() in [p.utterance for p in reader.synthetic_pairs()]

    monkeypatch.chdir(PROJECT_ROOT)
    adjectives = reshaping_test.rendered_reader("adjectives-ens5", "geo", 1)
    reshaped = reshaping_test.rendered_reader("reshaped40-ens5", "geo", 1)
    assert adjectives.pop("generators")[1:] == [[{"type": "adjectives", "pairs_per_predicate": 40}]]
    assert reshaped.pop("generators")[1:] == [[{"type": "reshaped", "pairs_per_predicate": 40}]] and adjectives == reshaped
