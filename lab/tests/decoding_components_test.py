"""lab/scripts/decoding_components.py: the best row's settings and its table."""
import fewshot_lab  # noqa: F401
import csv
import types

import torch

from tests import load_benchmark


def load_script():
    return load_benchmark("decoding_components", "lab/scripts")


class EntityCoverage:
    pass


class SlotTypeCheck(torch.nn.Module):
    pass


class OtherScorer(torch.nn.Module):
    pass


def fallback_model():
    parser = types.SimpleNamespace(rerankers=[EntityCoverage()], decoding_scorers=torch.nn.ModuleList([SlotTypeCheck(), OtherScorer()]),
                                   new_action_bias=0.0)
    return types.SimpleNamespace(parser=parser)


def test_best_row_settings_remove_one_component_each_and_add_the_bias():
    settings = load_script().best_row_settings("train.txt")
    assert list(settings) == ["full", "- entity coverage", "- slot-type check", "+ new-action bias 1", "+ missing evidence 4"]
    model = fallback_model()
    settings["- entity coverage"](model)
    assert model.parser.rerankers == [] and len(model.parser.decoding_scorers) == 2
    model = fallback_model()
    settings["- slot-type check"](model)
    assert [type(s).__name__ for s in model.parser.decoding_scorers] == ["OtherScorer"]
    assert len(model.parser.rerankers) == 1
    model = fallback_model()
    settings["+ new-action bias 1"](model)
    assert model.parser.new_action_bias == 1.0 and len(model.parser.decoding_scorers) == 2
    assert getattr(settings["+ missing evidence 4"], "needs_reader", False)


def test_the_evidence_statistics_come_from_the_splits_own_training_file():
    script = load_script()
    assert script.train_file("data/dev/draw_1/geo/lemma_data/shuffle_0_shot_2/query.txt") == \
        "data/dev/draw_1/geo/lemma_data/shuffle_0_shot_2/train.txt"


def test_the_table_gives_each_setting_as_a_paired_change(tmp_path):
    script = load_script()
    path = tmp_path / "rows.csv"
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=script.FIELDS)
        writer.writeheader()
        for split, full, without in (("d1", 50.0, 40.0), ("d2", 60.0, 56.0), ("s1", 30.0, 30.0)):
            for setting, value in (("full", full), (script.FALLBACK_OFF, without)):
                writer.writerow({"dataset": "geo", "shot": 1, "split": split, "setting": setting, "exact_match": value,
                                 "full_exact_match": full, "recorded_exact_match": full, "code_version": "x"})
    table = script.table([str(path)])
    assert "| full model: exact match | 55.00 (n=2) | 30.00 (n=1) |" in table
    assert "| - pre-trained fallback | -7.00 ± 3.00 | +0.00 ± nan |" in table
