import builtins
import json
import os
import subprocess
import sys

import pytest

from fewshot_parser.common.errors import UserError
from fewshot_parser.data import dev_suite
from fewshot_parser.data.splits import (
    FORMALISMS, choose_predicates, eligible_predicates, find_draws, find_samples, make_splits, predicate_counts, predicates_of,
    read_source, split_directory,
)
from fewshot_parser.logical_forms.tree import parse
from tests import PROJECT_ROOT

# A small geo-style file: `river:t` (6 examples), `lake:t` (4, one with a unique LF), `major:t` (3)
# and the frequent `state:t` / `loc:t`.
LINES = (
    ["what river be in s0\t( lambda $0 e ( and ( river:t $0 ) ( loc:t $0 s0 ) ) )"] * 3
    + ["name the river\t( lambda $0 e ( river:t $0 ) )"] * 3
    + ["what lake be in s0\t( lambda $0 e ( and ( lake:t $0 ) ( loc:t $0 s0 ) ) )"] * 3
    + ["what lake be in a state\t( lambda $0 e ( and ( lake:t $0 ) ( exists $1 ( and ( state:t $1 ) ( loc:t $0 $1 ) ) ) ) )"]
    + ["what major city be in s0\t( lambda $0 e ( and ( major:t $0 ) ( loc:t $0 s0 ) ) )"] * 3
    + [f"what state border s{i}\t( lambda $0 e ( and ( state:t $0 ) ( next_to:t $0 s{i} ) ) )" for i in range(3)] * 4
    + [f"state number {i}\t( lambda $0 e ( state:t $0 ) )" for i in range(20)]
)


def source(tmp_path, lines=LINES):
    """The lines as a file, each utterance made unique by a number (LFs repeat, utterances do not)."""
    path = tmp_path / "train.txt"
    path.write_text("".join(f"{line.replace(chr(9), f' n{i}' + chr(9), 1)}\n" for i, line in enumerate(lines)))
    return str(path)


def read(directory, name):
    with open(os.path.join(directory, name)) as handle:
        return [line.rstrip("\n") for line in handle]


def preds(line):
    return predicates_of(parse(line.split("\t")[1], "lambda"), "lambda")


def test_named_predicates_split_as_the_benchmark_does(tmp_path):
    out = tmp_path / "splits"
    make_splits(source(tmp_path), "geo", str(out), draws=[1], shots=[1, 2], predicates=["river:t", "lake:t"], known=5)
    one = split_directory(str(out), 1, "geo", 1, 0)
    train, support, query, known = (read(one, f) for f in ("train.txt", "support.txt", "query.txt", "known.txt"))
    new = {"river:t", "lake:t"}
    assert not any(preds(line) & new for line in train + known)  # no evaluation example in training
    assert all(preds(line) & new for line in support + query)
    assert len(known) == 5 and not set(known) & set(train)
    assert len(train) + len(known) + len(support) + len(query) + 1 == len(LINES)  # one singleton dropped
    assert not any("in a state" in line for line in support + query)  # its LF occurs once in the file
    assert sum("river:t" in preds(line) for line in support) == 1 and sum("lake:t" in preds(line) for line in support) == 1
    two = split_directory(str(out), 1, "geo", 2, 0)
    assert read(two, "train.txt") == train and read(two, "known.txt") == known  # one pre-training per draw
    assert len(read(two, "support.txt")) == 4
    assert find_draws(str(out), "geo") == [1] and find_draws(str(out), "jobs") == []


def test_the_same_recipe_gives_the_same_bytes_and_another_seed_other_splits(tmp_path):
    path = source(tmp_path)
    summaries = [make_splits(path, "geo", str(tmp_path / name), draws=[4, 5], shots=[1], new=2, min_examples=3,
                             max_share=0.2, known=5) for name in ("a", "b")]
    assert summaries[0] == summaries[1]
    for draw in (4, 5):
        for name in ("train.txt", "support.txt", "query.txt", "known.txt", "split.json"):
            first = open(os.path.join(split_directory(str(tmp_path / "a"), draw, "geo", 1, 0), name)).read()
            assert first == open(os.path.join(split_directory(str(tmp_path / "b"), draw, "geo", 1, 0), name)).read()
    assert all(set(s["new_predicates"]) <= {"river:t", "lake:t", "major:t"} for s in summaries[0])
    # Re-making into the same folder is allowed (nothing changes); another recipe there is refused.
    make_splits(path, "geo", str(tmp_path / "a"), draws=[4], shots=[1], new=2, min_examples=3, max_share=0.2, known=5)
    before = open(os.path.join(split_directory(str(tmp_path / "a"), 4, "geo", 1, 0), "known.txt")).read()
    with pytest.raises(UserError, match="exists with other contents"):
        make_splits(path, "geo", str(tmp_path / "a"), draws=[4], shots=[1], new=2, min_examples=3, max_share=0.2, known=6)
    assert open(os.path.join(split_directory(str(tmp_path / "a"), 4, "geo", 1, 0), "known.txt")).read() == before


@pytest.mark.parametrize("kwargs, message", [
    ({"predicates": ["density:i"]}, "unknown predicate"),
    ({"predicates": ["major:t"], "shots": [5]}, "too few for 5-shot"),
    ({"new": 9, "min_examples": 3}, "cannot draw 9"),
    ({"predicates": ["river:t"], "known": 500}, "would leave no training example"),
])
def test_bad_requests_are_one_line_errors_and_write_nothing(tmp_path, kwargs, message):
    settings = {"draws": [1], "shots": [1], "known": 5, **kwargs}
    with pytest.raises(UserError, match=message) as error:
        make_splits(source(tmp_path), "geo", str(tmp_path / "out"), **settings)
    assert "\n" not in str(error.value)
    assert not (tmp_path / "out").exists()


def test_a_predicate_whose_examples_all_have_unique_forms_has_no_support(tmp_path):
    lines = LINES + ["a lonely lake\t( lambda $0 e ( capital:t $0 ) )"]
    with pytest.raises(UserError, match="capital:t is left with no support example"):
        make_splits(source(tmp_path, lines), "geo", str(tmp_path / "out"), draws=[1], shots=[1],
                    predicates=["capital:t"], known=5)


def test_a_malformed_line_names_file_and_line(tmp_path):
    path = source(tmp_path, LINES[:3] + ["no tab here"])
    with pytest.raises(UserError, match=r"train.txt:4: expected"):
        read_source(path, FORMALISMS["geo"])


def test_command_line_prints_a_summary_and_reports_errors_in_one_line(tmp_path):
    path = source(tmp_path)
    command = [sys.executable, "-m", "fewshot_parser", "make-splits", "--train", path, "--dataset", "geo",
               "--out", str(tmp_path / "out"), "--predicates", "river:t", "--known", "5", "--shots", "1"]
    result = subprocess.run(command, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "geo draw 1: new river:t; train" in result.stdout and "1-shot s0: support 1, query 5" in result.stdout
    result = subprocess.run(command[:-4] + ["--predicates", "nope:t"], cwd=PROJECT_ROOT, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines()[-1].startswith("unknown predicate(s) nope:t")
    assert "Traceback" not in result.stderr


def test_the_dev_suite_reads_only_the_official_training_files(tmp_path, monkeypatch):
    data = tmp_path / "data"
    for dataset in ("geo",):
        for shot in (1, 2):
            folder = data / dataset / "lemma_data" / f"shuffle_0_shot_{shot}"
            folder.mkdir(parents=True)
            (folder / "train.txt").write_text("".join(f"{line}\n" for line in LINES))
            (folder / "support.txt").write_text("official support\tx\n")
            (folder / "query.txt").write_text("official query\tx\n")
    opened = []
    real_open = builtins.open

    def spy(path, *args, **kwargs):
        opened.append(os.path.abspath(str(path)))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", spy)
    monkeypatch.setitem(dev_suite.RECIPE, "geo", {"draws": [1, 2], "new": 1, "min_examples": 3, "max_share": 0.2, "known": 5})
    dev_suite.build_dev_suite(str(data), str(tmp_path / "dev"), ["geo"])
    read_here = {path for path in opened if path.startswith(str(data))}
    assert read_here == {os.path.abspath(str(data / "geo" / "lemma_data" / "shuffle_0_shot_1" / "train.txt"))}
    assert find_draws(str(tmp_path / "dev"), "geo") == [1, 2]


def test_a_minimum_share_draws_frequent_predicates_only(tmp_path):
    examples = read_source(source(tmp_path), "lambda")  # 51 lines: state:t in 33, next_to:t 12, loc:t 13, ...
    shares = {p: n / len(examples) for p, n in predicate_counts(examples).items()}
    frequent = eligible_predicates(examples, 3, 0.7, min_share=0.2)
    assert frequent == sorted(p for p, share in shares.items() if 0.2 < share <= 0.7 and share * len(examples) >= 3)
    assert not set(frequent) & set(eligible_predicates(examples, 3, 0.2))  # the strata do not overlap
    make_splits(source(tmp_path), "geo", str(tmp_path / "f"), draws=[1], shots=[1], new=1, min_examples=3,
                max_share=0.7, known=5, min_share=0.2)
    with open(os.path.join(tmp_path, "f", "draw_1", "geo", "lemma_data", "shuffle_0_shot_1", "split.json")) as handle:
        chosen = json.load(handle)
    assert chosen["new_predicates"][0] in frequent
    with pytest.raises(UserError, match="more than 90% of the file"):
        choose_predicates(examples, 1, 3, 1.0, 1, min_share=0.9)


def test_more_samples_leave_shuffle_zero_as_it_was(tmp_path):
    one = tmp_path / "one"
    three = tmp_path / "three"
    make_splits(source(tmp_path), "geo", str(one), draws=[1], shots=[1, 2], new=1, min_examples=3, max_share=0.2, known=5)
    make_splits(source(tmp_path), "geo", str(three), draws=[1], shots=[1, 2], shuffles=[0, 1, 2], new=1, min_examples=3,
                max_share=0.2, known=5)
    for shot in (1, 2):
        folder = os.path.join("draw_1", "geo", "lemma_data", f"shuffle_0_shot_{shot}")
        for name in ("train.txt", "support.txt", "query.txt", "known.txt"):
            assert read(os.path.join(one, folder), name) == read(os.path.join(three, folder), name)
    assert find_samples(str(three), 1, "geo", 2) == [0, 1, 2] and find_samples(str(one), 1, "geo", 2) == [0]
    assert find_samples(str(three), 4, "geo", 2) == []


def test_the_suites_are_named_and_the_frequent_stratum_starts_where_the_dev_limit_ends():
    assert set(dev_suite.SUITES) == {"dev", "dev-frequent"}
    for dataset, recipe in dev_suite.SUITES["dev-frequent"].items():
        assert recipe["min_share"] == dev_suite.SUITES["dev"][dataset]["max_share"]
    with pytest.raises(UserError, match="unknown suite 'dev2'; known: dev, dev-frequent"):
        dev_suite.suite_recipe("dev2")


def test_a_recipe_can_give_some_draws_fewer_new_predicates(tmp_path, monkeypatch):
    data = tmp_path / "data"
    folder = data / "geo" / "lemma_data" / "shuffle_0_shot_1"
    folder.mkdir(parents=True)
    (folder / "train.txt").write_text("".join(f"{line}\n" for line in LINES))
    recipe = {"draws": [1, 2, 3], "new": {2: [1, 2], 1: [3]}, "min_examples": 3, "max_share": 0.2, "known": 5}
    assert dev_suite.draw_groups(recipe) == [(2, [1, 2]), (1, [3])]
    assert dev_suite.combinations_available(recipe, 4) == 6 + 4
    monkeypatch.setitem(dev_suite.RECIPE, "geo", recipe)
    summaries = dev_suite.build_dev_suite(str(data), str(tmp_path / "dev"), ["geo"])
    assert [len(s["new_predicates"]) for s in summaries] == [2, 2, 1]
    assert find_draws(str(tmp_path / "dev"), "geo") == [1, 2, 3]
    with pytest.raises(ValueError, match="assigns draws"):
        dev_suite.draw_groups({**recipe, "draws": [1, 2, 3, 4]})
