"""Where old archives of `proto_parser` kept the state of what are components now."""

from typing import Any, Dict, Iterable, Sequence


def move_legacy_state_keys(
    state_dict: Dict[str, Any],
    prefix: str,
    components: Dict[str, Iterable[Any]],
    slot_prefixes: Sequence[str],
) -> None:
    """
    Moves, in place, the keys of a `proto_parser` state dict from the places old archives kept them to
    their components': the buffers of the `*_missing_evidence` models (and IRNet's parameters) kept at
    the top of the model move under the component (of `components`, by attribute name) whose
    `legacy_state_keys` name them, and the slot variant's layers of the old slot models (keys starting
    with one of `slot_prefixes`) move under `_slot_variant`.
    """
    for name, group in components.items():
        for index, component in enumerate(group):
            for key in getattr(component, "legacy_state_keys", ()):
                if prefix + key in state_dict:
                    state_dict[f"{prefix}{name}.{index}.{key}"] = state_dict.pop(prefix + key)
    for key in [k for k in state_dict if any(k.startswith(prefix + old) for old in slot_prefixes)]:
        state_dict[f"{prefix}_slot_variant.{key[len(prefix) :]}"] = state_dict.pop(key)
