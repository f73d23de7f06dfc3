import json
import os
import subprocess
import sys

import pytest
from allennlp.commands.train import train_model_from_file
from allennlp.predictors import Predictor

import fewshot_parser  # noqa: F401
from tests import FIXTURES_ROOT, PROJECT_ROOT


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    """A tiny archive trained once per test session from the fixture config (never stale)."""
    directory = tmp_path_factory.mktemp("proto_parser")
    train_model_from_file(os.path.join(FIXTURES_ROOT, "proto_parser", "experiment.jsonnet"), str(directory / "run"))
    return str(directory / "run" / "model.tar.gz")


def test_predicts_a_logical_form(archive):
    predictor = Predictor.from_path(archive, "proto_parser")
    result = predictor.predict_json({"utterance": "how many river run through s0"})
    assert set(result) == {"utterance", "logical_form", "actions", "score"}
    assert result["actions"] and isinstance(result["score"], float)


def test_bad_lines_are_reported_and_the_rest_predicted(archive):
    predictor = Predictor.from_path(archive, "proto_parser")
    inputs = [{"utterance": "which state border s0"}, {"text": "x"}, {"utterance": ""}, {"utterance": 3},
              predictor.load_line("{not json"), {"utterance": "what city be in s0"}]
    results = predictor.predict_batch_json(inputs)
    assert [("error" in r) for r in results] == [False, True, True, True, True, False]
    assert "missing field 'utterance'" in results[1]["error"]
    assert "empty" in results[2]["error"]
    assert "must be a string" in results[3]["error"]
    assert "not valid JSON" in results[4]["error"]


def test_allennlp_predict_command(archive, tmp_path):
    inputs = tmp_path / "in.jsonl"
    inputs.write_text('{"utterance": "list the river in s0"}\n{"utterance": 5}\n{"utterance": "which state border s0"}\n')
    output = tmp_path / "out.jsonl"
    result = subprocess.run(
        [sys.executable, "-m", "allennlp", "predict", archive, str(inputs), "--output-file", str(output),
         "--predictor", "proto_parser", "--include-package", "fewshot_parser", "--silent"],
        cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    lines = [json.loads(line) for line in output.read_text().splitlines()]
    assert len(lines) == 3 and "error" in lines[1] and "logical_form" in lines[2]


def test_an_utterance_without_lf_gets_null_for_its_lf_and_score():
    from fewshot_parser.predictors.proto_parser import ProtoParserPredictor

    line = ProtoParserPredictor._readable("what be s0", {"logical_form": None, "predicted_actions": [], "score": float("-inf")})
    assert json.loads(json.dumps(line, allow_nan=False)) == {"utterance": "what be s0", "logical_form": None, "actions": [], "score": None}
