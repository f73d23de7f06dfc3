"""`allennlp run-grid --address` on a Ray cluster of three simulated nodes on this machine
(`ray.cluster_utils.Cluster`): a node dies mid-grid and the grid still finishes, every row once."""
import csv
import os
import threading
import time

import pytest

from fewshot_parser.commands import run_grid
from tests.commands.grid_fakes import fake_evaluate, fake_train
from tests.commands.ray_grid_test import fixture_grid


@pytest.fixture
def cluster():
    """A head node without CPUs (the driver's) and two worker nodes with one CPU each."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    import ray
    from ray.cluster_utils import Cluster

    if ray.is_initialized():
        ray.shutdown()
    store = 80 * 2**20
    simulated = Cluster(initialize_head=True, head_node_args={"num_cpus": 0, "include_dashboard": False,
                                                              "object_store_memory": store})
    workers = [simulated.add_node(num_cpus=1, object_store_memory=store) for _ in range(2)]
    simulated.wait_for_nodes()
    yield simulated, workers
    ray.shutdown()
    simulated.shutdown()


def test_a_grid_survives_a_node_dying_and_records_every_run_once(tmp_path, monkeypatch, cluster, capsys):
    simulated, workers = cluster
    marks = tmp_path / "marks"
    monkeypatch.setenv("FEWSHOT_FAKE_MARKS", str(marks))
    monkeypatch.setenv("FEWSHOT_FAKE_SECONDS", "4")
    shuffles = [0, 1, 2, 3, 4, 5]
    args = fixture_grid(tmp_path, monkeypatch, shuffles, ["--address", simulated.address])
    failures = []

    def grid() -> None:
        try:
            run_grid.run_grid(args, train=fake_train, evaluate=fake_evaluate)
        except BaseException as error:  # pragma: no cover - reported below
            failures.append(error)

    driver = threading.Thread(target=grid)
    driver.start()
    results = tmp_path / "runs.csv"

    def running_on_doomed_node() -> bool:
        """Whether a run has started on workers[0] and not finished (its row is not written yet)."""
        if not marks.exists():
            return False
        recorded = {row["shuffle"] for row in csv.DictReader(open(results))} if results.exists() else set()
        return any(kind == "run" and node == workers[0].node_id and shuffle not in recorded
                   for kind, shuffle, _, node in (line.split() for line in marks.read_text().splitlines()))

    deadline = time.time() + 90
    while time.time() < deadline and not running_on_doomed_node():
        time.sleep(0.05)
    assert running_on_doomed_node(), "no run started on the node to remove"
    simulated.remove_node(workers[0])  # the run on this node dies with it (each run takes 4 s)
    driver.join(timeout=120)
    assert not driver.is_alive() and not failures, failures
    out = capsys.readouterr().out
    assert f"Ray cluster at {simulated.address}: 3 nodes, 2 CPUs, 0 GPUs; dashboard: " in out
    rows = list(csv.DictReader(open(results)))
    assert sorted(int(row["shuffle"]) for row in rows) == shuffles  # every run, once
    started = [line.split()[:2] for line in marks.read_text().splitlines()]
    assert started.count(["pretrain", "0"]) == 1  # one pre-training, whichever run's spec it came with
    runs = [shuffle for kind, shuffle in started if kind == "run"]
    assert len(runs) > len(shuffles)  # the run the node took down with it started again elsewhere
    progress = [line for line in out.splitlines() if line.startswith("[")]
    assert len(progress) == len(shuffles) and all(" done " in line for line in progress), progress
