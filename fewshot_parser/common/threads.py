"""
Torch thread defaults for the plugin's commands.

Torch starts one intra-op thread per core. Our models are small (LSTMs of a few hundred units,
batches of 2-64), so extra threads buy little even on an idle machine, and beside another busy
process they oversubscribe the cores: a fine-tuning epoch on a 2-core machine next to one other job
took 7.1-7.9 s with torch's default threads and 0.07-0.17 s with one, with identical losses (see
docs/errors.md for the measurement).

When fewshot_parser is imported (every `allennlp` command with the plugin), the number of threads
is therefore set to

- `$FEWSHOT_THREADS` when set (a number of threads; `0` leaves torch's default alone);
- otherwise nothing is changed when `$OMP_NUM_THREADS` or `$MKL_NUM_THREADS` is set (torch already
  follows them; `run-grid` sets them for its runs from `--threads`);
- otherwise `default_threads()`: half the cores this process may use, at least 1 and at most 4.
"""

import logging
import os

logger = logging.getLogger(__name__)

THREADS_VARIABLE = "FEWSHOT_THREADS"
MAX_DEFAULT_THREADS = 4


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def default_threads(cores: int = 0) -> int:
    """Half the cores (at least 1, at most `MAX_DEFAULT_THREADS`)."""
    return max(1, min(MAX_DEFAULT_THREADS, (cores or available_cores()) // 2))


def configured_threads() -> int:
    """The thread count the rules above choose; 0 means leave torch as it is."""
    value = os.environ.get(THREADS_VARIABLE, "").strip()
    if value.isdigit():
        return int(value)
    if value:
        logger.warning("$%s must be a number of threads (0: torch's default), not %r; ignored", THREADS_VARIABLE, value)
    if os.environ.get("OMP_NUM_THREADS") or os.environ.get("MKL_NUM_THREADS"):
        return 0
    return default_threads()


def apply_thread_defaults() -> int:
    """Sets torch's intra-op threads as configured; returns the number set (0 if left alone)."""
    threads = configured_threads()
    if threads:
        import torch

        torch.set_num_threads(threads)
        logger.debug("torch threads: %d", threads)
    return threads
