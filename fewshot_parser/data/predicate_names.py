"""
Predicate names and the words that name them, as plain strings: a predicate's name without its type
suffix, the predicate lexicons (hand-written words for each predicate), and the string test of
lexical linking (how strongly an utterance word names a predicate).

The readers (`data.lexicons`, `data.recombination`) and the model side
(`modules.alignment`, `modules.schema_linking`, `modules.predicate_parts`, `models.proto_parser`)
share them.
"""

import functools
import json
import os
from typing import Dict, List, Optional, Sequence

import textdistance
from allennlp.common.checks import ConfigurationError

_LEVENSHTEIN = textdistance.Levenshtein()


def predicate_name(predicate: str) -> str:
    """`river:t` -> `river`; `\\+` and other symbols stay as they are."""
    name = predicate.split(":", 1)[0]
    return name or predicate


LEXICON_DIR = os.path.join(os.path.dirname(os.path.dirname(__file__)), "resources", "lexicons")


def load_lexicon(spec: Optional[str]) -> Dict[str, List[str]]:
    """
    A predicate lexicon: predicate -> words that express it, used as extra names by the string
    similarity feature. `spec` is the name of a shipped lexicon (`jobs`, `geo`, `atis`; files in
    `fewshot_parser/resources/lexicons/`), a path to a JSON file of the same shape, or `None`.
    """
    if not spec:
        return {}
    path = os.path.join(LEXICON_DIR, spec + ".json") if os.sep not in spec and not spec.endswith(".json") else spec
    if not os.path.isfile(path):
        shipped = sorted(name[:-5] for name in os.listdir(LEXICON_DIR) if name.endswith(".json"))
        raise ConfigurationError(f"lexicon {spec!r}: no such file ({path}); shipped lexicons: {shipped}")
    try:
        with open(path, encoding="utf-8") as handle:
            raw = json.load(handle)
    except json.JSONDecodeError as error:
        raise ConfigurationError(f"{path}:{error.lineno}: not valid JSON ({error.msg})") from None
    if not isinstance(raw, dict):
        raise ConfigurationError(f"{path}: a lexicon is a JSON object mapping predicates to lists of words")
    for predicate, words in raw.items():
        if not isinstance(words, list) or not all(isinstance(w, str) and w and " " not in w for w in words):
            raise ConfigurationError(f"{path}: field {predicate!r} must be a list of single words, got {words!r}")
    return {predicate: list(words) for predicate, words in raw.items()}


@functools.lru_cache(maxsize=1 << 18)
def link_similarity(name: str, token: str) -> float:
    """
    How strongly a word names a predicate, for lexical linking: 1 - normalized Levenshtein distance,
    or 1 when one is a prefix of the other and the shorter has at least 4 characters (the utterances
    are stemmed: `elev` names `elevation`).
    """
    shorter, longer = sorted((name, token), key=len)
    if len(shorter) >= 4 and longer.startswith(shorter):
        return 1.0
    return _LEVENSHTEIN.normalized_similarity(name, token)


def link_names(predicates: Sequence[str], lexicon: Dict[str, List[str]]) -> List[str]:
    """
    The strings a word is compared with to link it to an action: each predicate's name and its
    `_`-separated parts when at least 4 characters long (`the`, `and`, `=` link to nothing), and
    every lexicon word of the predicate.
    """
    names = set()
    for predicate in predicates:
        name = predicate_name(predicate)
        for candidate in [name] + name.split("_"):
            if len(candidate) >= 4 and candidate.isalpha():
                names.add(candidate)
        names.update(lexicon.get(predicate, ()))
    return sorted(names)
