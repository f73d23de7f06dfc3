"""
The driver side of `allennlp run-grid` on Ray: start (or join) Ray, submit one pre-training task per
shared archive the grid still needs and one task per run, and hand the results back as they arrive.

Ray does the scheduling: each task asks for `num_cpus` = the run's torch threads (and `num_gpus` for
GPU runs, so GPU nodes take them), fine-tune tasks receive their archive's pre-training task's
ObjectRef as an argument (so they wait for it, and an archive is pre-trained once), and a task whose
worker or node died is retried (`max_retries`). A run that fails by itself is not retried: it would
fail again; it is reported, and redone by the next invocation.

`ray` is imported here only, and this module only by `run_grid_from_args` when a grid really runs,
so the plugin's start-up time does not include Ray.
"""

import logging
import os
import socket
import time
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

from fewshot_parser.commands import grid_tasks
from fewshot_parser.commands.grid_tasks import RunSpec
from fewshot_parser.common.errors import UserError

# Object store of a local instance: archives and runs pass through it (spilled to disk beyond that).
OBJECT_STORE_BYTES = 200 * 2**20
# Retries of a task whose worker process or node died (not of a run that failed by itself).
MAX_RETRIES = 3


def check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fails with one line when `host:port` (or `ray://host:port`) does not accept connections."""
    target = address[len("ray://") :] if address.startswith("ray://") else address
    host, _, port = target.rpartition(":")
    if not host or not port.isdigit():
        raise UserError(f"--address {address!r}: expected 'auto', 'host:port' or 'ray://host:port'")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as error:
        raise UserError(f"--address {address}: cannot reach a Ray cluster there ({error.strerror or error})") from None


def connect(address: Optional[str], num_cpus: int) -> Tuple[bool, str]:
    """
    Starts a local Ray instance with `num_cpus` CPUs (no dashboard, usage statistics off, logs under
    Ray's temp directory, /tmp/ray unless `RAY_TMPDIR` says otherwise) or joins the cluster at
    `address` ('auto', 'host:port' or 'ray://host:port'). Returns whether to shut Ray down at the end
    (not when the caller had started it) and a line describing the cluster.
    """
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # never report usage anywhere
    import ray

    if ray.is_initialized():  # started by the caller (a test, a notebook): used as it is
        return False, f"Ray (already started): {describe(ray)}"
    quiet: Dict[str, Any] = {"log_to_driver": False, "logging_level": logging.ERROR, "configure_logging": True}
    if address is None:
        if os.environ.get("RAY_ADDRESS"):
            raise UserError(
                f"RAY_ADDRESS is set ({os.environ['RAY_ADDRESS']}): pass it as --address, or unset it "
                "for a local Ray instance"
            )
        try:
            # address="local": a new instance even when Ray's temp directory names a cluster (a
            # `ray start` or test cluster, possibly long dead); without it ray.init would try to join it.
            ray.init(
                address="local",
                num_cpus=num_cpus,
                include_dashboard=False,
                object_store_memory=OBJECT_STORE_BYTES,
                **quiet,
            )
        except Exception as error:  # no room for the object store, a port in use: say so in one line
            message = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            raise UserError(f"cannot start a local Ray instance ({message})") from None
        return True, f"Ray: a local instance, {describe(ray)}"
    if address != "auto":
        check_reachable(address)
    try:
        context = ray.init(address=address, **quiet)
    except Exception as error:  # ConnectionError, a version mismatch, a bad token: the message says which
        message = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise UserError(f"--address {address}: cannot join the Ray cluster ({message})") from None
    dashboard = getattr(context, "dashboard_url", "") or ""
    return True, f"Ray cluster at {address}: {describe(ray)}; dashboard: " + (
        f"http://{dashboard}" if dashboard and not dashboard.startswith("http") else dashboard or "none"
    )


def describe(ray: Any) -> str:
    resources = ray.cluster_resources()
    nodes = sum(1 for node in ray.nodes() if node.get("Alive"))
    return f"{nodes} node{'s' * (nodes != 1)}, {resources.get('CPU', 0):g} CPUs, {resources.get('GPU', 0):g} GPUs"


def check_feasible(ray: Any, num_cpus: float, num_gpus: float) -> None:
    """Fails with one line when no live node has the CPUs and GPUs one run asks for (Ray would wait forever)."""
    for node in ray.nodes():
        resources = node.get("Resources", {})
        if node.get("Alive") and resources.get("CPU", 0) >= num_cpus and resources.get("GPU", 0) >= num_gpus:
            return
    wanted = f"{num_cpus:g} CPUs" + (f" and {num_gpus:g} GPUs" if num_gpus else "")
    raise UserError(
        f"no node of the Ray cluster has the {wanted} a run asks for (--threads, --cuda-device, "
        f"--gpus-per-run); the cluster has {describe(ray)}"
    )


def run_tasks(
    runs: List[Tuple[Any, RunSpec]],
    pretrain: Dict[str, RunSpec],
    ready: Dict[str, bytes],
    num_cpus: float,
    num_gpus: float,
    train: Callable = grid_tasks.train_subprocess,
    evaluate: Callable = grid_tasks.evaluate_subprocess,
    poll: Optional[Callable[[], None]] = None,
    poll_seconds: float = 2.0,
) -> Iterator[Tuple[str, Any, Dict[str, Any]]]:
    """
    Submits the grid and yields `("pretrain", archive, result)` and `("run", key, result)` as tasks
    finish (the `grid_tasks` result dicts; a task Ray gave up on yields a result with only `error`).
    `runs` are (key, spec) pairs; `pretrain` maps each archive to pre-train to the spec of a run using
    it; `ready` maps archives the driver already has to their packed directory. While it waits,
    `poll` is called every `poll_seconds` (the progress of the pre-trainings).
    """
    import ray
    from ray import cloudpickle

    check_feasible(ray, num_cpus, num_gpus)
    # grid_tasks imports only the standard library: shipped by value, the workers need not import the
    # package (and with it torch and AllenNLP) just to start a subprocess.
    cloudpickle.register_pickle_by_value(grid_tasks)
    options = {"num_cpus": num_cpus, "num_gpus": num_gpus, "max_retries": MAX_RETRIES}
    pretrain_task = ray.remote(grid_tasks.pretrain_on_node).options(**options)
    finetune_task = ray.remote(grid_tasks.finetune_on_node).options(**options)
    archives: Dict[str, Any] = {archive: ray.put({"files": data, "error": None}) for archive, data in ready.items()}
    waiting: Dict[Any, Tuple[str, Any]] = {}
    for archive, spec in pretrain.items():
        archives[archive] = pretrain_task.remote(spec, train)
        waiting[archives[archive]] = ("pretrain", archive)
    for key, spec in runs:
        waiting[finetune_task.remote(spec, archives.get(spec.archive) if spec.archive else None, train, evaluate)] = (
            "run",
            key,
        )
    polled = time.time()
    while waiting:
        done, _ = ray.wait(list(waiting), num_returns=1, timeout=poll_seconds if poll is not None else None)
        if poll is not None and time.time() - polled >= poll_seconds:
            poll()
            polled = time.time()
        for ref in done:
            kind, key = waiting.pop(ref)
            try:
                result = ray.get(ref)
            except Exception as error:  # retries exhausted (node lost again and again), or cancelled
                first = str(error).strip().splitlines()[0] if str(error).strip() else ""
                result = {"error": f"{type(error).__name__}: {first}"}
            yield kind, key, result


def shutdown() -> None:
    import ray

    ray.shutdown()
