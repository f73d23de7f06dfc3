"""
The state of a served parser, kept in a state directory so that nothing taught is lost:

    STATE/serve.sqlite         examples, jobs, versions and the active version (SQLite, WAL journal)
    STATE/pretrained.tar.gz    a copy of the pre-trained archive every version is taught from
    STATE/versions/jobJ/       the taught run of job J (`model.tar.gz`, its config and the files its reader reads)
    STATE/jobs/J/              job J's support file and log while it runs

Version 0 is the pre-trained archive. A teaching job makes version N+1 from the examples of the
version active when it runs plus its own. Its run is written where it stays (a taught archive's
config names its files by absolute path, so it is never moved), and its version row is committed
only once the archive is whole (AllenNLP writes it to a temporary file first); a directory that no
row names (a teaching killed half-way) is removed before the job runs again, or when the state is
opened while no teaching runs. Each call opens its own connection, so the server, its teaching process and
`allennlp teach --state` can share one state directory.
"""

import contextlib
import hashlib
import json
import os
import shutil
import sqlite3
import time
from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Sequence

from fewshot_parser.common.errors import UserError
from fewshot_parser.common.safe_io import atomic_path

DATABASE = "serve.sqlite"
PRETRAINED = "pretrained.tar.gz"
VERSIONS = "versions"
JOBS = "jobs"
LOCK = "teaching.lock"
# A job found running by the process that runs jobs was interrupted (its process died): it runs
# again up to this many attempts in all, then it is marked failed.
MAX_ATTEMPTS = 2

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS examples (
    id INTEGER PRIMARY KEY, utterance TEXT NOT NULL, logical_form TEXT NOT NULL, kind TEXT NOT NULL,
    predicates TEXT NOT NULL, actions TEXT NOT NULL, job INTEGER NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS jobs (
    id INTEGER PRIMARY KEY, status TEXT NOT NULL, created REAL NOT NULL, started REAL, finished REAL,
    phase TEXT, epoch INTEGER, epochs INTEGER, error TEXT, version INTEGER, attempts INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS versions (
    number INTEGER PRIMARY KEY, job INTEGER, created REAL NOT NULL, examples TEXT NOT NULL,
    predicates TEXT NOT NULL, seconds REAL, directory TEXT NOT NULL);
"""


class Example(NamedTuple):
    """A taught example: `kind` is "new" (it uses a predicate the pre-trained parser lacks) or "correction"."""

    id: int
    utterance: str
    logical_form: str
    kind: str
    predicates: List[str]
    actions: List[str]
    job: int
    created: float


class Version(NamedTuple):
    """A parser version: its taught archive, the examples it was taught, the new predicates it knows."""

    number: int
    job: Optional[int]
    created: float
    examples: List[int]
    predicates: List[str]
    seconds: Optional[float]


def normalize_utterance(utterance: str) -> str:
    """The form under which an utterance is looked up among taught examples (whitespace collapsed)."""
    return " ".join(utterance.split())


def file_digest(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class Store:
    """The state directory `directory` (see the module docstring)."""

    def __init__(self, directory: str) -> None:
        self.directory = os.path.abspath(directory)

    # -- set-up ------------------------------------------------------------------------------

    @property
    def database(self) -> str:
        return os.path.join(self.directory, DATABASE)

    @property
    def pretrained(self) -> str:
        return os.path.join(self.directory, PRETRAINED)

    def exists(self) -> bool:
        return os.path.isfile(self.database) and os.path.isfile(self.pretrained)

    def initialize(self, archive: Optional[str]) -> None:
        """
        Opens the state, creating it from the pre-trained `archive` when new; an existing state must
        have been made from an archive of the same content (or `archive` is None). Removes version
        directories that no row names (left by a teaching that was killed).
        """
        if os.path.exists(self.directory) and not os.path.isdir(self.directory):
            raise UserError(f"{self.directory}: a file; --state names a directory")
        os.makedirs(os.path.join(self.directory, VERSIONS), exist_ok=True)
        os.makedirs(os.path.join(self.directory, JOBS), exist_ok=True)
        connection = sqlite3.connect(self.database, timeout=30)
        try:
            connection.execute("PRAGMA journal_mode=WAL")
            connection.executescript(SCHEMA)
        finally:
            connection.close()
        if not os.path.isfile(self.pretrained):
            if archive is None:
                raise UserError(f"{self.directory}: not a parser state (no {PRETRAINED}); give the pre-trained archive")
            with atomic_path(self.pretrained) as temporary:
                shutil.copyfile(archive, temporary)
            with self.connect() as db:
                db.execute("INSERT OR REPLACE INTO meta VALUES ('pretrained', ?)", (os.path.abspath(archive),))
                db.execute("INSERT OR REPLACE INTO meta VALUES ('pretrained_sha256', ?)", (file_digest(archive),))
        elif archive is not None and os.path.abspath(archive) != self.pretrained:
            stored = self.meta("pretrained_sha256") or file_digest(self.pretrained)
            if file_digest(archive) != stored:
                raise UserError(
                    f"{self.directory}: a parser state taught from another pre-trained archive "
                    f"({self.meta('pretrained')}); choose another --state for {archive}"
                )
        with self.connect() as db:
            db.execute("INSERT OR IGNORE INTO meta VALUES ('active', '0')")
        self.remove_leftovers()

    def remove_leftovers(self) -> None:
        """Removes version directories that no version row names, unless a teaching is running now."""
        import fcntl

        with open(os.path.join(self.directory, LOCK), "a") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return  # a teaching runs: its directory has no row yet
            try:
                with self.connect() as db:
                    kept = {row[0] for row in db.execute("SELECT directory FROM versions")}
                versions = os.path.join(self.directory, VERSIONS)
                for name in os.listdir(versions):
                    if name not in kept:
                        shutil.rmtree(os.path.join(versions, name), ignore_errors=True)
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    @contextlib.contextmanager
    def connect(self, write: bool = True) -> Iterator[sqlite3.Connection]:
        """
        A connection whose block is one transaction (committed when it ends without an exception); one
        that only reads (`write=False`) takes no write lock, so it never waits for a teaching's writes.
        """
        connection = sqlite3.connect(self.database, timeout=30, isolation_level=None)
        try:
            connection.execute("PRAGMA synchronous=FULL")
            connection.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield connection
            except BaseException:
                connection.execute("ROLLBACK")
                raise
            connection.execute("COMMIT")
        finally:
            connection.close()

    def meta(self, key: str) -> Optional[str]:
        with self.connect(write=False) as db:
            row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else row[0]

    def set_meta(self, key: str, value: str) -> None:
        with self.connect() as db:
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    # -- versions ----------------------------------------------------------------------------

    def active_version(self) -> int:
        return int(self.meta("active") or 0)

    def run_dir(self, job: int) -> str:
        """Where job `job` teaches its version (the version's directory once it is done)."""
        return os.path.join(self.directory, VERSIONS, f"job{job}")

    def archive_of(self, number: int) -> str:
        """The model archive of version `number` (0: the pre-trained one)."""
        if number == 0:
            return self.pretrained
        with self.connect(write=False) as db:
            row = db.execute("SELECT directory FROM versions WHERE number = ?", (number,)).fetchone()
        if row is None:
            raise KeyError(number)
        return os.path.join(self.directory, VERSIONS, row[0], "model.tar.gz")

    def versions(self) -> List[Version]:
        """Every version, version 0 (the pre-trained parser) first."""
        with self.connect(write=False) as db:
            rows = db.execute(
                "SELECT number, job, created, examples, predicates, seconds FROM versions ORDER BY number"
            ).fetchall()
            created = float(db.execute("SELECT COALESCE(MIN(created), 0) FROM jobs").fetchone()[0] or 0.0)
        zero = Version(0, None, created, [], [], None)
        return [zero] + [Version(r[0], r[1], r[2], json.loads(r[3]), json.loads(r[4]), r[5]) for r in rows]

    def version(self, number: int) -> Optional[Version]:
        return next((version for version in self.versions() if version.number == number), None)

    def activate(self, number: int) -> None:
        with self.connect() as db:
            if number != 0 and db.execute("SELECT 1 FROM versions WHERE number = ?", (number,)).fetchone() is None:
                raise KeyError(number)
            db.execute("UPDATE meta SET value = ? WHERE key = 'active'", (str(number),))

    def add_version(self, job: int, examples: Sequence[int], predicates: Sequence[str], seconds: float) -> int:
        """
        Records job `job`'s finished run (`run_dir(job)`) as the next version, activates it and marks
        the job done, in one transaction; returns the version's number.
        """
        with self.connect() as db:
            number = int(db.execute("SELECT COALESCE(MAX(number), 0) + 1 FROM versions").fetchone()[0])
            db.execute(
                "INSERT INTO versions VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    number,
                    job,
                    time.time(),
                    json.dumps(list(examples)),
                    json.dumps(sorted(predicates)),
                    seconds,
                    os.path.basename(self.run_dir(job)),
                ),
            )
            db.execute("UPDATE meta SET value = ? WHERE key = 'active'", (str(number),))
            db.execute(
                "UPDATE jobs SET status = 'done', version = ?, finished = ?, phase = 'done' WHERE id = ?",
                (number, time.time(), job),
            )
        return number

    # -- examples and jobs ---------------------------------------------------------------------

    def add_job(self, examples: Sequence[Dict[str, Any]]) -> int:
        """Stores `examples` (checked: utterance, logical_form, kind, predicates, actions) and queues a job."""
        now = time.time()
        with self.connect() as db:
            job = db.execute(
                "INSERT INTO jobs (status, created, phase) VALUES ('queued', ?, 'queued')", (now,)
            ).lastrowid
            for example in examples:
                db.execute(
                    "INSERT INTO examples (utterance, logical_form, kind, predicates, actions, job, created) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        example["utterance"],
                        example["logical_form"],
                        example["kind"],
                        json.dumps(example["predicates"]),
                        json.dumps(example["actions"]),
                        job,
                        now,
                    ),
                )
        assert job is not None
        return int(job)

    def examples(self, ids: Optional[Sequence[int]] = None, job: Optional[int] = None) -> List[Example]:
        """Every example, or those of `ids` or of `job`, oldest first."""
        query = "SELECT id, utterance, logical_form, kind, predicates, actions, job, created FROM examples"
        with self.connect(write=False) as db:
            if job is not None:
                rows = db.execute(query + " WHERE job = ? ORDER BY id", (job,)).fetchall()
            else:
                rows = db.execute(query + " ORDER BY id").fetchall()
        wanted = None if ids is None else set(ids)
        return [
            Example(r[0], r[1], r[2], r[3], json.loads(r[4]), json.loads(r[5]), r[6], r[7])
            for r in rows
            if wanted is None or r[0] in wanted
        ]

    def job(self, job: int) -> Optional[Dict[str, Any]]:
        with self.connect(write=False) as db:
            db.row_factory = sqlite3.Row
            row = db.execute("SELECT * FROM jobs WHERE id = ?", (job,)).fetchone()
        return None if row is None else dict(row)

    def jobs(self) -> List[Dict[str, Any]]:
        with self.connect(write=False) as db:
            db.row_factory = sqlite3.Row
            return [dict(row) for row in db.execute("SELECT * FROM jobs ORDER BY id")]

    def claim_job(self) -> Optional[int]:
        """
        Marks the oldest queued job running and returns it (None when none is queued). Call it only
        while holding the teaching lock (`jobs.teaching_lock`): a job still marked running then was
        interrupted, and runs again or fails (`MAX_ATTEMPTS`).
        """
        now = time.time()
        with self.connect() as db:
            for job, attempts in db.execute("SELECT id, attempts FROM jobs WHERE status = 'running'").fetchall():
                if attempts >= MAX_ATTEMPTS:
                    db.execute(
                        "UPDATE jobs SET status = 'failed', finished = ?, phase = 'failed', error = ? WHERE id = ?",
                        (
                            now,
                            f"the teaching process stopped {attempts} times "
                            "(killed or out of memory); its examples are kept",
                            job,
                        ),
                    )
                else:
                    db.execute(
                        "UPDATE jobs SET status = 'queued', phase = 'queued (run again: the teaching "
                        "process stopped)' WHERE id = ?",
                        (job,),
                    )
            row = db.execute("SELECT id FROM jobs WHERE status = 'queued' ORDER BY id LIMIT 1").fetchone()
            if row is None:
                return None
            db.execute(
                "UPDATE jobs SET status = 'running', started = ?, phase = 'starting', epoch = NULL, "
                "epochs = NULL, attempts = attempts + 1 WHERE id = ?",
                (now, row[0]),
            )
        return int(row[0])

    def update_job(self, job: int, **fields: Any) -> None:
        allowed = {"phase", "epoch", "epochs", "error", "status", "finished"}
        names = [name for name in fields if name in allowed]
        if not names:
            return
        with self.connect() as db:
            db.execute(
                f"UPDATE jobs SET {', '.join(f'{name} = ?' for name in names)} WHERE id = ?",
                [fields[name] for name in names] + [job],
            )

    def fail_job(self, job: int, error: str) -> None:
        self.update_job(job, status="failed", phase="failed", error=error, finished=time.time())
