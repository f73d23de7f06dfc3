"""
Parsing replicas on a Ray cluster (`allennlp serve --address`): when parsing load outgrows one
process, the server hands each parse request to a Ray Serve deployment of `--replicas` parser
replicas and keeps the page, the API, the state and the teaching (still one job at a time, in its
teaching process) to itself.

Each replica is a `Parser` of the same state directory: it answers with the active version and loads
a new one when the state's database says so, as the server's own parser does. The state directory
must therefore be readable at the same path on every node that runs a replica (a shared file
system; on one machine, any directory). `ray` is imported only when replicas are asked for.
"""

import os
import socket
import time
from typing import Any, Dict, List, Optional

from fewshot_parser.common.errors import UserError
from fewshot_parser.serving.store import Store

DEPLOYMENT = "fewshot-parser"


class ParserReplica:
    """One replica: a `Parser` of the state `state` (see the module docstring)."""

    def __init__(self, state: str, threads: int) -> None:
        import torch

        from fewshot_parser.serving.parser import Parser

        torch.set_num_threads(threads)
        self.parser = Parser(Store(state))
        self.name = f"{socket.gethostname()}:{os.getpid()}"

    def parse(self, utterances: List[str]) -> List[Dict[str, Any]]:
        return [dict(result, replica=self.name) for result in self.parser.parse(utterances)]

    def version(self) -> int:
        return self.parser.version


class RayParser:
    """The server's parser when replicas answer: the same interface as `Parser`, over a Ray Serve handle."""

    def __init__(self, store: Store, address: Optional[str], replicas: int, threads: int) -> None:
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        try:
            import ray
            from ray import serve
        except ImportError as error:
            raise UserError(f"--address needs Ray Serve (pip install 'ray[serve]'): {error}") from None
        if not ray.is_initialized():
            try:
                ray.init(address=address, include_dashboard=False, log_to_driver=False)
            except (ConnectionError, ValueError, RuntimeError) as error:
                raise UserError(f"--address {address}: cannot join the Ray cluster ({error})") from None
        self.store = store
        self.loaded_at: Dict[int, float] = {}
        serve.start(proxy_location="Disabled")
        deployment = serve.deployment(
            ParserReplica,
            name=DEPLOYMENT,
            num_replicas=replicas,
            ray_actor_options={"num_cpus": threads},
            max_ongoing_requests=64,
        )
        application = deployment.bind(store.directory, threads)  # type: ignore[attr-defined]
        self.handle = serve.run(application, name=DEPLOYMENT, route_prefix=None)
        self._version = self.handle.version.remote().result()
        self.loaded_at[self._version] = time.time()

    @property
    def version(self) -> int:
        return self._version

    def parse(self, utterances: List[str], timeout: float = 60.0) -> List[Dict[str, Any]]:
        results = self.handle.parse.remote(utterances).result(timeout_s=timeout)
        for result in results:
            self._version = result["version"]
            self.loaded_at.setdefault(result["version"], time.time())
        return results

    def live(self, number: int) -> bool:
        """Whether a replica has answered (or answers now) with version `number`."""
        if number not in self.loaded_at and self.handle.version.remote().result(timeout_s=30) == number:
            self.loaded_at[number] = time.time()
        return number in self.loaded_at

    def use(self, number: int, timeout: float = 120.0) -> None:
        """Waits until a replica answers with version `number` (the replicas follow the state's active version)."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            version = self.handle.version.remote().result(timeout_s=timeout)
            if version == number:
                self._version = number
                self.loaded_at.setdefault(number, time.time())
                return
            time.sleep(0.2)
        raise TimeoutError(f"no replica answers with version {number} after {timeout:.0f} s")

    def stop(self) -> None:
        from ray import serve

        try:
            serve.delete(DEPLOYMENT)
        except Exception:  # noqa: BLE001 - the cluster may be gone already
            pass
