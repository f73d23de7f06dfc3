"""
`allennlp augment-data CONFIG [--split N] [--json]`: prints the synthetic pairs that support-set
recombination (`fewshot_parser.data.recombination`) makes for one split of an experiment, so that a
user can read what fine-tuning will see before spending a run on it.

The settings are the config's (`augmentation` in `experiments/common/fewshot.libsonnet`, i.e. a
`fewshot_augmented` dataset reader); a config without augmentation is shown with the defaults.
"""

import argparse
import json
import os
import sys
from typing import Any, Dict

from allennlp.commands.subcommand import Subcommand

from fewshot_parser.common.errors import UserError
from fewshot_parser.data.dataset_readers.augmented import AugmentedSupportReader
from fewshot_parser.data.examples import read_examples


@Subcommand.register("augment-data")
class AugmentData(Subcommand):
    """Print the synthetic pairs support-set recombination makes for a split."""

    def add_subparser(self, parser: argparse._SubParsersAction) -> argparse.ArgumentParser:
        description = "Print the synthetic (utterance, LF) pairs recombination makes for one split of an experiment."
        subparser = parser.add_parser(self.name, description=description, help=description)
        subparser.add_argument(
            "config", help="experiment config (Jsonnet), e.g. experiments/augmentation/augmented_geo_1shot.jsonnet"
        )
        subparser.add_argument("--split", type=int, default=None, help="the shuffle (default: $FEWSHOT_SPLIT, else 1)")
        subparser.add_argument("--json", action="store_true", help="one JSON object per pair on stdout")
        subparser.set_defaults(func=augment_data_from_args)
        return subparser


def augmented_reader_config(config_path: str, split: int) -> Dict[str, Any]:
    """The `fewshot_augmented` reader of a rendered experiment config (defaults when it has none)."""
    import _jsonnet

    if not os.path.isfile(config_path):
        raise UserError(f"{config_path}: no such config file")
    ext_vars = {
        "FEWSHOT_SPLIT": str(split),
        "FEWSHOT_SEED": os.environ.get("FEWSHOT_SEED", "13"),
        "FEWSHOT_DATA_DIR": os.environ.get("FEWSHOT_DATA_DIR", "data"),
        "FEWSHOT_PRETRAIN_DIR": os.environ.get("FEWSHOT_PRETRAIN_DIR", "runs/pretrain"),
    }
    try:
        config = json.loads(_jsonnet.evaluate_file(config_path, ext_vars=ext_vars))
    except RuntimeError as error:
        raise UserError(f"{config_path}: {str(error).splitlines()[0]}") from None
    reader = config.get("dataset_reader") or {}
    if is_augmented_reader(reader.get("type")):
        return reader
    train = config.get("train_data_path")
    pretraining = config.get("pretraining") or {}
    if not train or "train_data_path" not in pretraining:
        raise UserError(f"{config_path}: not a few-shot experiment (no train_data_path and pre-training data)")
    print(f"# {config_path} fine-tunes without augmentation; showing the default settings", file=sys.stderr)
    return {
        "type": "fewshot_augmented",
        "reader": reader,
        "support_data_path": train,
        "training_data_path": train.replace("support.txt", "train.txt"),
    }


def is_augmented_reader(reader_type: Any) -> bool:
    """Whether a reader type is `fewshot_augmented` (or a subclass)."""
    from allennlp.data import DatasetReader

    if not isinstance(reader_type, str) or reader_type not in DatasetReader.list_available():
        return False
    reader_class = DatasetReader.resolve_class_name(reader_type)[0]
    return isinstance(reader_class, type) and issubclass(reader_class, AugmentedSupportReader)


def augment_data_from_args(args: argparse.Namespace) -> None:
    from allennlp.common import Params
    from allennlp.data import DatasetReader

    split = args.split if args.split is not None else int(os.environ.get("FEWSHOT_SPLIT", "1"))
    reader = DatasetReader.from_params(Params(augmented_reader_config(args.config, split)))
    support = list(read_examples(reader.support_data_path, reader.formalism))  # type: ignore[attr-defined]
    pairs = reader.synthetic_pairs(support)  # type: ignore[attr-defined]
    if args.json:
        for pair in pairs:
            print(json.dumps({**pair._asdict(), "utterance": " ".join(pair.utterance)}))
        return
    new = reader.context().new_predicates(support)  # type: ignore[attr-defined]
    print(
        f"split {split}: {len(support)} support example(s), new predicates: {' '.join(new) or 'none'}; "
        f"{len(pairs)} synthetic pair(s)"
    )
    for predicate in new:
        mine = [pair for pair in pairs if pair.predicate == predicate]
        print(f"\n{predicate}: {len(mine)} pair(s)")
        for pair in mine:
            print(
                f"  {pair.direction:<8} {' '.join(pair.utterance)}\n           {pair.logical_form}\n"
                f"           (from {os.path.basename(os.path.dirname(pair.source))}/{os.path.basename(pair.source)}, "
                f"in place of {pair.replaced}, confidence {pair.confidence:.2f})"
            )
