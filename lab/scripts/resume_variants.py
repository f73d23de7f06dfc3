"""
Which part of the best row's pre-training makes a resumed run depart from an uninterrupted one.

For each variant, pre-trains jobs dev draw 1's best-row config for 6 epochs whole, then again with the
process "dying" right after epoch 3's checkpoint and resuming in the same process, and prints both
runs' per-epoch losses. Variants: `base` (as configured), `nodropout` (model and predicate dropout
0), `nosched` (no learning-rate scheduler), `nominilm` (no MiniLM word pieces).

    python -m fewshot_parser.commands.systems chosen-fallback-roles jobs 1 \\
        --systems-table lab/systems.jsonnet > /tmp/jobs_best.json
    python lab/scripts/resume_variants.py /tmp/jobs_best.json base nodropout nosched nominilm

Found: only `nominilm` resumes exactly. The frozen transformer's cache keeps word vectors computed
inside padded batches, whose last bits depend on the batch; a resumed run fills it from other batches.
"""
import glob
import json
import os
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
os.chdir(ROOT)
os.environ.setdefault("FEWSHOT_DATA_DIR", "data/dev/draw_1")

from allennlp.training.checkpointer import Checkpointer  # noqa: E402

import fewshot_parser  # noqa: E402,F401
from fewshot_parser.training.pretrain_finetune import ensure_pretrained  # noqa: E402


def variant_config(config_path: str, variant: str) -> dict:
    pretraining = json.load(open(config_path))["pretraining"]
    pretraining["trainer"]["num_epochs"] = 6
    if variant == "nosched":
        pretraining["trainer"].pop("learning_rate_scheduler", None)
    elif variant == "nodropout":
        pretraining["model"]["dropout"] = 0.0
        pretraining["model"]["predicate_dropout"] = 0.0
    elif variant == "nominilm":
        pretraining["model"]["source_embedder"]["token_embedders"].pop("pieces")
        pretraining["dataset_reader"]["token_indexers"].pop("pieces")
        pretraining["model"]["encoder"]["input_size"] = 200
    elif variant != "base":
        raise SystemExit(f"unknown variant {variant!r}")
    return pretraining


def losses(directory: str) -> list:
    files = sorted(glob.glob(directory + "/metrics_epoch_*.json"), key=lambda f: int(f.rsplit("_", 1)[1][:-5]))
    return [round(json.load(open(f))["training_loss"], 6) for f in files]


def main() -> None:
    config_path, variants = sys.argv[1], sys.argv[2:]
    save = Checkpointer.save_checkpoint

    def save_then_die(self, trainer):
        save(self, trainer)
        if trainer._epochs_completed == 3:
            raise KeyboardInterrupt

    for variant in variants:
        pretraining = variant_config(config_path, variant)
        root = os.path.join("runs", "resume_variants", variant)
        shutil.rmtree(root, ignore_errors=True)
        ensure_pretrained(os.path.join(root, "whole", "model.tar.gz"), pretraining)
        Checkpointer.save_checkpoint = save_then_die
        try:
            ensure_pretrained(os.path.join(root, "resumed", "model.tar.gz"), pretraining)
        except KeyboardInterrupt:
            pass
        Checkpointer.save_checkpoint = save
        ensure_pretrained(os.path.join(root, "resumed", "model.tar.gz"), pretraining)
        print(variant, "whole", losses(os.path.join(root, "whole")), "resumed", losses(os.path.join(root, "resumed")))


if __name__ == "__main__":
    main()
