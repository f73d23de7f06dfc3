"""
When does the authors' fine-tuned parser start writing a new predicate where it is not needed, and
does one of its fine-tuning settings cause it? Re-runs the authors' fine-tuning script of one split in
a scratch copy of a work directory of ``benchmarks/reference_runs.py``, with settings of the script
changed (``--set max_epoch=0``: prototypes only, no update; ``--set ls=0``: no label smoothing; any
``name=value`` line of ``fine_tune.sh``), and counts per new predicate, as
``lab/scripts/new_predicate_use.py`` does, where it writes it. Ours is counted beside it from an
archive, or from our own fine-tuning with ``--our-config`` and ``--our-epochs`` (0: prototypes only,
one pass with learning rate 0).

    python lab/scripts/finetune_probe.py --dataset jobs --shot 1 --shuffle 4 \\
        --authors-work runs/reference_impl_seed1 --set max_epoch=0 \\
        --our-config experiments/switches/authors_literals_jobs_1shot.jsonnet --our-pretrain-dir <dir> --our-epochs 0

The work directory itself is not changed: the scratch copy links its data and pre-trained model.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from typing import List

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from new_predicate_use import (  # noqa: E402  (lab/scripts/, the script's own folder)
    ROOT, authors_actions, our_actions, our_exact_matches, read_split, split_arguments, use_table, written_predicates,
)
from reference_runs import SHOT_DIRS, fine_tuned_model_dir  # noqa: E402  (benchmarks/, on the path through new_predicate_use)


def model_dirs(work: str, dataset: str, shot: int, shuffle: int):
    """The split's fine-tuned model folder in `work` and the folder above it, which holds the pre-trained models."""
    models = os.path.normpath(fine_tuned_model_dir(work, dataset, shot, shuffle))
    return models, os.path.dirname(models)


def scratch_copy(work: str, scratch: str, dataset: str, shot: int, shuffle: int) -> str:
    """A copy of `work` in `scratch` whose scripts and the split's model folder are its own; the rest is linked."""
    copy = os.path.join(scratch, "work")
    os.makedirs(copy)
    for name in os.listdir(work):
        if name not in ("scripts", "saved_models"):
            os.symlink(os.path.join(work, name), os.path.join(copy, name))
    shutil.copytree(os.path.join(work, "scripts"), os.path.join(copy, "scripts"))
    models, pretrained_dir = model_dirs(work, dataset, shot, shuffle)
    target = os.path.join(copy, os.path.relpath(pretrained_dir, work))
    os.makedirs(os.path.join(target, os.path.basename(models)))
    for name in os.listdir(pretrained_dir):
        if name.endswith(".bin"):
            os.symlink(os.path.join(pretrained_dir, name), os.path.join(target, name))
    return copy


def with_settings(text: str, settings: List[str], script: str) -> str:
    """The script `text` with each `name=value` of `settings` replacing its `name=...` line."""
    for setting in settings:
        name, equals, value = setting.partition("=")
        if not equals or not re.search(rf"^{re.escape(name)}=", text, re.M):
            raise SystemExit(f"finetune_probe: {script} has no '{name}=' line to set (--set {setting})")
        text = re.sub(rf"^{re.escape(name)}=.*$", lambda _: f"{name}={value}", text, flags=re.M)
    return text


def fine_tune_authors(copy: str, dataset: str, shot: int, shuffle: int, settings: List[str], log: str) -> None:
    """Runs the split's fine-tuning script of the copy with `settings` (`name=value`) replacing its lines."""
    script = os.path.join(copy, "scripts", dataset, SHOT_DIRS[shot], "fine_tune_run.sh")
    with open(script, encoding="utf-8") as handle:
        text = with_settings(handle.read(), settings, script)
    with open(script, "w", encoding="utf-8") as handle:
        handle.write(text)
    models, pretrained_dir = model_dirs(copy, dataset, shot, shuffle)
    pretrained = sorted(f for f in os.listdir(pretrained_dir) if f.endswith("pretrain.bin"))
    if not pretrained:
        raise SystemExit(f"finetune_probe: no pre-trained model beside {models}")
    env = dict(os.environ, PATH=os.path.join(copy, "bin") + os.pathsep + os.environ.get("PATH", ""),
               OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "1"))
    with open(log, "w", encoding="utf-8") as handle:
        subprocess.run(["bash", os.path.relpath(script, copy),
                        os.path.relpath(os.path.join(pretrained_dir, pretrained[0]), copy),
                        str(shuffle), str(shot), "ft"], cwd=copy, env=env, stdout=handle, stderr=subprocess.STDOUT,
                       check=True)


def fine_tune_ours(config: str, pretrain_dir: str, shuffle: int, epochs: int, out: str) -> str:
    """Our fine-tuning of `config` on the split for `epochs` (0: one pass at learning rate 0); the archive's path."""
    wrapper = os.path.join(os.path.dirname(out), "probe.jsonnet")
    optimizer = " optimizer+: { lr: 0 }," if epochs == 0 else ""
    with open(wrapper, "w", encoding="utf-8") as handle:
        handle.write(f"(import {json.dumps(os.path.abspath(config))}) + "
                     f"{{ trainer+: {{ num_epochs: {max(epochs, 1)},{optimizer} }} }}\n")
    env = dict(os.environ, FEWSHOT_SPLIT=str(shuffle), FEWSHOT_PRETRAIN_DIR=os.path.abspath(pretrain_dir),
               OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "1"))
    subprocess.run([sys.executable, "-m", "allennlp", "train", wrapper, "-s", out, "--include-package", "fewshot_parser"],
                   cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return os.path.join(out, "model.tar.gz")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    split_arguments(parser)
    parser.add_argument("--set", nargs="*", default=[], metavar="NAME=VALUE",
                        help="lines of the authors' fine-tuning script to change (e.g. max_epoch=0 ls=0 dropout=0)")
    parser.add_argument("--archive", help="our fine-tuned model.tar.gz of the split")
    parser.add_argument("--our-config", help="instead of --archive: fine-tune this config of ours on the split")
    parser.add_argument("--our-pretrain-dir", help="FEWSHOT_PRETRAIN_DIR holding the config's pre-trained archive")
    parser.add_argument("--our-epochs", type=int, default=None, help="with --our-config: epochs (0: prototypes only)")
    args = parser.parse_args()
    if bool(args.archive) == bool(args.our_config):
        parser.error("give one of --archive and --our-config")
    if args.our_config and (args.our_pretrain_dir is None or args.our_epochs is None):
        parser.error("--our-config needs --our-pretrain-dir and --our-epochs")

    utterances, gold, new = read_split(args.data, args.dataset, args.shot, args.shuffle)
    with tempfile.TemporaryDirectory(prefix="finetune_probe_") as scratch:
        copy = scratch_copy(os.path.abspath(args.authors_work), scratch, args.dataset, args.shot, args.shuffle)
        fine_tune_authors(copy, args.dataset, args.shot, args.shuffle, args.set, os.path.join(scratch, "finetune.log"))
        theirs = authors_actions(copy, args.dataset, args.shot, args.shuffle)
        os.environ.setdefault("FEWSHOT_DATA_DIR", args.data)
        archive = args.archive or fine_tune_ours(args.our_config, args.our_pretrain_dir, args.shuffle, args.our_epochs,
                                                 os.path.join(scratch, "ours"))
        ours = our_actions(os.path.abspath(archive), utterances)
    if len(theirs) != len(gold) or len(ours) != len(gold):
        raise SystemExit(f"finetune_probe: {len(gold)} queries, {len(theirs)} authors' and {len(ours)} of our predictions")
    their_written, our_written = written_predicates(theirs, ours)
    changed = ", ".join(args.set) or "the script as it is"
    mine = f"{args.our_epochs} epochs of {os.path.basename(args.our_config)}" if args.our_config else "the given archive"
    print(f"{args.dataset} {args.shot}-shot shuffle {args.shuffle}: authors' fine-tuning with {changed}; ours: {mine}; "
          f"exact match: authors' code {sum(p['correct'] for p in theirs)}, ours {our_exact_matches(ours, gold)} "
          f"of {len(gold)}\n")
    print("\n".join(use_table(gold, their_written, our_written, new)))

if __name__ == "__main__":
    main()
