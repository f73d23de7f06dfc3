"""Probe decoding components: a missing-evidence scorer, the slot-type check for untyped new slots,
and the repeated-subtree, argument-type and result-type rerankers."""

from fewshot_lab.modules.decoding.argument_types import ArgumentTypes
from fewshot_lab.modules.decoding.missing_evidence import MissingEvidence
from fewshot_lab.modules.decoding.repeated_subtrees import RepeatedSubtrees
from fewshot_lab.modules.decoding.result_types import ResultTypes
from fewshot_lab.modules.decoding.slot_type_check_any import SlotTypeCheckAny
