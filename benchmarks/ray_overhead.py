"""
What running `allennlp run-grid` on Ray costs, on this machine, with tiny fixture runs
(fixtures/grid/geo_1shot.jsonnet: the fixture few-shot experiment, seconds per run, mostly process
start-up), not the real experiments:

(a) one run trained directly (`python -m allennlp train`, as the executor before Ray started each run)
    against the same run as a 1-run Ray grid (local Ray started and stopped, the task, files back,
    the row recorded); the pre-trained archive exists for both;
(b) the wall time of a 30-run grid (5 fixture systems x shuffles 0-5 sharing one pre-training) with
    2 local workers (`--jobs 2 --threads 1`), beside the sum of its runs' seconds.

    PYTHONPATH=. OMP_NUM_THREADS=1 python benchmarks/ray_overhead.py [--repeats 2] [--skip-grid]
"""
import argparse
import csv
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from typing import List

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
CONFIG = os.path.join(ROOT, "fixtures", "grid", "{dataset}_{shot}shot.jsonnet")
SYSTEMS = [f"fixture-{letter}" for letter in "abcde"]


def grid_args(work: str, systems: List[str], shuffles: List[int], tag: str) -> argparse.Namespace:
    from fewshot_parser.commands import run_grid

    parser = argparse.ArgumentParser()
    run_grid.RunGrid().add_subparser(parser.add_subparsers())
    return parser.parse_args(["run-grid", "--systems", *systems, "--datasets", "geo", "--shots", "1", "--shuffles",
                              *map(str, shuffles), "--jobs", "2", "--threads", "1",
                              "--runs-dir", os.path.join(work, f"grid-{tag}"), "--results", os.path.join(work, f"{tag}.csv")])


def direct(work: str, tag: str) -> float:
    start = time.time()
    subprocess.run([sys.executable, "-m", "allennlp", "train", CONFIG.format(dataset="geo", shot=1), "-s",
                    os.path.join(work, f"direct-{tag}"), "--include-package", "fewshot_parser"],
                   cwd=ROOT, check=True, capture_output=True, env={**os.environ, "FEWSHOT_SPLIT": "1"})
    return time.time() - start


def through_ray(work: str, tag: str) -> float:
    from fewshot_parser.commands import run_grid

    start = time.time()
    run_grid.run_grid(grid_args(work, SYSTEMS[:1], [1], f"ray-{tag}"))
    return time.time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--skip-grid", action="store_true", help="only (a)")
    options = parser.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    work = tempfile.mkdtemp(prefix="ray-overhead-")
    try:
        for shuffle in range(6):  # copies of the geo fixture split as shuffles 0-5
            directory = os.path.join(work, "data", "geo", f"shuffle_{shuffle}_shot_1")
            os.makedirs(directory)
            for part in ("train", "support", "query"):
                shutil.copy(os.path.join(ROOT, "fixtures", "data", "geo", "shuffle_0_shot_1", f"{part}.txt"), directory)
        os.environ.update({"FEWSHOT_DATA_DIR": os.path.join(work, "data"), "FEWSHOT_PRETRAIN_DIR": os.path.join(work, "pretrain")})
        os.chdir(ROOT)
        from fewshot_parser.commands import run_grid

        for system in SYSTEMS:
            run_grid.SYSTEMS[system] = ("ProtoParser", system, CONFIG)
        print("tiny fixture runs (fixtures/grid/geo_1shot.jsonnet), not the real experiments; "
              f"{os.cpu_count()} cores, OMP_NUM_THREADS={os.environ['OMP_NUM_THREADS']}")
        direct(work, "pretrain")  # makes the shared archive, untimed
        plain, ray = [], []
        for repeat in range(options.repeats):
            plain.append(direct(work, str(repeat)))
            ray.append(through_ray(work, str(repeat)))
        print(f"(a) one run: allennlp train {statistics.mean(plain):.1f}s, 1-run Ray grid {statistics.mean(ray):.1f}s, "
              f"overhead {statistics.mean(ray) - statistics.mean(plain):+.1f}s (mean of {options.repeats}; "
              f"direct {' '.join(f'{s:.1f}' for s in plain)}, Ray {' '.join(f'{s:.1f}' for s in ray)})")
        if not options.skip_grid:
            shutil.rmtree(os.path.join(work, "pretrain"))  # the grid pre-trains once, in its own task
            start = time.time()
            args = grid_args(work, SYSTEMS, list(range(6)), "grid30")
            run_grid.run_grid(args)
            wall = time.time() - start
            with open(args.results) as handle:
                rows = list(csv.DictReader(handle))
            busy = sum(float(row["seconds"]) for row in rows)
            print(f"(b) {len(rows)}-run grid (1 pre-training + {len(rows)} fine-tunes), --jobs 2: wall {wall:.0f}s "
                  f"({wall / 60:.1f} min); the runs' own seconds sum to {busy:.0f}s, i.e. {busy / 2:.0f}s on 2 workers "
                  "if perfectly packed (pre-training excluded)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
