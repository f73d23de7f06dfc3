"""
Support-set recombination: synthetic (utterance, LF) pairs that show each new predicate of a
few-shot support set in templates of the training set, and its support template with other known
content. Each way of making pairs is a `PairGenerator` (forward, reverse, reshaped, superlative and
modifier pairs here; the lab's probes add more); `pipeline.recombine` dedups, limits and interleaves
their pairs in one place; the training set's statistics live in a `RecombinationContext`, built once
per fine-tuning. The
`fewshot_augmented` reader (`data/dataset_readers/augmented.py`) takes the list of generators.
"""

from fewshot_parser.data.recombination.context import RecombinationContext, Support
from fewshot_parser.data.recombination.forward import ForwardPairs
from fewshot_parser.data.recombination.generator import PairGenerator, SyntheticPair
from fewshot_parser.data.recombination.modifiers import ModifierPairs
from fewshot_parser.data.recombination.pipeline import recombine
from fewshot_parser.data.recombination.reshaped import ReshapedPairs
from fewshot_parser.data.recombination.reverse import ReversePairs
from fewshot_parser.data.recombination.superlatives import SuperlativePairs
