"""No experiment lets a word or LF symbol that only the query file shows into a vocabulary (issue 52, leak b)."""
import os
import shutil
from typing import Any, Iterator, List, Tuple

import pytest
from allennlp.commands.train import TrainModel
from allennlp.common import Params
from allennlp.common.util import prepare_environment

import fewshot_parser  # noqa: F401
from fewshot_parser.commands.systems import render_config
from tests import FIXTURE_DATA, PROJECT_ROOT
from tests.experiments_test import BASES, CELLS, EXT, ROWS, base

# TrainModel types that build the vocabulary of the pre-trained archive and extend it with what they
# read from `train_data_path` alone (training/pretrain_finetune.py); the others are handled below.
EXTENDING = {"fewshot_pretrain_finetune", "fewshot_ensemble_finetune"}
# Keys through which a training config may name an evaluation file, and the evaluation files of a
# split (the query set, and the known-predicate set of the development suite).
EVALUATION_KEYS = {"test_data_path", "validation_data_path"}
EVALUATION_FILES = ("query.txt", "known.txt")


def strings(value: Any, path: str = "") -> Iterator[Tuple[str, str]]:
    """`(where, string)` for every string in a config."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from strings(item, f"{path}.{key}" if path else key)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from strings(item, f"{path}[{index}]")
    elif isinstance(value, str):
        yield path, value


def vocabulary_leaks(config: dict, where: str = "") -> List[str]:
    """What in a training config lets evaluation data into a vocabulary (empty: nothing)."""
    problems = []
    kind = config.get("type", "default")
    if kind == "fewshot_pretrainings_ensemble":
        for index, part in enumerate(config["experiments"]):
            problems += vocabulary_leaks(part, f"{where}experiments[{index}].")
        return problems
    for key, value in strings({k: v for k, v in config.items() if k not in EVALUATION_KEYS | {"pretraining"}}):
        if any(name in value for name in EVALUATION_FILES):
            problems.append(f"{where}{key} names an evaluation file ({value})")
    if "pretraining" in config:
        problems += vocabulary_leaks(config["pretraining"], f"{where}pretraining.")
    read = sorted(key for key in EVALUATION_KEYS if config.get(key))
    if kind in EXTENDING:
        return problems  # extends the archive's vocabulary with train_data_path, checked above
    if kind != "default":
        return problems + [f"{where}type {kind}: say how it builds its vocabulary (tests/experiments_vocabulary_test.py)"]
    if "vocabulary" in config and config["vocabulary"].get("type", "from_instances") not in ("from_instances", "extend"):
        return problems
    sources = config.get("datasets_for_vocab_creation")
    for key in read:
        name = key[: -len("_data_path")]
        if sources is None or name in sources:
            problems.append(f"{where}the vocabulary is built from {key} ({config[key]}): "
                            "set datasets_for_vocab_creation: ['train']")
    return problems


@pytest.mark.parametrize("name", list(ROWS))
def test_no_row_builds_a_vocabulary_from_evaluation_data(name):
    for dataset, shot in CELLS:
        config = render_config(ROWS[name][2].format(dataset=dataset, shot=shot), EXT)
        assert vocabulary_leaks(config) == [], (dataset, shot)


@pytest.mark.parametrize("name", BASES)
def test_no_base_builds_a_vocabulary_from_evaluation_data(name):
    for dataset, shot in CELLS:
        assert vocabulary_leaks(base(name, dataset, shot)) == [], (dataset, shot)


def test_the_check_sees_allennlps_default():
    config = {"train_data_path": "a/train.txt+a/support.txt", "test_data_path": "a/query.txt", "model": {}}
    assert vocabulary_leaks(config) == ["the vocabulary is built from test_data_path (a/query.txt): "
                                        "set datasets_for_vocab_creation: ['train']"]
    assert vocabulary_leaks({**config, "datasets_for_vocab_creation": ["train"]}) == []
    assert vocabulary_leaks({**config, "type": "fewshot_pretrain_finetune", "train_data_path": "a/support.txt+a/query.txt"})


# A word and an LF symbol that only the query file has.
QUERY_ONLY_WORD, QUERY_ONLY_SYMBOL = "zzqueryword", "zzquerysymbol:t"


def query_only_data(root) -> str:
    """A benchmark root whose geo shuffle 2 (1-shot) is the fixture split with one query-only line
    (shuffle 0, whose train.txt some readers learn from, is the fixture split)."""
    split = root / "geo" / "lemma_data" / "shuffle_2_shot_1"
    for target in (split, root / "geo" / "lemma_data" / "shuffle_0_shot_1"):
        shutil.copytree(os.path.join(FIXTURE_DATA, "geo", "shuffle_0_shot_1"), target)
    with open(split / "query.txt", "a", encoding="utf-8") as handle:
        handle.write(f"which {QUERY_ONLY_WORD} be in s0\t( lambda $0 e ( and ( {QUERY_ONLY_SYMBOL} $0 ) ( loc:t $0 s0 ) ) )\n")
    return str(root)


@pytest.mark.parametrize("name", ["seq2seq-cb", "coarse2fine-os", "irnet-cb", "da"])
def test_a_baseline_trained_as_allennlp_train_would_has_no_query_only_token(name, tmp_path, monkeypatch):
    """Builds the cb / os / DA baseline (`TrainModel.from_params`, as `allennlp train` does, without
    training) on a split whose query file has a word and an LF symbol of its own; neither is in any
    namespace of the vocabulary, and the query set is still indexed for the evaluation."""
    monkeypatch.chdir(PROJECT_ROOT)
    monkeypatch.setenv("FEWSHOT_DATA_DIR", query_only_data(tmp_path / "data"))
    config = render_config(ROWS[name][2].format(dataset="geo", shot=1), EXT)
    params = Params(config)
    prepare_environment(params)  # takes the seeds, as `allennlp train` does
    built = TrainModel.from_params(params, serialization_dir=str(tmp_path / "run"), local_rank=0)
    vocab = built.model.vocab
    for namespace in vocab.get_namespaces():
        tokens = " ".join(vocab.get_token_to_index_vocabulary(namespace))
        assert QUERY_ONLY_WORD not in tokens and "zzquerysymbol" not in tokens, namespace
    assert vocab.get_token_index("river", "source_tokens" if name.startswith("seq2seq") else "tokens") > 1
    assert sum(1 for _ in built.evaluation_data_loader) > 0
