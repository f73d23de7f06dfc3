from typing import Any

from allennlp.common.checks import ConfigurationError
from allennlp.data import DatasetReader

from fewshot_parser.data.augmentation import Recombiner
from fewshot_parser.data.dataset_readers.reshaped import ReshapedAugmentedReader
from fewshot_parser.data.examples import read_training_examples
from fewshot_parser.data.reparenting import ReparentingRecombiner


@DatasetReader.register("fewshot_augmented_reparented")
class ReparentedAugmentedReader(ReshapedAugmentedReader):
    """
    `fewshot_augmented_reshaped` whose recombination also makes re-parented pairs
    (`ReparentingRecombiner`): the new predicates under operators their support set does not put
    them under (`argmin` when the support shows `argmax`).

    Registered as a `DatasetReader` with name "fewshot_augmented_reparented".

    # Parameters

    reparented_pairs_per_predicate : `int`, optional (default = `10`)
        Re-parented pairs per new predicate (at most).
    **kwargs
        `fewshot_augmented_reshaped`'s parameters (`reshaped_pairs_per_predicate` may be 0).
    """

    def __init__(self, reparented_pairs_per_predicate: int = 10, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if reparented_pairs_per_predicate < 0:
            raise ConfigurationError(
                f"dataset_reader.reparented_pairs_per_predicate must be at least 0, got {reparented_pairs_per_predicate}")
        self.reparented_pairs_per_predicate = reparented_pairs_per_predicate

    def recombiner(self) -> Recombiner:
        training = read_training_examples(self.training_data_path, self.formalism)
        return ReparentingRecombiner(training, self.formalism, self.split_lexicon(), self.pairs_per_predicate,
                                     self.reverse_pairs_per_predicate,
                                     reshaped_pairs_per_predicate=self.reshaped_pairs_per_predicate,
                                     reparented_pairs_per_predicate=self.reparented_pairs_per_predicate)
