"""Probe decoding components: a missing-evidence scorer, the slot-type check for untyped new slots,
a variable-scoping reranker and a repeated-subtree reranker."""

from fewshot_lab.modules.decoding.missing_evidence import MissingEvidence
from fewshot_lab.modules.decoding.repeated_subtrees import RepeatedSubtrees
from fewshot_lab.modules.decoding.slot_type_check_any import SlotTypeCheckAny
from fewshot_lab.modules.decoding.variable_scoping import VariableScoping
