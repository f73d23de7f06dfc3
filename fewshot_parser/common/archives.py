"""
Model archives given by the user, checked before AllenNLP reads them.

A missing, truncated or foreign archive given to `allennlp predict` or `evaluate`, or as a config's
`pretrained_archive`, otherwise ends in a traceback from deep inside `tarfile` or `torch.load`
(`EOFError: Compressed file ended before the end-of-stream marker was reached`). `check_archive`
turns each case into a `UserError` whose one line names the file and what is wrong with it, and
`guard_load_archive` wraps AllenNLP's `load_archive` so that it checks first
(`fewshot_parser.commands.cli_behaviour` puts it where `predict`, `evaluate`, `Predictor.from_path`
and `Model.from_archive` look it up when fewshot_parser is imported).
"""

import atexit
import functools
import gzip
import os
import shutil
import tarfile
import tempfile
import zlib
from typing import Any, Callable, Dict, Sequence, Set, Tuple

from fewshot_parser.common.errors import UserError

# What AllenNLP's `archive_model` always writes (allennlp.models.archival: CONFIG_NAME, _WEIGHTS_NAME).
REQUIRED_MEMBERS = ("config.json", "weights.th")
# What reading a damaged gzip-compressed tar raises.
DAMAGED = (EOFError, zlib.error, gzip.BadGzipFile, tarfile.ReadError)

# A version of an archive file: its real path, size and modification time.
FileVersion = Tuple[str, int, int]
_CHECKED: Set[FileVersion] = set()  # archives `check_archive` found sound in this process
_EXTRACTED: Dict[FileVersion, str] = {}  # archive -> the directory `extracted_archive_dir` made of it


def file_version(path: str) -> FileVersion:
    stat = os.stat(path)
    return os.path.realpath(path), stat.st_size, stat.st_mtime_ns


def check_archive(path: Any, hint: str = "") -> None:
    """
    Raises a `UserError` naming `path` when it is not a readable AllenNLP model archive: missing, a
    file that is not a gzip-compressed tar, truncated or corrupt, or a tar without `config.json` and
    `weights.th`; `hint` ends the message (what the archive was for, how to fix it). A serialization
    directory (which AllenNLP also loads) needs `config.json`; remote URLs are left to AllenNLP.
    """
    path = str(path)
    if "://" in path:
        return
    suffix = f" ({hint})" if hint else ""
    if not os.path.exists(path):
        raise UserError(f"{path}: no such model archive{suffix}")
    if os.path.isdir(path):
        if not os.path.isfile(os.path.join(path, "config.json")):
            raise UserError(
                f"{path}: a directory without config.json, not a model archive or serialization directory{suffix}"
            )
        return
    try:
        if file_version(path) in _CHECKED:  # checked before and not changed since: reading it again finds the same
            return
        with open(path, "rb") as handle:
            magic = handle.read(2)
        if magic != b"\x1f\x8b":  # every model.tar.gz starts with gzip's magic bytes
            kind = (
                "an empty file"
                if not magic
                else "an uncompressed tar file"
                if tarfile.is_tarfile(path)
                else "not a gzip-compressed tar file"
            )
            raise UserError(f"{path}: not a model archive ({kind}; `allennlp train` writes model.tar.gz){suffix}")
        with tarfile.open(path, "r:gz") as archive:
            names = set(archive.getnames())  # reads the whole archive, so a truncated one fails here
    except DAMAGED as error:
        reason = error or type(error).__name__
        raise UserError(f"{path}: truncated or corrupt model archive ({reason}){suffix}") from None
    except OSError as error:
        raise UserError(f"{path}: cannot read the model archive ({error.strerror or error}){suffix}") from None
    missing = [name for name in REQUIRED_MEMBERS if name not in names]
    if missing:
        held = ", ".join(sorted(names)[:5]) + (", ..." if len(names) > 5 else "") if names else "nothing"
        raise UserError(f"{path}: not an AllenNLP model archive (no {' or '.join(missing)}; it holds {held}){suffix}")
    _CHECKED.add(file_version(path))


def extracted_archive_dir(path: str) -> str:
    """
    A directory holding the files of the model archive `path`, extracted once per process and per
    version of the file (a directory is returned as it is). `load_archive` of that directory builds
    the same model as `load_archive(path)`, which extracts the archive again on every call: an
    ensemble's members, each loading the same pre-trained archive, read and decompress it once
    instead of once each. The directories are removed when the process exits.
    """
    if os.path.isdir(path):
        return path
    check_archive(path)
    version = file_version(path)
    if version not in _EXTRACTED:
        directory = tempfile.mkdtemp(prefix="fewshot_archive_")
        atexit.register(shutil.rmtree, directory, True)
        try:
            with tarfile.open(path, "r:gz") as archive:
                if hasattr(tarfile, "data_filter"):  # Python 3.12+, and 3.11 from 3.11.4
                    archive.extractall(directory, filter="data")
                else:  # pragma: no cover - older 3.11 patch releases
                    archive.extractall(directory)
        except DAMAGED as error:
            shutil.rmtree(directory, ignore_errors=True)
            raise UserError(f"{path}: truncated or corrupt model archive ({error or type(error).__name__})") from None
        _EXTRACTED[version] = directory
    return _EXTRACTED[version]


def read_members(path: str, names: Sequence[str]) -> Dict[str, bytes]:
    """
    The bytes of the members `names` of a model archive (or of the files of that name in a
    serialization directory) that it holds, read in one pass; a damaged archive is a `UserError`
    naming it (run `check_archive` first for the other cases).
    """
    wanted = set(names)
    found: Dict[str, bytes] = {}
    if os.path.isdir(path):
        for name in wanted:
            if os.path.isfile(os.path.join(path, name)):
                with open(os.path.join(path, name), "rb") as handle:
                    found[name] = handle.read()
        return found
    try:
        with tarfile.open(path, "r:gz") as archive:
            for member in archive:
                if member.name in wanted and member.isfile():
                    member_file = archive.extractfile(member)
                    if member_file is not None:
                        found[member.name] = member_file.read()
                    if len(found) == len(wanted):
                        break
    except DAMAGED as error:
        raise UserError(f"{path}: truncated or corrupt model archive ({error or type(error).__name__})") from None
    return found


def guard_load_archive(load_archive: Callable[..., Any]) -> Callable[..., Any]:
    """AllenNLP's `load_archive`, checking the archive first and naming it when extracting it fails."""
    if getattr(load_archive, "_fewshot_guarded", False):
        return load_archive

    @functools.wraps(load_archive)
    def guarded(archive_file: Any, *args: Any, **kwargs: Any) -> Any:
        check_archive(archive_file)
        try:
            return load_archive(archive_file, *args, **kwargs)
        except DAMAGED as error:
            raise UserError(f"{archive_file}: truncated or corrupt model archive ({error})") from error

    guarded._fewshot_guarded = True  # type: ignore[attr-defined]
    return guarded
