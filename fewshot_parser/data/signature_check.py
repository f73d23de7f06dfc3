"""
Where a reader's predicate signatures come from (`fewshot_parser.logical_forms.signatures`).

The signatures are learned from the training file: the reader's `idiom_source` when it is a data
file (ProtoParser's readers), otherwise the `train.txt` beside the first file the reader is asked to
read (the benchmark layout `<dataset>/lemma_data/shuffle_S_shot_K/{train,support,query}.txt`), or,
failing that, that first file itself. Later files must match them; a new predicate's first use
defines its signature. Signatures learned from a file are cached per process; each reader checks
against its own copy, since first uses extend it.
"""

import copy
import os
import tarfile
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from fewshot_parser.data.examples import read_training_examples, split_data_spec
from fewshot_parser.data.paths import resolve_data_path
from fewshot_parser.logical_forms.signatures import PredicateSignatures

_CACHE: Dict[Tuple, PredicateSignatures] = {}


def training_file_of(spec: str) -> str:
    """The `train.txt` beside the first file of a data path, or that first file when there is none."""
    first = resolve_data_path(split_data_spec(spec)[0][0])
    sibling = os.path.join(os.path.dirname(first), "train.txt")
    return sibling if os.path.isfile(sibling) else first


def is_data_file(path: Optional[str]) -> bool:
    """Whether an `idiom_source` names data (rather than nothing, a vocabulary or an archive)."""
    if not path or os.path.isdir(path):
        return False
    return not (os.path.isfile(path) and tarfile.is_tarfile(path))


def learned_signatures(
    training: str, formalism: str, overloaded_predicates: Optional[Mapping[str, Sequence[int]]] = None
) -> PredicateSignatures:
    """A fresh copy of the signatures of the training data path `training` (learned once per process)."""
    overloads = (
        None
        if overloaded_predicates is None
        else tuple(sorted((name, tuple(arities)) for name, arities in overloaded_predicates.items()))
    )
    key = (training, os.environ.get("FEWSHOT_DATA_DIR"), formalism, overloads)
    if key not in _CACHE:
        signatures = PredicateSignatures(formalism, overloaded_predicates)
        for example in read_training_examples(training, formalism):
            signatures.learn(example.tree, f"{example.source}:{example.line_number}")
        signatures.source = training
        _CACHE[key] = signatures
    return copy.deepcopy(_CACHE[key])


# The benchmark datasets and their formalisms, for `corpus_overloads`.
BENCHMARK_FORMALISMS = {"jobs": "prolog", "geo": "lambda", "atis": "lambda"}
# The files of a split that `corpus_overloads` reads: what a user has before any query.
TRAINING_FILES = ("train.txt", "support.txt")


def corpus_overloads(data_dir: str) -> Dict[str, Dict[str, List[int]]]:
    """
    `{formalism: {predicate: arities}}` for the predicates that the benchmark's training and support
    files use with more than one arity (every dataset, split and shot under `data_dir`). Query files
    are never opened: what only evaluation data shows must not shape anything a split uses. The
    result is shipped as `fewshot_parser/resources/overloads.json`
    (`python -m fewshot_parser.data.signature_check data --write` writes it).
    """
    import glob
    import hashlib

    found: Dict[str, Dict[str, set]] = {}
    for dataset, formalism in sorted(BENCHMARK_FORMALISMS.items()):
        signatures = PredicateSignatures(formalism, {})
        seen = set()
        paths = [
            path
            for name in TRAINING_FILES
            for path in glob.glob(os.path.join(data_dir, dataset, "lemma_data", "shuffle_*_shot_*", name))
        ]
        for path in sorted(paths):
            with open(path, "rb") as handle:
                digest = hashlib.sha256(handle.read()).hexdigest()
            if digest in seen:  # train.txt is the same file in every split
                continue
            seen.add(digest)
            for example in read_training_examples(path, formalism):
                signatures.learn(example.tree)
        for name, signature in signatures.multi_arity().items():
            found.setdefault(formalism, {}).setdefault(name, set()).update(signature.arities)
    return {
        formalism: {name: sorted(arities) for name, arities in sorted(names.items())}
        for formalism, names in sorted(found.items())
    }


class SignatureCheck:
    """
    A reader's signatures: learned on its first read, then extended by the new predicates it reads.

    # Parameters

    formalism : `str`
    enabled : `bool`
        False turns the check off (`signatures_for` returns None).
    training : `str`, optional
        The training data path; default: `training_file_of` the first path read.
    overloaded_predicates : `Mapping[str, List[int]]`, optional
        Passed to `PredicateSignatures`.
    """

    def __init__(
        self,
        formalism: str,
        enabled: bool = True,
        training: Optional[str] = None,
        overloaded_predicates: Optional[Mapping[str, List[int]]] = None,
    ) -> None:
        self._formalism = formalism
        self._enabled = enabled
        self._training = training
        self._overloads = overloaded_predicates
        self._signatures: Optional[PredicateSignatures] = None

    def signatures_for(self, spec: str) -> Optional[PredicateSignatures]:
        if not self._enabled:
            return None
        if self._signatures is None:
            training = self._training or training_file_of(spec)
            self._signatures = learned_signatures(training, self._formalism, self._overloads)
        return self._signatures


# The shipped overloads (`fewshot_parser.logical_forms.signatures.BENCHMARK_OVERLOADS` reads them).
OVERLOADS_PATH = os.path.join(os.path.dirname(os.path.dirname(__file__)), "resources", "overloads.json")


def overloads_json(data_dir: str) -> str:
    """`corpus_overloads(data_dir)` as the shipped file holds it."""
    import json

    return json.dumps(corpus_overloads(data_dir), indent=1) + "\n"


if __name__ == "__main__":
    import argparse

    from fewshot_parser.common.safe_io import atomic_open

    parser = argparse.ArgumentParser(
        description="The predicates that the benchmark's training and support files overload."
    )
    parser.add_argument("data_dir", nargs="?", default="data", help="the benchmark root (default: data)")
    parser.add_argument("--write", action="store_true", help=f"write {OVERLOADS_PATH} instead of printing")
    arguments = parser.parse_args()
    text = overloads_json(arguments.data_dir)
    if arguments.write:
        with atomic_open(OVERLOADS_PATH) as handle:
            handle.write(text)
    else:
        print(text, end="")
