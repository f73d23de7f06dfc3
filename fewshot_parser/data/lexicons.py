"""
Which lexicon words a few-shot split may use.

The shipped lexicons (`fewshot_parser/resources/lexicons/*.json`) were written by hand for every
predicate of a benchmark, the predicates its official splits make new included, and some of their
words occur only in evaluation files. A split may use, for a predicate that is new in it (one its
training file never uses), only what a user has before seeing a single query:

* the hand-written words derived from the predicate's name: a `_` part of the name, or a word of at
  least 3 characters that is a prefix of a part or has one as prefix (`elev` for `elevation:i`,
  `length` for `len:i`);
* the hand-written words that occur in its own support utterances (those whose LF uses it);
* every word of a description file the user writes (`lexicon_descriptions`, the lexicon's JSON
  shape: predicate -> words). It is user input, kept whole for every predicate it lists.

The entries of known predicates (those of the training file) stay as they are: what the training
set shows of them is fair. `handwritten_new_predicate_entries` keeps every hand-written word of the
new predicates too; that leaks evaluation data and exists only to reproduce rows computed before.
"""

import logging
import os
from typing import Container, Dict, Iterable, List, Mapping, Optional, Sequence, Set, Tuple

from fewshot_parser.common.errors import UserError
from fewshot_parser.common.safe_io import read_lines
from fewshot_parser.data.examples import split_data_spec
from fewshot_parser.data.paths import resolve_data_path
from fewshot_parser.data.predicate_names import load_lexicon, predicate_name

logger = logging.getLogger(__name__)

# (utterance words, LF labels) of the files of a data path, per (path, data root).
_FILE_CACHE: Dict[Tuple[str, Optional[str]], List[Tuple[Tuple[str, ...], frozenset]]] = {}


def name_parts(predicate: str) -> List[str]:
    """`salary_greater_than` -> `['salary_greater_than', 'salary', 'greater', 'than']` (lower case)."""
    name = predicate_name(predicate).lower()
    return [name] + [part for part in name.split("_") if part and part != name]


def is_name_derived(word: str, predicate: str) -> bool:
    """Whether a lexicon word of `predicate` can be read off its name: a part of it, or a prefix
    relation with a part of at least 3 characters."""
    word = word.lower()
    for part in name_parts(predicate):
        if word == part:
            return True
        shorter, longer = sorted((word, part), key=len)
        if len(shorter) >= 3 and longer.startswith(shorter):
            return True
    return False


def read_pairs(spec: str) -> List[Tuple[Tuple[str, ...], frozenset]]:
    """
    `(utterance words, LF labels)` of every line of a data path (`a.txt+b.txt*5`; repeats are read
    once). The logical forms are space-tokenised, so a predicate occurs in one when it is one of its
    tokens. Lines without a tab are left out (the readers report them).
    """
    pairs: List[Tuple[Tuple[str, ...], frozenset]] = []
    for path, _ in split_data_spec(spec):
        resolved = resolve_data_path(path)
        key = (resolved, os.environ.get("FEWSHOT_DATA_DIR"))
        if key not in _FILE_CACHE:
            rows = []
            for line in read_lines(resolved):
                if line.text is None or "\t" not in line.text:
                    continue
                utterance, _, logical_form = line.text.rstrip("\r\n").partition("\t")
                rows.append((tuple(utterance.split()), frozenset(logical_form.split())))
            _FILE_CACHE[key] = rows
        pairs.extend(_FILE_CACHE[key])
    return pairs


def predicate_labels(pairs: Iterable[Tuple[Sequence[str], Iterable[str]]]) -> Set[str]:
    """Every label (predicate or atom) the logical forms of `pairs` use."""
    return {label for _, labels in pairs for label in labels}


def scope_lexicon(
    lexicon: Mapping[str, Sequence[str]],
    known: Container[str],
    support: Sequence[Tuple[Sequence[str], Iterable[str]]],
    descriptions: Optional[Mapping[str, Sequence[str]]] = None,
    handwritten_new_predicate_entries: bool = False,
) -> Dict[str, List[str]]:
    """
    The part of a hand-written `lexicon` a split may use (module docstring).

    # Parameters

    lexicon : `Mapping[str, Sequence[str]]`
        Predicate -> hand-written words.
    known : `Container[str]`
        The known predicates (their entries are kept whole), e.g. the labels of the training file.
    support : `Sequence[Tuple[Sequence[str], Iterable[str]]]`
        `(utterance words, LF labels)` of the support examples.
    descriptions : `Mapping[str, Sequence[str]]`, optional
        The user's own words per predicate, kept whole and added to the result.
    handwritten_new_predicate_entries : `bool`, optional (default = `False`)
        Keep every hand-written word of new predicates too (leaks evaluation data).
    """
    scoped: Dict[str, List[str]] = {}
    for predicate, words in lexicon.items():
        if handwritten_new_predicate_entries or predicate in known:
            scoped[predicate] = list(words)
            continue
        seen = {word for utterance, labels in support if predicate in set(labels) for word in utterance}
        scoped[predicate] = [w for w in words if is_name_derived(w, predicate) or w in seen]
    for predicate, words in (descriptions or {}).items():
        scoped[predicate] = scoped.get(predicate, []) + [w for w in words if w not in scoped.get(predicate, [])]
    dropped = {p: sorted(set(lexicon[p]) - set(scoped.get(p, []))) for p in lexicon}
    dropped = {p: words for p, words in dropped.items() if words}
    if dropped:
        logger.info(
            "Lexicon: hand-written words of new predicates left out (%d predicate(s)): %s", len(dropped), dropped
        )
    return scoped


def split_lexicon(
    spec: Optional[str],
    training_data: str,
    support_data: Optional[str],
    descriptions: Optional[str] = None,
    handwritten_new_predicate_entries: bool = False,
) -> Dict[str, List[str]]:
    """
    The lexicon `spec` (shipped name or JSON path, `load_lexicon`) scoped to the split whose
    training and support files are the data paths `training_data` and `support_data` (None: no
    support words), plus the user's `descriptions` file.
    """
    lexicon = load_lexicon(spec)
    if not lexicon and not descriptions:
        return {}
    known = predicate_labels(read_pairs(training_data))
    support = read_pairs(support_data) if support_data else []
    return scope_lexicon(lexicon, known, support, load_descriptions(descriptions), handwritten_new_predicate_entries)


def load_descriptions(path: Optional[str]) -> Dict[str, List[str]]:
    """The user's description file (`lexicon_descriptions`): a JSON object mapping predicates to words."""
    if not path:
        return {}
    if not os.path.isfile(path):
        raise UserError(
            f"lexicon_descriptions {path!r}: no such file (a JSON object mapping predicates to lists of words)"
        )
    return load_lexicon(path)
