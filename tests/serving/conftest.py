"""
Shared fixtures of the serving tests: a tiny pre-trained archive (the geo fixture experiment,
pre-trained once per session in seconds) and helpers that start `allennlp serve` on a free loopback port.
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from typing import Any, Dict, Optional

import pytest
from allennlp.commands.train import train_model_from_file
from allennlp.common.util import pushd

import fewshot_parser  # noqa: F401
from tests import FIXTURES_ROOT, PROJECT_ROOT

EXPERIMENT = os.path.join(FIXTURES_ROOT, "fewshot", "experiment.jsonnet")
# The fixture's new predicates and a known one (geo fixture: area:i and not are new).
AREA = {"utterance": "how big be s0", "logical_form": "( area:i s0 )"}
NOT = {"utterance": "which state be not next to s0",
       "logical_form": "( lambda $0 e ( and ( state:t $0 ) ( not ( next_to:t $0 s0 ) ) ) )"}
CORRECTION = {"utterance": "what state border s1",
              "logical_form": "( lambda $0 e ( and ( state:t $0 ) ( next_to:t $0 s1 ) ) )"}


@pytest.fixture(scope="session")
def pretrained_archive(tmp_path_factory) -> str:
    """The geo fixture experiment's pre-trained archive (it carries its teaching recipe)."""
    root = tmp_path_factory.mktemp("serving")
    archive = root / "pretrain" / "model.tar.gz"
    previous = os.environ.get("PRETRAINED")
    os.environ["PRETRAINED"] = str(archive)
    try:
        with pushd(PROJECT_ROOT):
            train_model_from_file(EXPERIMENT, str(root / "run"))
    finally:
        if previous is None:
            os.environ.pop("PRETRAINED", None)
        else:
            os.environ["PRETRAINED"] = previous
    return str(archive)


@pytest.fixture
def archive(pretrained_archive, tmp_path) -> str:
    """A copy of the pre-trained archive for one test."""
    shutil.copyfile(pretrained_archive, tmp_path / "pretrained.tar.gz")
    return str(tmp_path / "pretrained.tar.gz")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def call(base: str, method: str, path: str, body: Optional[Dict[str, Any]] = None,
         token: Optional[str] = None) -> Any:
    """One JSON request to a running server: (status, body)."""
    data = None if body is None else json.dumps(body).encode("utf-8")
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


class Server:
    """`python -m fewshot_parser serve` in a subprocess on a free loopback port."""

    def __init__(self, archive: str, state: str, log: str, *extra: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ, OMP_NUM_THREADS="1", FEWSHOT_THREADS="1", PYTHONPATH=PROJECT_ROOT)
        self.log = open(log, "ab")
        self.process = subprocess.Popen([sys.executable, "-m", "fewshot_parser", "serve", archive, "--state", state,
                                         "--port", str(self.port), *extra], stdout=self.log, stderr=subprocess.STDOUT,
                                        env=env, cwd=PROJECT_ROOT)

    def wait(self, seconds: float = 120) -> Dict[str, Any]:
        """Waits until the server answers /api/health (and its teaching process runs); returns that answer."""
        deadline = time.time() + seconds
        while time.time() < deadline:
            assert self.process.poll() is None, f"the server ended with status {self.process.returncode}"
            try:
                status, health = call(self.base, "GET", "/api/health")
                if status == 200 and health["teaching_process"]:
                    return health
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            time.sleep(0.3)
        raise AssertionError("the server did not start")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


def wait_for_job(base: str, job: int, seconds: float = 120, until=lambda view: view["status"] in ("done", "failed")):
    deadline = time.time() + seconds
    while time.time() < deadline:
        status, view = call(base, "GET", f"/api/jobs/{job}")
        assert status == 200
        if until(view):
            return view
        time.sleep(0.2)
    raise AssertionError(f"job {job} did not get there in {seconds} s: {view}")
