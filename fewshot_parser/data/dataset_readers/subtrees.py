from typing import Any

from allennlp.common.checks import ConfigurationError
from allennlp.data import DatasetReader

from fewshot_parser.data.augmentation import Recombiner
from fewshot_parser.data.dataset_readers.reshaped import ReshapedAugmentedReader
from fewshot_parser.data.examples import read_training_examples
from fewshot_parser.data.subtrees import AdjectiveSubtreeRecombiner, SubtreeRecombiner


@DatasetReader.register("fewshot_augmented_subtrees")
class SubtreesAugmentedReader(ReshapedAugmentedReader):
    """
    `fewshot_augmented_reshaped` whose recombination also makes subtree pairs (`SubtreeRecombiner`):
    a support LF that denotes an entity ("the highest point in s0"), placed whole where a template
    has an entity ("where is m0").

    Registered as a `DatasetReader` with name "fewshot_augmented_subtrees".

    # Parameters

    subtree_pairs_per_example : `int`, optional (default = `10`)
        Subtree pairs per support example (at most).
    adjectives : `bool`, optional (default = `False`)
        Make the reshaped pairs as `fewshot_augmented_adjectives` does.
    **kwargs
        `fewshot_augmented_reshaped`'s parameters.
    """

    def __init__(self, subtree_pairs_per_example: int = 10, adjectives: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if subtree_pairs_per_example < 0:
            raise ConfigurationError(
                f"dataset_reader.subtree_pairs_per_example must be at least 0, got {subtree_pairs_per_example}")
        self.subtree_pairs_per_example = subtree_pairs_per_example
        self.adjectives = adjectives

    def recombiner(self) -> Recombiner:
        training = read_training_examples(self.training_data_path, self.formalism)
        recombiner = AdjectiveSubtreeRecombiner if self.adjectives else SubtreeRecombiner
        return recombiner(training, self.formalism, self.split_lexicon(), self.pairs_per_predicate,
                          self.reverse_pairs_per_predicate, reshaped_pairs_per_predicate=self.reshaped_pairs_per_predicate,
                          subtree_pairs_per_example=self.subtree_pairs_per_example)
