"""Re-parented recombination: new predicates under operators their support set does not show."""
import pytest
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.data import DatasetReader

import fewshot_parser  # noqa: F401
from fewshot_lab.data import ReparentedPairs
from fewshot_parser.data.recombination import ReshapedPairs
from fewshot_parser.data.recombination.trees import atom_calls
from fewshot_parser.logical_forms.tree import parse
from tests import PROJECT_ROOT
import reshaping_test
from tests.data.recombination import fixtures


def parents(logical_form: str, predicate: str) -> set:
    return {c.signature[3] for c in atom_calls(parse(logical_form, "lambda"), "lambda") if c.label == predicate}


def reparenting(training, support, reparented: int = 10):
    """The old `ReparentingRecombiner`: forward, reverse, reshaped (10), then re-parented pairs."""
    return fixtures.synthesize(training, support, ReshapedPairs(), ReparentedPairs(pairs_per_predicate=reparented))


def test_reparented_pairs_put_the_new_predicate_under_the_operators_its_support_lacks():
    training, support = fixtures.examples(fixtures.TRAINING), fixtures.examples(fixtures.SUPPORT, source="support.txt")
    pairs = reparenting(training, support, reparented=10)
    reparented = [pair for pair in pairs if pair.direction == "reparented"]
    assert reparented
    for pair in reparented:
        # The support shows `( area:i <v> )` under `argmin` only.
        assert pair.predicate == "area:i" and parents(pair.logical_form, "area:i") == {"argmax"}
        assert "area" in pair.utterance and "smallest" not in pair.utterance
    assert ("which state has the largest area".split(), "( argmax $0 ( state:t $0 ) ( area:i $0 ) )") in \
        [(pair.utterance, pair.logical_form) for pair in reparented]
    # Forward, reverse and reshaped pairs come first, unchanged.
    reshaped = fixtures.synthesize(training, support, ReshapedPairs())
    assert pairs[: len(reshaped)] == reshaped and len(pairs) == len(reshaped) + len(reparented)


def test_the_limit_and_zero_is_the_reshaped_recombination():
    training, support = fixtures.examples(fixtures.TRAINING), fixtures.examples(fixtures.SUPPORT, source="support.txt")
    one = reparenting(training, support, reparented=1)
    assert sum(p.direction == "reparented" for p in one) == 1
    assert reparenting(training, support, reparented=0) == fixtures.synthesize(training, support, ReshapedPairs())
    with pytest.raises(ConfigurationError, match="pairs_per_predicate must be at least 0"):
        ReparentedPairs(pairs_per_predicate=-1)


def test_a_predicate_shown_under_every_parent_of_its_kind_gets_none():
    training = fixtures.examples(fixtures.TRAINING)
    support = fixtures.examples(fixtures.SUPPORT + [("which river is the longest in area", "( argmax $0 ( river:t $0 ) ( area:i $0 ) )")],
                                source="support.txt")
    pairs = reparenting(training, support)
    assert not [p for p in pairs if p.direction == "reparented"]


def test_predicates_without_a_type_suffix_get_no_reparented_pairs():
    training = fixtures.examples(fixtures.untyped(fixtures.TRAINING))
    support = fixtures.examples(fixtures.untyped(fixtures.SUPPORT), source="support.txt")
    pairs = reparenting(training, support)
    assert not [p for p in pairs if p.direction == "reparented"]


def test_the_reader_feeds_reparented_pairs_to_fine_tuning(tmp_path):
    train = fixtures.write(tmp_path / "train.txt", fixtures.TRAINING)
    support = fixtures.write(tmp_path / "support.txt", fixtures.SUPPORT)

    def reader(reshaped: int = 10, reparented: int = 10) -> DatasetReader:
        return DatasetReader.from_params(Params({
            "type": "fewshot_augmented",
            "reader": {"type": "fewshot_geoquery", "idiom_source": train, "min_support": 2},
            "support_data_path": support, "training_data_path": train,
            "generators": [fixtures.forward_reverse(), [{"type": "reshaped", "pairs_per_predicate": reshaped}],
                           [{"type": "reparented", "pairs_per_predicate": reparented}]]}))

    origins = [i["metadata"].metadata["location"] for i in reader(reparented=1).read(support)]
    assert sum(o.startswith("synthetic reparented area:i") for o in origins) == 1
    assert not [p for p in reader(reshaped=0).synthetic_pairs() if p.direction == "reshaped"]
    with pytest.raises(ConfigurationError, match="pairs_per_predicate must be at least 0"):
        reader(reparented=-1)


def test_the_jsonnet_switch_adds_only_the_reparented_reader(monkeypatch):
    monkeypatch.chdir(PROJECT_ROOT)
    reader = reshaping_test.rendered_reader
    reparented, reshaped = reader("reparented-ens5", "geo", 1), reader("reshaped40-ens5", "geo", 1)
    assert reparented.pop("generators") == reshaped.pop("generators") + [[{"type": "reparented", "pairs_per_predicate": 10}]]
    assert reparented == reshaped
