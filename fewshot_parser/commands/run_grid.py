"""
`allennlp run-grid`: runs a grid of few-shot experiments (systems x datasets x shots x shuffles) on
Ray, resumably, and records one row per finished run in `results/runs.csv`.

Without `--address` the grid starts a local Ray instance with `--jobs` x `--threads` CPUs, so `--jobs`
runs train at a time on this machine; with `--address` (`auto`, `host:port`, `ray://host:port`) the
same grid runs on an existing Ray cluster (docs/experiments.md: a laptop, a Ray cluster, Slurm).
Ray schedules the runs (each asks for `--threads` CPUs, and a GPU with `--cuda-device`/`--gpus-per-run`),
makes the runs that share a pre-trained archive wait for its one pre-training task, and retries a
task whose node died (`fewshot_parser.commands.grid_ray`). Archives travel through Ray's object store
and each run's files come back to the driver as bytes (`fewshot_parser.commands.grid_tasks`), so the
nodes need the code and the data, but no storage shared with the driver.

What stays ours: which runs exist (`plan`), resumability, and the results file, which only the driver
writes, a row at a time as the runs' results arrive. A run is done when its serialization directory
holds `metrics.json` (AllenNLP writes it last), or when the results file already has its row (so a grid
resumed on another machine, or after `runs/` was cleaned, does not redo runs whose numbers are recorded;
`--redo-recorded` redoes them). Anything else in the directory is a partial or failed run and is
redone from scratch.

Two locks remain, both for what Ray does not see: two grids (two drivers, possibly on two clusters)
sharing a runs directory or a results file. The driver holds `<serialization dir>.lock` for each run
it has submitted, so a second grid skips that run instead of redoing it, and takes `<results>.lock`
around each read-modify-write of the results file, so two drivers never lose each other's rows.

To spread a grid without Ray's help, give each machine a slice (e.g. `--datasets geo` on one machine
and `--datasets atis` on another) and concatenate their `runs.csv` files.

A finished run keeps `model.tar.gz`, its metrics, config and log. The training checkpoints AllenNLP
leaves beside them (`best.th`, `model_state_*.th`, `training_state_*.th`, about 120 MB for a small
model) duplicate the archive's weights, so they do not come back from the nodes unless
`--keep-checkpoints` is given (and older runs' checkpoints are deleted).
"""

import argparse
import contextlib
import csv
import fcntl
import glob
import json
import os
import shutil
import sys
import time
from typing import Any, Callable, Dict, Iterator, List, NamedTuple, Optional, Sequence, Set, Tuple

from allennlp.commands.subcommand import Subcommand
from allennlp.common.checks import ConfigurationError
from tqdm import tqdm

from fewshot_parser.commands import grid_tasks
from fewshot_parser.commands.arguments import int_in, non_negative_float, one_of, positive_int
from fewshot_parser.commands.grid_freshness import ArchiveUser, Freshness
from fewshot_parser.commands.grid_tasks import CHECKPOINTS, KNOWN_METRICS, START_MARK, RunSpec
from fewshot_parser.commands.paper_results import paper_numbers
from fewshot_parser.commands.systems import SYSTEMS_TABLE, read_systems, render_config, tables_with
from fewshot_parser.common.errors import UserError, user_message
from fewshot_parser.common.provenance import NUMERICS, code_version, experiment_hash
from fewshot_parser.common.results_io import read_result_rows
from fewshot_parser.data import paths
from fewshot_parser.data.dev_suite import SUITES, build_dev_suite
from fewshot_parser.data.splits import find_draws, find_samples
from fewshot_parser.training.pretrain_finetune import _made_from, read_provenance

# system name -> (system, setting, config reference template): the rows of experiments/systems.jsonnet
# (and of $FEWSHOT_SYSTEMS_TABLES); `use_tables` adds the tables of `run-grid --systems-table`.
SYSTEMS: Dict[str, tuple] = read_systems()


def use_tables(extra: Optional[Sequence[str]]) -> None:
    """Makes `SYSTEMS` the rows of the default tables and of `extra` (in place: importers share it)."""
    if extra:
        systems = read_systems(tables_with(extra))
        SYSTEMS.clear()
        SYSTEMS.update(systems)


# The four after `seconds` say what made a row (see `fewshot_parser.common.provenance`): the code version
# of the run, the hash of its rendered config, and both for the pre-trained archive it fine-tuned. The
# next three say what else decided its floats (`provenance.numerics`: torch threads, torch version, CPU
# or GPU model; empty in rows recorded before they existed); the last two are retention: exact match on
# the split's known.txt (make-splits splits) or on a sample of its train.txt (official splits), with
# the pre-trained and the fine-tuned archive (`retention`); `same_inputs_as` names the row a run was
# recorded from without training (`grid_same_inputs`; empty on trained runs). New columns go at the end.
# Known third-party start-up warnings (transformers' pytree deprecation, pkg_resources in rouge), hidden
# from the runs' logs; PYTHONWARNINGS set by the user wins. The Makefile exports the same filters.
QUIET_WARNINGS = "ignore::FutureWarning:transformers.utils.generic,ignore:pkg_resources is deprecated:UserWarning"
FIELDS = [
    "system",
    "setting",
    "dataset",
    "shot",
    "shuffle",
    "exact_match",
    "seconds",
    "code_version",
    "config_hash",
    "pretrain_code_version",
    "pretrain_config_hash",
    "threads",
    "torch",
    "machine",
    "known_pretrained",
    "known_finetuned",
    "sample",
    "same_inputs_as",
]
# What identifies a run: a row's system, setting, dataset, shot, shuffle (official) or draw (suite), and
# the draw's support sample (empty on official rows, read as 0).
KEY_FIELDS = [*FIELDS[:5], "sample"]


# Retention on an official split reads a seeded sample of this many of its training examples
# (jobs' 413 and geo's 489 whole; ATIS's 3,947 would cost minutes of decoding per run and archive).
OFFICIAL_KNOWN_SAMPLE = 500


class Job(NamedTuple):
    system: str
    dataset: str
    shot: int
    shuffle: int  # the row's shuffle column: an official shuffle, or a draw of a suite
    config: str
    serialization_dir: str
    split: Optional[int] = None  # the FEWSHOT_SPLIT it runs, when not `shuffle` (a suite's draws run shuffle 0)
    environment: Tuple[Tuple[str, str], ...] = ()  # its own variables: a suite draw's data root and pre-training dir

    @property
    def sample(self) -> int:
        """The support sample of a suite draw (the shuffle it runs); 0 on an official split."""
        return self.split or 0

    @property
    def run_split(self) -> int:
        return self.shuffle if self.split is None else self.split

    def variables(self, environment: Dict[str, str]) -> Dict[str, str]:
        """The variables its config is rendered and trained with: the grid's, then its own, then its split."""
        return {**environment, **dict(self.environment), "FEWSHOT_SPLIT": str(self.run_split)}

    def known_data(self) -> Optional[str]:
        """
        Where its retention is measured: the held-out examples of known predicates of a make-splits
        split (`known.txt`); on an official split, which has none, its training examples (`train.txt`,
        seen in pre-training, so the most favourable case; sampled, `OFFICIAL_KNOWN_SAMPLE`).
        """
        root = dict(self.environment).get("FEWSHOT_DATA_DIR")
        name = "known.txt" if root is not None else "train.txt"
        path = os.path.join(
            root if root is not None else paths.data_root(),
            self.dataset,
            "lemma_data",
            f"shuffle_{self.run_split}_shot_{self.shot}",
            name,
        )
        return path if os.path.isfile(path) else None

    def known_sample(self) -> Optional[int]:
        """How many lines of `known_data` retention reads: all of a known.txt, a sample of a train.txt."""
        return None if dict(self.environment).get("FEWSHOT_DATA_DIR") is not None else OFFICIAL_KNOWN_SAMPLE

    @property
    def name(self) -> str:
        if self.split is None:
            return f"{self.system} {self.dataset} {self.shot}-shot s{self.shuffle}"
        sample = f" sample {self.split}" if self.split else ""
        return f"{self.system} {self.dataset} {self.shot}-shot d{self.shuffle}{sample}"


@Subcommand.register("run-grid")
class RunGrid(Subcommand):
    """Run a resumable grid of few-shot experiments and collect their results."""

    def add_subparser(self, parser: argparse._SubParsersAction) -> argparse.ArgumentParser:
        description = (
            "Run systems x datasets x shots x shuffles on Ray (a local instance, or a cluster with "
            "--address), resumably; write results/runs.csv."
        )
        sub = parser.add_parser(self.name, description=description, help=description)
        sub.add_argument(
            "--systems",
            nargs="*",
            default=["ours"],
            metavar="SYSTEM",
            help=f"rows of the systems tables, or 'all' (the rows of {SYSTEMS_TABLE}: {' '.join(SYSTEMS)})",
        )
        sub.add_argument(
            "--systems-table",
            action="append",
            default=None,
            metavar="PATH",
            help=f"a systems table whose rows --systems may name, beside {SYSTEMS_TABLE} (repeatable)",
        )
        sub.add_argument(
            "--datasets", nargs="*", default=["jobs", "geo", "atis"], type=one_of(["jobs", "geo", "atis"], "dataset")
        )
        sub.add_argument("--shots", nargs="*", type=int_in([1, 2], "shot"), default=[1, 2])
        sub.add_argument("--shuffles", nargs="*", type=int_in(range(6), "shuffle"), default=[1, 2, 3, 4, 5])
        sub.add_argument(
            "--jobs",
            type=positive_int,
            default=2,
            help="runs at a time on the local Ray instance (default 2; with --address the cluster's CPUs decide)",
        )
        sub.add_argument(
            "--threads",
            type=positive_int,
            default=None,
            help="torch threads, and Ray CPUs, per run (default: cores / jobs; 1 with --address)",
        )
        sub.add_argument(
            "--address",
            default=None,
            help="an existing Ray cluster: 'auto' (the one `ray start` made on this machine), host:port, "
            "or ray://host:10001 (Ray Client); default: start a local instance for this grid",
        )
        sub.add_argument(
            "--suite",
            choices=list(SUITES),
            default=None,
            help="run on a development suite (new predicates drawn from the official train.txt alone, "
            "fewshot_parser/data/dev_suite.py: dev, or dev-frequent for frequent new predicates; made under "
            "$FEWSHOT_DATA_DIR/<suite> when missing) instead of the official shuffles; results go to "
            "results/<suite>/runs.csv, with retention on known.txt",
        )
        sub.add_argument(
            "--data-root",
            default=None,
            help="run on the draws of any `allennlp make-splits` output (ROOT/draw_<d>/...) instead of the "
            "official shuffles; each draw pre-trains on its own train.txt",
        )
        sub.add_argument(
            "--draws",
            nargs="*",
            type=int,
            default=None,
            help="with --suite or --data-root: the draws to run (default: every draw found)",
        )
        sub.add_argument(
            "--samples",
            nargs="*",
            type=int,
            default=None,
            help="with --suite or --data-root: the support samples (shuffles) of each draw to run "
            "(default: every one found; they share the draw's pre-training)",
        )
        sub.add_argument("--runs-dir", default=None, help="default runs/grid (runs/<suite> with --suite)")
        sub.add_argument(
            "--results", default=None, help="default results/runs.csv (results/<suite>/runs.csv with --suite)"
        )
        sub.add_argument(
            "--cuda-device",
            type=int,
            default=-1,
            help="train on a GPU (any index >= 0; Ray picks the GPU of each run; default: CPU)",
        )
        sub.add_argument(
            "--gpus-per-run",
            type=non_negative_float,
            default=None,
            help="GPUs each run asks Ray for (default 1 with --cuda-device, else 0; 0.5 puts two runs on a GPU)",
        )
        sub.add_argument(
            "--keep-checkpoints",
            action="store_true",
            help="keep the training checkpoints (*.th) of finished runs; by default only model.tar.gz is kept",
        )
        sub.add_argument(
            "--redo-recorded",
            action="store_true",
            help="also run the runs that already have a row in --results but no metrics.json under --runs-dir "
            "(by default a recorded run counts as finished, and its row is replaced only when it is redone)",
        )
        sub.add_argument(
            "--redo-stale",
            action="store_true",
            help="also rerun the recorded runs the current code would not reproduce (no provenance, another "
            "config, or changed code: the rows `allennlp report` marks stale; on draws, a row whose config "
            "rendered for its draw or whose code changed)",
        )
        sub.add_argument(
            "--freshness",
            default="config",
            help="with --redo-stale, what makes a recorded row stale: a registered Freshness (the package's "
            "'config': a row without provenance or whose config changed; plugins may add others)",
        )
        sub.add_argument(
            "--table",
            action="store_true",
            help="end with a per-split table of every (system, dataset, shot) of the grid: exact match per "
            "shuffle, mean and std, the paper's number and the committed mean (--compare)",
        )
        sub.add_argument(
            "--compare",
            default="results/runs.csv",
            help="the committed results the --table compares with (default results/runs.csv)",
        )
        sub.add_argument(
            "--same-inputs-as",
            nargs="+",
            default=None,
            metavar="SYSTEM",
            help="record a run from SYSTEM's current row of the same cell, without training, where the two "
            "runs provably see the same inputs (configs equal but for recombination generators, the same "
            "instances from every data file; fewshot_parser/commands/grid_same_inputs.py); the row says so "
            "in its same_inputs_as column. With several systems, the first whose row proves the same",
        )
        sub.add_argument("--dry-run", action="store_true", help="list the runs and their state only")
        sub.set_defaults(func=run_grid_from_args)
        return sub


def config_template(system: str) -> str:
    """The config path template of a grid system; an unknown name is a `ValueError` listing the known ones."""
    if system not in SYSTEMS:
        raise ValueError(f"unknown system {system!r}; known: {', '.join(SYSTEMS)}")
    return SYSTEMS[system][2]


def plan(systems: List[str], datasets: List[str], shots: List[int], shuffles: List[int], runs_dir: str) -> List[Job]:
    jobs = []
    for system in systems:
        template = config_template(system)
        for dataset in datasets:
            for shot in shots:
                config = template.format(dataset=dataset, shot=shot)
                for shuffle in shuffles:
                    directory = os.path.join(runs_dir, system, f"{dataset}_{shot}shot_s{shuffle}")
                    jobs.append(Job(system, dataset, shot, shuffle, config, directory))
    return jobs


def plan_draws(
    systems: List[str],
    datasets: List[str],
    shots: List[int],
    data_root: str,
    runs_dir: str,
    pretrain_root: str,
    draws: Optional[List[int]] = None,
    samples: Optional[List[int]] = None,
) -> List[Job]:
    """
    The runs of a grid on the draws of a `make-splits` root: one run per system, dataset, shot, draw and
    support sample (each shuffle of the draw, or those of `samples`), with the draw's folder as data root
    and a pre-training directory of its own (a draw's training set differs from every other's; its
    samples share it). The row's shuffle column is the draw, its sample column the shuffle.
    """
    jobs = []
    for system in systems:
        template = config_template(system)
        for dataset in datasets:
            found = find_draws(data_root, dataset)
            chosen = found if draws is None else [d for d in draws if d in found]
            missing = sorted(set(draws or []) - set(found))
            if missing:
                raise UserError(
                    f"{data_root}: no draw {', '.join(map(str, missing))} of {dataset} "
                    f"(found: {', '.join(map(str, found)) or 'none'}); make it with allennlp make-splits"
                )
            for shot in shots:
                config = template.format(dataset=dataset, shot=shot)
                for draw in chosen:
                    environment = (
                        ("FEWSHOT_DATA_DIR", os.path.join(data_root, f"draw_{draw}")),
                        ("FEWSHOT_PRETRAIN_DIR", os.path.join(pretrain_root, f"draw_{draw}")),
                    )
                    found_samples = find_samples(data_root, draw, dataset, shot)
                    wanted = found_samples if samples is None else [s for s in samples if s in found_samples]
                    if samples is not None and len(wanted) < len(set(samples)):
                        raise UserError(
                            f"{data_root}: draw {draw} of {dataset} has {shot}-shot samples "
                            f"{', '.join(map(str, found_samples)) or 'none'}, not all of {', '.join(map(str, samples))}"
                        )
                    for sample in wanted:
                        name = f"{dataset}_{shot}shot_d{draw}" + (f"s{sample}" if sample else "")
                        directory = os.path.join(runs_dir, system, name)
                        jobs.append(Job(system, dataset, shot, draw, config, directory, sample, environment))
    return jobs


def suite_defaults(args: argparse.Namespace, environment: Dict[str, str]) -> Tuple[Optional[str], str, str, str]:
    """(data root or None, runs dir, results file, pre-training root) of a grid; builds the dev suite when
    it is asked for and missing."""
    suite, data_root = getattr(args, "suite", None), getattr(args, "data_root", None)
    if suite and data_root:
        raise UserError("give --suite or --data-root, not both")
    if suite:
        root = os.path.join(environment.get("FEWSHOT_DATA_DIR", "data"), args.suite)
        build_dev_suite(environment.get("FEWSHOT_DATA_DIR", "data"), root, args.datasets, args.suite)  # idempotent
        pretrain = os.path.join(environment.get("FEWSHOT_PRETRAIN_DIR", "runs/pretrain"), args.suite)
        return (
            root,
            args.runs_dir or os.path.join("runs", args.suite),
            args.results or os.path.join("results", args.suite, "runs.csv"),
            pretrain,
        )
    if data_root:
        if not os.path.isdir(args.data_root):
            raise UserError(f"{args.data_root}: --data-root is not a directory (make it with allennlp make-splits)")
        name = os.path.basename(os.path.normpath(args.data_root))
        pretrain = os.path.join(environment.get("FEWSHOT_PRETRAIN_DIR", "runs/pretrain"), name)
        return (
            args.data_root,
            args.runs_dir or os.path.join("runs", name),
            args.results or os.path.join(args.data_root, "runs.csv"),
            pretrain,
        )
    return None, args.runs_dir or "runs/grid", args.results or "results/runs.csv", ""


def is_finished(job: Job) -> bool:
    return os.path.isfile(os.path.join(job.serialization_dir, "metrics.json"))


def prune_checkpoints(job: Job) -> int:
    """
    Deletes the training checkpoints of a finished run whose archive `model.tar.gz` exists (the archive
    holds the same weights), those of its ensemble members (`member_<i>/`, `part_<p>/member_<i>/`) included;
    returns the bytes freed. A run without both is left untouched.
    """
    if not is_finished(job) or not os.path.isfile(os.path.join(job.serialization_dir, "model.tar.gz")):
        return 0
    freed = 0
    directories = [job.serialization_dir] + sorted(
        path
        for pattern in ("member_*", "part_*", os.path.join("part_*", "member_*"))
        for path in glob.glob(os.path.join(job.serialization_dir, pattern))
    )
    for pattern in CHECKPOINTS:
        for path in (p for directory in directories for p in glob.glob(os.path.join(directory, pattern))):
            # `best.th` and the last `model_state` are often hard links to one file: count the space once.
            status = os.stat(path)
            freed += status.st_size if status.st_nlink == 1 else 0
            os.remove(path)
    return freed


def evaluated_config(job: Job, environment: Dict[str, str]) -> Dict:
    """A job's config (a file or a row reference) rendered with its variables."""
    return render_config(job.config, job.variables(environment))


def checked_config(job: Job, environment: Dict[str, str]) -> Dict[str, Any]:
    """A job's evaluated config, checked for unknown keys and types in every section (`config_check`);
    an error names the config."""
    from fewshot_parser.training.config_check import check_experiment

    config = evaluated_config(job, environment)
    try:
        check_experiment(config)
    except ConfigurationError as error:
        raise UserError(f"{job.config}: {user_message(error)}") from None
    return config


def pretrained_archive(job: Job, environment: Dict[str, str]) -> Optional[str]:
    """The shared pre-trained archive a job uses (from its evaluated config), if any."""
    return evaluated_config(job, environment).get("pretrained_archive")


def archive_is_current(job: Job, environment: Dict[str, str]) -> bool:
    """Whether the job's pre-trained archive exists here, made from the pre-training config the job has now
    (the test `ensure_pretrained` makes before it reuses an archive)."""
    config = evaluated_config(job, environment)
    archive = config.get("pretrained_archive")
    if not archive or not os.path.isfile(archive):
        return False
    return config.get("pretraining") is None or _made_from(archive, config["pretraining"])


def row_key(row: Dict) -> tuple:
    """What identifies a run in a results file (`KEY_FIELDS`); a row without a sample is sample 0."""
    return (*(str(row[field]) for field in FIELDS[:5]), str(row.get("sample") or 0))


def job_key(job: Job) -> tuple:
    system, setting, _ = SYSTEMS[job.system]
    return (system, setting, job.dataset, str(job.shot), str(job.shuffle), str(job.sample))


@contextlib.contextmanager
def claim(job: Job) -> Iterator[bool]:
    """
    Holds `<serialization dir>.lock` (an exclusive, non-blocking file lock) while a run trains, so that a
    second grid over the same runs directory skips the run instead of deleting it mid-training. Yields
    whether the lock was taken; the operating system releases it if the process dies.
    """
    os.makedirs(os.path.dirname(job.serialization_dir) or ".", exist_ok=True)
    with open(job.serialization_dir + ".lock", "w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def stale_keys(jobs: List[Job], results: str, environment: Dict[str, str], freshness: Freshness) -> Set[tuple]:
    """
    The keys of the recorded runs of this grid that the run it would start now would not reproduce, as
    `freshness` judges each recorded row given the job's config rendered for its split or draw.
    """
    rows = {row_key(row): row for row in read_rows(results)}
    stale = set()
    for job in jobs:
        row = rows.get(job_key(job))
        if row is not None and freshness.stale_reason(
            row, json.dumps(evaluated_config(job, environment), sort_keys=True)
        ):
            stale.add(job_key(job))
    return stale


def recorded_keys(results: str) -> Set[tuple]:
    """The keys (`row_key`) of the runs that have a row in the results file."""
    return {row_key(row) for row in read_rows(results)}


def configured_split(directory: str) -> Optional[int]:
    """The shuffle a finished run evaluated on, read from the test data path of its `config.json`."""
    import re

    try:
        with open(os.path.join(directory, "config.json")) as handle:
            config = json.load(handle)
    except (OSError, ValueError):
        return None
    found = re.search(r"shuffle_(\d+)_shot_\d", str(config.get("test_data_path") or ""))
    return int(found.group(1)) if found else None


def same_input_rows(
    jobs: List[Job], base: str, results: str, environment: Dict[str, str], freshness: Freshness
) -> Dict[tuple, Dict[str, str]]:
    """
    The rows of the `jobs` (other systems than `base`) whose runs would see exactly the inputs of `base`'s
    recorded, current run of the same cell (`grid_same_inputs.same_inputs`), made from that run's row.
    """
    from fewshot_parser.commands import grid_same_inputs

    rows = {row_key(row): row for row in read_rows(results)}
    found: Dict[tuple, Dict[str, str]] = {}
    version = code_version()
    for job in jobs:
        if job.system == base:
            continue
        base_job = job._replace(system=base, config=config_template(base).format(dataset=job.dataset, shot=job.shot))
        base_row = rows.get(job_key(base_job))
        if base_row is None:
            continue
        base_config = evaluated_config(base_job, environment)
        if freshness.stale_reason(base_row, json.dumps(base_config, sort_keys=True)):
            continue
        config = evaluated_config(job, environment)
        known = [path for path in [job.known_data()] if path is not None]
        if grid_same_inputs.same_inputs(
            config, base_config, job.variables(environment), base_job.variables(environment), known
        ):
            continue
        system, setting, _ = SYSTEMS[job.system]
        found[job_key(job)] = grid_same_inputs.derived_row(base_row, system, setting, config, base, version)
    return found


def record(job: Job, seconds: float, results: str) -> float:
    """Writes (or replaces) the row of a finished run in `results`; returns its exact match (%)."""
    split = configured_split(job.serialization_dir)
    if split is not None and split != job.run_split:
        raise RuntimeError(
            f"{job.serialization_dir}/config.json evaluates on shuffle {split}, not {job.run_split}; "
            "not recorded (was FEWSHOT_SPLIT overridden?)"
        )
    with open(os.path.join(job.serialization_dir, "metrics.json")) as handle:
        metrics = json.load(handle)
    exact_match = 100.0 * metrics["test_exact_match"]
    system, setting, _ = SYSTEMS[job.system]
    row = {
        "system": system,
        "setting": setting,
        "dataset": job.dataset,
        "shot": job.shot,
        "shuffle": job.shuffle,
        "sample": "" if job.split is None else job.split,
        "exact_match": round(exact_match, 2),
        "seconds": round(seconds, 1),
        **run_provenance(job.serialization_dir),
        **retention(job.serialization_dir),
    }
    os.makedirs(os.path.dirname(results) or ".", exist_ok=True)
    # Only the driver writes here; the file lock is for another grid (another driver) on the same file.
    with open(results + ".lock", "w") as lock_file:
        fcntl.flock(lock_file, fcntl.LOCK_EX)
        rows = [r for r in read_rows(results) if row_key(r) != job_key(job)]
        rows.append(row)
        write_rows(results, rows)
    return exact_match


def retention(directory: str) -> Dict[str, str]:
    """Exact match (%) on the split's known.txt with the pre-trained and the fine-tuned archive, when the
    run measured them (`grid_tasks.evaluate_known`); empty cells otherwise."""
    cells = {}
    for column, name in (("known_pretrained", KNOWN_METRICS[0]), ("known_finetuned", KNOWN_METRICS[1])):
        try:
            with open(os.path.join(directory, name)) as handle:
                cells[column] = str(round(100.0 * json.load(handle)["exact_match"], 2))
        except (OSError, ValueError, KeyError):
            cells[column] = ""
    return cells


def as_configured(run_config: Dict[str, Any]) -> Dict[str, Any]:
    """
    The experiment config a run was started with, from its config.json. Retention
    `pretrained_fallback` rewrites the `model` there after fine-tuning, to the `fewshot_known_fallback`
    that is archived around the configured model (its `parser`); that model is put back, so that the
    run's hash is its experiment config's, as `staleness` renders it.
    """
    model = run_config.get("model")
    routed = any(
        isinstance(m, dict) and m.get("type") == "pretrained_fallback" for m in run_config.get("retention") or []
    )
    if routed and isinstance(model, dict) and model.get("type") == "fewshot_known_fallback" and "parser" in model:
        return {**run_config, "model": model["parser"]}
    return run_config


def run_provenance(directory: str) -> Dict[str, str]:
    """
    The provenance columns of a finished run: its code version and pre-trained archive's (from the
    `provenance.json` the few-shot pipeline writes; runs without a pre-trained archive get the code
    version of this checkout and `-` for the archive), the hash of its rendered `config.json`, and the
    torch threads, torch version and machine its training ran with (written by the node that trained
    it; empty when the run does not say, never this driver's own).
    """
    recorded = read_provenance(directory)
    try:
        with open(os.path.join(directory, "config.json")) as handle:
            configured = experiment_hash(as_configured(json.load(handle)))
    except (OSError, ValueError):
        configured = "unknown"
    return {
        "code_version": recorded.get("code_version") or code_version(),
        "config_hash": configured,
        "pretrain_code_version": recorded.get("pretrain_code_version", "-"),
        "pretrain_config_hash": recorded.get("pretrain_config_hash", "-"),
        **{key: str(recorded.get(key) or "") for key in NUMERICS},
    }


def check_results_file(path: str) -> None:
    """
    Refuses a `--results` path that is not a results file of this command before anything runs: each
    finished run rewrites the whole file, so a typo naming another file (README.md) would replace it.
    A missing or empty file is a new results file.
    """
    if os.path.isdir(path):
        raise UserError(f"{path}: --results is a directory; give a CSV file such as results/runs.csv")
    if os.path.isfile(path) and os.path.getsize(path) > 0:
        try:
            read_result_rows(path)
        except UserError as error:
            raise UserError(
                f"{error} (--results must be a results file of run-grid; nothing was run or written)"
            ) from None


def read_rows(path: str) -> List[Dict[str, str]]:
    if not os.path.isfile(path):
        return []
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def write_rows(path: str, rows: List[Dict]) -> None:
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    temporary = path + ".tmp"
    with open(temporary, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=FIELDS)
        writer.writeheader()
        order = lambda r: (  # noqa: E731
            r["system"],
            r["setting"],
            r["dataset"],
            int(r["shot"]),
            int(r["shuffle"]),
            int(r.get("sample") or 0),
        )
        writer.writerows(sorted(rows, key=order))
    os.replace(temporary, path)


def run_seconds(job: Job) -> float:
    """
    Wall-clock seconds of a finished run, from its log: the start time a grid task writes first (or, for
    older logs, the first timestamp AllenNLP logged) to the time `metrics.json` was written.
    """
    import datetime
    import re

    end = os.path.getmtime(os.path.join(job.serialization_dir, "metrics.json"))
    try:
        with open(job.serialization_dir + ".log") as log:
            for line in log:
                if line.startswith(START_MARK):
                    return end - float(line[len(START_MARK) :])
                stamp = re.match(r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),\d+ - ", line)
                if stamp:
                    started = datetime.datetime.strptime(stamp.group(1), "%Y-%m-%d %H:%M:%S")
                    return end - time.mktime(started.timetuple())
    except OSError:
        pass
    return 0.0


def record_unrecorded(jobs: List[Job], results: str) -> List[Job]:
    """
    Records the finished runs that have no row in `results`: a run whose grid was killed after the run
    had written `metrics.json` but before its row was written. Returns those jobs.
    """
    keys = recorded_keys(results)
    missing = [job for job in jobs if is_finished(job) and job_key(job) not in keys]
    for job in missing:
        record(job, run_seconds(job), results)
    return missing


def archive_outdated(archive: str, users: Sequence[Job], environment: Dict[str, str], freshness: Freshness) -> bool:
    """Whether `freshness` asks for the shared pre-trained `archive` to be made again for the jobs that use it."""
    directory = os.path.dirname(archive)
    if not os.path.isfile(archive):
        return False
    version = read_provenance(directory).get("code_version", "")
    found = [
        ArchiveUser(dict(zip(KEY_FIELDS, job_key(job))), json.dumps(evaluated_config(job, environment), sort_keys=True))
        for job in users
    ]
    return freshness.archive_outdated(directory, version, found)


def retire_archive(archive: str) -> Optional[str]:
    """Moves a pre-trained archive's directory aside (`<dir>.stale`), so that the runs needing it pre-train
    again; returns the new place, or None when there was no archive."""
    directory = os.path.dirname(archive)
    if not os.path.isfile(archive):
        return None
    target = directory + ".stale"
    if os.path.isdir(target):
        shutil.rmtree(target)
    os.replace(directory, target)
    return target


def task_environment(environment: Dict[str, str]) -> Dict[str, str]:
    """The variables a run gets on any node (set over the node's own environment): the experiment's
    `FEWSHOT_*` and `ALLENNLP_*`, thread counts and warning filters."""
    kept = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "PYTHONWARNINGS")
    return {k: v for k, v in environment.items() if k.startswith(("FEWSHOT_", "ALLENNLP_")) or k in kept}


def run_grid_from_args(args: argparse.Namespace) -> None:
    run_grid(args)


def run_grid(args: argparse.Namespace, train: Optional[Callable] = None, evaluate: Optional[Callable] = None) -> None:
    """
    Runs the grid `args` describes. `train` replaces the trainer of the tasks (`grid_tasks.Trainer`:
    the real one runs `allennlp train`) and `evaluate` their retention evaluator (`grid_tasks.Evaluator`);
    tests give fast ones.
    """
    environment = dict(os.environ)
    data_root, args.runs_dir, args.results, pretrain_root = suite_defaults(args, environment)
    check_results_file(args.results)
    use_tables(getattr(args, "systems_table", None))
    systems = list(SYSTEMS) if args.systems == ["all"] else args.systems
    unknown = [name for name in systems if name not in SYSTEMS]
    if unknown:
        raise UserError(
            f"unknown system {', '.join(map(repr, unknown))}; known: {', '.join(SYSTEMS)} "
            "(rows of other tables need --systems-table PATH)"
        )
    if data_root is None:
        jobs = plan(systems, args.datasets, args.shots, args.shuffles, args.runs_dir)
    else:
        jobs = plan_draws(
            systems,
            args.datasets,
            args.shots,
            data_root,
            args.runs_dir,
            pretrain_root,
            getattr(args, "draws", None),
            getattr(args, "samples", None),
        )
    local = args.address is None
    threads = args.threads or (max(1, (os.cpu_count() or 2) // max(1, args.jobs)) if local else 1)
    environment.update({"OMP_NUM_THREADS": str(threads), "MKL_NUM_THREADS": str(threads)})
    environment.setdefault("FEWSHOT_SEED", "13")
    environment.setdefault("PYTHONWARNINGS", QUIET_WARNINGS)
    environment.setdefault("FEWSHOT_PRETRAIN_DIR", "runs/pretrain")
    recorded = set() if args.redo_recorded else recorded_keys(args.results)
    freshness = Freshness.by_name(args.freshness)()
    stale: Set[tuple] = stale_keys(jobs, args.results, environment, freshness) if args.redo_stale else set()
    pending = [job for job in jobs if job_key(job) in stale or (not is_finished(job) and job_key(job) not in recorded)]
    where = f"{args.jobs} at a time" if local else f"on the Ray cluster at {args.address}"
    print(f"{len(jobs)} runs, {len(jobs) - len(pending)} finished, {len(pending)} to run, {where}")
    retired_archives: Set[str] = set()
    if args.redo_stale and not args.dry_run:
        users: Dict[str, List[Job]] = {}
        for job in pending:
            archive = pretrained_archive(job, environment)
            if archive is not None:
                users.setdefault(archive, []).append(job)
        for archive in sorted(users):
            if archive_outdated(archive, users[archive], environment, freshness):
                retired_archives.add(archive)
                print(
                    f"  {archive} is outdated ({args.freshness}): moved to {retire_archive(archive)}; pre-trained again"
                )
    bases = getattr(args, "same_inputs_as", None) or []
    unknown = [base for base in bases if base not in SYSTEMS]
    if unknown:
        raise UserError(f"--same-inputs-as: unknown system {unknown[0]!r}; known: {', '.join(SYSTEMS)}")
    derived: Dict[tuple, Dict[str, str]] = {}
    for base in bases:
        found = same_input_rows(pending, base, args.results, environment, freshness)
        derived.update(found)
        pending = [job for job in pending if job_key(job) not in found]
        print(f"  {len(found)} run(s) see the inputs of {base}'s recorded runs: recorded from them, not trained")
    if args.dry_run:
        for job in jobs:
            state = (
                "same"
                if job_key(job) in derived
                else "stale"
                if job_key(job) in stale
                else "done"
                if is_finished(job)
                else "recorded"
                if job_key(job) in recorded
                else "todo"
            )
            print(f"  {state:<8}  {job.name}  ({job.config})")
        return
    if derived:
        with open(args.results + ".lock", "w") as lock_file:
            fcntl.flock(lock_file, fcntl.LOCK_EX)
            rows = [r for r in read_rows(args.results) if row_key(r) not in derived]
            write_rows(args.results, rows + list(derived.values()))
    for job in record_unrecorded(jobs, args.results):
        print(f"  recorded {job.name}: finished earlier, but its row was missing from {args.results}")
    if not args.keep_checkpoints:
        freed = sum(prune_checkpoints(job) for job in jobs)
        if freed:
            print(
                f"  deleted {freed / 2**20:.0f} MB of training checkpoints of finished runs "
                "(their model.tar.gz is kept)"
            )
    if not pending:
        print(f"nothing to run; results in {args.results}")
        if args.table:
            print(summary_table(jobs, args.results, args.compare))
        return
    gpus = args.gpus_per_run if args.gpus_per_run is not None else (1.0 if args.cuda_device >= 0 else 0.0)
    with contextlib.ExitStack() as claims:
        grid_start = time.time()
        done = [0]
        spans: List[Tuple[float, float]] = []  # the finished runs' own times, for the estimate

        def report(job: Job, status: str) -> None:
            done[0] += 1
            bar.update(1)
            span = run_span(job) if status.startswith("done") else None
            spans.extend([span] if span else [])
            tqdm.write(
                progress_line(
                    done[0],
                    len(pending),
                    time.time() - grid_start,
                    job,
                    status,
                    spans=spans,
                    parallel=args.jobs if local else None,
                )
            )

        # A live bar on a terminal; the per-run lines (with counts and an ETA) are the record in log files.
        bar = tqdm(total=len(pending), unit="run", desc="grid", disable=not sys.stderr.isatty(), dynamic_ncols=True)
        runs = []
        for job in pending:
            # Another grid on the same runs or results file may be running this run, or have done it
            # since the plan was made.
            if not claims.enter_context(claim(job)):
                report(job, "skipped: another grid is running it")
            elif job_key(job) not in stale and (
                is_finished(job) or (not args.redo_recorded and job_key(job) in recorded_keys(args.results))
            ):
                report(job, "skipped: another grid finished it meanwhile")
            else:
                runs.append(job)
        if runs:
            execute(
                runs,
                args,
                environment,
                threads,
                gpus,
                train,
                report,
                evaluate,
                in_place=None if bar.disable else lambda text: bar.set_postfix_str(text, refresh=True),
                line=None if sys.stdout.isatty() and not bar.disable else lambda text: tqdm.write(f"  {text}"),
                retired=retired_archives,
            )
        bar.close()
    print(f"grid finished in {(time.time() - grid_start) / 60:.1f} min; results in {args.results}")
    if args.table:
        print(summary_table(jobs, args.results, args.compare))


def execute(
    runs: List[Job],
    args: argparse.Namespace,
    environment: Dict[str, str],
    threads: int,
    gpus: float,
    train: Optional[Callable],
    report: Callable[[Job, str], None],
    evaluate: Optional[Callable] = None,
    in_place: Optional[Callable[[str], None]] = None,
    line: Optional[Callable[[str], None]] = None,
    retired: Set[str] = frozenset(),  # type: ignore[assignment]
) -> None:
    """
    Runs `runs` on Ray: one pre-training task per archive that is missing here, the archives this
    driver has shipped through the object store, and each run's files written under `--runs-dir` and
    its row recorded as its result arrives. Every run's config is checked for unknown keys first, so
    a misspelt one fails before anything trains. While pre-trainings run, their progress goes to
    `in_place` (one text, updated) and `line` (a line per epoch; `grid_progress`).
    """
    from fewshot_parser.commands import grid_ray
    from fewshot_parser.commands.grid_progress import POLL_SECONDS, PretrainingProgress

    project = os.getcwd()
    shipped = task_environment(environment)
    specs = {}
    for job in runs:
        config = checked_config(job, environment)
        specs[job] = RunSpec(
            name=job.name,
            config=job.config,
            shuffle=job.run_split,
            environment={**shipped, **dict(job.environment)},
            project=project,
            archive=config.get("pretrained_archive"),
            use_gpu=gpus > 0,
            keep_checkpoints=args.keep_checkpoints,
            retire_stale=config.get("pretrained_archive") in retired,
            known=job.known_data(),
            known_sample=job.known_sample(),
        )
    # Where the pre-trainings train: beside each archive, and under every FEWSHOT_PRETRAIN_DIR of the grid.
    roots = {os.path.dirname(os.path.dirname(os.path.abspath(spec.archive))) for spec in specs.values() if spec.archive}
    roots |= {
        dict(job.environment).get("FEWSHOT_PRETRAIN_DIR") or environment.get("FEWSHOT_PRETRAIN_DIR", "") for job in runs
    }
    progress = PretrainingProgress(roots, in_place, line)
    stop, description = grid_ray.connect(args.address, args.jobs * threads)
    print(description)
    try:
        pretrain: Dict[str, RunSpec] = {}
        ready: Dict[str, bytes] = {}
        for job in runs:
            archive = specs[job].archive
            if archive is None or archive in pretrain or archive in ready:
                continue
            if archive_is_current(job, environment):  # reused as it is: no node pre-trains it again
                ready[archive] = grid_tasks.pack_directory(
                    os.path.dirname(archive), only=list(grid_tasks.PRETRAIN_FILES)
                )
            else:
                pretrain[archive] = specs[job]
        tasks = grid_ray.run_tasks(
            [(job, specs[job]) for job in runs],
            pretrain,
            ready,
            threads,
            gpus,
            **({"train": train} if train else {}),
            **({"evaluate": evaluate} if evaluate else {}),
            poll=progress.poll if in_place or line else None,
            poll_seconds=POLL_SECONDS,
        )
        for kind, key, result in tasks:
            if kind == "pretrain":
                progress.finished(key)
                keep_pretrained(key, result)
            else:
                report(key, finish(key, result, args))
    finally:
        if stop:
            grid_ray.shutdown()


def keep_pretrained(archive: str, result: Dict) -> None:
    """Writes a pre-training task's archive (and log) into this driver's pre-training directory."""
    directory = os.path.dirname(os.path.abspath(archive))
    os.makedirs(os.path.dirname(directory), exist_ok=True)
    if result.get("log"):
        with open(directory + ".log", "w") as log:
            log.write(result["log"])
    if result.get("error") or not result.get("files"):
        tqdm.write(f"failed  pre-training {archive}: {result.get('error')} (log: {directory}.log); its runs fail too")
        return
    grid_tasks.install_pretrained(result["files"], archive)
    tqdm.write(f"pre-trained {archive} on {result.get('node', '?')} in {result.get('seconds', 0):.1f}s")


def finish(job: Job, result: Dict, args: argparse.Namespace) -> str:
    """Writes a run's files and log under `--runs-dir`, records its row; returns its status for the progress line."""
    if os.path.isdir(job.serialization_dir):
        shutil.rmtree(job.serialization_dir)  # partial or stale output never counts
    os.makedirs(os.path.dirname(job.serialization_dir) or ".", exist_ok=True)
    if "log" in result:
        with open(job.serialization_dir + ".log", "w") as log:
            log.write(result["log"])
    if result.get("error") or not result.get("files"):
        return f"failed  {result.get('error')}; see {job.serialization_dir}.log"
    grid_tasks.unpack_directory(result["files"], job.serialization_dir)
    try:
        exact_match = record(job, result["seconds"], args.results)
    except Exception as error:  # a run that evaluated another split, say: reported, redone next time
        return f"failed  {error}"
    return f"done    {exact_match:6.2f}% {result['seconds']:7.1f}s"


def summary_table(jobs: List[Job], results: str, compare: Optional[str]) -> str:
    """
    Per (system, dataset, shot) of the grid: exact match per shuffle, mean and standard deviation,
    the paper's number, the values committed in `compare` beside each split with the difference, a
    line saying whether they agree exactly, within one query or beyond, and why they may differ
    (`comparison_lines`), and where the fine-tuned archives are.
    """
    import statistics

    rows = {row_key(row): row for row in read_rows(results)}
    committed_rows = {row_key(row): row for row in read_rows(compare)} if compare else {}
    got = {key: float(row["exact_match"]) for key, row in rows.items()}
    committed = {key: float(row["exact_match"]) for key, row in committed_rows.items()}
    paper = paper_numbers()
    groups: Dict[tuple, List[Job]] = {}
    for job in jobs:
        groups.setdefault((job.system, job.dataset, job.shot), []).append(job)
    lines = []
    for (system, dataset, shot), members in groups.items():
        label, setting, _ = SYSTEMS[system]
        shuffles = [job.shuffle for job in members]
        values = [got.get(job_key(job)) for job in members]
        known = [v for v in values if v is not None]
        theirs = [committed[job_key(job)] for job in members if job_key(job) in committed]
        published = paper.get((label, setting), {}).get(f"{dataset}_{shot}shot")
        lines.append(f"\n{label}{f' ({setting})' if setting else ''}, {dataset} {shot}-shot: exact match (%)")
        lines.append(f"  {'':<10}  " + "  ".join(f"{f's{s}':>7}" for s in shuffles) + "  mean ± std")
        lines.append(f"  {'this run':<10}  {_cells(values)}  {_spread(known)}")
        if theirs:
            lines.append(
                f"  {'committed':<10}  {_cells([committed.get(job_key(j)) for j in members])}  {_spread(theirs)}"
            )
            differences = [
                got[job_key(j)] - committed[job_key(j)] if job_key(j) in got and job_key(j) in committed else None
                for j in members
            ]
            lines.append(
                f"  {'difference':<10}  " + "  ".join(f"{d:+7.2f}" if d is not None else "      –" for d in differences)
            )
        if published is not None:
            lines.append(f"  paper (shuffles 1-5): {published:.2f}")
        if theirs:
            same = len(theirs) == len(known) and all(
                abs(committed[job_key(j)] - got[job_key(j)]) < 0.005
                for j in members
                if job_key(j) in got and job_key(j) in committed
            )
            lines.append(
                f"  committed in {compare}: {statistics.mean(theirs):.2f} over {len(theirs)} shuffles"
                + (" (identical per shuffle)" if same else "")
            )
            lines.extend(comparison_lines(members, rows, committed_rows, compare or ""))
        lines.append(
            f"  archives: {os.path.dirname(members[0].serialization_dir)}/<run>/model.tar.gz; predictions: "
            f"allennlp predict <archive> <query.txt> --use-dataset-reader --output-file <file>"
        )
    return "\n".join(lines)


def _cells(values: List[Optional[float]]) -> str:
    return "  ".join(f"{v:7.2f}" if v is not None else "      –" for v in values)


def _spread(values: List[float]) -> str:
    import statistics

    return f"{statistics.mean(values):.2f} ± {statistics.pstdev(values):.2f}" if values else "–"


# Query-set sizes of the benchmark (the same for every shuffle), for a split whose query.txt is not here.
QUERY_SIZES = {("jobs", 1): 110, ("jobs", 2): 107, ("geo", 1): 211, ("geo", 2): 206, ("atis", 1): 764, ("atis", 2): 759}


def query_size(job: Job) -> Optional[int]:
    """Queries in a run's query set: the lines of its query file (the run's `test_data_path`, else the
    split's `query.txt` under the data root), else the benchmark's known size."""
    split = f"shuffle_{job.shuffle}_shot_{job.shot}"
    candidates = [os.path.join(paths.data_root(), job.dataset, "lemma_data", split, "query.txt")]
    try:
        with open(os.path.join(job.serialization_dir, "config.json")) as handle:
            configured = json.load(handle).get("test_data_path")
        if isinstance(configured, str):
            candidates[:0] = [configured, os.path.join(paths.data_root(), configured)]
    except (OSError, ValueError):
        pass
    for path in candidates:
        if os.path.isfile(path):
            with open(path, "rb") as handle:
                count = sum(1 for line in handle if line.strip())
            if count:
                return count
    return QUERY_SIZES.get((job.dataset, job.shot))


def _numerics(rows: List[Dict[str, str]]) -> Dict[str, str]:
    """Threads, torch and machine of some rows: each value, several joined by ` / `, `not recorded` when none is."""
    found = {key: sorted({row.get(key) or "" for row in rows} - {""}) for key in NUMERICS}
    return {key: " / ".join(values) if values else "not recorded" for key, values in found.items()}


def _describe(numerics: Dict[str, str]) -> str:
    if all(value == "not recorded" for value in numerics.values()):
        return "threads, torch and machine not recorded"
    return ", ".join(f"{key} {value}" for key, value in numerics.items())


def comparison_lines(
    members: List[Job], rows: Dict[tuple, Dict[str, str]], committed: Dict[tuple, Dict[str, str]], compare: str
) -> List[str]:
    """
    Two lines comparing a group's runs with the committed rows, split by split: whether they agree exactly,
    within one query (100 / queries of the split, in points) or beyond; then why they can differ, with
    the threads, torch and machine of both sides when recorded.
    """
    exact, within, beyond, one_query = [], [], [], []
    for job in members:
        key = job_key(job)
        if key not in rows or key not in committed:
            continue
        size = query_size(job)
        step = 100.0 / size if size else 0.0
        one_query.append(step)
        difference = float(rows[key]["exact_match"]) - float(committed[key]["exact_match"])
        # Both sides are rounded to 0.01: allow that much beside one query.
        if abs(difference) < 0.005:
            exact.append(f"s{job.shuffle}")
        elif step and abs(difference) <= step + 0.01:
            within.append(f"s{job.shuffle}")
        else:
            beyond.append(f"s{job.shuffle} ({difference:+.2f})")
    if not one_query:
        return []
    query = f"one query = {max(one_query):.2f} points"
    if not within and not beyond:
        verdict = f"agrees exactly with {compare} on every split"
    elif not beyond:
        verdict = f"agrees with {compare} within one query ({query}) on every split" + (
            f", exactly on {', '.join(exact)}" if exact else ""
        )
    else:
        agree = ([f"exactly on {', '.join(exact)}"] if exact else []) + (
            [f"within one query on {', '.join(within)}"] if within else []
        )
        verdict = f"differs from {compare} by more than one query ({query}) on {', '.join(beyond)}" + (
            f"; agrees {' and '.join(agree)}" if agree else ""
        )
    ours = _numerics([rows[job_key(j)] for j in members if job_key(j) in rows and job_key(j) in committed])
    theirs = _numerics([committed[job_key(j)] for j in members if job_key(j) in rows and job_key(j) in committed])
    alike = ours == theirs and not any(v == "not recorded" or " / " in v for v in ours.values())
    if not within and not beyond:
        return [f"  {verdict}", f"  numerics: {_describe(ours)}"]
    if alike:
        why = (
            "the same threads, torch and machine should agree exactly: check the code version and config "
            f"(`allennlp report` marks stale rows); numerics: {_describe(ours)}"
        )
    else:
        why = (
            "a run reproduces exactly only with the same machine, torch threads and seed; another thread count, "
            "torch build or processor sums floats in another order, which can move a split by a query or more. "
            f"Committed rows: {_describe(theirs)}; this run: {_describe(ours)}"
        )
    return [f"  {verdict}", f"  why: {why}"]


def run_span(job: Job) -> Optional[Tuple[float, float]]:
    """When a finished run started and ended on its node (the start mark heading its log, the time of its
    `metrics.json`); None for a run that did not finish or whose log has no start mark."""
    try:
        end = os.path.getmtime(os.path.join(job.serialization_dir, "metrics.json"))
        with open(job.serialization_dir + ".log") as log:
            first = log.readline()
        return (float(first[len(START_MARK) :]), end) if first.startswith(START_MARK) else None
    except (OSError, ValueError):
        return None


def progress_line(
    done: int,
    total: int,
    elapsed: float,
    job: Job,
    status: str,
    width: int = 20,
    spans: Sequence[Tuple[float, float]] = (),
    parallel: Optional[int] = None,
) -> str:
    """
    `[######......  12/36  14.2 min, ~28 min left] geo 1-shot s3  done  ...`: one line per finished run.
    With `spans` (`run_span` of the runs finished so far) the time left is their mean own duration times
    the runs left, over the runs at a time (`parallel`, else as many as the spans overlapped), so a
    pre-training, which no run's own time includes, is not spread over the fine-tunes; without them it
    is the elapsed time per finished run.
    """
    filled = round(width * done / total) if total else width
    remaining = total - done
    if spans:
        durations = [end - begin for begin, end in spans]
        if parallel is None:
            window = max(end for _, end in spans) - min(begin for begin, _ in spans)
            parallel = max(1, round(sum(durations) / window)) if window > 0 else 1
        left = sum(durations) / len(durations) * remaining / max(1, min(parallel, remaining or 1))
    else:
        left = elapsed / done * remaining if done else 0.0
    return (
        f"[{'#' * filled}{'.' * (width - filled)} {done:>3}/{total} {elapsed / 60:5.1f} min, "
        f"~{left / 60:.0f} min left] {job.name:<32} {status}"
    )
