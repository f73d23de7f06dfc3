"""
What the package needs from AllenNLP that AllenNLP keeps private, read here and nowhere else (AllenNLP
2.10 has no public accessor for them): the number of epochs a trainer runs, the instances a data loader
already holds, the config a `Lazy` component will be built from, and whether a class is a registrable
base with registered names.
"""

from typing import Any, Dict, List, Optional, Tuple

from allennlp.common import Params
from allennlp.common.registrable import Registrable


def trainer_epochs(trainer: Any) -> Optional[int]:
    """The number of epochs `trainer` (a `GradientDescentTrainer`) runs; None for another trainer."""
    epochs = getattr(trainer, "_num_epochs", None)
    return epochs if isinstance(epochs, int) else None


def loaded_instances(loader: Any) -> Optional[List[Any]]:
    """The instances a `MultiProcessDataLoader` already holds (None when it has not read them or is
    another loader): counting them reads nothing and draws nothing."""
    instances = getattr(loader, "_instances", None)
    return instances if isinstance(instances, list) else None


def lazy_config(lazy: Any) -> Tuple[Optional[Params], Any]:
    """The `Params` and the constructor a `Lazy` component will be built from (None, None when it was
    given as an object or a function, not a config)."""
    params = getattr(lazy, "_params", None)
    return (params if isinstance(params, Params) else None), getattr(lazy, "_constructor", None)


def lazy_config_dict(lazy: Any) -> Dict[str, Any]:
    """`lazy_config`'s parameters as a plain dictionary ({} when there are none)."""
    params, _ = lazy_config(lazy)
    return params.as_dict(quiet=True) if params is not None else {}


def registered_names(cls: type) -> Optional[List[str]]:
    """The names registered under the registrable base `cls`; None when `cls` is not such a base."""
    registry = Registrable._registry.get(cls)  # type: ignore[attr-defined]
    return None if registry is None else list(registry)
