"""
fewshot_parser: few-shot semantic parsing for new predicates, as an AllenNLP plugin.

Importing the package registers its readers, models, metrics and commands (this is how
`--include-package fewshot_parser` and `.allennlp_plugins` make them known to AllenNLP).
Importing downloads nothing; besides registration it sets defaults for the environment variables
that configs read (`fewshot_parser.config_defaults`) and adjusts the `allennlp` commands as
`fewshot_parser.commands.cli_behaviour` lists (one-line user errors, guarded writes, torch thread
defaults); that module is the only one that patches AllenNLP.
"""

# Known third-party start-up warnings, shown by every command otherwise: transformers' pytree
# deprecation and pkg_resources (imported by allennlp-models' rouge). `allennlp` itself imports them
# before any plugin, so `make setup` also installs a `.pth` file that hides them when Python starts
# (fewshot_parser.startup_warnings); run-grid passes PYTHONWARNINGS to its runs (run_grid.QUIET_WARNINGS).
from fewshot_parser.startup_warnings import quiet_known_warnings

quiet_known_warnings()

from fewshot_parser.config_defaults import apply_config_defaults  # noqa: E402
from fewshot_parser.version import VERSION

apply_config_defaults()

from fewshot_parser import commands, data, models, modules, predictors, training
from fewshot_parser.commands.cli_behaviour import install_cli_behaviour

# One-line user errors, guarded `train`/`predict` output, torch thread defaults (docs/errors.md).
install_cli_behaviour()
