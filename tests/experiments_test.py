"""The base configs and the systems tables: every row renders for every cell, names registered types and
passes the whole-config check; the thin entry points are the faithful row; overrides are merge patches."""
import glob
import json
import os

import _jsonnet
import pytest

import fewshot_parser  # noqa: F401
from allennlp.commands.train import TrainModel
from allennlp.data import DatasetReader
from allennlp.models import Model
from fewshot_lab.recipes import HEADLINE_SYSTEMS
from fewshot_parser.commands.systems import read_systems, render_config, table_rows
from fewshot_parser.training.config_check import check_experiment
from tests import PROJECT_ROOT, SYSTEMS_TABLES, rendered_row

EXPERIMENTS = os.path.join(PROJECT_ROOT, "experiments")
BASES = sorted(
    os.path.basename(p)
    for p in glob.glob(os.path.join(EXPERIMENTS, "*.jsonnet"))
    if not os.path.basename(p).startswith(("jobs_", "geo_", "atis_", "systems"))
)
CELLS = [(d, k) for d in ("jobs", "geo", "atis") for k in (1, 2)]
EXT = {"FEWSHOT_SPLIT": "2", "FEWSHOT_SEED": "13", "FEWSHOT_PRETRAIN_DIR": "runs/pretrain"}
# The product's table; the lab's rows are checked in lab/tests/lab_rows_test.py.
ROWS = read_systems(["experiments/systems.jsonnet"])


def base(name: str, dataset: str, shot: int) -> dict:
    return json.loads(_jsonnet.evaluate_snippet(
        "t", f"(import '{EXPERIMENTS}/{name}')(dataset='{dataset}', shot={shot})", ext_vars=EXT))


def check_types(config: dict) -> None:
    for section in [config] + ([config["pretraining"]] if "pretraining" in config else []):
        assert Model.resolve_class_name(section["model"]["type"])
        assert DatasetReader.resolve_class_name(section["dataset_reader"]["type"])
    kind = config.get("type", "default")
    assert TrainModel.resolve_class_name(kind)
    if kind == "fewshot_pretrain_finetune":  # `--recover` of the fine-tuning resumes exactly
        assert {"type": "fewshot_random_state"} in config["trainer"].get("callbacks", [])
    assert "lazy" not in json.dumps(config)  # an AllenNLP 1.x key that 2.x readers reject


def test_experiments_holds_the_bases_the_entries_and_the_table():
    files = sorted(os.path.relpath(p, EXPERIMENTS) for p in glob.glob(os.path.join(EXPERIMENTS, "**", "*sonnet"), recursive=True))
    assert len(files) <= 20 and "common.libsonnet" in files and "systems.jsonnet" in files
    assert {"proto_parser.jsonnet", "faithful.jsonnet", "best.jsonnet", "da.jsonnet", "ptmaml.jsonnet"} <= set(BASES)
    for dataset, shot in CELLS:
        assert f"{dataset}_{shot}shot.jsonnet" in files


@pytest.mark.parametrize("name", BASES)
def test_every_base_renders_for_every_cell_and_passes_the_check(name):
    for dataset, shot in CELLS:
        config = base(name, dataset, shot)
        check_types(config)
        check_experiment(config)


def test_a_base_reads_the_cell_from_the_environment_by_default():
    config = json.loads(_jsonnet.evaluate_file(
        os.path.join(EXPERIMENTS, "faithful.jsonnet"), ext_vars={**EXT, "FEWSHOT_DATASET": "atis", "FEWSHOT_SHOT": "2"}))
    assert config == base("faithful.jsonnet", "atis", 2)
    assert config["test_data_path"] == "atis/lemma_data/shuffle_2_shot_2/query.txt"


@pytest.mark.parametrize("dataset,shot", CELLS)
def test_the_thin_entries_are_the_faithful_row(dataset, shot):
    """experiments/<dataset>_<k>shot.jsonnet (README's `allennlp train`) = the grid's row `ours`."""
    entry = json.loads(_jsonnet.evaluate_file(os.path.join(EXPERIMENTS, f"{dataset}_{shot}shot.jsonnet"), ext_vars=EXT))
    assert entry["teaching_recipe"] is True  # its fine-tuning is the recipe its archive carries for `teach`
    row = render_config(ROWS["ours"][2].format(dataset=dataset, shot=shot), EXT)
    assert entry == row
    assert {k: v for k, v in entry.items() if k != "teaching_recipe"} == base("faithful.jsonnet", dataset, shot)


def test_the_headline_rows_are_their_bases_with_the_teaching_recipe():
    rows = {row["name"]: row for row in table_rows("experiments/systems.jsonnet")}
    assert (rows[HEADLINE_SYSTEMS[0]]["base"], rows[HEADLINE_SYSTEMS[1]]["base"]) == ("faithful.jsonnet", "best.jsonnet")
    for name, base_name in zip(HEADLINE_SYSTEMS, ("faithful.jsonnet", "best.jsonnet")):
        config = render_config(ROWS[name][2].format(dataset="geo", shot=1), EXT)
        assert config.pop("teaching_recipe") is True and config == base(base_name, "geo", 1)


def test_the_measured_table_has_readmes_rows_and_the_lab_table_the_probes():
    measured = [row["name"] for row in table_rows("experiments/systems.jsonnet")]
    assert measured[0] == "ours" and HEADLINE_SYSTEMS[1] in measured
    for system in ("seq2seq", "coarse2fine", "irnet"):
        assert {f"{system}-{setting}" for setting in ("pt", "cb", "os")} <= set(measured)
    assert {"da", "pt-maml", "plus"} | {f"no-{part}" for part in ("sup", "proto", "reg", "strsim", "cond", "smooth")} <= set(measured)
    probes = [row["name"] for row in table_rows("lab/systems.jsonnet")]
    assert not set(measured) & set(probes) and len(measured) + len(probes) == len(read_systems(SYSTEMS_TABLES))
    # The product reads the lab's table only when asked.
    assert set(read_systems()) == set(measured) or os.environ.get("FEWSHOT_SYSTEMS_TABLES")


@pytest.mark.parametrize("name", list(ROWS))
def test_every_row_renders_for_every_cell_and_passes_the_check(name):
    """Every cell of every row renders; one cell of each is checked as `allennlp train` would build it."""
    check_row(name)


def check_row(name: str, rows=ROWS) -> None:
    for dataset, shot in CELLS:
        config = render_config(rows[name][2].format(dataset=dataset, shot=shot), EXT)
        check_types(config)
        assert f"shuffle_2_shot_{shot}" in config.get("test_data_path", "") or "experiments" in config
        if (dataset, shot) == ("geo", 1):
            check_experiment(config)


def test_overrides_are_merge_patches(tmp_path):
    """A row's overrides merge into its base key by key; null removes a key; lists and values replace."""
    (tmp_path / "b.jsonnet").write_text(
        "function(dataset=std.extVar('FEWSHOT_DATASET'), shot=1) "
        "{ d: dataset, s: shot, keep: { a: 1, b: 2 }, list: [1, 2], gone: 3, split: std.extVar('FEWSHOT_SPLIT') }")
    (tmp_path / "t.jsonnet").write_text(
        f"local c = (import '{EXPERIMENTS}/common.libsonnet').cell();\n"
        "[{ name: 'r', system: 'S', setting: '', about: 'x', base: 'b.jsonnet',\n"
        "   overrides: { keep: { b: null, c: c.pick([1, 2, c.shots(3, 4)]) }, list: [3], gone: null, new: c.query } }]")
    reference = str(tmp_path / "t.jsonnet") + "#r/atis_2shot"
    assert read_systems([str(tmp_path / "t.jsonnet")]) == {"r": ("S", "", str(tmp_path / "t.jsonnet") + "#r/{dataset}_{shot}shot")}
    assert render_config(reference, EXT) == {
        "d": "atis", "s": 2, "keep": {"a": 1, "c": 4}, "list": [3], "split": "2",
        "new": "atis/lemma_data/shuffle_2_shot_2/query.txt",
    }


def test_the_ablations_change_one_thing_of_the_faithful_row():
    faithful, ablated = rendered_row("ours", "geo", 1), rendered_row("no-sup", "geo", 1)
    assert ablated["pretraining"]["data_loader"].pop("supervised_batches") is False
    faithful["pretraining"]["data_loader"].pop("supervised_batches")
    assert ablated.pop("pretrained_archive").endswith("geo-no-sup/model.tar.gz")
    faithful.pop("pretrained_archive")
    assert ablated == faithful


def test_faithful_configs_use_the_authors_settings():
    faithful, base_config = rendered_row("ours", "geo", 1), base("proto_parser.jsonnet", "geo", 1)
    assert faithful["pretraining"]["model"]["source_embedder"]["token_embedders"]["tokens"]["type"] == "packaged_glove"
    assert faithful["pretraining"]["model"]["supervised_attention"] == 1
    assert faithful["pretraining"]["model"]["smoothing_k"] == 6 and base_config["pretraining"]["model"]["smoothing_k"] == 3
    assert faithful["model"]["dropout"] == 0.6 and faithful["model"]["label_smoothing"] == 0.2
    assert faithful["trainer"]["callbacks"][0]["extra_data_path"] == faithful["test_data_path"].replace("query", "train")
    assert "supervised_attention" not in rendered_row("ours", "jobs", 1)["model"]  # off in jobs' fine-tuning scripts
    assert "supervised_attention" not in base_config["pretraining"]["model"]
