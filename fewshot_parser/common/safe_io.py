"""
Guarded file I/O: writes that replace a user's file, and reading text line by line.

Writes that replace a file (report tables and figures, `predict` output, model archives) go to a
temporary file in the same directory, which is renamed over the target only when the write
succeeded; a failed or interrupted write leaves the old file as it was (and no temporary behind).

`read_lines` decodes a file one line at a time, so that bytes that are not UTF-8 are reported with
their file and line instead of ending the whole read in a `UnicodeDecodeError`.
"""

import contextlib
import os
import tempfile
from typing import IO, Iterator, NamedTuple, Optional


@contextlib.contextmanager
def atomic_path(path: str) -> Iterator[str]:
    """
    Yields a temporary path in `path`'s directory, with the same suffix (so that tools that pick a
    format by extension, such as matplotlib, still do), and renames it to `path` when the block
    ends without an exception; otherwise the temporary is removed and `path` is untouched.
    """
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    name = os.path.basename(path)
    suffix = f".tmp{os.path.splitext(name)[1]}"
    handle, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=suffix, dir=directory)
    os.close(handle)
    try:
        yield temporary
        if os.path.exists(path):  # keep the permissions of the file being replaced
            os.chmod(temporary, os.stat(path).st_mode & 0o777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.remove(temporary)


@contextlib.contextmanager
def atomic_open(path: str, mode: str = "w", **kwargs) -> Iterator[IO]:  # type: ignore[no-untyped-def]
    """`open(path, mode)` for writing, through `atomic_path`: the file is replaced only on success."""
    if not any(flag in mode for flag in "wx"):
        raise ValueError(f"atomic_open writes a whole file; mode {mode!r} is not a write mode")
    if "b" not in mode:
        kwargs.setdefault("encoding", "utf-8")
    with atomic_path(path) as temporary:
        with open(temporary, mode.replace("x", "w"), **kwargs) as handle:
            yield handle


class Line(NamedTuple):
    """One line of a text file: its 1-based number, its text (None if it is not UTF-8) and why not."""

    number: int
    text: Optional[str]
    error: Optional[str]


def decode_line(raw: bytes, encoding: str = "utf-8") -> Line:
    """Decodes one line (number 0); a line that does not decode gets `error`, naming the bad byte."""
    try:
        return Line(0, raw.decode(encoding), None)
    except UnicodeDecodeError as error:
        bad = raw[error.start : error.start + 1]
        return Line(0, None, f"not valid {encoding.upper()}: byte 0x{bad.hex()} at column {error.start + 1}")


def read_lines(path: str, encoding: str = "utf-8") -> Iterator[Line]:
    """
    The lines of a file, decoded one by one (line ends kept, split on `\\n` only). A UTF-8 byte-order
    mark at the start of the file is dropped.
    """
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            line = decode_line(raw, encoding)
            yield line._replace(number=number)
