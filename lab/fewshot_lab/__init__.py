"""
fewshot_lab: the project's lab, outside the product.

Importing it registers the lab's AllenNLP subcommands (`report`, `certify`) and the components only
the probe rows of `lab/systems.jsonnet` use (ensembles, retention methods, more recombination
generators, decoding probes); it imports `fewshot_parser`, never the reverse. Loaded by the
checkout's `.allennlp_plugins`.
"""

import fewshot_parser  # noqa: F401  (the product first: its classes and command behaviour)
from fewshot_lab import commands, data, models, modules, staleness, training  # noqa: F401
