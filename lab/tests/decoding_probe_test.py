"""lab/scripts/decoding_probe.py: the overrides of each setting, the CSV upgrade and the paired table."""

import argparse
import csv

import fewshot_lab  # noqa: F401

from tests import load_benchmark


def load():
    return load_benchmark("decoding_probe", "lab/scripts")


FALLBACK = {"model": {"type": "fewshot_known_fallback", "parser": {"rerankers": [{"type": "entity_coverage"}]}}}


def test_rerankers_are_appended_to_the_fine_tuned_parser_inside_a_fallback():
    probe = load()
    overrides = probe.setting_overrides("repeated_subtrees", FALLBACK, "geo/train.txt", "geo")
    assert overrides == {"model.parser.rerankers": [{"type": "entity_coverage"}, {"type": "repeated_subtrees"}]}
    plain = probe.setting_overrides("repeated_subtrees", {"model": {"type": "proto_parser"}}, "t", "geo")
    assert plain == {"model.rerankers": [{"type": "repeated_subtrees"}]}


def test_a_parser_setting_overrides_the_fine_tuned_parser_only():
    probe = load()
    assert probe.setting_overrides("new_action_bias", FALLBACK, "t", "geo") == {"model.parser.new_action_bias": 1.0}
    assert probe.setting_overrides("new_action_bias", {"model": {}}, "t", "geo") == {"model.new_action_bias": 1.0}


def row(setting, score, known="", sample="0"):
    return dict(
        suite="dev",
        system="best",
        dataset="geo",
        shot="1",
        draw="1",
        sample=sample,
        setting=setting,
        exact_match=score,
        code_version="c",
        known=known,
    )


def test_an_old_csv_gains_the_known_column_and_the_table_pairs_both(tmp_path):
    probe = load()
    path = tmp_path / "runs.csv"
    old = [f for f in probe.FIELDS if f != "known"]
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, old, extrasaction="ignore")
        writer.writeheader()
        writer.writerows([row("as made", "40.0"), row("new_action_bias", "42.0")])
    probe.upgrade(str(path))
    with open(path) as handle:
        rows = list(csv.DictReader(handle))
    assert [r["known"] for r in rows] == ["", ""] and [r["exact_match"] for r in rows] == ["40.0", "42.0"]
    with open(path, "a", newline="") as handle:  # a rerun with known.txt: the last row of a run counts
        csv.DictWriter(handle, probe.FIELDS).writerows(
            [row("as made", "40.0", "90.0"), row("new_action_bias", "42.0", "86.0")]
        )
    out = tmp_path / "table.md"
    probe.table(argparse.Namespace(csv=[str(path)], out=str(out)))
    line = [x for x in out.read_text().splitlines() if "new_action_bias" in x and x.startswith("|")][0]
    assert "+2.00 ± nan (1 draws, 1 runs)" in line and "-4.00 ± nan (1 draws, 1 runs)" in line
