import json
import os
import subprocess
import sys

import pytest

from fewshot_parser.commands import run_grid
from fewshot_parser.commands.run_grid import SYSTEMS
from fewshot_parser.commands.systems import SYSTEMS_TABLE, read_systems, render_config, tables_with
from fewshot_parser.common.errors import UserError
from tests import PROJECT_ROOT

ROW = "{{ name: {name}, system: 'P', setting: '', about: 'x', base: 'b.jsonnet', overrides: {{}} }}"


def test_the_grid_reads_its_systems_from_the_table():
    systems = read_systems([SYSTEMS_TABLE])
    assert systems == SYSTEMS and list(systems)[0] == "ours"
    assert systems["ours"] == ("ProtoParser", "", "experiments/systems.jsonnet#ours/{dataset}_{shot}shot")
    assert systems["irnet-cb"] == ("IRNet", "cb", "experiments/systems.jsonnet#irnet-cb/{dataset}_{shot}shot")
    assert "ours-random" not in systems  # a probe row: lab/systems.jsonnet, read when asked
    probes = read_systems(tables_with(["lab/systems.jsonnet"]))
    assert probes["ours-random"][2] == "lab/systems.jsonnet#ours-random/{dataset}_{shot}shot"
    assert list(probes)[: len(systems)] == list(systems)


def test_a_table_names_its_file_and_row(tmp_path):
    (tmp_path / "b.jsonnet").write_text("function(dataset='geo', shot=1) {}")
    table = tmp_path / "t.jsonnet"
    table.write_text("[" + ROW.format(name="'best'") + "]")
    assert read_systems([str(table)]) == {"best": ("P", "", f"{table}#best/{{dataset}}_{{shot}}shot")}


@pytest.mark.parametrize("rows,message", [
    ([ROW.format(name="'a'"), ROW.format(name="'a'")], r"row 2 \(a\): row 'a' is defined twice"),
    (["{ name: 'a', system: 'P', setting: '', about: 'x', base: 'b.jsonnet' }"], "a row needs name, system"),
    (["{ name: 'a', system: 'P', setting: '', about: 'x', base: 'c.jsonnet', overrides: {} }"], "base 'c.jsonnet' is not a file"),
    ([ROW.format(name="''")], "a row needs a name and a system"),
    (["{ name: 'a', system: 'P', setting: '', about: 'x', base: 'b.jsonnet', overrides: {}, config: 1 }"], "unknown field config"),
])  # fmt: skip
def test_a_malformed_row_names_the_table_and_the_row(tmp_path, rows, message):
    (tmp_path / "b.jsonnet").write_text("function(dataset='geo', shot=1) {}")
    table = tmp_path / "t.jsonnet"
    table.write_text("[" + ", ".join(rows) + "]")
    with pytest.raises(UserError, match=message):
        read_systems([str(table)])


def test_a_missing_default_table_is_no_systems(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("fewshot_parser.commands.systems.PROJECT_ROOT", str(tmp_path))
    assert read_systems() == {}
    with pytest.raises(UserError, match="no such systems table"):
        read_systems(["missing.jsonnet"])


def test_run_grid_adds_the_tables_it_is_given(monkeypatch):
    monkeypatch.setattr(run_grid, "SYSTEMS", dict(SYSTEMS))
    run_grid.use_tables(["lab/systems.jsonnet"])
    assert "ours-random" in run_grid.SYSTEMS and "ours" in run_grid.SYSTEMS


def test_the_module_prints_a_rows_config_ready_for_allennlp_train(tmp_path):
    environment = {**os.environ, "FEWSHOT_SPLIT": "3", "FEWSHOT_PRETRAIN_DIR": "p", "OMP_NUM_THREADS": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "fewshot_parser.commands.systems", "ours-random", "jobs", "2",
         "--systems-table", "lab/systems.jsonnet"],
        cwd=PROJECT_ROOT, capture_output=True, text=True, env=environment, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    printed = json.loads(result.stdout)
    ext = {"FEWSHOT_SPLIT": "3", "FEWSHOT_SEED": "13", "FEWSHOT_PRETRAIN_DIR": "p"}
    assert printed == render_config("lab/systems.jsonnet#ours-random/jobs_2shot", ext)
    assert printed["test_data_path"] == "jobs/lemma_data/shuffle_3_shot_2/query.txt"
