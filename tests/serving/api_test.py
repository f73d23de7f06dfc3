"""
The HTTP API of `allennlp serve` through FastAPI's TestClient, with the tiny fixture parser; the
teaching jobs run in the test's process (`jobs.run_queued`), as the server's teaching process runs them.
"""
import pytest
from fastapi.testclient import TestClient

from fewshot_parser.commands.serve import build
from fewshot_parser.commands.teach import teach
from fewshot_parser.serving import jobs
from tests.serving.conftest import AREA, CORRECTION, NOT


@pytest.fixture
def served(archive, tmp_path):
    app = build(archive, str(tmp_path / "state"), start_teacher=False)
    with TestClient(app) as client:
        yield app, client


def run_jobs(app, client):
    """Runs the queued jobs and waits until the parser answers with the active version."""
    ran = jobs.run_queued(app.state.store, teach, threads=1)
    app.state.parser.use(app.state.store.active_version())
    return ran


def parse(client, *utterances):
    response = client.post("/api/parse", json={"utterances": list(utterances)})
    assert response.status_code == 200, response.text
    return response.json()["results"]


def test_parse_answers_each_utterance_with_the_version_that_answered(served):
    _, client = served
    results = parse(client, "how big be s0", "which state border s0")
    assert [r["utterance"] for r in results] == ["how big be s0", "which state border s0"]
    for result in results:
        assert set(result) == {"utterance", "logical_form", "actions", "score", "answered_by", "version"}
        assert result["version"] == 0 and result["answered_by"] == "pre-trained" and result["actions"]
    health = client.get("/api/health").json()
    assert health["status"] == "ok" and health["answering"] == 0 and health["queued"] == 0
    assert client.get("/").status_code == 200 and "fewshot_parser" in client.get("/").text
    assert client.get("/static/app.js").status_code == 200


def test_predicates_taught_one_after_another_are_all_kept_and_versions_roll_back(served):
    app, client = served
    response = client.post("/api/teach", json={"examples": [AREA]})
    assert response.status_code == 202
    assert response.json() == {"job": 1, "status": "queued", "examples": 1, "new_predicates": ["area:i"],
                               "corrections": 0}
    assert client.get("/api/jobs/1").json()["status"] == "queued"
    assert run_jobs(app, client) == [(1, 1)]
    job = client.get("/api/jobs/1").json()
    assert job["status"] == "done" and job["version"] == 1 and job["live"] and job["epochs"] == job["epoch"] == 2
    assert parse(client, AREA["utterance"])[0] == {
        "utterance": AREA["utterance"], "logical_form": AREA["logical_form"],
        "actions": ["GEN ( area:i <e:s> )", "STOP"],
        "score": None, "answered_by": "taught example", "version": 1}
    other = parse(client, "how big be s1")[0]
    assert other["answered_by"] == "fine-tuned" and other["version"] == 1

    # The second predicate builds on the first: version 2 is taught both.
    assert client.post("/api/teach", json={"examples": [NOT]}).status_code == 202
    assert run_jobs(app, client) == [(2, 2)]
    versions = client.get("/api/versions").json()
    assert versions["active"] == versions["answering"] == 2
    assert [(v["version"], v["predicates"], v["examples"]) for v in versions["versions"]] == [
        (0, [], 0), (1, ["area:i"], 1), (2, ["area:i", "not"], 2)]
    taught = client.get("/api/predicates").json()
    assert [(t["predicate"], t["version"]) for t in taught["taught"]] == [("area:i", 1), ("not", 2)]
    assert "state:t" in taught["known"] and "area:i" not in taught["known"]
    results = parse(client, AREA["utterance"], NOT["utterance"])
    assert [r["logical_form"] for r in results] == [AREA["logical_form"], NOT["logical_form"]]
    vocabulary = app.state.parser._current.predictor._model.vocab.get_token_to_index_vocabulary("actions")
    assert "GEN ( area:i <e:s> )" in vocabulary and "REDUCE ( not <NT> )" in vocabulary

    # Roll back to the pre-trained parser, and forward again.
    assert client.post("/api/versions/0/activate").json() == {"active": 0, "answering": 0}
    assert parse(client, AREA["utterance"])[0]["answered_by"] == "pre-trained"
    assert client.post("/api/versions/2/activate").json() == {"active": 2, "answering": 2}
    assert parse(client, AREA["utterance"])[0]["answered_by"] == "taught example"


def test_a_correction_of_known_predicates_is_answered_from_then_on(served):
    app, client = served
    before = parse(client, CORRECTION["utterance"])[0]
    assert before["logical_form"] != CORRECTION["logical_form"]
    response = client.post("/api/teach", json={"examples": [CORRECTION]})
    assert response.json()["corrections"] == 1 and response.json()["new_predicates"] == []
    assert run_jobs(app, client) == [(1, 1)]
    after = parse(client, CORRECTION["utterance"], "  what state   border s1 ")
    assert all(r["logical_form"] == CORRECTION["logical_form"] and r["answered_by"] == "correction" for r in after)
    assert client.get("/api/predicates").json()["corrections"][0]["version"] == 1


def test_a_teaching_that_fails_keeps_its_examples_and_the_active_version(served, monkeypatch):
    app, client = served
    assert client.post("/api/teach", json={"examples": [AREA]}).status_code == 202

    def broken(*args, **kwargs):
        raise RuntimeError("out of memory")

    assert jobs.run_queued(app.state.store, broken) == [(1, -1)]
    job = client.get("/api/jobs/1").json()
    assert job["status"] == "failed" and job["error"] == "RuntimeError: out of memory"
    assert client.get("/api/versions").json()["active"] == 0
    assert client.get("/api/predicates").json()["taught"][0]["examples"][0]["job_status"] == "failed"


def test_teaching_and_activation_need_the_token_when_one_is_set(archive, tmp_path):
    app = build(archive, str(tmp_path / "state"), token="s3cret", start_teacher=False)
    with TestClient(app) as client:
        assert client.post("/api/parse", json={"utterances": ["how big be s0"]}).status_code == 200
        for headers in ({}, {"Authorization": "Bearer wrong"}):
            response = client.post("/api/teach", json={"examples": [AREA]}, headers=headers)
            assert response.status_code == 401 and response.json()["field"] == "token"
            assert client.post("/api/versions/0/activate", headers=headers).status_code == 401
        assert client.get("/api/jobs").json()["jobs"] == []
        good = {"Authorization": "Bearer s3cret"}
        assert client.post("/api/teach", json={"examples": [AREA]}, headers=good).status_code == 202
        assert client.post("/api/versions/0/activate", headers=good).status_code == 200


def test_teachings_queue_one_at_a_time_and_a_later_correction_replaces_an_earlier_one(served):
    app, client = served
    first = dict(CORRECTION, logical_form="( lambda $0 e ( state:t $0 ) )")
    assert client.post("/api/teach", json={"examples": [AREA, first]}).json()["job"] == 1
    assert client.post("/api/teach", json={"examples": [CORRECTION]}).json()["job"] == 2
    assert [job["status"] for job in client.get("/api/jobs").json()["jobs"]] == ["queued", "queued"]
    assert run_jobs(app, client) == [(1, 1), (2, 2)]
    # Version 2 was taught the first job's new predicate and the second job's correction, not the first one's.
    version = client.get("/api/versions").json()["versions"][2]
    assert version["predicates"] == ["area:i"] and version["examples"] == 2
    results = parse(client, AREA["utterance"], CORRECTION["utterance"])
    assert [r["logical_form"] for r in results] == [AREA["logical_form"], CORRECTION["logical_form"]]
    assert [r["answered_by"] for r in results] == ["taught example", "correction"]
