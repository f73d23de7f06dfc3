"""
What a results row's code *does*, in a few minutes: the behaviour fingerprint `allennlp certify`
compares between two versions of the code.

For one grid system, dataset, shot and shuffle, on a miniature of the real split (the first
`TRAIN_LINES` training examples, the whole support set, the first `QUERY_LINES` queries) and with
every trainer cut to `PRETRAIN_EPOCHS` / `FINETUNE_EPOCHS` epochs, one thread and the experiment's
seeds:

* **data**: a hash of every instance each of the config's readers makes from each of its data paths
  (synthetic recombination pairs included);
* **training**: the losses and metrics of every epoch the short pre-training and fine-tuning log;
* **decoding**: the logical forms the fine-tuned archive writes for the queries.

This file is run *by path* inside the code tree being fingerprinted (`PYTHONPATH` and working
directory set to that tree), so it only relies on what every version has: `run_grid.SYSTEMS`, the
experiment configs (rendered by `systems.render_config` where the tree has it),
`DatasetReader.from_params` and the `allennlp train` / `predict` commands.

    python lab/fewshot_lab/fingerprint.py SYSTEM DATASET SHOT SHUFFLE WORK_DIR DATA_DIR
"""

import glob
import hashlib
import json
import os
import shutil
import subprocess
import sys
from typing import Any, Dict, Iterator, List, Tuple

TRAIN_LINES = 48
QUERY_LINES = 12
PRETRAIN_EPOCHS = 1
FINETUNE_EPOCHS = 2
# Metrics that describe the machine or the clock, not the behaviour.
IGNORED_METRICS = ("duration", "mem", "epoch", "time")


def miniature(data_dir: str, dataset: str, shot: int, shuffle: int, target: str) -> None:
    """
    A data root holding the split's files cut down, and the pre-training files (shuffle 0, 1-shot, and
    the split's shot, which the pt baselines pre-train on) likewise.
    """
    folders = {f"shuffle_{shuffle}_shot_{shot}", "shuffle_0_shot_1", f"shuffle_0_shot_{shot}"}
    for folder in folders:
        source = os.path.join(data_dir, dataset, "lemma_data", folder)
        destination = os.path.join(target, dataset, "lemma_data", folder)
        os.makedirs(destination, exist_ok=True)
        for name, limit in (("train.txt", TRAIN_LINES), ("support.txt", None), ("query.txt", QUERY_LINES)):
            path = os.path.join(source, name)
            if not os.path.isfile(path):
                continue
            with open(path, encoding="utf-8") as handle:
                lines = [line for line in handle if line.strip()]
            with open(os.path.join(destination, name), "w", encoding="utf-8") as handle:
                handle.writelines(lines if limit is None else lines[:limit])


def shortened(config: Any, inside_pretraining: bool = False) -> Any:
    """The config with every trainer cut to a few epochs (pre-training ones to fewer)."""
    if isinstance(config, list):
        return [shortened(item, inside_pretraining) for item in config]
    if not isinstance(config, dict):
        return config
    result = {}
    for key, value in config.items():
        nested = inside_pretraining or key == "pretraining"
        if key == "trainer" and isinstance(value, dict) and "num_epochs" in value:
            value = {**value, "num_epochs": PRETRAIN_EPOCHS if inside_pretraining else FINETUNE_EPOCHS}
        result[key] = shortened(value, nested)
    return result


def experiments(config: Any) -> Iterator[Dict[str, Any]]:
    """Every (sub)config that reads data: a `dataset_reader` beside a `train_data_path`."""
    if isinstance(config, dict):
        if "dataset_reader" in config and "train_data_path" in config:
            yield config
        for value in config.values():
            yield from experiments(value)
    elif isinstance(config, list):
        for value in config:
            yield from experiments(value)


def data_fingerprint(config: Dict[str, Any], data_root: str) -> Dict[str, str]:
    """A hash of the instances every reader of the config makes from each of its paths (the scratch
    data root, which instances name as their source, written as `<data>`)."""
    from allennlp.common import Params
    from allennlp.data import DatasetReader

    hashes: Dict[str, str] = {}
    for part in experiments(config):
        reader_config = json.dumps(part["dataset_reader"], sort_keys=True)
        for key in ("train_data_path", "test_data_path", "validation_data_path"):
            path = part.get(key)
            if not path or f"{reader_config}|{path}" in hashes:
                continue
            reader = DatasetReader.from_params(Params(json.loads(reader_config)))
            digest = hashlib.sha256()
            count = 0
            for instance in reader.read(path):
                text = json.dumps(instance.human_readable_dict(), sort_keys=True, default=str)
                digest.update(text.replace(data_root, "<data>").encode())
                count += 1
            hashes[f"{reader_config}|{path}"] = f"{count}:{digest.hexdigest()[:16]}"
    # Keys name readers by their whole config: shorten them to stable, readable labels.
    return {f"reader{index} {key.split('|', 1)[1]}": value for index, (key, value) in enumerate(sorted(hashes.items()))}


def training_metrics(directory: str) -> Dict[str, Any]:
    """Losses and metrics of every epoch logged under `directory` (members and pre-training included)."""
    found: Dict[str, Any] = {}
    for path in sorted(glob.glob(os.path.join(directory, "**", "metrics*.json"), recursive=True)):
        with open(path) as handle:
            metrics = json.load(handle)
        relative = os.path.relpath(path, directory)
        for key, value in sorted(metrics.items()):
            if isinstance(value, (int, float)) and not any(word in key for word in IGNORED_METRICS):
                found[f"{relative}:{key}"] = value
    return found


def run(command: List[str], environment: Dict[str, str], log: str) -> None:
    with open(log, "a") as handle:
        code = subprocess.call(command, stdout=handle, stderr=subprocess.STDOUT, env=environment)
    if code != 0:
        with open(log) as handle:
            tail = handle.read()[-1500:]
        raise RuntimeError(f"{' '.join(command[:4])} failed (exit {code}):\n{tail}")


def fingerprint(system: str, dataset: str, shot: int, shuffle: int, work: str, data_dir: str) -> Dict[str, Any]:
    import _jsonnet

    from fewshot_parser.commands.run_grid import SYSTEMS

    if os.path.isdir(work):
        shutil.rmtree(work)
    os.makedirs(work)
    data = os.path.join(work, "data")
    miniature(data_dir, dataset, shot, shuffle, data)
    environment = {
        **os.environ,
        "FEWSHOT_SPLIT": str(shuffle),
        "FEWSHOT_SEED": "13",
        "FEWSHOT_DATA_DIR": data,
        "FEWSHOT_PRETRAIN_DIR": os.path.join(work, "pretrain"),
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "FEWSHOT_THREADS": "1",
    }
    os.environ.update(environment)
    template = SYSTEMS[system][2].format(dataset=dataset, shot=shot)
    variables = {
        k: environment[k] for k in ("FEWSHOT_SPLIT", "FEWSHOT_SEED", "FEWSHOT_DATA_DIR", "FEWSHOT_PRETRAIN_DIR")
    }
    try:  # a systems-table row (`TABLE#ROW/DATASET_Kshot`); code before the tables named config files
        from fewshot_parser.commands.systems import render_config
    except ImportError:
        rendered = json.loads(_jsonnet.evaluate_file(template, ext_vars=variables))
    else:
        rendered = render_config(template, variables)
    config = shortened(rendered)
    config_path = os.path.join(work, "config.json")
    with open(config_path, "w") as handle:
        json.dump(config, handle, indent=1)
    result: Dict[str, Any] = {
        "system": system,
        "dataset": dataset,
        "shot": shot,
        "shuffle": shuffle,
        "data": data_fingerprint(config, data),
    }
    log = os.path.join(work, "log.txt")
    run(
        [
            sys.executable,
            "-m",
            "allennlp",
            "train",
            config_path,
            "-s",
            os.path.join(work, "run"),
            "--include-package",
            "fewshot_parser",
        ],
        environment,
        log,
    )
    result["training"] = {
        **{f"pretrain/{k}": v for k, v in training_metrics(os.path.join(work, "pretrain")).items()},
        **{f"run/{k}": v for k, v in training_metrics(os.path.join(work, "run")).items()},
    }
    query = os.path.join(data, dataset, "lemma_data", f"shuffle_{shuffle}_shot_{shot}", "query.txt")
    predictions = os.path.join(work, "predictions.jsonl")
    run(
        [
            sys.executable,
            "-m",
            "allennlp",
            "predict",
            os.path.join(work, "run", "model.tar.gz"),
            query,
            "--use-dataset-reader",
            "--output-file",
            predictions,
            "--silent",
            "--include-package",
            "fewshot_parser",
        ],
        environment,
        log,
    )
    with open(predictions) as handle:
        result["decoding"] = [json.loads(line).get("logical_form") for line in handle if line.strip()]
    return result


def digest(result: Dict[str, Any]) -> str:
    """A short hash of a fingerprint's behaviour (data, training, decoding)."""
    content = {key: result[key] for key in ("data", "training", "decoding")}
    return hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()[:16]


def main(arguments: List[str]) -> Tuple[str, Dict[str, Any]]:
    system, dataset, shot, shuffle, work, data_dir = arguments
    result = fingerprint(system, dataset, int(shot), int(shuffle), os.path.abspath(work), os.path.abspath(data_dir))
    with open(os.path.join(work, "fingerprint.json"), "w") as handle:
        json.dump(result, handle, indent=1, sort_keys=True)
    return digest(result), result


if __name__ == "__main__":
    if len(sys.argv) != 7:
        sys.exit(__doc__.strip().splitlines()[-1].strip())
    # Run by path: the tree being fingerprinted is the working directory, not this file's folder.
    sys.path[0] = os.getcwd()
    import fewshot_parser  # noqa: F401  (registers the components of the tree being fingerprinted)
    from allennlp.common.plugins import import_plugins

    import_plugins()  # and its plugins (.allennlp_plugins: the tree's lab), as `allennlp train` does

    print(main(sys.argv[1:])[0])
