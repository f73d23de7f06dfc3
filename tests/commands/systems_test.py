import pytest

from fewshot_parser.commands.run_grid import SYSTEMS
from fewshot_parser.commands.systems import SYSTEMS_TABLE, read_systems
from fewshot_parser.common.errors import UserError

HEADER = "name,system,setting,config,about\n"


def test_the_grid_reads_its_systems_from_the_table():
    systems = read_systems(SYSTEMS_TABLE)
    assert systems == SYSTEMS and list(systems)[0] == "ours"
    assert systems["ours"] == ("ProtoParser", "", "experiments/{dataset}_{shot}shot.jsonnet")
    assert systems["chosen-fallback-roles"][2] == "experiments/{dataset}_{shot}shot_best.jsonnet"
    assert systems["no-sup"][1] == "-sup" and systems["irnet-cb"] == (
        "IRNet", "cb", "experiments/baselines/irnet_cb_{dataset}_{shot}shot.jsonnet")


def test_a_setting_may_hold_commas_when_quoted(tmp_path):
    table = tmp_path / "systems.csv"
    table.write_text(HEADER + 'best,ProtoParser,"+ a, b",experiments/{dataset}_{shot}shot_best.jsonnet,one\n')
    assert read_systems(str(table)) == {"best": ("ProtoParser", "+ a, b", "experiments/{dataset}_{shot}shot_best.jsonnet")}


@pytest.mark.parametrize("lines,message", [
    ("name,system,config\n", ":1: the header must be name,system,setting,config,about"),
    (HEADER + "a,P,,experiments/{dataset}_{shot}shot.jsonnet,x\na,P,,experiments/{dataset}_{shot}shot.jsonnet,y\n",
     ":3: system 'a' is defined twice"),
    (HEADER + "a,P,,experiments/geo_1shot.jsonnet,x\n", ":2: config 'experiments/geo_1shot.jsonnet' must contain"),
    (HEADER + "a,P,,experiments/{dataset}_{shot}shot.jsonnet\n", ":2: expected 5 fields"),
    (HEADER + ",P,,experiments/{dataset}_{shot}shot.jsonnet,x\n", ":2: a system needs a name"),
])
def test_a_malformed_table_is_one_error_naming_file_and_line(tmp_path, lines, message):
    table = tmp_path / "systems.csv"
    table.write_text(lines)
    with pytest.raises(UserError) as error:
        read_systems(str(table))
    assert str(error.value).startswith(str(table)) and message in str(error.value)


def test_without_a_table_there_are_no_systems(tmp_path):
    assert read_systems(str(tmp_path / "missing.csv")) == {}
