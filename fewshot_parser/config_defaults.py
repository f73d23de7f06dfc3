"""
Defaults of the environment variables that experiment configs read through `std.extVar`.

AllenNLP passes every environment variable to Jsonnet as an external variable, and Jsonnet has
no way to give a missing one a default. Importing fewshot_parser (which `allennlp` does before it
reads a config) therefore fills in these defaults with `os.environ.setdefault`; a value set by the
user always wins. This is the package's only import-time effect besides registration.
"""

import os
from typing import Dict

CONFIG_DEFAULTS: Dict[str, str] = {
    # Which official split (shuffle 0-5) an experiment uses; 0 is for tuning only.
    "FEWSHOT_SPLIT": "1",
    # Random seed of every experiment (random, numpy and torch seeds derive from it).
    "FEWSHOT_SEED": "13",
    # Where few-shot experiments keep (and look for) their shared pre-trained archives.
    "FEWSHOT_PRETRAIN_DIR": "runs/pretrain",
}


def apply_config_defaults() -> None:
    for name, value in CONFIG_DEFAULTS.items():
        os.environ.setdefault(name, value)
