import hashlib
import logging
import os
import random
from typing import Any, Iterable, List, Optional, Tuple

from allennlp.common.checks import ConfigurationError
from allennlp.data import DatasetReader, Instance

from fewshot_parser.common.phases import phase
from fewshot_parser.data.dataset_readers.wrapping import WrappingReader
from fewshot_parser.data.examples import Example, read_examples, read_training_examples
from fewshot_parser.data.lexicons import split_lexicon
from fewshot_parser.data.paths import resolve_data_path
from fewshot_parser.data.recombination import (
    ForwardPairs,
    PairGenerator,
    RecombinationContext,
    ReversePairs,
    SyntheticPair,
    recombine,
)
from fewshot_parser.data.recombination.trees import call_labels

logger = logging.getLogger(__name__)

Row = Tuple[List[str], str, str]  # (utterance tokens, LF, origin)


@DatasetReader.register("fewshot_augmented")
class AugmentedSupportReader(WrappingReader):
    """
    Wraps a few-shot reader so that fine-tuning sees, besides the support set, synthetic pairs made by
    a list of pair generators (`fewshot_parser.data.recombination`), and optionally a sample of the
    training set.

    Only `support_data_path` is augmented; every other path (the query set, the training set) is
    read by the wrapped reader unchanged, and prediction (`text_to_instance`) is the wrapped
    reader's. The new predicates are found by comparing the support LFs with the training LFs. The
    training set's statistics are built once per content of the input files, and so are the pairs:
    fine-tuning reads the support set twice (vocabulary, then training data), and the members of an
    ensemble share one reader.

    Registered as a `DatasetReader` with name "fewshot_augmented".

    # Parameters

    reader : `DatasetReader`
        The few-shot reader (`fewshot_lf` or a benchmark's) that makes the instances.
    support_data_path : `str`
        The data path that is augmented (the experiment's `train_data_path`).
    training_data_path : `str`
        The training set the synthetic pairs are recombined from.
    generators : `List[List[PairGenerator]]`, optional (default = `[[forward 20, reverse 10]]`)
        Passes of pair generators, run one after the other; the generators of a pass take turns per
        new predicate (or per support example), e.g. `[[{type: forward}, {type: reverse}], [{type: reshaped}]]`.
    support_repeat : `int`, optional (default = `1`)
        How often each real support example is repeated, i.e. its weight against a synthetic pair
        (which appears once).
    replay : `int`, optional (default = `0`)
        Training examples replayed beside the support set (a fixed sample drawn with `seed`).
    lexicon : `str`, optional (default = `None`)
        A predicate lexicon (shipped name or JSON path) used to find a predicate's words. Of the
        entries of a new predicate only the words of its name and of its support utterances are used
        (`fewshot_parser.data.lexicons`).
    seed : `int`, optional (default = `13`)
        Seed of the replay sample.
    balance : `bool`, optional (default = `False`)
        Repeat the support examples of the new predicates that got fewer synthetic pairs (e.g. one
        whose signature no known predicate shares) until every new predicate is shown about as
        often, so that fine-tuning does not learn to prefer the well-augmented ones.
    lexicon_descriptions : `str`, optional (default = `None`)
        The user's own description file (JSON: predicate -> words), used whole for every predicate.
    handwritten_new_predicate_entries : `bool`, optional (default = `False`)
        Use every hand-written lexicon word of the new predicates too. They were written with the
        benchmark's evaluation files in view, so this leaks evaluation data; only for reproducing
        rows computed before.
    """

    def __init__(
        self,
        reader: DatasetReader,
        support_data_path: str,
        training_data_path: str,
        generators: Optional[List[List[PairGenerator]]] = None,
        support_repeat: int = 1,
        replay: int = 0,
        lexicon: Optional[str] = None,
        seed: int = 13,
        balance: bool = False,
        lexicon_descriptions: Optional[str] = None,
        handwritten_new_predicate_entries: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(manual_distributed_sharding=True, manual_multiprocess_sharding=True, **kwargs)
        for name, value, least in (("support_repeat", support_repeat, 1), ("replay", replay, 0)):
            if value < least:
                raise ConfigurationError(f"dataset_reader.{name} must be at least {least}, got {value}")
        formalism = getattr(reader, "formalism", None)
        if formalism is None:
            raise ConfigurationError("dataset_reader.reader must be a few-shot LF reader (it has no formalism)")
        if generators is None:  # forward and reverse pairs, with their default limits
            generators = [[ForwardPairs(), ReversePairs()]]
        self.generators = generators
        for generators_of_pass in self.generators:
            if len({generator.per for generator in generators_of_pass}) > 1:
                raise ConfigurationError(
                    "dataset_reader.generators: the generators of a pass must all make pairs "
                    "per new predicate or all per support example"
                )
        self.reader = reader
        self.formalism: str = formalism
        self.support_data_path = support_data_path
        self.training_data_path = training_data_path
        self.support_repeat = support_repeat
        self.replay = replay
        self.lexicon = lexicon
        self.lexicon_descriptions = lexicon_descriptions
        self.handwritten_new_predicate_entries = handwritten_new_predicate_entries
        self.seed = seed
        self.balance = balance
        # The context and the rows last made, with the digest of the input files they were made from.
        self._context: Optional[Tuple[bytes, RecombinationContext]] = None
        self._made: Optional[Tuple[bytes, List[Row]]] = None

    def context(self) -> RecombinationContext:
        """The training set's statistics (with the split's lexicon), built once while the input files stay."""
        inputs = self._inputs_digest()
        if self._context is None or self._context[0] != inputs:
            training = read_training_examples(self.training_data_path, self.formalism)
            lexicon = split_lexicon(
                self.lexicon,
                self.training_data_path,
                self.support_data_path,
                self.lexicon_descriptions,
                self.handwritten_new_predicate_entries,
            )
            self._context = (inputs, RecombinationContext(training, self.formalism, lexicon))
        return self._context[1]

    def synthetic_pairs(self, support: Optional[List[Example]] = None) -> List[SyntheticPair]:
        """The synthetic pairs for the support set (read from `support_data_path` unless given)."""
        if support is None:
            support = list(read_examples(self.support_data_path, self.formalism))
        return recombine(self.context(), support, self.generators)

    def augmented_examples(self) -> List[Row]:
        """(utterance tokens, LF, origin) of everything fine-tuning reads: support, synthetic, replay;
        made once while the support and training files stay the same."""
        inputs = self._inputs_digest()
        if self._made is None or self._made[0] != inputs:
            with phase("recombination"):
                self._made = (inputs, self._augment())
        return list(self._made[1])

    def _inputs_digest(self) -> bytes:
        """A digest of the contents of the files recombination reads."""
        digest = hashlib.sha256()
        for path in (self.support_data_path, self.training_data_path, self.lexicon_descriptions):
            try:
                found = resolve_data_path(path) if path else None
            except FileNotFoundError:  # reported by the reading itself
                found = None
            if found and os.path.isfile(found):
                with open(found, "rb") as handle:
                    digest.update(hashlib.sha256(handle.read()).digest())
            digest.update(b"|")
        return digest.digest()

    def _augment(self) -> List[Row]:
        support = list(read_examples(self.support_data_path, self.formalism))
        rows = [(e.utterance, e.logical_form, f"{e.source}:{e.line_number}") for e in support] * self.support_repeat
        pairs = self.synthetic_pairs(support)
        rows += [(p.utterance, p.logical_form, f"synthetic {p.direction} {p.predicate} from {p.source}") for p in pairs]
        if self.balance:
            rows += self._balancing_copies(support, pairs)
        sample: List[Example] = []
        if self.replay:
            training = self.context().training
            sample = random.Random(self.seed).sample(training, min(self.replay, len(training)))
            rows += [(e.utterance, e.logical_form, f"{e.source}:{e.line_number}") for e in sample]
        logger.info(
            "Fine-tuning data: %d support example(s) x %d, %d synthetic pair(s), %d replayed",
            len(support),
            self.support_repeat,
            len(pairs),
            len(sample),
        )
        return rows

    def _balancing_copies(self, support: List[Example], pairs: List[SyntheticPair]) -> List[Row]:
        """
        Extra copies of support examples, so that each new predicate is shown about as often as the most shown one.
        """
        new = self.context().new_predicates(support)
        users = {p: [e for e in support if p in call_labels(e.tree)] for p in new}
        shown = {p: len(users[p]) * self.support_repeat + sum(1 for pair in pairs if pair.predicate == p) for p in new}
        target = max(shown.values(), default=0)
        extra: List[Row] = []
        for predicate in new:
            if not users[predicate] or shown[predicate] >= target:
                continue
            copies = -(-(target - shown[predicate]) // len(users[predicate]))
            extra += [(e.utterance, e.logical_form, f"{e.source}:{e.line_number}") for e in users[predicate]] * copies
        return extra

    def _read(self, file_path: str) -> Iterable[Instance]:
        if file_path != self.support_data_path:
            yield from self.reader.read(file_path)
            return
        for tokens, logical_form, origin in self.shard_iterable(self.augmented_examples()):
            try:
                instance = self.reader.text_to_instance(" ".join(tokens), logical_form)
            except (ConfigurationError, ValueError) as error:
                if not origin.startswith("synthetic"):
                    raise
                # A synthetic LF the transition system cannot build (e.g. a copied value the
                # utterance lacks) is left out, not an error.
                logger.debug("Left out %s (%s): %s", " ".join(tokens), origin, error)
                continue
            instance["metadata"].metadata["location"] = origin  # type: ignore
            yield instance
