"""One walk over a config (nested dicts and lists) shared by the translations between spellings."""

from typing import Any, Callable, Dict


def rewrite_bottom_up(config: Any, rewrite: Callable[[Dict[str, Any]], Dict[str, Any]]) -> Any:
    """`config` with `rewrite` applied to every dictionary, innermost first (the input is not changed)."""
    if isinstance(config, list):
        return [rewrite_bottom_up(item, rewrite) for item in config]
    if not isinstance(config, dict):
        return config
    return rewrite({key: rewrite_bottom_up(value, rewrite) for key, value in config.items()})
