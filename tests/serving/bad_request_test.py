"""
Every bad request gets a 4xx JSON answer naming the field (or the example's index), never a 500 or
a traceback, and changes nothing stored.
"""
import json

import pytest
from fastapi.testclient import TestClient

from fewshot_parser.commands.serve import build
from fewshot_parser.serving.checks import MAX_EXAMPLES, MAX_UTTERANCE_CHARS, MAX_UTTERANCES
from tests.serving.conftest import AREA


@pytest.fixture(scope="module")
def served(pretrained_archive, tmp_path_factory):
    """One server for every case: a job already taught nothing, one example is stored (queued)."""
    app = build(pretrained_archive, str(tmp_path_factory.mktemp("bad") / "state"), start_teacher=False)
    with TestClient(app, raise_server_exceptions=False) as client:
        assert client.post("/api/teach", json={"examples": [AREA]}).status_code == 202
        yield app, client


def snapshot(app):
    store = app.state.store
    return store.examples(), store.jobs(), store.versions(), store.active_version()


LONG = "s0 " * (MAX_UTTERANCE_CHARS // 3 + 1)
GOOD_LF = "( area:i s0 )"

CASES = [
    # (method, path, raw body, status, field, words in the message)
    ("POST", "/api/parse", b'{"utterances": ["how big', 400, None, "malformed JSON"),
    ("POST", "/api/parse", b"\xff\xfe", 400, None, "malformed JSON"),
    ("POST", "/api/parse", b'["how big be s0"]', 400, None, "expected a JSON object, got an array"),
    ("POST", "/api/parse", b"{}", 422, "utterances", "missing field 'utterances'"),
    ("POST", "/api/parse", {"utterance": "how big be s0"}, 422, "utterance", "unknown field 'utterance'"),
    ("POST", "/api/parse", {"utterances": "how big be s0"}, 422, "utterances", "must be an array, got a string"),
    ("POST", "/api/parse", {"utterances": []}, 422, "utterances", "'utterances' is empty"),
    ("POST", "/api/parse", {"utterances": ["how big be s0", 7]}, 422, "utterances[1]",
     "must be a string, got a number"),
    ("POST", "/api/parse", {"utterances": ["   "]}, 422, "utterances[0]", "is empty"),
    ("POST", "/api/parse", {"utterances": [LONG]}, 422, "utterances[0]", "over-long"),
    ("POST", "/api/parse", {"utterances": ["how big be s0"] * (MAX_UTTERANCES + 1)}, 413, "utterances",
     "too many utterances"),
    ("POST", "/api/teach", b"not json", 400, None, "malformed JSON"),
    ("POST", "/api/teach", {}, 422, "examples", "missing field 'examples'"),
    ("POST", "/api/teach", {"examples": {"utterance": "x"}}, 422, "examples", "must be an array, got an object"),
    ("POST", "/api/teach", {"examples": []}, 422, "examples", "is empty"),
    ("POST", "/api/teach", {"examples": [AREA] * (MAX_EXAMPLES + 1)}, 413, "examples", "too many examples"),
    ("POST", "/api/teach", {"examples": [AREA, "how big be s0"]}, 422, "examples[1]", "must be an object"),
    ("POST", "/api/teach", {"examples": [{"utterance": "how big be s0"}]}, 422, "examples[0].logical_form",
     "missing field 'logical_form'"),
    ("POST", "/api/teach", {"examples": [{"logical_form": GOOD_LF}]}, 422, "examples[0].utterance",
     "missing field 'utterance'"),
    ("POST", "/api/teach", {"examples": [dict(AREA, shot=1)]}, 422, "examples[0].shot", "unknown field 'shot'"),
    ("POST", "/api/teach", {"examples": [{"utterance": 3, "logical_form": GOOD_LF}]}, 422, "examples[0].utterance",
     "must be a string"),
    ("POST", "/api/teach", {"examples": [{"utterance": "", "logical_form": GOOD_LF}]}, 422, "examples[0].utterance",
     "is empty"),
    ("POST", "/api/teach", {"examples": [{"utterance": LONG, "logical_form": GOOD_LF}]}, 422,
     "examples[0].utterance", "over-long"),
    ("POST", "/api/teach", {"examples": [{"utterance": "how\tbig be s0", "logical_form": GOOD_LF}]}, 422,
     "examples[0].utterance", "tab or line break"),
    ("POST", "/api/teach", {"examples": [AREA, {"utterance": "how big be s1", "logical_form": "( area:i s1"}]}, 422,
     "examples[1].logical_form", "unbalanced parentheses"),
    ("POST", "/api/teach", {"examples": [{"utterance": "which state border s0",
                                          "logical_form": "( lambda $0 e ( and ( state:t $0 $1 ) "
                                                          "( next_to:t $0 s0 ) ) )"}]},
     422, "examples[0].logical_form", "predicate state:t expects 1 argument"),
    # area:i was taught (queued) with one argument: another arity clashes with it.
    ("POST", "/api/teach", {"examples": [{"utterance": "how big be s0 s1", "logical_form": "( area:i s0 s1 )"}]},
     422, "examples[0].logical_form", "predicate area:i takes 1 argument(s) (as taught in 'how big be s0'), got 2"),
    ("POST", "/api/teach", {"examples": [{"utterance": "how big be s1", "logical_form": "( size:i s1 )"},
                                         {"utterance": "how big be s1 s0", "logical_form": "( size:i s1 s0 )"}]},
     422, "examples[1].logical_form", "predicate size:i takes 1 argument(s) (as taught in 'how big be s1'), got 2"),
    ("GET", "/api/jobs/99", None, 404, "job", "no job 99"),
    ("GET", "/api/jobs/abc", None, 404, "job", "must be a non-negative integer"),
    ("POST", "/api/versions/7/activate", None, 404, "version", "no version 7"),
    ("POST", "/api/versions/-1/activate", None, 404, "version", "must be a non-negative integer"),
    ("GET", "/api/nothing", None, 404, None, "Not Found"),
    ("GET", "/api/parse", None, 405, None, "Method Not Allowed"),
    ("POST", "/api/parse", b'{"utterances": ["' + b"x" * (1 << 20) + b'"]}', 413, None, "request body over"),
]


@pytest.mark.parametrize("method, path, body, status, field, words", CASES,
                         ids=[f"{c[0]} {c[1]} {c[5]}" for c in CASES])
def test_a_bad_request_is_a_4xx_naming_the_field_and_changes_nothing(served, method, path, body, status, field, words):
    app, client = served
    before = snapshot(app)
    content = body if isinstance(body, (bytes, type(None))) else json.dumps(body).encode("utf-8")
    response = client.request(method, path, content=content, headers={"Content-Type": "application/json"})
    assert response.status_code == status, response.text
    answer = response.json()
    assert set(answer) == {"error", "field"} and answer["field"] == field
    assert words in answer["error"] and "Traceback" not in answer["error"] and "\n" not in answer["error"]
    assert snapshot(app) == before
