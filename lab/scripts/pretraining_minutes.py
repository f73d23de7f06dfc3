"""
A committed ledger of how long the suites' pre-trainings took, so that the suite's cost survives the
pre-trained archives (kept under runs/, which a fresh checkout lacks).

`record` reads the `training_duration` of every finished pre-training's log under
PRETRAIN_DIR/<suite>/draw_<d>/ (`<dataset>-<variant>.log`, the grid keeps it beside the archive) and
merges it into the ledger: one row per suite, draw, dataset and variant, the latest reading winning.
`lab/scripts/suite_size.py` reads the ledger for the pre-trainings whose logs are gone. The queue records
after every step.

    python lab/scripts/pretraining_minutes.py runs/pretrain-82 --ledger lab/results/pretraining_minutes.csv
"""

import argparse
import csv
import glob
import os
import re
from typing import Dict, Optional, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LEDGER = os.path.join(ROOT, "lab", "results", "pretraining_minutes.csv")
FIELDS = ["suite", "draw", "dataset", "variant", "minutes"]
Key = Tuple[str, int, str, str]


def minutes(log: str) -> Optional[float]:
    """Minutes a pre-training took: the last `training_duration` in the log the grid keeps beside it."""
    try:
        with open(log, encoding="utf-8") as handle:
            found = re.findall(r'"training_duration": "(\d+):(\d+):([\d.]+)"', handle.read())
    except OSError:
        return None
    if not found:
        return None
    hours, mins, seconds = found[-1]
    return int(hours) * 60 + int(mins) + float(seconds) / 60


def read_ledger(path: str = LEDGER) -> Dict[Key, float]:
    """(suite, draw, dataset, variant) -> minutes; empty without a ledger."""
    if not os.path.isfile(path):
        return {}
    with open(path, newline="", encoding="utf-8") as handle:
        return {
            (row["suite"], int(row["draw"]), row["dataset"], row["variant"]): float(row["minutes"])
            for row in csv.DictReader(handle)
        }


def record(pretrain_dir: str, path: str = LEDGER) -> int:
    """Merges the pre-training logs under `pretrain_dir` into the ledger; returns how many it read."""
    ledger = read_ledger(path)
    found = 0
    pattern = os.path.join(pretrain_dir, "*", "draw_*", "*-*.log")
    for log in sorted(glob.glob(pattern)):
        draw_folder = os.path.dirname(log)
        suite = os.path.basename(os.path.dirname(draw_folder))
        draw = int(os.path.basename(draw_folder)[len("draw_") :])
        dataset, variant = os.path.basename(log)[: -len(".log")].split("-", 1)
        if not os.path.isfile(os.path.join(draw_folder, f"{dataset}-{variant}", "model.tar.gz")):
            continue  # not finished: its log holds part of the time
        taken = minutes(log)
        if taken is not None:
            ledger[(suite, draw, dataset, variant)] = round(taken, 2)
            found += 1
    temporary = path + ".tmp"
    with open(temporary, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(FIELDS)
        writer.writerows([*key, value] for key, value in sorted(ledger.items()))
    os.replace(temporary, path)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("pretrain_dir", help="the grid's pre-training folder (FEWSHOT_PRETRAIN_DIR)")
    parser.add_argument("--ledger", default=LEDGER)
    args = parser.parse_args()
    print(f"{args.ledger}: {record(args.pretrain_dir, args.ledger)} pre-training log(s) read")


if __name__ == "__main__":
    main()
