from allennlp.data import DatasetReader

from fewshot_parser.data.adjectives import AdjectiveRecombiner
from fewshot_parser.data.augmentation import Recombiner
from fewshot_parser.data.dataset_readers.reshaped import ReshapedAugmentedReader
from fewshot_parser.data.examples import read_training_examples


@DatasetReader.register("fewshot_augmented_adjectives")
class AdjectivesAugmentedReader(ReshapedAugmentedReader):
    """
    `fewshot_augmented_reshaped` whose reshaped pairs speak a new predicate that its support set
    shows only in a superlative with that superlative's adjective, where the training words they
    replace are an adjective ("how long is r0" -> "how high is r0", `AdjectiveRecombiner`).

    Registered as a `DatasetReader` with name "fewshot_augmented_adjectives". Its parameters are
    `fewshot_augmented_reshaped`'s.
    """

    def recombiner(self) -> Recombiner:
        training = read_training_examples(self.training_data_path, self.formalism)
        return AdjectiveRecombiner(training, self.formalism, self.split_lexicon(), self.pairs_per_predicate,
                                   self.reverse_pairs_per_predicate,
                                   reshaped_pairs_per_predicate=self.reshaped_pairs_per_predicate)
