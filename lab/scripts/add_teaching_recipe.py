"""
Adds a grid row's fine-tuning recipe to a pre-trained archive made before archives carried one, so
that `allennlp teach` can teach it with nothing but the archive.

    python lab/scripts/add_teaching_recipe.py runs/pretrain/geo-ours/model.tar.gz --system ours
    python lab/scripts/add_teaching_recipe.py runs/pretrain/geo-contextual-schema/model.tar.gz \\
        --system chosen-fallback-roles --shots 1 2

For each shot the row's experiment config is rendered for the archive's dataset and seed on a real
split (`--split`, default 1: the recipe keeps no split file, but finding the files it reads needs
them), and stored as that shot's recipe, replacing one the archive has. A row whose pre-training
config is not the archive's is refused unless `--force`.
"""
import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

import fewshot_parser  # noqa: E402,F401  (registers the readers the recipe's shot check builds)
from fewshot_lab.recipes import experiment_path, render  # noqa: E402
from fewshot_parser.common.archives import check_archive, read_members  # noqa: E402
from fewshot_parser.common.errors import UserError  # noqa: E402
from fewshot_parser.training import teaching_recipe  # noqa: E402
from fewshot_parser.training.pretrain_finetune import same_pretraining  # noqa: E402

READER_DATASETS = {"fewshot_jobs": "jobs", "fewshot_geoquery": "geo", "fewshot_atis": "atis"}


def archive_dataset(config: dict, archive: str) -> str:
    reader = teaching_recipe.innermost_reader(config.get("dataset_reader") or {})
    if reader.get("type") in READER_DATASETS:
        return READER_DATASETS[reader["type"]]
    raise UserError(f"{archive}: cannot tell its dataset (reader {reader.get('type')!r}); this script knows jobs, geo, atis")


def add(archive: str, system: str, shots: list, split: int, force: bool) -> None:
    check_archive(archive, "the pre-trained archive")
    config = json.loads(read_members(archive, ["config.json"])["config.json"])
    if "pretrained_archive" in config:
        raise UserError(f"{archive}: a fine-tuned archive; recipes go into pre-trained ones")
    dataset = archive_dataset(config, archive)
    seed = int(config.get("random_seed", 13))
    for shot in shots:
        experiment = render(experiment_path(system, dataset, shot), seed, split)
        if not same_pretraining(experiment.get("pretraining"), config) and not force:
            raise UserError(f"{archive}: row {system}'s {shot}-shot pre-training is not the archive's; --force stores it anyway")
        teaching_recipe.store_recipe(archive, experiment, shot, replace=True)
        print(f"{archive}: {shot}-shot recipe of row {system} ({dataset}, seed {seed}) stored")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("archives", nargs="+", help="pre-trained archives (model.tar.gz)")
    parser.add_argument("--system", required=True, help="the grid row whose recipe to store (experiments/systems.jsonnet or lab/systems.jsonnet)")
    parser.add_argument("--shots", nargs="+", type=int, default=[1, 2], choices=[1, 2])
    parser.add_argument("--split", type=int, default=1, help="the split the config is rendered on (default 1)")
    parser.add_argument("--force", action="store_true", help="store a row whose pre-training differs from the archive's")
    args = parser.parse_args()
    from fewshot_parser.commands.run_grid import use_tables

    use_tables(["lab/systems.jsonnet"])  # the probe rows too
    try:
        for archive in args.archives:
            add(archive, args.system, args.shots, args.split, args.force)
    except UserError as error:
        raise SystemExit(f"add_teaching_recipe: {error}")


if __name__ == "__main__":
    main()
