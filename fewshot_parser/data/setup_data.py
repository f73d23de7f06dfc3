"""
Puts the benchmark data under a data directory, in the authors' layout.

    {jobs,geo,atis}/lemma_data/shuffle_{0..5}_shot_{1,2}/{train,support,query}.txt

The files come from a local copy (by default `../shared/data` beside the repository, or the
directory in `$FEWSHOT_SHARED_DATA`) when one exists, otherwise from the authors' public
repository at a pinned commit. Every file is checked against the SHA-256 sums shipped with the
package before anything is moved into place, and the data directory is only replaced as a whole,
so an interrupted or failed set-up never leaves a partial copy behind.

    python -m fewshot_parser.data.setup_data --target data [--source DIR] [--force]
"""

import argparse
import hashlib
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.request
from typing import Dict, List, Optional

logger = logging.getLogger(__name__)

AUTHORS_REPOSITORY = "https://raw.githubusercontent.com/zhuang-li/few-shot-semantic-parsing"
PINNED_COMMIT = "2c7a7c173e570cdc534bda927993d253324949f0"
CHECKSUMS_FILE = os.path.join(os.path.dirname(__file__), "SHA256SUMS")
PROJECT_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_SOURCE = os.path.join(os.path.dirname(PROJECT_ROOT), "shared", "data")


def default_sources() -> List[str]:
    """
    Local copies to try: `$FEWSHOT_SHARED_DATA` alone when it is set; otherwise `../shared/data`
    beside this checkout and, for a clone of a local repository (e.g. a CI checkout made with
    `git clone /work/main /tmp/fresh`), `../shared/data` beside the repository it was cloned from.
    """
    if os.environ.get("FEWSHOT_SHARED_DATA"):
        return [os.environ["FEWSHOT_SHARED_DATA"]]
    sources = [DEFAULT_SOURCE]
    try:
        origin = subprocess.run(
            ["git", "-C", PROJECT_ROOT, "remote", "get-url", "origin"], capture_output=True, text=True, timeout=10
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        origin = ""
    if origin.startswith("file://"):
        origin = origin[len("file://") :]
    if origin and os.path.isdir(origin):
        sources.append(os.path.join(os.path.dirname(os.path.abspath(origin.rstrip("/"))), "shared", "data"))
    return [source for source in dict.fromkeys(sources) if source]


class DataSetupError(RuntimeError):
    """The data could neither be copied nor downloaded; the message says what was tried."""


def read_checksums(path: str = CHECKSUMS_FILE) -> Dict[str, str]:
    """Maps each relative file path (e.g. `geo/lemma_data/shuffle_1_shot_1/train.txt`) to its SHA-256."""
    checksums = {}
    with open(path, encoding="utf-8") as sums:
        for line_number, line in enumerate(sums, start=1):
            if not line.strip():
                continue
            parts = line.split()
            if len(parts) != 2:
                raise DataSetupError(f"{path}:{line_number}: expected '<sha256>  <path>', got {line.strip()!r}")
            checksums[parts[1]] = parts[0]
    return checksums


def sha256(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def is_complete(directory: str, checksums: Dict[str, str]) -> bool:
    """True when every expected file is present with the expected checksum."""
    return all(
        os.path.isfile(os.path.join(directory, relative)) and sha256(os.path.join(directory, relative)) == expected
        for relative, expected in checksums.items()
    )


def _copy_from(source: str, staging: str, checksums: Dict[str, str]) -> None:
    for relative, expected in checksums.items():
        source_file = os.path.join(source, relative)
        if not os.path.isfile(source_file):
            raise DataSetupError(f"{source} has no {relative}")
        target_file = os.path.join(staging, relative)
        os.makedirs(os.path.dirname(target_file), exist_ok=True)
        shutil.copyfile(source_file, target_file)
        if sha256(target_file) != expected:
            raise DataSetupError(f"{source_file}: checksum mismatch (the copy differs from the official file)")


def _download_to(base_url: str, staging: str, checksums: Dict[str, str], timeout: float) -> None:
    for relative, expected in checksums.items():
        url = f"{base_url}/datasets/{relative}"
        target_file = os.path.join(staging, relative)
        os.makedirs(os.path.dirname(target_file), exist_ok=True)
        try:
            with urllib.request.urlopen(url, timeout=timeout) as response, open(target_file, "wb") as out:
                shutil.copyfileobj(response, out)
        except OSError as error:
            raise DataSetupError(f"could not download {url}: {error}") from error
        if sha256(target_file) != expected:
            raise DataSetupError(f"{url}: checksum mismatch (not the pinned official file)")


def setup_data(
    target: str,
    source: Optional[str] = None,
    base_url: str = f"{AUTHORS_REPOSITORY}/{PINNED_COMMIT}",
    force: bool = False,
    allow_download: bool = True,
    timeout: float = 30.0,
    checksums_file: str = CHECKSUMS_FILE,
) -> str:
    """
    Makes `target` hold the verified benchmark data and returns how it got there
    (`"present"`, `"copied"` or `"downloaded"`).

    # Parameters

    target : `str`
        The data directory to fill (created if needed; replaced as a whole when incomplete).
    source : `str`, optional (default = the first of `default_sources()` that exists)
        A local copy in the same layout.
    base_url : `str`
        Where to download from when there is no local copy (the authors' repository, pinned).
    force : `bool`, optional (default = `False`)
        Rebuild even if `target` is already complete.
    allow_download : `bool`, optional (default = `True`)
        Whether to fall back to downloading.
    """
    checksums = read_checksums(checksums_file)
    if not force and os.path.isdir(target) and is_complete(target, checksums):
        return "present"
    if source is None:
        candidates = default_sources()
        source = next((c for c in candidates if os.path.isdir(c)), candidates[0])
    parent = os.path.dirname(os.path.abspath(target))
    os.makedirs(parent, exist_ok=True)
    staging = tempfile.mkdtemp(prefix=".fewshot_data_", dir=parent)
    tried = []
    try:
        how = None
        if os.path.isdir(source):
            try:
                _copy_from(source, staging, checksums)
                how = "copied"
            except DataSetupError as error:
                tried.append(f"copy from {source}: {error}")
                shutil.rmtree(staging)
                os.makedirs(staging)
        else:
            tried.append(f"copy from {source}: no such directory")
        if how is None and allow_download:
            try:
                _download_to(base_url, staging, checksums, timeout)
                how = "downloaded"
            except DataSetupError as error:
                tried.append(f"download from {base_url}: {error}")
        if how is None:
            raise DataSetupError(
                "could not set up the benchmark data in "
                + target
                + ". Tried:\n  - "
                + "\n  - ".join(tried)
                + "\nPoint --source (or $FEWSHOT_SHARED_DATA) at a copy of the authors' `datasets/` folder."
            )
        if os.path.isdir(target):
            shutil.rmtree(target)
        os.replace(staging, target)
        return how
    finally:
        if os.path.isdir(staging):
            shutil.rmtree(staging)


def main(argv: Optional[list] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", default=os.environ.get("FEWSHOT_DATA_DIR", "data"))
    parser.add_argument("--source", default=None, help="local copy of the data (default: ../shared/data)")
    parser.add_argument("--force", action="store_true", help="rebuild even if the target is complete")
    parser.add_argument("--no-download", action="store_true", help="never fall back to downloading")
    args = parser.parse_args(argv)
    try:
        how = setup_data(args.target, args.source, force=args.force, allow_download=not args.no_download)
    except DataSetupError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"benchmark data {how}: {os.path.abspath(args.target)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
