"""
Accuracy against pre-training epochs on a development suite, at the cost of fine-tunings only.

The faithful and best rows pre-train for a fixed number of epochs (100 on jobs and geo). Nothing in
their pre-training depends on that number (the learning-rate schedule decays from a fixed epoch, the
callbacks act at the start, no validation picks an epoch), so the weights after n epochs of the full
pre-training are the weights of an n-epoch pre-training. `keep_pretraining_snapshots.py` keeps them
while the suite pre-trains; this script turns them into pre-trained archives and tabulates the rows
fine-tuned from them (`lab/systems.jsonnet`: `ours-pre<n>`, `best-pre<n>`).

    # archives <pretrain>/<suite>/draw_<d>/<variant>-e<n>/ from the snapshots of finished pre-trainings
    python lab/scripts/pretraining_epochs.py build runs/pretrain-snapshots-82 runs/pretrain-82
    # check that a snapshot is the n-epoch pre-training: weights of a real one against the snapshot's
    python lab/scripts/pretraining_epochs.py compare REAL/model.tar.gz BUILT/model.tar.gz
    # the table: each shortened row against its full row, paired by draw and sample
    python lab/scripts/pretraining_epochs.py table results/dev/runs.csv --out lab/results/pretraining_epochs.md

An archive built here is the full pre-training's archive with the snapshot's weights and the epoch
count in its config (and no teaching recipe: fine-tuning stores its own), beside a `config.json` that
`pretrain_finetune` compares with the row's pre-training config before it reuses the archive.
"""

import argparse
import glob
import io
import json
import os
import re
import shutil
import sys
import tarfile
from typing import Dict, List

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "lab")]

import torch  # noqa: E402
from fewshot_lab.commands.suite_report import COLUMNS, latest_runs, paired_difference, paired_text  # noqa: E402
from fewshot_lab.systems import SYSTEMS  # noqa: E402

from fewshot_parser.common.results_io import read_result_rows  # noqa: E402
from fewshot_parser.common.safe_io import atomic_open  # noqa: E402

SNAPSHOT = re.compile(r"model_state_e(\d+)\.th$")
# (label, system, setting of the full row, setting prefix of its shortened rows)
ROWS = [
    ("faithful", SYSTEMS["ours"][:2], "faithful, pre-trained {n} epochs"),
    ("best", SYSTEMS["best-no-modifiers"][:2], "best, pre-trained {n} epochs"),
]


def build_archive(full_dir: str, snapshot: str, epochs: int, target: str) -> None:
    """`target`/model.tar.gz: `full_dir`'s archive with `snapshot`'s weights and `epochs` in its config."""
    with open(os.path.join(full_dir, "config.json")) as handle:
        config = json.load(handle)
    config["trainer"]["num_epochs"] = epochs
    text = json.dumps(config, indent=4).encode()
    staging = target + ".building"
    shutil.rmtree(staging, ignore_errors=True)
    os.makedirs(staging)
    weights = io.BytesIO()
    torch.save(torch.load(snapshot, map_location="cpu"), weights)
    with (
        tarfile.open(os.path.join(full_dir, "model.tar.gz")) as source,
        tarfile.open(os.path.join(staging, "model.tar.gz"), "w:gz") as out,
    ):
        for member in source.getmembers():
            name = member.name.lstrip("./")
            if name.startswith("teaching/"):  # the full row's stored recipes: fine-tuning stores its own
                continue
            if name in ("weights.th", "config.json"):
                data = weights.getvalue() if name == "weights.th" else text
                info = tarfile.TarInfo(member.name)
                info.size, info.mtime, info.mode = len(data), member.mtime, member.mode
                out.addfile(info, io.BytesIO(data))
            else:
                out.addfile(member, source.extractfile(member) if member.isfile() else None)
    with open(os.path.join(staging, "config.json"), "wb") as handle:
        handle.write(text)
    provenance = {}
    if os.path.isfile(os.path.join(full_dir, "provenance.json")):
        with open(os.path.join(full_dir, "provenance.json")) as handle:
            provenance = json.load(handle)
    provenance["built_from_snapshot"] = os.path.relpath(snapshot, ROOT)
    with open(os.path.join(staging, "provenance.json"), "w") as handle:
        json.dump(provenance, handle, indent=1)
    shutil.rmtree(target, ignore_errors=True)
    os.replace(staging, target)


def build(snapshots: str, pretrain: str) -> None:
    for path in sorted(glob.glob(os.path.join(snapshots, "**", "model_state_e*.th"), recursive=True)):
        epochs = int(SNAPSHOT.search(path).group(1))
        run = os.path.relpath(os.path.dirname(path), snapshots)
        full_dir = os.path.join(pretrain, run)
        target = f"{full_dir}-e{epochs}"
        if not os.path.isfile(os.path.join(full_dir, "model.tar.gz")):
            print(f"{path}: {full_dir} has not finished; skipped")
            continue
        if os.path.isfile(os.path.join(target, "model.tar.gz")):
            continue
        build_archive(full_dir, path, epochs, target)
        print(f"built {target}/model.tar.gz")


def _weights(archive: str) -> Dict[str, torch.Tensor]:
    with tarfile.open(archive) as tar:
        member = next(m for m in tar.getmembers() if m.name.lstrip("./") == "weights.th")
        return torch.load(io.BytesIO(tar.extractfile(member).read()), map_location="cpu")


def compare(first: str, second: str) -> int:
    a, b = _weights(first), _weights(second)
    if set(a) != set(b):
        print(f"different parameters: {sorted(set(a) ^ set(b))}")
        return 1
    worst = max((float((a[k].double() - b[k].double()).abs().max()) if a[k].numel() else 0.0, k) for k in a)
    equal = all(torch.equal(a[k], b[k]) for k in a)
    print(f"{len(a)} tensors; {'identical' if equal else 'differ'}; largest difference {worst[0]:.3g} ({worst[1]})")
    return 0 if equal else 1


def table(runs_csv: str, out: str, epochs: List[int]) -> str:
    rows = read_result_rows(runs_csv)
    runs = latest_runs(rows)
    lines = [
        "# Accuracy against pre-training epochs on the development suite",
        "",
        f"Generated by `python lab/scripts/pretraining_epochs.py table {runs_csv} --out {out}`. Each row",
        "is the faithful or best row fine-tuned from its own pre-training stopped after n epochs (the weights",
        "of the full pre-training after n epochs, `lab/scripts/keep_pretraining_snapshots.py`); each cell is",
        "that row − the same row pre-trained in full, in exact-match points, paired by draw and support",
        "sample (mean ± SE over draws; draws/pairs; `*`: |mean| ≥ 2 SE). The first line of each row gives",
        "the full row's mean exact match over draws.",
        "",
        "| row | " + " | ".join(f"{d} {k}" for d, k in COLUMNS) + " |",
        "|---" * (len(COLUMNS) + 1) + "|",
    ]
    for label, key, template in ROWS:
        full = runs.get(key, {})
        means = []
        for column in COLUMNS:
            by_draw: Dict[int, List[float]] = {}
            for (draw, _), value in full.get(column, {}).items():
                by_draw.setdefault(draw, []).append(value)
            draw_means = [sum(v) / len(v) for v in by_draw.values()]
            means.append(f"{sum(draw_means) / len(draw_means):.2f} ({len(draw_means)})" if draw_means else "–")
        lines.append(f"| {label}, full pre-training (mean) | " + " | ".join(means) + " |")
        for n in epochs:
            short = runs.get((key[0], template.format(n=n)), {})
            if not short:
                continue
            cells = [paired_text(paired_difference(short.get(c, {}), full.get(c, {}))) for c in COLUMNS]
            lines.append(f"| {label}, {n} epochs − full | " + " | ".join(cells) + " |")
    text = "\n".join(lines) + "\n"
    with atomic_open(out) as handle:
        handle.write(text)
    return text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    b = commands.add_parser("build")
    b.add_argument("snapshots")
    b.add_argument("pretrain")
    c = commands.add_parser("compare")
    c.add_argument("first")
    c.add_argument("second")
    t = commands.add_parser("table")
    t.add_argument("runs_csv")
    t.add_argument("--out", default="lab/results/pretraining_epochs.md")
    t.add_argument("--epochs", type=int, nargs="+", default=[10, 20, 40, 60, 80])
    args = parser.parse_args()
    if args.command == "build":
        build(args.snapshots, args.pretrain)
    elif args.command == "compare":
        return compare(args.first, args.second)
    else:
        print(table(args.runs_csv, args.out, args.epochs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
