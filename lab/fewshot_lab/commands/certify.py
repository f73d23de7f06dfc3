"""
`allennlp certify --base REV`: certifies that a refactor left the recorded rows' behaviour alone,
instead of rerunning them.

A row is stale when the code its config reaches changed since it was made (`staleness`). A change
that does the same thing need not cost a rerun: this command computes the behaviour fingerprint
(`fingerprint.py`: the instances the readers make, the losses of a short deterministic training,
the logical forms it decodes) of each row with the code of commit REV and with the current commit,
on this machine with one thread, and records the verdict in `results/certifications.csv`. A row
made by code whose fingerprint equals the current code's keeps its numbers: `staleness` accepts a
certificate whose base has the row's code and whose certified version has today's. Each verdict also
says whether the data and the pre-training losses agree (`pretraining_same`): that alone keeps a row's
pre-trained archive valid when only fine-tuning changed. A base commit's fingerprints are stored under
--work and reused on the same machine and data.

    allennlp certify --base 4e1319f                 # the rows README shows (faithful and best), every column
    allennlp certify --base HEAD~3 --systems ours --datasets geo --shots 1
    allennlp certify --base HEAD~1 --systems best --renamed best=old-name   # a row renamed since the base
"""

import argparse
import concurrent.futures
import csv
import hashlib
import json
import os
import subprocess
import sys
import time
from typing import Dict, List, Optional, Tuple

from allennlp.commands.subcommand import Subcommand

from fewshot_lab import fingerprint
from fewshot_lab.recipes import HEADLINE_SYSTEMS
from fewshot_lab.staleness import CERTIFICATIONS, read_certifications
from fewshot_lab.systems import SYSTEMS
from fewshot_parser.commands.arguments import int_in, one_of, positive_int
from fewshot_parser.common.errors import UserError
from fewshot_parser.common.provenance import PROJECT_ROOT, code_version, numerics
from fewshot_parser.common.safe_io import atomic_open

FIELDS = [
    "system",
    "setting",
    "dataset",
    "shot",
    "shuffle",
    "base_version",
    "code_version",
    "same",
    "base_fingerprint",
    "fingerprint",
    "differs_in",
    "seconds",
    "pretraining_same",
]
# Beside each fingerprint: what computed it. A base commit's fingerprint is reused when all of it matches.
STAMP = "computed_by.json"
SCRIPT = os.path.abspath(fingerprint.__file__)


@Subcommand.register("certify")
class Certify(Subcommand):
    """Certify that the current code behaves as an earlier commit did, for the recorded rows."""

    def add_subparser(self, parser: argparse._SubParsersAction) -> argparse.ArgumentParser:
        description = (
            "Compare the behaviour fingerprints (data, short training, decoding) of rows under the code of "
            "--base and the current commit; rows whose behaviour is unchanged stay valid."
        )
        sub = parser.add_parser(self.name, description=description, help=description)
        sub.add_argument("--base", required=True, help="the commit the rows were made with (any git revision)")
        sub.add_argument(
            "--systems",
            nargs="+",
            type=one_of(SYSTEMS, "system"),
            default=None,
            help="grid systems (default: the faithful and the best row README shows)",
        )
        sub.add_argument(
            "--datasets", nargs="+", type=one_of(["jobs", "geo", "atis"], "dataset"), default=["jobs", "geo", "atis"]
        )
        sub.add_argument("--shots", nargs="+", type=int_in([1, 2], "shot"), default=[1, 2])
        sub.add_argument(
            "--shuffle",
            type=int_in(range(6), "shuffle"),
            default=1,
            help="the split whose miniature is run (default 1)",
        )
        sub.add_argument(
            "--jobs", type=positive_int, default=1, help="fingerprints computed at a time (one thread each)"
        )
        sub.add_argument(
            "--renamed",
            nargs="+",
            default=[],
            metavar="NAME=BASE_NAME",
            help="a system the base commit's tables call by another name (the row renamed since)",
        )
        sub.add_argument("--work", default="runs/certify", help="scratch directory (base tree, runs)")
        sub.add_argument(
            "--keep-weights",
            action="store_true",
            help="keep each miniature's checkpoints and archives (by default deleted once its fingerprint is "
            "stored: ~0.6 GB a row)",
        )
        sub.add_argument(
            "--record", default=CERTIFICATIONS, help=f"where verdicts are recorded (default {CERTIFICATIONS})"
        )
        sub.set_defaults(func=certify_from_args)
        return sub


def readme_systems() -> List[str]:
    """The grid systems of README's faithful and best rows (`recipes.HEADLINE_SYSTEMS`, the named best row)."""
    return [name for name in HEADLINE_SYSTEMS if name in SYSTEMS]


def _git(*arguments: str) -> str:
    result = subprocess.run(["git", "-C", PROJECT_ROOT, *arguments], capture_output=True, text=True)
    if result.returncode != 0:
        reason = result.stderr.strip().splitlines()[-1] if result.stderr.strip() else "failed"
        raise UserError(f"git {' '.join(arguments)}: {reason}")
    return result.stdout.strip()


def base_tree(revision: str, work: str) -> Tuple[str, str]:
    """(commit, directory): a detached worktree of the base commit under `work`, made once."""
    commit = _git("rev-parse", "--verify", f"{revision}^{{commit}}")
    directory = os.path.abspath(os.path.join(work, "trees", commit[:12]))
    if not os.path.isfile(os.path.join(directory, "setup.py")):
        _git("worktree", "add", "--detach", "--force", directory, commit)
    return commit, directory


def stamp(commit: str, data_dir: str) -> Dict[str, str]:
    """What decides a fingerprint besides the row: the code's commit, this script, the data and the numerics."""
    with open(SCRIPT, "rb") as handle:
        script = hashlib.sha256(handle.read()).hexdigest()[:16]
    found = numerics()
    return {
        "commit": commit,
        "script": script,
        "data_dir": os.path.abspath(data_dir),
        "machine": found["machine"],
        "torch": found["torch"],
    }


def stored_fingerprint(work: str, expected: Dict[str, str]) -> Optional[Dict]:
    """The fingerprint stored under `work`, when the same commit, script, data and machine computed it."""
    try:
        with open(os.path.join(work, STAMP)) as handle:
            found = json.load(handle)
        with open(os.path.join(work, "fingerprint.json")) as handle:
            result = json.load(handle)
    except (OSError, ValueError):
        return None
    return result if found == expected else None


def run_fingerprint(
    tree: str, system: str, dataset: str, shot: int, shuffle: int, work: str, data_dir: str
) -> Tuple[Optional[Dict], str]:
    """Runs `fingerprint.py` inside `tree`; returns (fingerprint or None, log tail)."""
    environment = {
        **os.environ,
        # The tree's own package and lab package (the installed lab is the current checkout's).
        "PYTHONPATH": os.pathsep.join([tree, os.path.join(tree, "lab")]),
        "FEWSHOT_SYSTEMS_TABLES": "lab/systems.jsonnet",  # the probe rows, for trees that read systems tables
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "PYTHONWARNINGS": os.environ.get("PYTHONWARNINGS", "ignore"),
    }
    result = subprocess.run(
        [sys.executable, SCRIPT, system, dataset, str(shot), str(shuffle), work, data_dir],
        cwd=tree,
        env=environment,
        capture_output=True,
        text=True,
    )
    path = os.path.join(work, "fingerprint.json")
    if result.returncode != 0 or not os.path.isfile(path):
        return None, (result.stdout + result.stderr)[-1500:]
    with open(path) as handle:
        return json.load(handle), ""


WEIGHTS = (".th", ".tar.gz")


def prune_weights(work: str) -> int:
    """Deletes the checkpoints and archives under `work` (a computed fingerprint, its config, log and
    predictions stay); returns how many bytes it freed."""
    freed = 0
    for folder, _, files in os.walk(work):
        for name in files:
            if name.endswith(WEIGHTS):
                path = os.path.join(folder, name)
                freed += os.path.getsize(path)
                os.remove(path)
    return freed


def differences(base: Dict, current: Dict) -> List[str]:
    """Which parts of two fingerprints differ, with the first differing key of each."""
    found = []
    for part in ("data", "training", "decoding"):
        if base.get(part) == current.get(part):
            continue
        if isinstance(base.get(part), dict):
            keys = sorted(set(base[part]) | set(current.get(part, {})))
            first = next(k for k in keys if base[part].get(k) != current.get(part, {}).get(k))
            found.append(f"{part} ({first})")
        else:
            found.append(part)
    return found


def pretraining_agrees(base: Dict, current: Dict) -> bool:
    """Whether the instances and every pre-training loss agree: the pre-trained archive would be made the same."""
    keys = {k for side in (base, current) for k in side.get("training", {}) if k.startswith("pretrain/")}
    return base.get("data") == current.get("data") and all(
        base["training"].get(k) == current["training"].get(k) for k in keys
    )


def certify_from_args(args: argparse.Namespace) -> None:
    version = code_version()
    if version.endswith("-dirty"):
        raise UserError(
            "the working tree has uncommitted changes: commit them first, so that the certificate names "
            "the code it certifies"
        )
    commit, tree = base_tree(args.base, args.work)
    systems = args.systems or readme_systems()
    base_names = dict(pair.split("=", 1) for pair in args.renamed if "=" in pair)
    malformed = [pair for pair in args.renamed if "=" not in pair or pair.split("=", 1)[0] not in systems]
    if malformed:
        raise UserError(f"--renamed {malformed[0]}: give NAME=BASE_NAME for a system being certified")
    data_dir = os.path.abspath(os.environ.get("FEWSHOT_DATA_DIR", "data"))
    rows = [(s, d, k) for s in systems for d in args.datasets for k in args.shots]
    expected = stamp(commit, data_dir)  # what computes the base fingerprints this time
    print(
        f"certifying {len(rows)} row(s): code {version[:12]} against base {commit[:12]} "
        f"(shuffle {args.shuffle}, one thread each, {args.jobs} at a time)"
    )

    def certify_row(system: str, dataset: str, shot: int) -> Dict:
        return certify_one(system, dataset, shot, args, commit, tree, version, base_names, data_dir, expected)

    verdicts = []
    # Each fingerprint is a subprocess with one thread, so threads suffice to run `--jobs` of them at once;
    # verdicts are recorded here, one at a time, as rows finish.
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for row in pool.map(lambda r: certify_row(*r), rows):
            verdicts.append(row)
            said = {"yes": "same behaviour", "failed": "failed"}.get(
                row["same"],
                f"CHANGED: {row['differs_in']}"
                + ("; pre-training the same" if row["pretraining_same"] == "yes" else ""),
            )
            name = f"{row['_name']}"
            print(f"  {name}: {said} ({row['seconds']:.0f} s)", flush=True)
            record(args.record, {k: v for k, v in row.items() if k in FIELDS})
    same = sum(v["same"] == "yes" for v in verdicts)
    print(f"{same} of {len(verdicts)} row(s) behave as at {commit[:12]}; verdicts in {args.record}")


def certify_one(
    system: str,
    dataset: str,
    shot: int,
    args: argparse.Namespace,
    commit: str,
    tree: str,
    version: str,
    base_names: Dict[str, str],
    data_dir: str,
    expected: Dict[str, str],
) -> Dict:
    """The verdict of one row: its fingerprint under the base tree (stored or computed) and the current code."""
    start = time.time()
    name = f"{system}_{dataset}_{shot}shot_s{args.shuffle}"
    sides = []
    for label, root in (("base", tree), ("current", PROJECT_ROOT)):
        work = os.path.abspath(os.path.join(args.work, label if label == "current" else commit[:12], name))
        # The base commit's code is fixed, so its fingerprint is computed once per machine and data.
        result = stored_fingerprint(work, expected) if label == "base" else None
        if result is not None:
            print(f"  {name}: the base fingerprint computed before is reused ({work})", flush=True)
        else:
            named = base_names.get(system, system) if label == "base" else system
            result, log = run_fingerprint(root, named, dataset, shot, args.shuffle, work, data_dir)
            if result is not None and label == "base":
                with atomic_open(os.path.join(work, STAMP), "w") as handle:
                    json.dump(expected, handle, sort_keys=True)
            if result is not None and not args.keep_weights:
                prune_weights(work)  # the fingerprint holds all a verdict reads
        if result is None:
            reason = log.strip().splitlines()[-1] if log.strip() else "?"
            print(f"  {name}: the {label} code failed to run it: {reason}", flush=True)
        sides.append(result)
    base, current = sides
    if base is None or current is None:
        verdict, changed, pretraining = "failed", ["not run"], "failed"
    else:
        changed = differences(base, current)
        verdict = "yes" if not changed else "no"
        pretraining = "yes" if pretraining_agrees(base, current) else "no"
    system_label, setting, _ = SYSTEMS[system]
    row = {
        "system": system_label,
        "setting": setting,
        "dataset": dataset,
        "shot": shot,
        "shuffle": args.shuffle,
        "base_version": commit,
        "code_version": version,
        "same": verdict,
        "base_fingerprint": fingerprint.digest(base) if base else "",
        "fingerprint": fingerprint.digest(current) if current else "",
        "differs_in": "; ".join(changed),
        "seconds": round(time.time() - start, 1),
        "pretraining_same": pretraining,
    }
    row["_name"] = name
    return row


def record(path: str, row: Dict) -> None:
    """Adds (or replaces) a verdict in the certifications file, atomically."""

    def key(r: Dict) -> tuple:
        return tuple(
            str(r[f]) for f in ("system", "setting", "dataset", "shot", "shuffle", "base_version", "code_version")
        )

    rows = read_certifications(path)
    rows = [r for r in rows if key(r) != key(row)] + [{k: str(v) for k, v in row.items()}]
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with atomic_open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=FIELDS)
        writer.writeheader()
        writer.writerows(rows)
