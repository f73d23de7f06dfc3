from typing import Any

from allennlp.common.checks import ConfigurationError
from allennlp.data import DatasetReader

from fewshot_parser.data.augmentation import Recombiner
from fewshot_parser.data.dataset_readers.augmented import AugmentedSupportReader
from fewshot_parser.data.examples import read_training_examples
from fewshot_parser.data.reshaping import ReshapingRecombiner


@DatasetReader.register("fewshot_augmented_reshaped")
class ReshapedAugmentedReader(AugmentedSupportReader):
    """
    `fewshot_augmented` whose recombination also makes reshaped pairs (`ReshapingRecombiner`): the
    new predicates with argument shapes the support set does not show, so that their GEN actions are
    in the fine-tuning vocabulary.

    Registered as a `DatasetReader` with name "fewshot_augmented_reshaped".

    # Parameters

    reshaped_pairs_per_predicate : `int`, optional (default = `10`)
        Reshaped pairs per new predicate (at most).
    **kwargs
        `fewshot_augmented`'s parameters.
    """

    def __init__(self, reshaped_pairs_per_predicate: int = 10, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if reshaped_pairs_per_predicate < 0:
            raise ConfigurationError(
                f"dataset_reader.reshaped_pairs_per_predicate must be at least 0, got {reshaped_pairs_per_predicate}")
        self.reshaped_pairs_per_predicate = reshaped_pairs_per_predicate

    def recombiner(self) -> Recombiner:
        training = read_training_examples(self.training_data_path, self.formalism)
        return ReshapingRecombiner(training, self.formalism, self.split_lexicon(), self.pairs_per_predicate,
                                   self.reverse_pairs_per_predicate,
                                   reshaped_pairs_per_predicate=self.reshaped_pairs_per_predicate)
