import os

PROJECT_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES_ROOT = os.path.join(PROJECT_ROOT, "fixtures")
FIXTURE_DATA = os.path.join(FIXTURES_ROOT, "data")


def fixture_split(dataset: str, part: str) -> str:
    """Path of a fixture file in the authors' layout (`geo`, `train` -> fixtures/data/geo/shuffle_0_shot_1/train.txt; the
    fixtures leave out the authors' `lemma_data` level)."""
    return os.path.join(FIXTURE_DATA, dataset, "shuffle_0_shot_1", f"{part}.txt")
