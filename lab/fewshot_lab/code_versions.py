"""Which results rows a lab table counts: those made by a given commit of this checkout or a later one."""

import subprocess
from typing import Dict, List, Sequence, Set


def since(commit: str, root: str = ".") -> Set[str]:
    """The full hashes of `commit` and of every commit after it on the way to HEAD (`git rev-list`)."""
    listed = subprocess.run(
        ["git", "-C", root, "rev-list", "HEAD", "--not", f"{commit}^@"], capture_output=True, text=True, check=True
    ).stdout.split()
    return set(listed)


def rows_since(rows: Sequence[Dict[str, str]], commit: str, root: str = ".") -> List[Dict[str, str]]:
    """The rows whose `code_version` (a commit, `-dirty` or not) is `commit` or later."""
    versions = since(commit, root)
    return [row for row in rows if row.get("code_version", "").split("-")[0] in versions]
