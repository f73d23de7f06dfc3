from typing import List, Optional

from allennlp.common.checks import ConfigurationError
from allennlp.data import Instance

from fewshot_parser.training.retention.method import REPLAYED, RetentionContext, RetentionMethod


@RetentionMethod.register("replay")
class Replay(RetentionMethod):
    """
    Fine-tuning also trains on a seeded sample of examples of the pre-training file, shuffled and
    batched together with the support data (the fine-tuning data loader's batch size and shuffling),
    so that every epoch also shows known predicates. The sample is drawn once, from the file in its
    order, and is the same for the same seed. It composes with recombination (`fewshot_augmented`):
    the support data is then the augmented data, and the sample comes on top of it (and of the
    recombination's own `replay`, if any). The sample is part of the trainer's training data, so the
    callbacks that count that data (`fewshot_alignment_statistics`) count it too; a new action's
    prototype still averages support steps only, as no replayed example applies a new action.

    Registered as a `RetentionMethod` with name "replay".

    # Parameters

    examples : `int`
        How many training examples to replay (all of them when the file has fewer).
    seed : `int`, optional (default = `None`)
        Seed of the sample; by default the experiment's `finetune_seed` (13 without one).
    data_path : `str`, optional (default = `None`)
        The file to replay; by default the pre-training file (the `pretraining` config's `train_data_path`).
    """

    def __init__(self, examples: int, seed: Optional[int] = None, data_path: Optional[str] = None) -> None:
        if examples < 1:
            raise ConfigurationError(f"retention 'replay': examples must be at least 1, got {examples}")
        self.examples = examples
        self.seed = seed
        self.data_path = data_path
        self._sample: List[Instance] = []

    def prepare(self, context: RetentionContext) -> None:
        self._sample = context.sample(self.examples, self.seed, self.data_path)
        for instance in self._sample:
            instance["metadata"].metadata[REPLAYED] = True  # type: ignore[attr-defined]

    def replayed_instances(self) -> List[Instance]:
        return list(self._sample)
