"""The `fewshot_augmented` reader: a list of pair generators, statistics built once."""
import copy

import pytest
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.data import DatasetReader

import fewshot_lab  # noqa: F401
import fewshot_parser  # noqa: F401
from fewshot_parser.commands.augment_data import is_augmented_reader
from fewshot_parser.data.recombination import context as context_module
import adjectives_test
import subtrees_test
from tests.data.recombination import fixtures

GENERATORS = [[{"type": "forward", "pairs_per_predicate": 20}, {"type": "reverse", "pairs_per_predicate": 10}],
              [{"type": "adjectives", "pairs_per_predicate": 10}], [{"type": "subtrees", "pairs_per_example": 10}]]


def reader(tmp_path, **settings) -> DatasetReader:
    train = fixtures.write(tmp_path / "train.txt", subtrees_test.TRAINING)
    support = fixtures.write(tmp_path / "support.txt", subtrees_test.SUPPORT + adjectives_test.SUPPORT)
    return DatasetReader.from_params(Params({
        "type": "fewshot_augmented", "reader": {"type": "fewshot_geoquery", "idiom_source": train, "min_support": 2},
        "support_data_path": support, "training_data_path": train, "support_repeat": 2, "balance": True, "replay": 3,
        **copy.deepcopy(settings)}))  # Params consumes the nested dictionaries


def read(reader: DatasetReader) -> list:
    return [(instance["metadata"].metadata["location"], str(instance)) for instance in reader.read(reader.support_data_path)]


def test_generators_make_the_pairs_of_every_pass(tmp_path):
    new = reader(tmp_path, generators=GENERATORS)
    assert [[type(g).__name__ for g in p] for p in new.generators] == \
        [["ForwardPairs", "ReversePairs"], ["AdjectivePairs"], ["SubtreePairs"]]
    made = read(new)
    kinds = {origin.split()[1] for origin, _ in made if origin.startswith("synthetic")}
    assert {"forward", "reshaped", "subtree"} <= kinds
    # The defaults are forward and reverse pairs.
    assert read(reader(tmp_path)) == read(reader(tmp_path, generators=GENERATORS[:1]))
    assert is_augmented_reader("fewshot_augmented") and not is_augmented_reader("fewshot_augmented_subtrees")


def test_statistics_are_built_once_per_content_of_the_input_files(tmp_path, monkeypatch):
    built = []
    original = context_module.RecombinationContext.__init__

    def counting(self, *args, **kwargs):
        built.append(1)
        original(self, *args, **kwargs)

    monkeypatch.setattr(context_module.RecombinationContext, "__init__", counting)
    augmented = reader(tmp_path, generators=GENERATORS)
    first = read(augmented)
    assert read(augmented) == first and augmented.synthetic_pairs() and len(built) == 1  # balance and replay too
    with open(augmented.support_data_path, "a") as handle:  # another support set: built again
        handle.write("what is the area of s0\t( area:i s0 )\n")
    assert read(augmented) != first and len(built) == 2


def test_bad_generator_configs_are_refused(tmp_path):
    with pytest.raises(ConfigurationError, match="all make pairs per new predicate or all per support example"):
        reader(tmp_path, generators=[[{"type": "forward"}, {"type": "subtrees"}]])
    with pytest.raises(ConfigurationError, match="pairs_per_predicate"):  # a flat count is no key of the reader
        reader(tmp_path, generators=GENERATORS, pairs_per_predicate=3)
    with pytest.raises(ConfigurationError, match="pairs_per_example must be at least 0"):
        reader(tmp_path, generators=[[{"type": "subtrees", "pairs_per_example": -1}]])
    with pytest.raises(ConfigurationError, match="pairs_per_predicate must be at least 0"):
        reader(tmp_path, generators=[[{"type": "forward", "pairs_per_predicate": -1}]])
