"""Probe readers and recombination generators (literal slots; reshaped, adjective,
superlative, reparented and subtree pairs)."""

from fewshot_lab.data.dataset_readers.literal_slots import LiteralSlotsReader
from fewshot_lab.data.dataset_readers.untyped_new import UntypedNewReader
from fewshot_lab.data.recombination.adjectives import AdjectivePairs
from fewshot_lab.data.recombination.reparented import ReparentedPairs
from fewshot_lab.data.recombination.reshaped import ReshapedPairs
from fewshot_lab.data.recombination.subtrees import SubtreePairs
from fewshot_lab.data.recombination.superlatives import SuperlativeForwardPairs, SuperlativePairs
