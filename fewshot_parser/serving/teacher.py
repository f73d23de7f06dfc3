"""
The server's teaching process: `python -m fewshot_parser.commands.serve_worker STATE`, started by the
server and started again when it dies, so that teaching never slows parsing down beyond its share of
the cores and a teaching that crashes takes no request with it. The process imports the plugin once
and runs queued jobs one at a time (`fewshot_parser.serving.jobs`); it ends when the server ends,
even when the server is killed (it watches its parent).
"""

import logging
import os
import subprocess
import sys
import threading
from typing import List, Optional

from fewshot_parser.serving.store import Store

logger = logging.getLogger(__name__)
WORKER_MODULE = "fewshot_parser.commands.serve_worker"


class Teacher:
    """Keeps one teaching process running for `store` (see the module docstring)."""

    def __init__(self, store: Store, overrides: str = "", threads: int = 1) -> None:
        self.store = store
        self.overrides = overrides
        self.threads = threads
        self.process: Optional[subprocess.Popen] = None
        self.restarts = 0
        self._stopped = threading.Event()
        self._thread: Optional[threading.Thread] = None

    def command(self) -> List[str]:
        command = [
            sys.executable,
            "-m",
            WORKER_MODULE,
            self.store.directory,
            "--parent",
            str(os.getpid()),
            "--threads",
            str(self.threads),
        ]
        return command + (["--overrides", self.overrides] if self.overrides else [])

    def _start(self) -> None:
        env = dict(os.environ, OMP_NUM_THREADS=str(self.threads), FEWSHOT_THREADS=str(self.threads))
        log = open(os.path.join(self.store.directory, "teaching.log"), "ab")
        try:
            self.process = subprocess.Popen(
                self.command(), stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=env
            )
        finally:
            log.close()

    def start(self) -> None:
        self._start()
        self._thread = threading.Thread(target=self._watch, name="teaching-process", daemon=True)
        self._thread.start()

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def ready(self) -> bool:
        """Whether the teaching process runs and has loaded the plugin (it is ready to teach)."""
        return self.alive() and self.store.meta("teaching_process") == str(self.process.pid)  # type: ignore[union-attr]

    def _watch(self) -> None:
        while not self._stopped.wait(1.0):
            if self.process is not None and self.process.poll() is not None and not self._stopped.is_set():
                logger.warning("the teaching process ended (status %s); starting it again", self.process.returncode)
                self.restarts += 1
                self._start()

    def stop(self) -> None:
        self._stopped.set()
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
