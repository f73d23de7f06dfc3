"""lab/scripts/span_ownership.py: the spans the shorter-span rule changes, and dropping the runs it moves."""

import csv

import fewshot_lab  # noqa: F401
from fewshot_lab.systems import SYSTEMS

from tests import load_benchmark
from tests.data.recombination import wording_test


def load():
    return load_benchmark("span_ownership", "lab/scripts")


class Reader:
    """What `changed_spans` reads of a fine-tuning reader: its context, support file and formalism."""

    def __init__(self, context, path):
        self.context = lambda: context
        self.support_data_path = path
        self.formalism = "lambda"


def test_the_changed_spans_are_those_a_shorter_span_of_another_new_predicate_takes_words_from(tmp_path):
    from fewshot_parser.data.recombination import RecombinationContext
    from tests.data.recombination.fixtures import examples, write

    context = RecombinationContext(examples(wording_test.TRAINING), "lambda")
    path = write(tmp_path / "support.txt", wording_test.SUPPORT)
    changes = list(load().changed_spans(Reader(context, path)))
    assert changes == [{"predicate": "state:t", "example": "1", "alone": "state border", "under_the_rule": "state"}]


def test_drop_deletes_the_moved_cells_rows_and_runs_of_the_named_rows_only(tmp_path):
    script = load()
    listing = tmp_path / "moved.csv"
    with open(listing, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=script.FIELDS)
        writer.writeheader()
        writer.writerow({"suite": "dev-frequent", "dataset": "geo", "draw": 8, "sample": 2, "shot": 1})
    folder = tmp_path / "dev-frequent"
    folder.mkdir()
    best, faithful = SYSTEMS["best"][:2], SYSTEMS["ours"][:2]
    rows = [
        (best, 8, 2, 1),  # moved: dropped
        (best, 8, 1, 1),  # another sample: kept
        (best, 8, 2, 2),  # another shot: kept
        (faithful, 8, 2, 1),  # not a named row: kept
    ]
    results = folder / "runs.csv"
    with open(results, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["system", "setting", "dataset", "shot", "shuffle", "exact_match", "sample"])
        for (system, setting), draw, sample, shot in rows:
            writer.writerow([system, setting, "geo", shot, draw, 50.0, sample])
    runs = tmp_path / "runs"
    for name in ("geo_1shot_d8s2", "geo_1shot_d8s1"):
        (runs / "best" / name).mkdir(parents=True)
        (runs / "best" / f"{name}.log").write_text("")
    script.drop_moved(str(listing), str(results), ["best"], str(runs))
    with open(results, newline="") as handle:
        left = [(r["shuffle"], r["sample"], r["shot"], r["setting"]) for r in csv.DictReader(handle)]
    assert left == [("8", "1", "1", best[1]), ("8", "2", "2", best[1]), ("8", "2", "1", faithful[1])]
    assert not (runs / "best" / "geo_1shot_d8s2").exists() and not (runs / "best" / "geo_1shot_d8s2.log").exists()
    assert (runs / "best" / "geo_1shot_d8s1").is_dir()
