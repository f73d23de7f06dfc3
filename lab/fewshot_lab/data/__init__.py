"""Probe readers and recombination generators (literal slots; adjective, superlative
forward, reparented, subtree and unknown-word pairs)."""

from fewshot_lab.data.dataset_readers.literal_slots import LiteralSlotsReader
from fewshot_lab.data.dataset_readers.untyped_new import UntypedNewReader
from fewshot_lab.data.recombination.adjectives import AdjectivePairs
from fewshot_lab.data.recombination.reparented import ReparentedPairs
from fewshot_lab.data.recombination.subtrees import SubtreeArguments, SubtreePairs
from fewshot_lab.data.recombination.superlative_forward import SuperlativeForwardPairs
from fewshot_lab.data.recombination.unknown_words import UnknownWordPairs
