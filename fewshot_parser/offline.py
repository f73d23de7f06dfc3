"""
Keeps `allennlp` commands offline.

AllenNLP imports its default plugins (allennlp_models among them) recursively in every command
that loads plugins. One module of allennlp_models (`rc/tools/narrativeqa.py`, a NarrativeQA
metric that fewshot_parser never uses) calls `nltk.download("punkt")` and `nltk.download("wordnet")`
at import time unless `nltk.data.find("tokenizers/punkt")` succeeds, which on a machine without
network prints download errors in every command.

`python -m fewshot_parser.offline` (run by `make setup`) registers an NLTK data directory inside
the virtualenv (`<sys.prefix>/nltk_data`, a location NLTK searches by default) holding a marker
entry `tokenizers/punkt`. That satisfies the check, so nothing is downloaded. No NLTK code path of
fewshot_parser needs the real punkt model; if some other code asks NLTK to *load* punkt, NLTK still
fails with its usual "resource not found" error, which names the resource.
"""

import os
import sys

MARKER_TEXT = (
    "Marker written by fewshot_parser (python -m fewshot_parser.offline) so that importing\n"
    "allennlp_models does not try to download NLTK's punkt. This is not the punkt model.\n"
)


def nltk_marker_dir(prefix: str = sys.prefix) -> str:
    return os.path.join(prefix, "nltk_data", "tokenizers", "punkt")


def install_nltk_marker(prefix: str = sys.prefix) -> str:
    """Creates the marker (idempotent) and returns its directory."""
    directory = nltk_marker_dir(prefix)
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "README.fewshot_parser"), "w", encoding="utf-8") as marker:
        marker.write(MARKER_TEXT)
    return directory


if __name__ == "__main__":
    print(f"NLTK offline marker: {install_nltk_marker()}")
