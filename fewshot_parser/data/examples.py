"""
Reading `utterance<TAB>logical form` files, shared by every reader of the project.

A data path in a config may name several files joined by `+`, each optionally repeated with
`*N`: `geo/lemma_data/shuffle_1_shot_1/train.txt+geo/lemma_data/shuffle_1_shot_1/support.txt*10`
reads the training set and the support set ten times (the paper's `cb` and `os` settings).
Relative paths are resolved against `$FEWSHOT_DATA_DIR` (see `fewshot_parser.data.paths`).
"""

import logging
import os
import re
from typing import Iterator, List, NamedTuple, Optional, Tuple

from allennlp.common.checks import ConfigurationError

from fewshot_parser.common.safe_io import read_lines
from fewshot_parser.data.paths import resolve_data_path
from fewshot_parser.logical_forms.signatures import PredicateSignatures
from fewshot_parser.logical_forms.tree import LogicalFormError, Tree, check_formalism, parse

logger = logging.getLogger(__name__)

_REPEAT = re.compile(r"^(.*)\*(\d+)$")


class Example(NamedTuple):
    """One line of a data file: where it came from, the utterance tokens and the parsed LF."""

    source: str
    line_number: int
    utterance: List[str]
    logical_form: str
    tree: Tree


def split_data_spec(spec: str) -> List[Tuple[str, int]]:
    """`a.txt+b.txt*5` -> `[("a.txt", 1), ("b.txt", 5)]`."""
    parts = []
    for item in spec.split("+"):
        item = item.strip()
        if not item:
            raise ConfigurationError(f"empty file name in data path {spec!r}")
        repeat = _REPEAT.match(item)
        if repeat:
            count = int(repeat.group(2))
            if count < 1:
                raise ConfigurationError(f"repeat count must be at least 1 in {item!r}")
            parts.append((repeat.group(1), count))
        else:
            parts.append((item, 1))
    return parts


def parse_line(line: str, formalism: str) -> Tuple[List[str], str, Tree]:
    """Parses one data line; raises `ValueError` with the reason when it is malformed."""
    text = line.rstrip("\r\n")
    if "\t" not in text:
        raise ValueError("expected 'utterance<TAB>logical form', found no tab")
    utterance, _, logical_form = text.partition("\t")
    if "\t" in logical_form:
        raise ValueError("expected exactly one tab, found more")
    tokens = utterance.split()
    if not tokens:
        raise ValueError("empty utterance")
    normalized = " ".join(logical_form.split())
    if not normalized:
        raise ValueError("empty logical form")
    try:
        tree = parse(normalized, formalism)
    except LogicalFormError as error:
        raise ValueError(f"malformed {formalism} logical form: {error}") from error
    return tokens, normalized, tree


def read_examples(
    spec: str,
    formalism: str,
    skip_invalid: bool = False,
    signatures: Optional[PredicateSignatures] = None,
    allow_empty: bool = False,
) -> Iterator[Example]:
    """
    Yields the examples of every file in `spec`, in order. A malformed line (no tab, an empty field,
    a bad logical form, bytes that are not UTF-8, or with `signatures` a predicate used with another
    arity than its signature's) raises `ConfigurationError` naming the file and line, or with
    `skip_invalid` is skipped; skipped lines are logged (count and each location) after each file,
    never dropped silently. A missing file, or (unless `allow_empty`) one without a single example, is
    an error too.
    """
    check_formalism(formalism)
    for path, repeat in split_data_spec(spec):
        resolved = resolve_data_path(path)  # a missing file raises FileNotFoundError naming the data root
        if os.path.isdir(resolved):
            raise ConfigurationError(f"{resolved}: is a directory, not a data file")
        examples: List[Example] = []
        skipped: List[str] = []
        for line in read_lines(resolved):
            if line.text is not None and not line.text.strip():
                continue  # blank lines (e.g. a trailing newline) carry no example
            location = f"{resolved}:{line.number}"
            try:
                if line.text is None:
                    raise ValueError(line.error)
                tokens, logical_form, tree = parse_line(line.text, formalism)
                if signatures is not None:
                    signatures.check(tree, location)
            except ValueError as error:
                if not skip_invalid:
                    raise ConfigurationError(f"{location}: {error}") from error
                skipped.append(f"{location}: {error}")
                continue
            examples.append(Example(resolved, line.number, tokens, logical_form, tree))
        if skipped:
            logger.warning("Skipped %d invalid line(s) of %s:\n  %s", len(skipped), resolved, "\n  ".join(skipped))
        if not examples and not allow_empty:
            reason = f"all {len(skipped)} lines are invalid and were skipped" if skipped else "the file is empty"
            raise ConfigurationError(f"{resolved}: no examples ({reason})")
        for _ in range(repeat):
            yield from examples


def read_training_examples(spec: Optional[str], formalism: str) -> List[Example]:
    """What learning (idioms, signatures) sees of a training data path: its valid lines, maybe none;
    reading the file as data reports its problems."""
    return list(read_examples(spec, formalism, skip_invalid=True, allow_empty=True)) if spec else []


def parse_logical_form(logical_form: str, formalism: str) -> Tuple[str, Tree]:
    """Whitespace-normalises and parses an LF given to a reader's `text_to_instance`; a malformed one
    raises `ConfigurationError` naming the formalism."""
    logical_form = " ".join(str(logical_form).split())
    try:
        return logical_form, parse(logical_form, formalism)
    except LogicalFormError as error:
        raise ConfigurationError(f"logical_form: malformed {formalism} logical form: {error}") from error
