import os

PROJECT_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES_ROOT = os.path.join(PROJECT_ROOT, "fixtures")
FIXTURE_DATA = os.path.join(FIXTURES_ROOT, "data")


def fixture_split(dataset: str, part: str) -> str:
    """Path of a fixture file in the authors' layout (`geo`, `train` -> fixtures/data/geo/shuffle_0_shot_1/train.txt; the
    fixtures leave out the authors' `lemma_data` level)."""
    return os.path.join(FIXTURE_DATA, dataset, "shuffle_0_shot_1", f"{part}.txt")


def load_benchmark(name: str, folder: str = "benchmarks"):
    """A script of `benchmarks/` as a module (`thread_noise` -> benchmarks/thread_noise.py), or of another
    folder of scripts (`lab/scripts`), importable beside the scripts it imports."""
    import importlib.util
    import sys

    directory = os.path.join(PROJECT_ROOT, *folder.split("/"))
    sys.path.insert(0, directory)
    try:
        spec = importlib.util.spec_from_file_location(name, os.path.join(directory, f"{name}.py"))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(directory)


def fixture_loader(params: dict, vocab=None):
    """
    A pre-training data loader (`params`: its type and sizes) over the geo fixture's training
    file, indexed with `vocab` (default: a vocabulary built from that file).
    """
    from allennlp.common import Params
    from allennlp.data import DataLoader, DatasetReader, Vocabulary

    reader = DatasetReader.from_params(Params({"type": "fewshot_geoquery"}))
    loader = DataLoader.from_params(Params(params), reader=reader, data_path=fixture_split("geo", "train"))
    loader.index_with(vocab if vocab is not None else Vocabulary.from_instances(loader.iter_instances()))
    return loader


def fit_fixture(model, instances, vocab, steps: int = 300, lr: float = 0.02):
    """
    Trains `model` on `instances` as one full batch for `steps` Adam steps, then decodes them in eval
    mode; returns `(output, metrics)` (the "learns the fixture" check of the model tests).
    """
    import torch
    from allennlp.data import Batch

    torch.manual_seed(0)
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    batch = Batch(instances)
    batch.index_instances(vocab)
    tensors = batch.as_tensor_dict()
    model.train()
    for _ in range(steps):
        optimizer.zero_grad()
        model(**tensors)["loss"].backward()
        optimizer.step()
    model.eval()
    model.get_metrics(reset=True)
    output = model(**tensors)
    return output, model.get_metrics(reset=True)


# The systems tables tests render rows of: the product's and the lab's probe rows.
SYSTEMS_TABLES = ["experiments/systems.jsonnet", "lab/systems.jsonnet"]
# Module-level: rows are rendered many times over.
_RENDERED: dict = {}


def rendered_experiment(path: str) -> dict:
    """
    An experiment config under the project root (a file, or a row reference `TABLE#ROW/DATASET_Kshot`)
    rendered for shuffle 1, seed 13, pre-trained archives under `p/`, without `teaching_recipe`
    (whether its fine-tuning becomes the archive's recipe for `allennlp teach`; the headline rows set
    it, and it changes nothing the run computes).
    """
    import copy

    from fewshot_parser.commands.systems import render_config

    if path not in _RENDERED:
        ext = {"FEWSHOT_SPLIT": "1", "FEWSHOT_SEED": "13", "FEWSHOT_PRETRAIN_DIR": "p"}
        full = path if path.startswith(("experiments/systems.jsonnet#", "lab/systems.jsonnet#")) else os.path.join(PROJECT_ROOT, path)
        _RENDERED[path] = render_config(full, ext)
    config = copy.deepcopy(_RENDERED[path])
    config.pop("teaching_recipe", None)
    return config


def rendered_row(name: str, dataset: str, shot: int) -> dict:
    """Grid row `name` of the systems tables (`SYSTEMS_TABLES`) for a cell, as `rendered_experiment` renders."""
    from fewshot_parser.commands.systems import read_systems

    return rendered_experiment(read_systems(SYSTEMS_TABLES)[name][2].format(dataset=dataset, shot=shot))


def train_fixture_experiment(tmp_path, monkeypatch, overrides: dict) -> str:
    """Runs the tiny few-shot experiment (fixtures/fewshot) with `overrides` into `tmp_path/run`; returns its pre-trained archive's path."""
    import json

    from allennlp.commands.train import train_model_from_file

    monkeypatch.chdir(PROJECT_ROOT)
    pretrained = str(tmp_path / "pretrain" / "model.tar.gz")
    monkeypatch.setenv("PRETRAINED", pretrained)
    train_model_from_file(os.path.join(FIXTURES_ROOT, "fewshot", "experiment.jsonnet"), str(tmp_path / "run"),
                          overrides=json.dumps(overrides))
    return pretrained


def fixture_model_config(test_dir: str, name: str, model: dict, reader: dict = None) -> str:
    """
    Writes the ProtoParser fixture experiment (fixtures/proto_parser) with `model`'s settings over its
    model's (and `reader` for its reader, when given) to `test_dir/name`; returns the path.
    """
    import json

    import _jsonnet

    config = json.loads(_jsonnet.evaluate_file(os.path.join(FIXTURES_ROOT, "proto_parser", "experiment.jsonnet")))
    if reader is not None:
        config["dataset_reader"] = reader
    config["model"].update(model)
    path = os.path.join(test_dir, name)
    with open(path, "w") as handle:
        json.dump(config, handle)
    return path


def indexed_tensors(instances, vocab) -> dict:
    """The tensors of `instances` as one batch indexed with `vocab`."""
    from allennlp.data import Batch

    batch = Batch(instances)
    batch.index_instances(vocab)
    return batch.as_tensor_dict()
