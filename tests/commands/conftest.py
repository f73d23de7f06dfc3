import os

import pytest


@pytest.fixture(scope="module")
def local_ray():
    """One local Ray instance for a test module's grids (`run-grid` uses a Ray it finds started)."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    import ray

    ray.init(address="local", num_cpus=2, include_dashboard=False, object_store_memory=100 * 2**20, log_to_driver=False,
             logging_level="ERROR")
    yield ray
    ray.shutdown()
