"""
Keeps the model weights of running pre-trainings at chosen epochs, without touching them: AllenNLP's
checkpointer keeps only the newest `model_state_e<N>_b0.th` (the weights after N epochs) and deletes
the older ones, so this watcher hard-links each wanted file as it appears into a snapshot tree
(`<out>/<path of the pre-training under root>/model_state_e<N>.th`). A hard link keeps the file's
content once the trainer removes its own name. The snapshots feed `lab/scripts/pretraining_epochs.py`,
which fine-tunes from them to measure accuracy against pre-training epochs.

    python lab/scripts/keep_pretraining_snapshots.py runs/pretrain-82 runs/pretrain-snapshots-82 \
        --epochs 10 20 40 60 80

Runs until killed; polls twice a second (a geo epoch takes several seconds).
"""

import argparse
import glob
import os
import re
import time
from typing import Optional

PATTERN = re.compile(r"model_state_e(\d+)_b0\.th$")


def sweep(root: str, out: str, epochs: set, names: Optional[set] = None) -> int:
    """Hard-links the wanted epochs' weights of the running pre-trainings under `root` (only those whose
    folder name ends with one of `names`, when given); returns how many it linked."""
    kept = 0
    for path in glob.glob(os.path.join(root, "**", "*.partial", "model_state_e*_b0.th"), recursive=True):
        match = PATTERN.search(path)
        if not match or int(match.group(1)) not in epochs:
            continue
        run = os.path.relpath(os.path.dirname(path), root)[: -len(".partial")]
        if names and not any(os.path.basename(run).endswith(name) for name in names):
            continue
        target = os.path.join(out, run, f"model_state_e{match.group(1)}.th")
        if os.path.exists(target):
            continue
        os.makedirs(os.path.dirname(target), exist_ok=True)
        try:
            os.link(path, target)
            kept += 1
            print(f"{time.strftime('%H:%M:%S')} kept {target}", flush=True)
        except FileNotFoundError:  # deleted between the listing and the link
            continue
    return kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("root")
    parser.add_argument("out")
    parser.add_argument("--epochs", type=int, nargs="+", default=[10, 20, 40, 60, 80])
    parser.add_argument("--interval", type=float, default=0.5)
    parser.add_argument(
        "--names", nargs="*", default=["-ours", "-contextual-schema-classes"],
        help="keep only pre-trainings whose folder name ends so (default: the faithful and best rows', which "
        "the *-pre<n> rows shorten); none given: every pre-training",
    )
    args = parser.parse_args()
    while True:
        sweep(args.root, args.out, set(args.epochs), set(args.names))
        time.sleep(args.interval)


if __name__ == "__main__":
    main()
