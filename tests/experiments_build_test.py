"""Every base config and every row of the product's systems table, built with `from_params` on the fixture
data for every cell: the pre-training as `allennlp train` builds it (reader, vocabulary, data loaders, model,
trainer), and the fine-tuning's reader and model on that vocabulary. Nothing is trained."""
import copy
import os
import re
from typing import Any, Dict

import pytest
from allennlp.commands.train import TrainModel
from allennlp.common import Params
from allennlp.data import DatasetReader
from allennlp.models import Model

import fewshot_parser  # noqa: F401
from fewshot_parser.commands.systems import read_systems, render_config
from tests import PROJECT_ROOT, fixture_split

CELLS = [(d, k) for d in ("jobs", "geo", "atis") for k in (1, 2)]
SEEDS = ("numpy_seed", "pytorch_seed", "random_seed")  # `allennlp train` reads these before building
PRODUCT_ROWS = read_systems(["experiments/systems.jsonnet"])
BASES = sorted(
    name
    for name in os.listdir(os.path.join(PROJECT_ROOT, "experiments"))
    if name.endswith(".jsonnet") and not name.startswith(("jobs_", "geo_", "atis_", "systems"))
)
# `geo/lemma_data/shuffle_1_shot_1/support.txt*10`: a data file of the benchmark, optionally repeated.
DATA_FILE = re.compile(r"^(?P<dataset>[a-z]+)/lemma_data/[^/]+/(?P<part>[a-z_]+)\.txt(?P<repeat>\*\d+)?$")


def on_fixture(value: Any) -> Any:
    """`value` with every benchmark data file (also in `a+b` joins) replaced by the fixture's file of that part."""
    if isinstance(value, dict):
        return {key: on_fixture(inner) for key, inner in value.items()}
    if isinstance(value, list):
        return [on_fixture(inner) for inner in value]
    if isinstance(value, str) and "lemma_data" in value:
        parts = []
        for part in value.split("+"):
            match = DATA_FILE.match(part)
            assert match, f"not a data file of the benchmark: {part}"
            parts.append(fixture_split(match["dataset"], match["part"]) + (match["repeat"] or ""))
        return "+".join(parts)
    return value


def build(config: Dict[str, Any], directory: str) -> None:
    """Builds `config` (rendered) on the fixtures as `allennlp train` would, without training."""
    config = on_fixture(copy.deepcopy(config))
    pretraining = config.get("pretraining")
    section = pretraining if pretraining is not None else config
    for key in SEEDS:
        section.pop(key, None)
    built = TrainModel.from_params(params=Params(section), serialization_dir=directory, local_rank=0)
    assert isinstance(built.model, Model)
    if pretraining is not None:  # the fine-tuning's parts, on the pre-trained vocabulary
        assert isinstance(DatasetReader.from_params(Params(config["dataset_reader"])), DatasetReader)
        assert isinstance(Model.from_params(vocab=built.model.vocab, params=Params(config["model"])), Model)


def render(reference: str, dataset: str, shot: int, pretrain_dir: str) -> Dict[str, Any]:
    ext = {"FEWSHOT_SPLIT": "1", "FEWSHOT_SEED": "13", "FEWSHOT_PRETRAIN_DIR": pretrain_dir}
    return render_config(reference.format(dataset=dataset, shot=shot), ext)


@pytest.fixture(autouse=True)
def in_project_root(monkeypatch):
    monkeypatch.chdir(PROJECT_ROOT)


@pytest.mark.parametrize("name", list(PRODUCT_ROWS))
def test_every_row_builds_on_the_fixtures_for_every_cell(name, tmp_path):
    for dataset, shot in CELLS:
        build(render(PRODUCT_ROWS[name][2], dataset, shot, str(tmp_path / "p")), str(tmp_path / f"{dataset}{shot}"))


@pytest.mark.parametrize("name", BASES)
def test_every_base_builds_on_the_fixtures_for_every_cell(name, tmp_path):
    import json

    import _jsonnet

    for dataset, shot in CELLS:
        ext = {"FEWSHOT_SPLIT": "1", "FEWSHOT_SEED": "13", "FEWSHOT_PRETRAIN_DIR": str(tmp_path / "p")}
        snippet = f"(import 'experiments/{name}')(dataset='{dataset}', shot={shot})"
        config = json.loads(_jsonnet.evaluate_snippet("base", snippet, ext_vars=ext))
        build(config, str(tmp_path / f"{dataset}{shot}"))


def test_a_broken_component_fails_the_build(tmp_path):
    """The check can fail: a row whose model names an unknown key does not build."""
    config = render(PRODUCT_ROWS["ours"][2], "geo", 1, str(tmp_path / "p"))
    config["model"]["no_such_setting"] = 1
    with pytest.raises(Exception, match="no_such_setting"):
        build(config, str(tmp_path / "broken"))
