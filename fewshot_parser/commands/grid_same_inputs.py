"""
`run-grid --same-inputs-as BASE`: a run whose fine-tuning would see exactly what a recorded run of row
BASE saw is recorded from BASE's row instead of being trained again.

A recombination generator (modifier pairs, say) makes pairs only where a draw makes new a predicate it
applies to; elsewhere the row with it fine-tunes on the same instances, from the same pre-trained
archive, with the same settings and seed, as the row without it, and its numbers are the same (training
is deterministic for a config, seed, thread count and machine). Such a run is proven, not assumed, to
have the same inputs as BASE's run of the same cell when:

1. the two rendered configs are equal once the generator lists of their recombination readers (and
   `teaching_recipe`, which only says whether the archive stores its recipe) are set aside, so the
   model, trainer, pre-training, pre-trained archive and every reader setting agree;
2. each reader makes the same instances, field by field, from every file the run reads (the training,
   validation and test data and the retention data), and leaves Python's, NumPy's and torch's random
   states as the other does.

BASE's row must be recorded and current (the grid's `Freshness` finds nothing stale in it). The new
row copies its numbers, retention and pre-training provenance, and carries the run's own config hash,
0 seconds (nothing ran), `same_inputs_as` = BASE and, as its code version, the code that proved the
inputs the same: the base row was current for that code, so the row is what that code would give, and a
later change to anything the run depends on makes it stale like any other row (the grid then proves it
again or trains it). `--redo-recorded` trains such a run after all.
"""

import contextlib
import copy
import dataclasses
import hashlib
import json
import os
import random
from typing import Any, Callable, Dict, Iterator, Optional, Sequence, Tuple, cast

import numpy
import torch

from fewshot_parser.common.provenance import experiment_hash

# The data files a run reads, and the reader that reads each (AllenNLP's defaults: the validation reader
# is the training reader unless the config names one).
DATA_FILES = (
    ("train_data_path", "dataset_reader"),
    ("validation_data_path", "validation_dataset_reader"),
    ("test_data_path", "validation_dataset_reader"),
)


def is_recombination_reader(reader: Any) -> bool:
    """Whether a reader config is support-set recombination (the only place generators live)."""
    from fewshot_parser.commands.augment_data import is_augmented_reader

    return isinstance(reader, dict) and is_augmented_reader(reader.get("type"))


def without_generators(config: Dict[str, Any]) -> Dict[str, Any]:
    """A rendered config with the generator lists of its recombination readers and `teaching_recipe` removed."""

    def strip(reader: Any) -> Any:
        if not isinstance(reader, dict):
            return reader
        kept = {k: v for k, v in reader.items() if not (k == "generators" and is_recombination_reader(reader))}
        if "reader" in kept:
            kept["reader"] = strip(kept["reader"])
        return kept

    stripped = {k: v for k, v in copy.deepcopy(config).items() if k != "teaching_recipe"}
    for key in ("dataset_reader", "validation_dataset_reader"):
        if key in stripped:
            stripped[key] = strip(stripped[key])
    return stripped


def canonical(value: Any) -> Any:
    """A JSON-able form of an instance field that holds everything training reads from it."""
    from allennlp.data.fields import (
        LabelField,
        ListField,
        MetadataField,
        SequenceLabelField,
        TensorField,
        TextField,
    )

    if isinstance(value, TextField):
        tokens = [[getattr(t, f.name) for f in dataclasses.fields(t)] for t in value.tokens]
        return ["text", tokens, sorted(value.token_indexers or {})]
    if isinstance(value, ListField):
        return ["list", [canonical(field) for field in value.field_list]]
    if isinstance(value, TensorField):
        return ["tensor", str(value.tensor.dtype), value.tensor.tolist(), value.padding_value]
    if isinstance(value, MetadataField):
        return ["metadata", value.metadata]
    if isinstance(value, SequenceLabelField):
        return ["labels", list(value.labels), value._label_namespace]
    if isinstance(value, LabelField):
        return ["label", value.label, value._label_namespace]
    return [type(value).__name__, value.human_readable_repr()]


@contextlib.contextmanager
def variables_set(variables: Dict[str, str]) -> Iterator[None]:
    """The process environment with `variables` set (readers resolve data paths against it), then restored."""
    saved = dict(os.environ)
    os.environ.update(variables)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


@contextlib.contextmanager
def seeded_random_states() -> Iterator[Callable[[], str]]:
    """Seeds Python's, NumPy's and torch's generators alike; yields a function digesting their current
    states; restores the states they had before."""
    saved = (random.getstate(), numpy.random.get_state(), torch.get_rng_state())
    random.seed(0)
    numpy.random.seed(0)
    torch.manual_seed(0)

    def digest() -> str:
        numpy_state = cast(Tuple[Any, ...], numpy.random.get_state())
        state = (repr(random.getstate()), numpy_state[1].tobytes(), torch.get_rng_state().numpy().tobytes())
        return hashlib.sha256(repr(state).encode()).hexdigest()

    try:
        yield digest
    finally:
        random.setstate(saved[0])
        numpy.random.set_state(saved[1])
        torch.set_rng_state(saved[2])


def data_fingerprint(config: Dict[str, Any], variables: Dict[str, str], extra_files: Sequence[str] = ()) -> str:
    """
    A digest of the instances each reader of `config` makes from each data file it reads (`DATA_FILES`,
    and `extra_files` read by the validation reader), with the random states reading leaves behind.
    """
    from allennlp.common import Params
    from allennlp.data import DatasetReader

    readers: Dict[str, Any] = {}
    files = [(config[path], reader) for path, reader in DATA_FILES if config.get(path)]
    files += [(path, "validation_dataset_reader") for path in extra_files]
    digest = hashlib.sha256()
    with variables_set(variables), seeded_random_states() as random_states:
        for path, name in files:
            name = name if name in config else "dataset_reader"
            if name not in readers:
                readers[name] = DatasetReader.from_params(Params(copy.deepcopy(config[name])))
            digest.update(f"{name} {path}\n".encode())
            for instance in readers[name].read(path):
                fields = {key: canonical(field) for key, field in instance.fields.items()}
                digest.update(json.dumps(fields, sort_keys=True, default=repr).encode())
                digest.update(b"\n")
        digest.update(random_states().encode())
    return digest.hexdigest()


def derived_row(
    base_row: Dict[str, str], system: str, setting: str, config: Dict[str, Any], base: str, version: str
) -> Dict[str, str]:
    """The results row of a run derived from `base_row`: its numbers, retention and pre-training provenance;
    this run's name and config hash, `same_inputs_as`, the code `version` that proved it, and no seconds."""
    return {
        **base_row,
        "system": system,
        "setting": setting,
        "seconds": "0",
        "code_version": version,
        "config_hash": experiment_hash(config),
        "same_inputs_as": base,
    }


def same_inputs(
    config: Dict[str, Any],
    base_config: Dict[str, Any],
    variables: Dict[str, str],
    base_variables: Dict[str, str],
    extra_files: Sequence[str] = (),
) -> Optional[str]:
    """None when a run of `config` would see exactly what a run of `base_config` saw; else why not."""
    first, second = without_generators(config), without_generators(base_config)
    if first != second:
        keys = sorted(k for k in set(first) | set(second) if first.get(k) != second.get(k))
        return f"the configs differ beyond generators ({', '.join(keys)})"
    if data_fingerprint(config, variables, extra_files) != data_fingerprint(base_config, base_variables, extra_files):
        return "the readers make other instances"
    return None
