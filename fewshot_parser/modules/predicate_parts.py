"""
The string-similarity feature as the authors' preprocessing computes it (docs/reproduction.md row 19).

`alignment.string_similarity_matrix` compares a word with a predicate's whole name (`req_deg`). The
authors' code splits the name at `_` and compares the word with each part, after replacing a part
that their built-in table knows by the words it lists (`req` -> `require`, `deg` -> `degree`,
`loc` -> `location`, `where`, `in`, `loc`): so `degree` scores 1.0 against `req_deg`, not 0.29. The
table (`PARTS_LEXICON`, the words of the authors' `PREDICATE_LEXICON`) is the same for every
dataset and names no predicate of any split, only name parts such as `loc` or `argmax`.
"""

from typing import Dict, List, Sequence

import torch

from fewshot_parser.data.predicate_names import predicate_name
from fewshot_parser.modules.alignment import string_similarity_matrix

# Name part -> the words that replace it when a word is compared with the name.
PARTS_LEXICON: Dict[str, List[str]] = {
    "loc": ["location", "where", "in", "loc"],
    "argmax": ["highest", "largest", "most", "greatest", "longest", "biggest", "high", "maximum"],
    "argmin": ["shortest", "smallest", "least", "lowest", "minimum"],
    ">": ["greater", "larger", "-er", "than"],
    "count": ["many", "count"],
    "=": ["equal"],
    "\\+": ["not"],
    "req": ["require"],
    "deg": ["degree"],
    "exp": ["experience"],
    "des": ["desire"],
    "len": ["length"],
    "next": ["next", "border", "neighbor", "surround"],
    "density": ["average", "population", "density"],
    "sum": ["total", "sum"],
    "size": ["size", "big", "biggest", "largest"],
    "population": ["population", "people", "citizen"],
}

# Parts the authors' comparison scores 0 (their variable name, entity type and slot marker).
IGNORED_PARTS = frozenset({"A", "e", "var"})


def predicate_parts(predicate: str, lexicon: Dict[str, List[str]] = PARTS_LEXICON) -> List[str]:
    """`req_deg:t` -> `['require', 'degree']`: the name's `_` parts, each replaced by its lexicon words if any."""
    words: List[str] = []
    for part in predicate_name(predicate).split("_"):
        if part and part not in IGNORED_PARTS:
            words.extend(lexicon.get(part, [part]))
    return words


def part_similarity_matrix(action_predicates: Sequence[Sequence[str]], tokens: Sequence[str]) -> torch.Tensor:
    """
    `(num_actions, num_tokens)`: for each action and word, the best 1 - normalized Levenshtein
    similarity between the word and a part of one of the action's predicates (`predicate_parts`).
    """
    parts = [sorted({w for p in predicates for w in predicate_parts(p)}) for predicates in action_predicates]
    return string_similarity_matrix(parts, tokens)
