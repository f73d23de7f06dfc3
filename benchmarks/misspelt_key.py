"""
How long a config with a misspelt key takes to fail when no pre-trained archive exists: the command
of `allennlp train experiments/geo_1shot.jsonnet -s DIR -o '{"trainer": {"num_epochz": 3}}'` with an
empty pre-training directory, best of `--repeats` fresh processes. Prints the seconds and the error
line; nothing is trained or left behind.

    python benchmarks/misspelt_key.py [--config experiments/geo_1shot.jsonnet] [--repeats 3]
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--config", default="experiments/geo_1shot.jsonnet")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    seconds, last = [], ""
    for _ in range(args.repeats):
        with tempfile.TemporaryDirectory() as scratch:
            environment = {**os.environ, "OMP_NUM_THREADS": "1", "FEWSHOT_PRETRAIN_DIR": os.path.join(scratch, "pre")}
            started = time.time()
            result = subprocess.run(
                [sys.executable, "-m", "allennlp", "train", args.config, "-s", os.path.join(scratch, "run"),
                 "-o", '{"trainer": {"num_epochz": 3}}'],
                cwd=ROOT, capture_output=True, text=True, env=environment,
            )
            seconds.append(time.time() - started)
            last = (result.stderr.strip().splitlines() or ["(no output)"])[-1]
            left = os.path.exists(os.path.join(scratch, "run")) or os.path.exists(os.path.join(scratch, "pre"))
    print(f"{args.config}: failed in {min(seconds):.1f} s (best of {args.repeats}; exit {result.returncode}; "
          f"anything left behind: {'yes' if left else 'no'})")
    print(f"error: {last}")


if __name__ == "__main__":
    main()
