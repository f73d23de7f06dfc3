"""
Bad input never costs a user their results (issue 24): one test (or more) per case of the issue,
built from the fixtures, asserting the exit code or error, the message, and that no existing file
changed. The CLI tests run `allennlp` / `python -m fewshot_parser` in a subprocess (about ten seconds
each); the rest call the same code in-process.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
from typing import Dict, List

import _jsonnet
import pytest
from allennlp.commands.train import train_model_from_file
from allennlp.common.checks import ConfigurationError
from allennlp.common.util import pushd

import fewshot_parser  # noqa: F401
from fewshot_parser.commands import run_grid
from fewshot_parser.commands.inspect_data import inspect_data
from fewshot_lab.commands.report import write_report
from fewshot_parser.commands.run_grid import FIELDS
from tests import FIXTURE_DATA, FIXTURES_ROOT, PROJECT_ROOT, fixture_split

BAD_ARITY = "which state border s0\t( lambda $0 e ( and ( state:t $0 $1 ) ( next_to:t $0 s0 ) ) )\n"


def snapshot(directory) -> Dict[str, bytes]:
    """Every file under `directory` with its bytes, to show that nothing changed."""
    found = {}
    for root, _, names in os.walk(directory):
        for name in names:
            path = os.path.join(root, name)
            found[os.path.relpath(path, directory)] = open(path, "rb").read()
    return found


def cli(args: List[str], cwd, env=None, module: str = "fewshot_parser") -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k not in ("FEWSHOT_VERBOSE", "ALLENNLP_DEBUG")}
    environment.update(env or {})
    return subprocess.run([sys.executable, "-m", module] + args, cwd=str(cwd), capture_output=True, text=True,
                          timeout=600, env=environment)


def last_line(stderr: str) -> str:
    return stderr.rstrip("\n").splitlines()[-1]


def split_copy(tmp_path, dataset: str = "geo", **replace: bytes) -> str:
    """A copy of a fixture split under `tmp_path/data`, with some files replaced by `replace`'s bytes."""
    directory = tmp_path / "data" / dataset / "shuffle_1_shot_1"
    directory.mkdir(parents=True)
    for part in ("train", "support", "query"):
        content = replace.get(part, open(fixture_split(dataset, part), "rb").read())
        (directory / f"{part}.txt").write_bytes(content)
    return str(directory)


@pytest.fixture(scope="module")
def pretrained(tmp_path_factory):
    """The fixture experiment's pre-trained archive, built once."""
    from fewshot_parser.training.pretrain_finetune import ensure_pretrained

    path = str(tmp_path_factory.mktemp("pretrain") / "geo" / "model.tar.gz")
    with pushd(PROJECT_ROOT):
        return ensure_pretrained(path, experiment(path)["pretraining"])


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    """A tiny trained parser for `allennlp predict`."""
    directory = tmp_path_factory.mktemp("parser")
    with pushd(PROJECT_ROOT):
        config = os.path.join(FIXTURES_ROOT, "proto_parser", "experiment.jsonnet")
        train_model_from_file(config, str(directory / "run"))
    return str(directory / "run" / "model.tar.gz")


def experiment(pretrained: str, split: str = None) -> dict:
    """The fixture few-shot experiment; with `split`, fine-tuning reads that directory's support and query."""
    config = json.loads(_jsonnet.evaluate_file(os.path.join(FIXTURES_ROOT, "fewshot", "experiment.jsonnet"),
                                               ext_vars={"PRETRAINED": pretrained}))
    if split is not None:
        config["train_data_path"] = os.path.join(split, "support.txt")
        config["test_data_path"] = os.path.join(split, "query.txt")
    return config


def train(config: dict, directory) -> None:
    path = str(directory) + ".json"
    with open(path, "w") as handle:
        json.dump(config, handle)
    with pushd(PROJECT_ROOT):
        train_model_from_file(path, str(directory))


# 1. report: a missing, header-only or malformed results file -------------------------------------

def write_results(path, rows, fields=FIELDS) -> str:
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    return str(path)


GOOD_ROW = {"system": "ProtoParser", "setting": "", "dataset": "geo", "shot": 1, "shuffle": 1, "exact_match": 40.0,
            "seconds": 1}


@pytest.fixture
def tables(tmp_path):
    """An output directory holding tables written from a good results file."""
    out = tmp_path / "tables"
    write_report(write_results(tmp_path / "good.csv", [GOOD_ROW]), str(out))
    return out


def test_report_with_a_missing_results_file_exits_1_and_keeps_the_tables(tmp_path, tables):
    before = snapshot(tables)
    result = cli(["report", "--results", str(tmp_path / "runs.csvx"), "--out", str(tables), "--no-figures"],
                 PROJECT_ROOT)
    assert result.returncode == 1
    assert last_line(result.stderr) == f"{tmp_path / 'runs.csvx'}: no such results file"
    assert "Traceback" not in result.stderr
    assert snapshot(tables) == before


@pytest.mark.parametrize("rows, fields, message", [
    ([], FIELDS, "no usable rows in {path} (shuffles 1-5); nothing was written"),
    ([{**GOOD_ROW, "shuffle": 0}], FIELDS, "no usable rows in {path} (shuffles 1-5); nothing was written"),
    ([GOOD_ROW], [f for f in FIELDS if f != "shuffle"], "{path}:1: missing column(s) shuffle; the header has"),
    ([GOOD_ROW, {**GOOD_ROW, "shot": "one"}], FIELDS, "{path}:3: shot must be an integer, got 'one'"),
    ([{**GOOD_ROW, "exact_match": "n/a"}], FIELDS, "{path}:2: exact_match must be a number, got 'n/a'"),
])
def test_report_refuses_unusable_results_and_keeps_the_tables(tmp_path, tables, rows, fields, message):
    path = write_results(tmp_path / "runs.csv", rows, fields)
    before = snapshot(tables)
    with pytest.raises(ConfigurationError) as error:
        write_report(path, str(tables))
    assert str(error.value).startswith(message.format(path=path))
    assert snapshot(tables) == before


def test_report_tables_are_replaced_only_by_complete_files(tmp_path, tables, monkeypatch):
    from fewshot_lab.commands import report

    before = snapshot(tables)
    monkeypatch.setattr(report, "cost_table", lambda *args: 1 / 0)  # fails after the first tables
    with pytest.raises(ZeroDivisionError):
        write_report(write_results(tmp_path / "new.csv", [{**GOOD_ROW, "exact_match": 50.0}]), str(tables))
    after = snapshot(tables)
    assert after["cost.md"] == before["cost.md"] and set(after) == set(before)  # no temporary left behind


# 2. an empty support file ------------------------------------------------------------------------

def test_an_empty_support_file_is_an_error_and_leaves_no_run(tmp_path, pretrained):
    split = split_copy(tmp_path, support=b"")
    with pytest.raises(ConfigurationError) as error:
        train(experiment(pretrained, split), tmp_path / "run")
    assert str(error.value) == f"{split}/support.txt: no examples (the file is empty)"
    assert not (tmp_path / "run").exists()


# 3. bytes that are not UTF-8 ---------------------------------------------------------------------

def test_train_names_the_file_and_line_of_bytes_that_are_not_utf8(tmp_path, pretrained):
    support = open(fixture_split("geo", "support"), "rb").read() + b"how big be s\xe90\t( area:i s0 )\n"
    split = split_copy(tmp_path, support=support)
    with pytest.raises(ConfigurationError) as error:
        train(experiment(pretrained, split), tmp_path / "run")
    assert str(error.value) == f"{split}/support.txt:3: not valid UTF-8: byte 0xe9 at column 13"
    config = experiment(pretrained, split)
    config["dataset_reader"]["skip_invalid"] = True  # skipped and logged, like any bad line
    train(config, tmp_path / "skipping")
    assert (tmp_path / "skipping" / "model.tar.gz").is_file()


def test_inspect_data_names_the_file_and_line_of_bytes_that_are_not_utf8(tmp_path):
    query = open(fixture_split("geo", "query"), "rb").read() + b"\xff\xfe\n"
    split = split_copy(tmp_path, query=query)
    with pytest.raises(ConfigurationError, match=f"^{split}/query.txt:5: not valid UTF-8: byte 0xff at column 1$"):
        inspect_data(str(tmp_path / "data"), min_support=2)


def test_predict_reports_bad_bytes_as_an_error_entry_and_parses_the_other_lines(tmp_path, archive):
    inputs = tmp_path / "in.jsonl"
    inputs.write_bytes(b'{"utterance": "how big be s0"}\n{"utterance": "bad \xff"}\n{"utterance": 3}\n'
                       b'{"utterance": "which state border s0"}\n')
    output = tmp_path / "out.jsonl"
    result = cli(["predict", archive, str(inputs), "--output-file", str(output), "--predictor", "proto_parser",
                  "--include-package", "fewshot_parser", "--silent", "--batch-size", "2"], PROJECT_ROOT,
                 module="allennlp")
    assert result.returncode == 0, result.stderr[-3000:]
    lines = [json.loads(line) for line in output.read_text().splitlines()]
    assert ["error" in line for line in lines] == [False, True, True, False]
    assert lines[1] == {"error": "not valid UTF-8: byte 0xff at column 20", "line": 2,
                        "line_input": '{"utterance": "bad \ufffd"}'}
    assert lines[2]["line"] == 3 and "must be a string" in lines[2]["error"]
    # 6. the bad lines and a summary on stderr
    assert f"{inputs}:2: not valid UTF-8: byte 0xff at column 20" in result.stderr
    assert f"{inputs}:3: field 'utterance' must be a string, got int" in result.stderr
    assert last_line(result.stderr) == "predict: 2 parsed, 2 errors (lines 2, 3)"


# 4. a predicate with the wrong arity -------------------------------------------------------------

def test_a_support_line_with_a_wrong_arity_stops_training_naming_the_signature(tmp_path, pretrained):
    split = split_copy(tmp_path, support=open(fixture_split("geo", "support"), "rb").read() + BAD_ARITY.encode())
    with pytest.raises(ConfigurationError) as error:
        train(experiment(pretrained, split), tmp_path / "run")
    expected = f"{split}/support.txt:3: predicate state:t expects 1 argument (variable), got 2"
    assert str(error.value).startswith(expected)
    assert not (tmp_path / "run").exists()


def test_inspect_data_lists_signatures_and_flags_a_wrong_arity(tmp_path):
    split = split_copy(tmp_path, support=open(fixture_split("geo", "support"), "rb").read() + BAD_ARITY.encode())
    report = inspect_data(str(tmp_path / "data"), min_support=2)["datasets"]["geo"]
    assert report["signatures"]["state:t"]["1"]["kinds"] == ["variable"]
    assert list(report["multi_arity"]) == ["state:t"]
    assert report["multi_arity"]["state:t"]["2"] == f"{split}/support.txt:3"
    mismatches = report["splits"][0]["signature_mismatches"]
    assert len(mismatches) == 1 and mismatches[0].startswith(f"{split}/support.txt:3: predicate state:t expects 1")
    assert inspect_data(FIXTURE_DATA, min_support=2)["datasets"]["geo"]["multi_arity"] == {}


# 5. predict --output-file with a missing input ---------------------------------------------------

def test_predict_keeps_an_existing_output_file_when_the_input_is_missing(tmp_path, archive):
    output = tmp_path / "out.jsonl"
    output.write_text("earlier predictions\n")
    result = cli(["predict", archive, str(tmp_path / "missing.jsonl"), "--output-file", str(output), "--predictor",
                  "proto_parser", "--include-package", "fewshot_parser", "--silent"],
                 PROJECT_ROOT, module="allennlp")
    assert result.returncode == 1
    assert last_line(result.stderr) == f"{tmp_path / 'missing.jsonl'}: no such input file"
    assert output.read_text() == "earlier predictions\n" and os.listdir(tmp_path) == ["out.jsonl"]


# 6. one-line errors, inspect-data layout, run-grid arguments, predict exit code, leftover runs --

def test_train_prints_the_message_alone_without_tracebacks(tmp_path):
    split = split_copy(tmp_path, train=open(fixture_split("geo", "train"), "rb").read() + b"no tab here\n")
    config = json.loads(_jsonnet.evaluate_file(os.path.join(FIXTURES_ROOT, "proto_parser", "experiment.jsonnet")))
    config["train_data_path"] = os.path.join(split, "train.txt")
    (tmp_path / "config.json").write_text(json.dumps(config))
    arguments = ["train", str(tmp_path / "config.json"), "-s", str(tmp_path / "run"),
                 "--include-package", "fewshot_parser"]
    result = cli(arguments, PROJECT_ROOT, module="allennlp")
    assert result.returncode == 1
    assert last_line(result.stderr) == f"{split}/train.txt:12: expected 'utterance<TAB>logical form', found no tab"
    assert "Traceback" not in result.stderr and "Uncaught exception" not in result.stderr
    assert not (tmp_path / "run").exists()  # so the corrected command needs no -f


def test_a_corrected_run_needs_no_force_flag_and_a_run_with_checkpoints_is_kept(tmp_path, pretrained):
    split = split_copy(tmp_path, support=open(fixture_split("geo", "support"), "rb").read() + b"broken\n")
    with pytest.raises(ConfigurationError):
        train(experiment(pretrained, split), tmp_path / "run")
    good = open(fixture_split("geo", "support"), "rb").read()
    (tmp_path / "data" / "geo" / "shuffle_1_shot_1" / "support.txt").write_bytes(good)
    train(experiment(pretrained, split), tmp_path / "run")  # the same command, corrected
    assert (tmp_path / "run" / "model.tar.gz").is_file()
    (tmp_path / "run" / "metrics.json").unlink()
    before = snapshot(tmp_path / "run")
    with pytest.raises(ConfigurationError, match="already exists"):  # an existing directory is never touched
        train(experiment(pretrained, split), tmp_path / "run")
    assert snapshot(tmp_path / "run") == before


def test_inspect_data_on_a_directory_without_the_layout_is_an_error(tmp_path):
    (tmp_path / "geo").mkdir()
    (tmp_path / "geo" / "train.txt").write_text("how big be s0\t( area:i s0 )\n")
    with pytest.raises(ConfigurationError, match="no dataset splits found"):
        inspect_data(str(tmp_path))
    with pytest.raises(ConfigurationError, match="no dataset folder atlas"):
        inspect_data(FIXTURE_DATA, datasets=["atlas"])


@pytest.mark.parametrize("arguments, message", [
    (["--datasets", "geoquery"], "argument --datasets: unknown dataset 'geoquery'; choose from jobs, geo, atis"),
    (["--shots", "3"], "argument --shots: no shot 3; choose from 1, 2"),
    (["--shots", "one"], "argument --shots: shot must be an integer, not 'one'"),
    (["--shuffles", "6"], "argument --shuffles: no shuffle 6; choose from 0, 1, 2, 3, 4, 5"),
    (["--jobs", "0"], "argument --jobs: must be at least 1, not 0"),
])
def test_run_grid_rejects_bad_arguments_with_an_argparse_error(capsys, arguments, message):
    parser = argparse.ArgumentParser(prog="allennlp")
    run_grid.RunGrid().add_subparser(parser.add_subparsers())
    with pytest.raises(SystemExit) as exit_:
        parser.parse_args(["run-grid", "--dry-run"] + arguments)
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


def test_run_grid_names_an_unknown_system_in_one_line(tmp_path):
    result = cli(["run-grid", "--systems", "nonexistent", "--dry-run", "--results", str(tmp_path / "runs.csv")],
                 PROJECT_ROOT)
    assert result.returncode == 1
    assert last_line(result.stderr).startswith("unknown system 'nonexistent'; known: ours,")
    assert "Traceback" not in result.stderr


def test_predict_exits_non_zero_when_no_line_could_be_parsed(tmp_path, archive):
    inputs = tmp_path / "in.jsonl"
    inputs.write_text('{"utterance": 3}\nnot json\n')
    output = tmp_path / "out.jsonl"
    output.write_text("earlier predictions\n")
    result = cli(["predict", archive, str(inputs), "--output-file", str(output), "--predictor", "proto_parser",
                  "--include-package", "fewshot_parser", "--silent"], PROJECT_ROOT, module="allennlp")
    assert result.returncode == 1
    assert "predict: 0 parsed, 2 errors (lines 1, 2)" in result.stderr
    assert last_line(result.stderr) == (f"{inputs}: no line could be parsed (every line is an error); "
                                        f"{output} was not written")
    assert output.read_text() == "earlier predictions\n"


def test_errors_doc_lists_the_messages_and_the_settings():
    text = open(os.path.join(PROJECT_ROOT, "docs", "errors.md")).read()
    for needle in ("| message | cause | fix |", "skip_invalid", "FEWSHOT_VERBOSE", "FEWSHOT_THREADS",
                   "not valid UTF-8", "no examples", "expects 1 argument", "no such results file",
                   "no usable rows",
                   "no line could be parsed", "--recover"):
        assert needle in text, needle


# 7. torch threads --------------------------------------------------------------------------------

def test_the_plugin_sets_a_thread_default_unless_the_user_chose(tmp_path, monkeypatch):
    from fewshot_parser.common import threads

    environment = {k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS", "MKL_NUM_THREADS")}
    probe = "import fewshot_parser, torch; print(torch.get_num_threads())"
    result = subprocess.run([sys.executable, "-c", probe], cwd=PROJECT_ROOT, capture_output=True, text=True,
                            timeout=300, env=environment)
    assert result.returncode == 0, result.stderr[-2000:]
    expected = max(1, min(4, threads.available_cores() // 2))
    assert int(result.stdout.split()[-1]) == threads.default_threads() == expected
    for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "FEWSHOT_THREADS"):
        monkeypatch.delenv(name, raising=False)
    assert threads.configured_threads() == threads.default_threads()
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    assert threads.configured_threads() == 0  # torch follows OMP_NUM_THREADS itself
    monkeypatch.setenv("FEWSHOT_THREADS", "2")
    assert threads.configured_threads() == 2
    monkeypatch.setenv("FEWSHOT_THREADS", "0")
    assert threads.configured_threads() == 0
    assert [threads.default_threads(cores) for cores in (1, 2, 3, 8, 64)] == [1, 1, 1, 4, 4]

