"""Probe decoding components: a missing-evidence scorer and a variable-scoping reranker."""

from fewshot_lab.modules.decoding.missing_evidence import MissingEvidence
from fewshot_lab.modules.decoding.variable_scoping import VariableScoping
