"""
The whole config of an experiment checked before anything trains.

AllenNLP finds an unknown key (or an unknown `type`) only when it builds the component that holds
it, and a few-shot experiment builds its fine-tuning parts after a pre-training of minutes to an
hour: a misspelt `trainer.num_epochz` failed only once the pre-training was over. `check_experiment`
walks a complete `allennlp train` config (every section: the pre-training's, the fine-tuning's,
readers, models, data loaders, trainers, optimizers, callbacks, the parts of an ensemble) the way
AllenNLP's `from_params` would build it, without building anything: each `type` is looked up in
its registry and each key matched against the constructor that would receive it, recursively
through the type annotations. An unknown key is the one-line error the build would raise later
("Extra parameters passed to GradientDescentTrainer: {'num_epochz': 3} (unknown key
trainer.num_epochz)", `fewshot_parser.common.overrides`); an unknown `type` is AllenNLP's own
message. Nothing is constructed, so no random number is drawn and no file is read or written.

A component whose class has its own `from_params` (AllenNLP's `Vocabulary`)
is taken as it is: its keys are whatever that method makes of them.
"""

import collections.abc
import inspect
import typing
from typing import Any, Callable, Dict, Mapping, Optional, Set, Tuple, Type, cast

from allennlp.commands.train import TrainModel
from allennlp.common import FromParams, Lazy, Params, Registrable
from allennlp.common.checks import ConfigurationError
from allennlp.common.from_params import infer_method_params, remove_optional
from allennlp.models import Model

from fewshot_parser.common.allennlp_internals import lazy_config, registered_names
from fewshot_parser.common.errors import UserError
from fewshot_parser.common.overrides import accepted_keys, extra_keys_message

# Top-level keys of a training config that `allennlp train` reads itself, before it builds the TrainModel.
TRAIN_KEYS = {"random_seed", "numpy_seed", "pytorch_seed", "distributed", "evaluation", "include_in_archive"}
# Keys of our TrainModels that hold whole configs, not components: an experiment, a list of them, a model.
NESTED_EXPERIMENT, NESTED_EXPERIMENTS, NESTED_MODEL = "pretraining", "experiments", "model"


def check_experiment(config: Mapping[str, Any], history: str = "") -> None:
    """
    Checks a complete training config (`allennlp train`'s, or the `pretraining` of an experiment) for
    unknown keys and types in every section; `history` is where it sits (`pretraining.`).
    """
    config = _plain(config)
    if not isinstance(config, dict):
        return
    _check_object(TrainModel, {k: v for k, v in config.items() if k not in TRAIN_KEYS}, history)


def check_sections(pretraining: Optional[Mapping[str, Any]] = None, **sections: Optional[Lazy]) -> None:
    """
    Checks what a few-shot experiment has not built yet when its `from_partial_objects` starts: the
    `pretraining` config and the lazy fine-tuning components (`model=`, `trainer=`, ...), each at the
    place its `Params` history names.
    """
    if pretraining is not None:
        check_experiment(pretraining, NESTED_EXPERIMENT + ".")
    for name, lazy in sections.items():
        if lazy is not None:
            check_lazy(lazy, f"{name}.")


def check_lazy(lazy: Lazy, history: str) -> None:
    """Checks the config of a `Lazy` component (one AllenNLP will build later, with extras given then)."""
    params, constructor = lazy_config(lazy)
    if not isinstance(params, Params) or not inspect.isclass(constructor):
        return
    _check_object(constructor, params.as_dict(quiet=True), params.history or history)


def _plain(value: Any) -> Any:
    """A config value as plain JSON data (`Params` as dictionaries)."""
    if isinstance(value, Params):
        return value.as_dict(quiet=True)
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


def _own_from_params(cls: Any) -> bool:
    """Whether `cls` builds itself with a `from_params` of its own, whose keys we cannot know."""
    method = getattr(cls, "from_params", None)
    if method is None:
        return True
    return getattr(method, "__func__", method) is not FromParams.from_params.__func__  # type: ignore[attr-defined]


def _resolve(cls: type, config: Dict[str, Any], history: str) -> Optional[Tuple[Any, Optional[str]]]:
    """
    The class and constructor name a registrable `cls` builds for `config` (its `type`, or the default
    implementation), popping `type`; AllenNLP's error for an unknown one. None when it cannot be told.
    """
    if registered_names(cls) is None:
        return cls, None
    registrable = typing.cast(typing.Type[Registrable], cls)
    params = Params({"type": config.pop("type")} if "type" in config else {}, history=history)
    if "type" not in params and registrable.default_implementation is None:
        return None  # AllenNLP says "key 'type' is required" when it builds it
    choice = params.pop_choice(
        "type",
        choices=registrable.list_available(),
        default_to_first_choice=registrable.default_implementation is not None,
    )
    return registrable.resolve_class_name(choice)


def _parameters(cls: type, constructor: Callable[..., Any]) -> Dict[str, inspect.Parameter]:
    """The constructor's parameters as AllenNLP sees them, with the cooperative `**kwargs` of our classes."""
    parameters = {
        name: parameter
        for name, parameter in infer_method_params(cls, constructor).items()
        if parameter.kind not in (parameter.VAR_KEYWORD, parameter.VAR_POSITIONAL) and name != "self"
    }
    if cls.__module__.startswith("fewshot_parser.") and any(
        p.kind == p.VAR_KEYWORD for p in inspect.signature(constructor).parameters.values()
    ):
        for klass in cls.__mro__[1:]:
            init = klass.__dict__.get("__init__")
            if init is None or klass is object:
                continue
            signature = inspect.signature(init)
            for name, parameter in signature.parameters.items():
                if parameter.kind not in (parameter.VAR_KEYWORD, parameter.VAR_POSITIONAL) and name != "self":
                    parameters.setdefault(name, parameter)
            if not any(p.kind == p.VAR_KEYWORD for p in signature.parameters.values()):
                break
    return parameters


def _accepted(
    cls: type, constructor: Callable[..., Any], parameters: Dict[str, inspect.Parameter]
) -> Optional[Set[str]]:
    """The keys `cls` accepts, as `create_kwargs` (with our `check_keys`) decides; None for any key."""
    from allennlp.training import GradientDescentTrainer

    if cls.__module__.startswith("fewshot_parser.") or issubclass(cls, GradientDescentTrainer):
        return accepted_keys(cls, constructor)
    # Only registered (FromParams) classes reach here.
    if any(p.kind == p.VAR_KEYWORD for p in infer_method_params(cast(Type[FromParams], cls), constructor).values()):
        return None  # AllenNLP hands unknown keys on as keyword arguments
    return set(parameters)


def _check_object(cls: Any, config: Any, history: str) -> None:
    """Checks the config of a component of (base) class `cls` at `history`."""
    if isinstance(config, str):
        config = {"type": config}
    if not isinstance(config, dict) or not inspect.isclass(cls):
        return
    config = dict(config)
    resolved = _resolve(cls, config, history)
    if resolved is None:
        return
    subclass, constructor_name = resolved
    if not inspect.isclass(subclass) or _own_from_params(subclass):
        return
    constructor = getattr(subclass, constructor_name) if constructor_name else subclass.__init__
    if constructor is object.__init__:
        if config:
            raise UserError(extra_keys_message(subclass.__name__, config, history))
        return
    parameters = _parameters(subclass, constructor)
    accepted = _accepted(subclass, constructor, parameters)
    if accepted is not None:
        extra = {key: value for key, value in config.items() if key not in accepted}
        if extra:
            raise UserError(extra_keys_message(subclass.__name__, extra, history))
    for name, value in config.items():
        if name not in parameters or (isinstance(value, dict) and "_pretrained" in value):
            continue
        where = f"{history}{name}."
        if issubclass(subclass, TrainModel) and name == NESTED_EXPERIMENT:
            check_experiment(value, where)
        elif issubclass(subclass, TrainModel) and name == NESTED_EXPERIMENTS and isinstance(value, list):
            for index, part in enumerate(value):
                check_experiment(part, f"{where}{index}.")
        elif issubclass(subclass, TrainModel) and name == NESTED_MODEL and _is_plain_data(parameters[name].annotation):
            _check_object(Model, value, where)
        else:
            _check_argument(remove_optional(parameters[name].annotation), value, where)


def _is_plain_data(annotation: Any) -> bool:
    """Whether an annotation takes a config as plain data (`Dict[str, Any]`), not a component."""
    annotation = remove_optional(annotation)
    return typing.get_origin(annotation) in (dict, collections.abc.Mapping) or annotation in (dict, Any)


def _check_argument(annotation: Any, value: Any, history: str) -> None:
    """Checks the value of a constructor argument with type `annotation`, as `construct_arg` would build it."""
    if value is None:
        return
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if hasattr(annotation, "from_params"):
        _check_object(annotation, value, history)
    elif origin is Lazy and args:
        _check_argument(args[0], value, history)
    elif origin in (dict, collections.abc.Mapping) and len(args) == 2 and isinstance(value, dict):
        for key, item in value.items():
            _check_argument(args[1], item, f"{history}{key}.")
    elif origin is tuple and isinstance(value, (list, tuple)):
        for index, (item_annotation, item) in enumerate(zip(args, value)):
            _check_argument(item_annotation, item, f"{history}{index}.")
    elif (
        origin in (list, set, collections.abc.Iterable, collections.abc.Sequence)
        and len(args) == 1
        and isinstance(value, (list, tuple))
    ):
        for index, item in enumerate(value):
            _check_argument(args[0], item, f"{history}{index}.")
    elif origin is typing.Union:
        _check_union(args, value, history)


def _check_union(options: Tuple[Any, ...], value: Any, history: str) -> None:
    """A union is right when any of its component types takes the value (AllenNLP tries each in turn)."""
    candidates = [option for option in options if _may_build(option, value)]
    first: Optional[ConfigurationError] = None
    for option in candidates:
        try:
            _check_argument(option, value, history)
            return
        except ConfigurationError as error:
            first = first or error
    if first is not None and len(candidates) == len([o for o in options if o is not type(None)]):
        raise first


def _may_build(annotation: Any, value: Any) -> bool:
    """Whether a type of a union could be the one a value is for (a dictionary for a component, a list for a list)."""
    origin = typing.get_origin(annotation)
    if isinstance(value, (dict, str)) and (hasattr(annotation, "from_params") or origin is Lazy):
        return True
    if isinstance(value, dict):
        return origin in (dict, collections.abc.Mapping)
    if isinstance(value, list):
        return origin in (list, tuple, set, collections.abc.Iterable, collections.abc.Sequence)
    return False
