"""
The progress of the pre-trainings a grid waits for: which one runs, its epoch of how many, the last
training loss, and the time left, read from its staging directory (`<archive dir>.partial`, where
`ensure_pretrained` trains it) without touching the training: AllenNLP writes
`metrics_epoch_<i>.json` there after every epoch, and the number of epochs is in its `config.json`.

The grid's driver polls the pre-training directories every `POLL_SECONDS` while it waits for its
tasks (a directory listing, and one small file read per new epoch). On a terminal the state is the
postfix of the grid's progress bar, updated in place; when the output is not a terminal (a log
file, `make geo-1shot > log`), each new epoch is one line. A pre-training on a node whose disk the
driver does not see (a Ray cluster without shared storage) shows only its end, as before.
"""

import datetime
import glob
import json
import os
import re
import time
from typing import Callable, Dict, Iterable, List, NamedTuple, Optional, Set

# Seconds between two looks at the pre-training directories.
POLL_SECONDS = 2.0
# AllenNLP's per-epoch metrics file in a serialization directory.
_EPOCH_FILE = re.compile(r"^metrics_epoch_(\d+)\.json$")
# AllenNLP's default number of epochs of a `GradientDescentTrainer`.
DEFAULT_EPOCHS = 20


class Progress(NamedTuple):
    """Where one pre-training stands."""

    name: str  # the archive's directory name: geo-ours
    epoch: int  # epochs completed (0: started, none completed yet)
    epochs: Optional[int]  # of how many
    loss: Optional[float]  # training loss of the last completed epoch
    elapsed: float  # seconds since this training process started it
    left: Optional[float]  # seconds left, from the mean epoch time of this process

    def text(self) -> str:
        """`pre-training geo-ours: epoch 12/100, loss 2.3141, 1.5 min, ~11 min left`"""
        of = f"/{self.epochs}" if self.epochs else ""
        if self.epoch == 0:
            return (
                f"pre-training {self.name}: started{f', {self.epochs} epochs' if self.epochs else ''}, "
                f"{_span(self.elapsed)}"
            )
        loss = f", loss {self.loss:.4f}" if self.loss is not None else ""
        left = f", ~{_span(self.left, 0)} left" if self.left is not None else ""
        return f"pre-training {self.name}: epoch {self.epoch}{of}{loss}, {_span(self.elapsed)}{left}"


def _span(seconds: float, digits: int = 1) -> str:
    """`42 s` under a minute and a half, else minutes (`12.5 min`, or `13 min` with `digits` 0)."""
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.{digits}f} min"


def _seconds(duration: object) -> Optional[float]:
    """AllenNLP's `training_duration` ("1 day, 2:03:04.5" or "0:01:02.345678") in seconds."""
    found = re.match(r"^(?:(\d+) days?, )?(\d+):(\d\d):(\d\d(?:\.\d+)?)$", str(duration))
    if not found:
        return None
    days, hours, minutes, seconds = found.groups()
    return datetime.timedelta(
        days=int(days or 0), hours=int(hours), minutes=int(minutes), seconds=float(seconds)
    ).total_seconds()


def _read_json(path: str) -> Dict:
    try:
        with open(path) as handle:
            value = json.load(handle)
        return value if isinstance(value, dict) else {}
    except (OSError, ValueError):
        return {}


def _configured_epochs(directory: str) -> Optional[int]:
    trainer = _read_json(os.path.join(directory, "config.json")).get("trainer")
    if not isinstance(trainer, dict):
        return None
    epochs = trainer.get("num_epochs", DEFAULT_EPOCHS)
    return epochs if isinstance(epochs, int) else None


def read_progress(directory: str, name: Optional[str] = None, now: Optional[float] = None) -> Optional[Progress]:
    """
    The progress of the training in `directory` (a pre-training's staging directory, or its finished
    one), or None when it has not started. The time left is the mean epoch time of the epochs this
    process trained (a resumed training restarts AllenNLP's `training_duration`) times the epochs left.
    """
    try:
        names = os.listdir(directory)
    except OSError:
        return None
    config = os.path.join(directory, "config.json")
    if "config.json" not in names:
        return None
    now = time.time() if now is None else now
    try:
        elapsed = max(0.0, now - os.path.getmtime(config))
    except OSError:
        return None
    name = name or os.path.basename(os.path.normpath(directory)).removesuffix(".partial")
    epochs = _configured_epochs(directory)
    done = sorted(int(found.group(1)) for found in map(_EPOCH_FILE.match, names) if found)
    if not done:
        return Progress(name, 0, epochs, None, elapsed, None)
    last = done[-1]
    metrics = _read_json(os.path.join(directory, f"metrics_epoch_{last}.json"))
    loss = metrics.get("training_loss")
    left = None
    duration = _seconds(metrics.get("training_duration"))
    if duration is not None and epochs:
        first, current = last, duration  # the first epoch this process trained: durations grow within one process
        while first - 1 in done:
            earlier = _seconds(
                _read_json(os.path.join(directory, f"metrics_epoch_{first - 1}.json")).get("training_duration")
            )
            if earlier is None or earlier >= current:
                break
            first, current = first - 1, earlier
        left = duration / (last - first + 1) * max(0, epochs - last - 1)
    return Progress(name, last + 1, epochs, loss if isinstance(loss, (int, float)) else None, elapsed, left)


class PretrainingProgress:
    """
    Watches the pre-trainings under `roots` (pre-training directories, `$FEWSHOT_PRETRAIN_DIR`) that
    train while the grid runs, and shows where they stand: `in_place` (a callable taking the state of
    every running pre-training as one text, '' when none runs) and/or `line` (called with one line per
    new epoch).
    """

    def __init__(
        self,
        roots: Iterable[str],
        in_place: Optional[Callable[[str], None]] = None,
        line: Optional[Callable[[str], None]] = None,
        since: Optional[float] = None,
    ) -> None:
        self._roots = sorted({os.path.abspath(root) for root in roots if root})
        self._in_place = in_place
        self._line = line
        self._since = time.time() if since is None else since
        self._shown: Dict[str, int] = {}  # staging directory -> the epoch last shown as a line
        self._ended: Dict[str, int] = {}  # staging directory that left -> the last epoch shown of it
        self._done: Set[str] = set()  # staging directories whose pre-training the grid saw end
        self._last_text = ""

    def _staging(self) -> List[str]:
        """The staging directories of pre-trainings written to since the grid started."""
        found = []
        for root in self._roots:
            for directory in glob.glob(os.path.join(glob.escape(root), "*.partial")):
                if directory in self._done or not os.path.isdir(directory):
                    continue
                log = os.path.join(directory, "out.log")
                try:
                    changed = os.path.getmtime(log if os.path.exists(log) else directory)
                except OSError:
                    continue
                if changed >= self._since:
                    found.append(directory)
        return found

    def poll(self) -> None:
        """One look at the pre-training directories; shows what changed."""
        running = []
        staging = self._staging()
        for directory in staging:
            progress = read_progress(directory)
            if progress is None:
                continue
            running.append(progress)
            if self._line is not None and self._shown.get(directory) != progress.epoch:
                self._shown[directory] = progress.epoch
                self._line(progress.text())
        for directory in [d for d in self._shown if d not in staging]:
            self._end(directory)
        if self._in_place is not None:
            text = "; ".join(progress.text() for progress in running)
            if text != self._last_text:
                self._last_text = text
                self._in_place(text)

    def finished(self, archive: str) -> None:
        """
        The grid has the result of the pre-training of `archive`: its last epoch is shown, and it is no longer
        watched.
        """
        directory = os.path.dirname(os.path.abspath(archive)) + ".partial"
        self._end(directory)
        self._done.add(directory)
        self.poll()

    def _end(self, directory: str) -> None:
        """Shows the last epoch of a pre-training that left its staging directory, if no line showed it."""
        # A poll that no longer finds the directory ends it, and so does the grid's `finished` after it:
        # the second end must remember what the first showed.
        shown = self._shown.pop(directory, self._ended.get(directory))
        if self._line is None:
            return
        target = directory.removesuffix(".partial")
        final = read_progress(directory) or read_progress(target)
        try:
            recent = os.path.getmtime(os.path.join(target, "config.json")) >= self._since
        except OSError:
            recent = shown is not None
        if final is not None and final.epoch > (shown if shown is not None else 0) and recent:
            self._line(final.text())
            shown = final.epoch
        if shown is not None:
            self._ended[directory] = shown
