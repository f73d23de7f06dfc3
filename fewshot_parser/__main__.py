"""`python -m fewshot_parser COMMAND ...`: the `allennlp` command line with this plugin loaded, from any
directory (custom subcommands such as `inspect-data` otherwise need `.allennlp_plugins` in the
working directory, because AllenNLP builds its argument parser before `--include-package` is read)."""

from allennlp.commands import main

import fewshot_parser  # noqa: F401  (registers the plugin; also hides known start-up warnings)


def run() -> None:
    """The `fewshot-parser` command: `allennlp` with this plugin loaded."""
    main(prog="fewshot-parser")


if __name__ == "__main__":
    main(prog="python -m fewshot_parser")
