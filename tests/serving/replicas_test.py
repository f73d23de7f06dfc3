"""
Parsing on two Ray Serve replicas of a local Ray instance (`allennlp serve --address`): both
replicas answer, and a taught version reaches them while teaching stays one job at a time here.
"""
import os

import pytest
from fastapi.testclient import TestClient

from fewshot_parser.commands.serve import build
from fewshot_parser.commands.teach import teach
from fewshot_parser.serving import jobs
from tests.serving.conftest import AREA

serve = pytest.importorskip("ray.serve", reason="Ray Serve is not installed (pip install 'ray[serve]')")


@pytest.fixture
def ray_instance():
    import ray

    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
             runtime_env={"env_vars": {"OMP_NUM_THREADS": "1", "FEWSHOT_THREADS": "1"}})
    try:
        yield
    finally:
        serve.shutdown()
        ray.shutdown()


def test_two_replicas_parse_and_follow_a_taught_version(ray_instance, archive, tmp_path):
    app = build(archive, str(tmp_path / "state"), start_teacher=False, replicas=2)
    with TestClient(app) as client:
        answered = set()
        for _ in range(40):
            response = client.post("/api/parse", json={"utterances": ["how big be s0"]})
            assert response.status_code == 200, response.text
            result = response.json()["results"][0]
            assert result["version"] == 0 and result["logical_form"]
            answered.add(result["replica"])
            if len(answered) == 2:
                break
        assert len(answered) == 2, answered

        assert client.post("/api/teach", json={"examples": [AREA]}).status_code == 202
        assert jobs.run_queued(app.state.store, teach, threads=1) == [(1, 1)]
        app.state.parser.use(1)
        seen = set()
        for _ in range(200):
            result = client.post("/api/parse", json={"utterances": [AREA["utterance"]]}).json()["results"][0]
            if result["version"] == 1:
                assert result["answered_by"] == "taught example"
                seen.add(result["replica"])
            if seen == answered:
                break
        assert seen == answered
        assert client.get("/api/jobs/1").json()["live"]
