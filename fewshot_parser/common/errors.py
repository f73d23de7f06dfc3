"""
One error style for the plugin's commands and readers.

An *expected user error* (a malformed data line, a missing input file, a bad argument) is an
AllenNLP `ConfigurationError` (or our `UserError`, one of them) or a `FileNotFoundError`, whose
message names what is wrong (`data/geo/.../support.txt:3: empty logical form`). When such an error
ends an `allennlp` command, the hook of `wrap_excepthook` prints that message alone on stderr (no
chained tracebacks, no "CRITICAL - root - Uncaught exception") and the process exits with status 1.
Set `FEWSHOT_VERBOSE=1` (or AllenNLP's `ALLENNLP_DEBUG`) to get the full traceback as before. Any
other exception is a bug and keeps its traceback. `fewshot_parser.commands.cli_behaviour` installs
the hook when fewshot_parser is imported (`install_excepthook`).
"""

import logging
import os
import sys
from types import TracebackType
from typing import Callable, Optional, Type

from allennlp.common.checks import ConfigurationError

VERBOSE_VARIABLE = "FEWSHOT_VERBOSE"

ExceptHook = Callable[[Type[BaseException], BaseException, Optional[TracebackType]], None]


class UserError(ConfigurationError):
    """An expected error caused by the user's input; its message says what and where, and how to fix it."""


def verbose() -> bool:
    """Whether tracebacks of user errors are wanted (`FEWSHOT_VERBOSE=1` or `ALLENNLP_DEBUG`)."""
    value = os.environ.get(VERBOSE_VARIABLE, "").strip().lower()
    return value not in ("", "0", "false", "no") or bool(os.environ.get("ALLENNLP_DEBUG"))


def is_user_error(error: BaseException) -> bool:
    return isinstance(error, (ConfigurationError, FileNotFoundError))


def user_message(error: BaseException) -> str:
    """The one-line message of a user error (a `FileNotFoundError` names the file)."""
    if isinstance(error, ConfigurationError):
        return str(getattr(error, "message", error))
    if isinstance(error, FileNotFoundError) and error.filename is not None:
        return f"{error.filename}: {error.strerror or 'no such file'}"
    return str(error)


def wrap_excepthook(previous: ExceptHook) -> ExceptHook:
    """An excepthook that prints user errors as one line and hands everything else to `previous`."""
    if getattr(previous, "_fewshot_wrapped", False):
        return previous

    def hook(kind: Type[BaseException], error: BaseException, traceback: Optional[TracebackType]) -> None:
        if is_user_error(error) and not verbose():
            for handler in logging.getLogger().handlers:  # earlier log lines first, the message last
                handler.flush()
            sys.stderr.write(user_message(error) + "\n")
            sys.stderr.flush()
            return
        previous(kind, error, traceback)

    hook._fewshot_wrapped = True  # type: ignore[attr-defined]
    return hook


def keeping_excepthook(original: Callable[..., None]) -> Callable[..., None]:
    """
    AllenNLP's `prepare_global_logging` (`allennlp.common.logging`), which `allennlp train` calls and
    which installs a hook that logs every uncaught exception as "CRITICAL - root - Uncaught
    exception" with its traceback, followed by wrapping that hook with `wrap_excepthook`.
    """
    if getattr(original, "_fewshot_wrapped", False):
        return original

    def prepare_global_logging(*args, **kwargs):  # type: ignore[no-untyped-def]
        original(*args, **kwargs)
        sys.excepthook = wrap_excepthook(sys.excepthook)

    prepare_global_logging._fewshot_wrapped = True  # type: ignore[attr-defined]
    return prepare_global_logging
