"""Argument types for the plugin's subcommands: a bad value is an argparse error (usage, exit 2)
naming the value and what is allowed, instead of a traceback from deep inside the command."""

import argparse
from typing import Callable, Iterable


def one_of(allowed: Iterable[str], what: str) -> Callable[[str], str]:
    """An argparse `type` accepting only the names in `allowed`."""
    names = list(allowed)

    def check(value: str) -> str:
        if value not in names:
            raise argparse.ArgumentTypeError(f"unknown {what} {value!r}; choose from {', '.join(names)}")
        return value

    check.__name__ = what  # argparse names the type in some messages
    return check


def int_in(allowed: Iterable[int], what: str) -> Callable[[str], int]:
    """An argparse `type` accepting only the integers in `allowed`."""
    values = sorted(allowed)

    def check(value: str) -> int:
        try:
            number = int(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} must be an integer, not {value!r}") from None
        if number not in values:
            raise argparse.ArgumentTypeError(f"no {what} {number}; choose from {', '.join(map(str, values))}")
        return number

    check.__name__ = what
    return check


def positive_int(value: str) -> int:
    """An argparse `type` for counts (processes, threads): an integer of at least 1."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {value!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {number}")
    return number


def non_negative_float(value: str) -> float:
    """An argparse `type` for amounts that may be fractional (GPUs per run): a number of at least 0."""
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, not {value!r}") from None
    if not number >= 0:
        raise argparse.ArgumentTypeError(f"must be at least 0, not {value}")
    return number
