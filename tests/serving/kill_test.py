"""
A real `allennlp serve` process on loopback: killing it during a teaching loses nothing. After a
restart the active version answers, the interrupted job runs again and every example is kept.
"""
import os
import signal
import time

from tests.serving.conftest import AREA, Server, call, wait_for_job

# Long enough to kill the teaching half-way (the tiny fixture model takes milliseconds an epoch).
SLOW = '{"trainer": {"num_epochs": 400}}'


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie has exited
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split(") ")[-1][0] != "Z"
    except OSError:
        return False


def test_killing_the_server_during_a_teaching_loses_nothing(archive, tmp_path):
    state = str(tmp_path / "state")
    server = Server(archive, state, str(tmp_path / "server.log"), "--teach-overrides", SLOW)
    try:
        health = server.wait()
        teacher = health["teaching_pid"]
        status, answer = call(server.base, "POST", "/api/teach", {"examples": [AREA]})
        assert status == 202
        job = answer["job"]
        running = wait_for_job(server.base, job,
                               until=lambda view: view["status"] == "running" and (view["epoch"] or 0) >= 1)
        assert running["epochs"] == 400
        # Parsing goes on while the teaching runs in its own process.
        status, parsed = call(server.base, "POST", "/api/parse", {"utterances": [AREA["utterance"]]})
        assert status == 200 and parsed["results"][0]["version"] == 0
        server.process.send_signal(signal.SIGKILL)
        server.process.wait()
        deadline = time.time() + 10
        while alive(teacher) and time.time() < deadline:
            time.sleep(0.1)
        assert not alive(teacher), "the teaching process outlived the killed server"
    finally:
        server.stop()

    # The version that was active answers again; the interrupted job runs again (its second attempt).
    server = Server(archive, state, str(tmp_path / "server2.log"))
    try:
        server.wait()
        status, parsed = call(server.base, "POST", "/api/parse", {"utterances": [AREA["utterance"]]})
        assert status == 200 and parsed["results"][0]["version"] == 0
        status, predicates = call(server.base, "GET", "/api/predicates")
        assert [(e["utterance"], e["logical_form"]) for e in predicates["taught"][0]["examples"]] == [
            (AREA["utterance"], AREA["logical_form"])]
        done = wait_for_job(server.base, job, seconds=180)
        assert done["status"] == "done" and done["attempts"] == 2 and done["version"] == 1
        wait_for_job(server.base, job, until=lambda view: view.get("live"))
        status, parsed = call(server.base, "POST", "/api/parse", {"utterances": [AREA["utterance"]]})
        assert parsed["results"][0] == dict(AREA, actions=["GEN ( area:i <e:s> )", "STOP"], score=None,
                                            answered_by="taught example", version=1)
        assert sorted(os.listdir(os.path.join(state, "versions"))) == ["job1"]
    finally:
        server.stop()
