"""The lab's reshaped-pair rows render the reader they name (and `rendered_reader` for their neighbours)."""
from tests import PROJECT_ROOT


def rendered_reader(row: str, dataset: str, shot: int) -> dict:
    """The fine-tuning reader of grid row `row` of the systems tables for a cell, split 1."""
    from tests import rendered_row

    return rendered_row(row, dataset, shot)["dataset_reader"]


def test_the_jsonnet_switch_renders_the_reshaped_reader_only_when_asked(monkeypatch):
    monkeypatch.chdir(PROJECT_ROOT)
    reader = rendered_reader
    reshaped, plain = reader("reshaped-ens5", "geo", 1), reader("coverage-evidence-types-ens5", "geo", 1)
    assert reshaped.pop("type") == plain.pop("type") == "fewshot_augmented"
    assert reshaped.pop("generators") == plain.pop("generators") + [[{"type": "reshaped", "pairs_per_predicate": 10}]]
    assert reshaped == plain
