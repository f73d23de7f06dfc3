"""
Config overrides that merge, and unknown keys that are errors.

- **`-o` merges.** `allennlp train -o` documents that "nested parameters can be specified either with
  nested dictionaries or with dot syntax", but AllenNLP 2.10's `with_overrides` merges only dotted
  keys: `-o '{"trainer": {"num_epochs": 3}}'` replaced the config's whole `trainer` (its optimizer
  and callbacks included) by `{"num_epochs": 3}`. `merging_overrides` first turns every nested
  dictionary whose key the config has as a dictionary into dotted keys, so both spellings change
  only the keys they name; lists, values and new keys are set as given. A dotted key whose parent
  the config lacks is a one-line error instead of a traceback.
- **Unknown keys name themselves.** `Params.assert_empty` ("Extra parameters passed to X: {...}")
  also says where the keys were found (`trainer.num_epochz`). AllenNLP's `GradientDescentTrainer`
  takes `**kwargs` and silently ignores any key it does not know (a misspelt `num_epochz` trained
  the default 20 epochs), and our readers and models that take `**kwargs` ended in a `TypeError`
  traceback, so both get the check every other class has (`check_keys`).
"""

import functools
import inspect
from typing import Any, Callable, Dict, Set

from allennlp.common.params import Params

from fewshot_parser.common.errors import UserError

_MISSING = object()
# Keys a `GradientDescentTrainer` accepts besides its constructor's arguments (a deprecated spelling).
TRAINER_EXTRA_KEYS = {"run_sanity_checks"}


def _at(config: Any, dotted: str) -> Any:
    """The value at a dotted key of a config (list items by index), or `_MISSING`."""
    node = config
    for part in dotted.split("."):
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return _MISSING
    return node


def dotted_overrides(config: Any, overrides: Dict[str, Any]) -> Dict[str, Any]:
    """
    `overrides` with every nested dictionary that meets a dictionary of `config` spelt as dotted keys:
    `{"trainer": {"num_epochs": 3}}` -> `{"trainer.num_epochs": 3}`, which `with_overrides` merges.
    """
    dotted: Dict[str, Any] = {}
    for key, value in overrides.items():
        inner = _at(config, key)
        if isinstance(value, dict) and isinstance(inner, dict):
            for sub, sub_value in dotted_overrides(inner, value).items():
                dotted[f"{key}.{sub}"] = sub_value
        else:
            dotted[key] = value
    return dotted


def merging_overrides(with_overrides: Callable[..., Any]) -> Callable[..., Any]:
    """AllenNLP's `with_overrides` (`allennlp.common.params`) merging nested dictionaries as dotted keys."""
    if getattr(with_overrides, "_fewshot_merging", False):
        return with_overrides

    @functools.wraps(with_overrides)
    def merging(original: Any, overrides_dict: Dict[str, Any], prefix: str = "") -> Any:
        try:
            return with_overrides(original, dotted_overrides(original, overrides_dict), prefix)
        except ValueError as error:
            if prefix:  # the outermost call reports it
                raise
            raise UserError(f"overrides (-o): {error}; a dotted key must name keys the config has") from None

    merging._fewshot_merging = True  # type: ignore[attr-defined]
    return merging


def extra_keys_message(class_name: str, extra: Dict[str, Any], history: str) -> str:
    """AllenNLP's "Extra parameters passed to X: {...}", with where each key was found."""
    where = ", ".join(f"{history}{key}" for key in extra)
    return f"Extra parameters passed to {class_name}: {extra} (unknown key{'s' if len(extra) > 1 else ''} {where})"


def assert_empty(self: Params, class_name: str) -> None:
    """`Params.assert_empty` whose message also names where the extra keys were found."""
    if self.params:
        raise UserError(extra_keys_message(class_name, dict(self.params), self.history))


def _argument_names(function: Callable[..., Any]) -> Set[str]:
    return {
        name
        for name, parameter in inspect.signature(function).parameters.items()
        if parameter.kind not in (parameter.VAR_KEYWORD, parameter.VAR_POSITIONAL)
    } - {"self", "cls"}


def _takes_keywords(function: Callable[..., Any]) -> bool:
    return any(p.kind == p.VAR_KEYWORD for p in inspect.signature(function).parameters.values())


def accepted_keys(cls: type, constructor: Callable[..., Any]) -> Set[str]:
    """
    The config keys `cls`, built by `constructor`, accepts. A constructor with `**kwargs` hands them
    on along `cls`'s method resolution order (cooperative `super().__init__(**kwargs)`, as our model
    mix-ins do), up to the first `__init__` without `**kwargs`; a `GradientDescentTrainer` accepts
    what its `from_partial_objects` takes and `TRAINER_EXTRA_KEYS`.
    """
    from allennlp.training import GradientDescentTrainer, Trainer

    names = _argument_names(constructor)
    if issubclass(cls, GradientDescentTrainer):
        return (
            names
            | _argument_names(GradientDescentTrainer.from_partial_objects)
            | _argument_names(Trainer.__init__)
            | TRAINER_EXTRA_KEYS
        )
    if not _takes_keywords(constructor):
        return names
    for klass in cls.__mro__:
        init = klass.__dict__.get("__init__")
        if init is None or init is constructor or klass is object:
            continue
        names |= _argument_names(init)
        if not _takes_keywords(init):
            break
    return names


def check_keys(create_kwargs: Callable[..., Any]) -> Callable[..., Any]:
    """
    AllenNLP's `create_kwargs` (`allennlp.common.from_params`), refusing keys that a class taking
    `**kwargs` does not accept: any trainer (AllenNLP's ignores them) and our own classes (whose
    `**kwargs` end in a `TypeError` traceback otherwise). Other classes are left to AllenNLP.
    """
    if getattr(create_kwargs, "_fewshot_checked", False):
        return create_kwargs

    @functools.wraps(create_kwargs)
    def checked(constructor: Callable[..., Any], cls: type, params: Params, **extras: Any) -> Any:
        from allennlp.training import GradientDescentTrainer

        ours = isinstance(cls, type) and cls.__module__.startswith("fewshot_parser.")
        if isinstance(cls, type) and (ours or issubclass(cls, GradientDescentTrainer)):
            accepted = accepted_keys(cls, constructor)
            extra = {key: value for key, value in params.as_dict(quiet=True).items() if key not in accepted}
            if extra:
                raise UserError(extra_keys_message(cls.__name__, extra, params.history))
        return create_kwargs(constructor, cls, params, **extras)

    checked._fewshot_checked = True  # type: ignore[attr-defined]
    return checked
