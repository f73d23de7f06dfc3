"""
Teaching jobs: one at a time, each making a new version of the served parser.

A job re-teaches the *pre-trained* archive with every example of the version active when it runs
plus its own (a later example of the same utterance replaces an earlier one), with the recipe the
archive carries. Re-teaching from the pre-trained archive cannot forget what was taught before (each
version is one teaching of all its examples, the same as teaching them all at once) and costs the
known predicates no more than one teaching does; on geo and jobs a teaching takes seconds
(results/speed/teach.md). Continuing from the current version would compound the drift of every
fine-tuning on the known predicates and needs replay of the earlier examples anyway.

Whoever runs jobs (the server's teaching process, `fewshot_parser.commands.serve_worker`, or
`allennlp teach --state`) holds the state's teaching lock while it claims and runs one, so teachings
never overlap; `teach` is passed in (`fewshot_parser.commands.teach.teach`), so this module needs
nothing above it.
"""

import contextlib
import fcntl
import io
import logging
import os
import re
import shutil
import sys
import time
import traceback
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

from fewshot_parser.common.errors import is_user_error, user_message
from fewshot_parser.serving.store import LOCK, Example, Store, normalize_utterance

SUPPORT = "support.txt"
EPOCHS_LINE = re.compile(r"^(?P<who>[^:]+): (?P<epochs>\d+) epoch\(s\)")
EPOCH_LINE = re.compile(r"^(?P<who>[^:]+): epoch (?P<epoch>\d+)/(?P<epochs>\d+)")

TeachFunction = Callable[..., Dict[str, Any]]


@contextlib.contextmanager
def teaching_lock(store: Store) -> Iterator[None]:
    """Holds the state's teaching lock (an advisory file lock, released when the process dies)."""
    with open(os.path.join(store.directory, LOCK), "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def teaching_set(store: Store, job: int) -> List[Example]:
    """The examples job `job` teaches: the active version's, then its own; the last example of an utterance wins."""
    version = store.version(store.active_version())
    earlier = store.examples(ids=version.examples) if version is not None else []
    chosen: Dict[str, Example] = {}
    for example in earlier + store.examples(job=job):
        chosen.pop(normalize_utterance(example.utterance), None)
        chosen[normalize_utterance(example.utterance)] = example
    return sorted(chosen.values(), key=lambda example: example.id)


class _Progress(io.TextIOBase):
    """
    A stdout that records the trainer's epoch lines (`fewshot_progress`) on the job and keeps a log;
    once the job ends (`close`), what is still written to it (log handlers that AllenNLP pointed at
    it) goes to `after`.
    """

    def __init__(self, store: Store, job: int, log: io.TextIOBase, after: Any) -> None:
        self._store, self._job, self._log, self._after, self._buffer = store, job, log, after, ""
        self._ended = False
        self._written = 0.0

    def writable(self) -> bool:
        return True

    def close(self) -> None:
        self._ended = True

    def write(self, text: str) -> int:
        if self._ended:
            return self._after.write(text)
        self._log.write(text)
        self._buffer += text
        while "\n" in self._buffer:
            line, self._buffer = self._buffer.split("\n", 1)
            self.line(line.strip())
        return len(text)

    def flush(self) -> None:
        (self._after if self._ended else self._log).flush()

    def line(self, line: str) -> None:
        found = EPOCH_LINE.match(line)
        if found:
            # At most two writes a second (each is a synchronous commit), and always the last epoch.
            if time.time() - self._written >= 0.5 or found["epoch"] == found["epochs"]:
                self._store.update_job(
                    self._job, phase=found["who"], epoch=int(found["epoch"]), epochs=int(found["epochs"])
                )
                self._written = time.time()
            return
        found = EPOCHS_LINE.match(line)
        if found:
            self._store.update_job(self._job, phase=found["who"], epoch=0, epochs=int(found["epochs"]))


def run_job(store: Store, job: int, teach: TeachFunction, overrides: str = "", threads: Optional[int] = None) -> int:
    """
    Runs the claimed job `job`: writes its support file, teaches the pre-trained archive, installs
    the result as the next version and activates it; returns the version. A teaching that fails
    marks the job failed with a one-line reason (its examples are kept) and returns -1.
    """
    started = time.time()
    work = os.path.join(store.directory, "jobs", str(job))
    run = store.run_dir(job)
    for leftover in (work, run):  # a killed attempt's
        shutil.rmtree(leftover, ignore_errors=True)
    os.makedirs(work)
    examples = teaching_set(store, job)
    support = os.path.join(work, SUPPORT)
    # The support file is written in one canonical order (by utterance, then LF), not in the order the
    # examples arrived: a version is then a function of the set of examples it was taught, so teaching
    # predicate after predicate ends where teaching the same examples at once does.
    with open(support, "w", encoding="utf-8") as handle:
        for example in sorted(examples, key=lambda e: (normalize_utterance(e.utterance), e.logical_form)):
            handle.write(f"{example.utterance}\t{example.logical_form}\n")
    predicates = sorted({predicate for example in examples for predicate in example.predicates})
    with open(os.path.join(work, "log.txt"), "a", encoding="utf-8") as log:
        progress = _Progress(store, job, log, sys.stdout)

        def report(text: str) -> None:
            progress.write(f"teach: {text}\n")
            if text.startswith("fine-tuning"):
                store.update_job(job, phase="preparing: prototypes and data")
            elif text.startswith("time per phase"):
                store.update_job(job, phase="archiving")

        store.update_job(job, phase="loading the pre-trained archive")
        previous = sys.stdout
        sys.stdout = progress  # type: ignore[assignment]
        try:
            teach(
                store.pretrained,
                support,
                run,
                threads=threads,
                overrides=overrides,
                force=True,
                allow_known=True,
                report=report,
            )
        except Exception as error:  # noqa: BLE001 - a failed teaching fails its job, never the process
            message = user_message(error) if is_user_error(error) else f"{type(error).__name__}: {error}"
            log.write(traceback.format_exc())
            store.fail_job(job, " ".join(message.split())[:500])
            shutil.rmtree(run, ignore_errors=True)
            return -1
        finally:
            sys.stdout = previous
            progress.close()
            for handler in list(logging.getLogger().handlers):  # those `allennlp train` pointed at `progress`
                if getattr(handler, "stream", None) is progress:
                    logging.getLogger().removeHandler(handler)
    store.update_job(job, phase="installing the new version")
    version = store.add_version(job, [example.id for example in examples], predicates, time.time() - started)
    shutil.rmtree(work, ignore_errors=True)
    return version


def run_queued(
    store: Store, teach: TeachFunction, overrides: str = "", threads: Optional[int] = None, until: Optional[int] = None
) -> List[Tuple[int, int]]:
    """
    Runs queued jobs one at a time under the teaching lock until none is queued (or job `until` has
    run); returns (job, version) pairs, version -1 for a failed job.
    """
    ran: List[Tuple[int, int]] = []
    while True:
        with teaching_lock(store):
            job = store.claim_job()
            if job is None:
                return ran
            ran.append((job, run_job(store, job, teach, overrides, threads)))
        if until is not None and job == until:
            return ran


def work_forever(
    store: Store,
    teach: TeachFunction,
    overrides: str = "",
    threads: Optional[int] = None,
    poll: float = 0.3,
    stop: Callable[[], bool] = lambda: False,
) -> None:
    """The teaching process's loop: runs queued jobs as they come (checking every `poll` seconds)."""
    while not stop():
        if not run_queued(store, teach, overrides, threads):
            time.sleep(poll)
