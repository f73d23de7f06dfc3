"""
The old import path of the LF helpers of recombination, kept for the scripts under `benchmarks/`
that import them from here; new code imports `fewshot_parser.data.recombination.trees`.
"""
from fewshot_parser.data.recombination.trees import atom_calls, call_labels, is_variable, substitute  # noqa: F401
