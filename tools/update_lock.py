"""
Rewrites requirements.lock from `pip freeze` of the current virtualenv, keeping other Pythons' lines.

    .venv/bin/python -m pip freeze --all --exclude-editable | .venv/bin/python tools/update_lock.py requirements.lock

The lock is one file for every supported Python. A line with an environment marker
(`transformers==4.35.2 ; python_version >= "3.12"`) applies to the Pythons its marker accepts: when
the marker accepts the running Python, the line takes the frozen version and keeps its marker; when it
does not, the line stays as it is. Unmarked lines take the frozen version; frozen packages the lock does
not have are added unmarked, and unmarked packages no longer installed are dropped. Comment lines at the
top are kept. pip and this package are never locked.
"""
import os
import re
import sys
from typing import Dict, List

from packaging.markers import Marker
from packaging.utils import canonicalize_name

NEVER_LOCKED = {"pip", "fewshot-parser"}


def package_of(requirement: str) -> str:
    return canonicalize_name(re.split(r"[=<>!~ ;@]", requirement.strip(), maxsplit=1)[0])


def update(lock_lines: List[str], frozen: Dict[str, str]) -> List[str]:
    """The new lock's lines (without newlines) from the old ones and {package: frozen requirement}."""
    header = []
    for line in lock_lines:
        if not line.startswith("#"):
            break
        header.append(line)
    seen = set()
    body = []
    for line in lock_lines[len(header):]:
        if not line.strip() or line.startswith("#"):
            continue
        requirement, _, marker = line.partition(";")
        package = package_of(requirement)
        if marker.strip():
            if Marker(marker.strip()).evaluate():
                if package in frozen:
                    body.append(f"{frozen[package]} ; {marker.strip()}")
                seen.add(package)
            else:
                body.append(line)
        elif package in frozen:
            body.append(frozen[package])
            seen.add(package)
    body.extend(requirement for package, requirement in frozen.items() if package not in seen)
    body.sort(key=lambda line: (package_of(line), line))
    return header + body


def main(lock_path: str) -> None:
    frozen = {}
    for line in sys.stdin:
        line = line.strip()
        if line and not line.startswith("#") and package_of(line) not in NEVER_LOCKED:
            frozen[package_of(line)] = line
    with open(lock_path, encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    new_lines = update(lines, frozen)
    with open(lock_path + ".new", "w", encoding="utf-8") as handle:
        handle.write("\n".join(new_lines) + "\n")
    os.replace(lock_path + ".new", lock_path)
    print(f"{lock_path}: {len(new_lines) - sum(line.startswith('#') for line in new_lines)} requirements")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: pip freeze --all --exclude-editable | python tools/update_lock.py requirements.lock")
    main(sys.argv[1])
