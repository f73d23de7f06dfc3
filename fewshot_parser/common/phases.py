"""
Wall-clock seconds per phase of a run: where teaching a parser spends its time (loading the
pre-trained archive, recombination, prototypes, training, decoding, archiving).

    with phase("recombination"):
        pairs = recombiner.synthesize(support)
    ...
    print(format_phases(take_phases()))

Phases nest: a phase's seconds exclude the phases opened inside it, so the phases of a run add up to
the time they cover. Only timing is recorded (no random numbers, no state a run reads), so timing a
run changes none of its numbers. `allennlp teach` prints the summary; `benchmarks/teach_speed.py`
reports it per row.
"""

import contextlib
import time
from typing import Dict, Iterator, List

_seconds: Dict[str, float] = {}
_open: List[List[float]] = []  # per open phase: [start, seconds spent in phases opened inside it]


@contextlib.contextmanager
def phase(name: str) -> Iterator[None]:
    """Adds the time spent inside the block, less that of phases opened inside it, to `name`."""
    _seconds.setdefault(name, 0.0)  # listed in the order phases start
    started = time.perf_counter()
    _open.append([started, 0.0])
    try:
        yield
    finally:
        _, inner = _open.pop()
        elapsed = time.perf_counter() - started
        _seconds[name] = _seconds.get(name, 0.0) + elapsed - inner
        if _open:
            _open[-1][1] += elapsed


def take_phases() -> Dict[str, float]:
    """The seconds per phase recorded since the last call, in the order the phases first ran; clears them."""
    taken = dict(_seconds)
    _seconds.clear()
    return taken


def format_phases(seconds: Dict[str, float]) -> str:
    """`loading 2.1 s, recombination 3.0 s, ...` (phases under 0.05 s left out)."""
    return ", ".join(f"{name} {value:.1f} s" for name, value in seconds.items() if value >= 0.05)
