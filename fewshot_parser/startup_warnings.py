"""
Known third-party start-up warnings, hidden from every command of the virtualenv.

Any `allennlp` command prints two warnings that say nothing about the user's work: transformers'
`torch.utils._pytree._register_pytree_node is deprecated` (a FutureWarning) and `pkg_resources is
deprecated as an API` (a UserWarning from rouge, which allennlp-models imports); `allennlp train`
adds torch's `torch.cuda.amp.autocast(args...) is deprecated` (a FutureWarning) every epoch.
`allennlp` imports the first two before any plugin, so importing fewshot_parser is too late to hide
them; only something that runs when Python starts is early enough. `python
fewshot_parser/startup_warnings.py` (run by `make setup`) therefore writes
`fewshot_parser_warnings.pth` into the virtualenv's site-packages, one line that Python's `site`
runs at start-up and that adds exactly these filters (at the end of the filter list, so `-W` and
`$PYTHONWARNINGS` still win). Importing fewshot_parser adds the same filters
(`quiet_known_warnings`) for interpreters without the file.

Standard library only: the `.pth` line must not import fewshot_parser (and with it AllenNLP) into
every Python process of the virtualenv.
"""

import os
import sys
import sysconfig
import warnings

PTH_NAME = "fewshot_parser_warnings.pth"

# (message regex, category, a built-in): the known warnings, and nothing else.
KNOWN_WARNINGS = (
    (r".*_register_pytree_node.*", FutureWarning),
    (r"pkg_resources is deprecated", UserWarning),
    # AllenNLP's trainer, once per epoch (torch deprecated `torch.cuda.amp.autocast(...)`).
    (r".*torch\.cuda\.amp\.autocast.*", FutureWarning),
)


def quiet_known_warnings() -> None:
    """Hides the known warnings in this process (after any filter the user set)."""
    for message, category in KNOWN_WARNINGS:
        warnings.filterwarnings("ignore", message=message, category=category, append=True)


def pth_line() -> str:
    """The one `import` line of the `.pth` file (`site` runs such lines at start-up)."""
    calls = "; ".join(
        f"warnings.filterwarnings('ignore', message={message!r}, category={category.__name__}, append=True)"
        for message, category in KNOWN_WARNINGS
    )
    return f"import warnings; {calls}\n"


def install(site_packages: str = "") -> str:
    """Writes the `.pth` file into `site_packages` (default: this interpreter's); returns its path."""
    directory = site_packages or sysconfig.get_paths()["purelib"]
    path = os.path.join(directory, PTH_NAME)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(pth_line())
    return path


if __name__ == "__main__":
    print(f"known start-up warnings hidden by {install(sys.argv[1] if len(sys.argv) > 1 else '')}")
