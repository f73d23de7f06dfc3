"""
The old import path of `argument_shape`, kept for the scripts under `benchmarks/` that import it from
here; new code imports `fewshot_parser.data.recombination.trees`.
"""
from fewshot_parser.data.recombination.trees import argument_shape  # noqa: F401
