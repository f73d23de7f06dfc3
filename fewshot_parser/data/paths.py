"""Where configs find the benchmark data: one setting, `$FEWSHOT_DATA_DIR` (default `data`)."""

import os

DATA_DIR_VARIABLE = "FEWSHOT_DATA_DIR"
DEFAULT_DATA_DIR = "data"


def data_root() -> str:
    return os.environ.get(DATA_DIR_VARIABLE) or DEFAULT_DATA_DIR


def resolve_data_path(path: str) -> str:
    """
    Resolves a data path from a config. A path that exists as given (absolute, or relative to the
    working directory) is used as is; otherwise it is taken relative to the data root, so configs
    can say `geo/lemma_data/shuffle_1_shot_1/train.txt`. A missing file raises `FileNotFoundError`
    naming both places that were tried.
    """
    if os.path.exists(path):
        return path
    candidate = os.path.join(data_root(), path)
    if os.path.exists(candidate):
        return candidate
    raise FileNotFoundError(
        f"data file {path!r} not found, neither as given nor under the data root {data_root()!r} "
        f"(set ${DATA_DIR_VARIABLE}, or run `make data` to set up the benchmark data)"
    )
