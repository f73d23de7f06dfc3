"""
The recombination readers that preceded `fewshot_augmented`'s list of pair generators
(`fewshot_parser/data/recombination/`), as a translation between the two spellings of a reader
config. Each old reader had flat keys for its ways of making pairs:

    old reader (and its keys)              generators: one pass per inner list
    fewshot_augmented                      [[forward, reverse]]
      pairs_per_predicate (20),              forward's pairs_per_predicate
      reverse_pairs_per_predicate (10)       reverse's pairs_per_predicate
    fewshot_augmented_reshaped             ... + [[reshaped]]
      + reshaped_pairs_per_predicate (10)    reshaped's pairs_per_predicate
    fewshot_augmented_adjectives           ... + [[adjectives]] (reshaped pairs with adjectives)
    fewshot_augmented_reparented           ... + [[reshaped]] + [[reparented]]
      + reparented_pairs_per_predicate (10)  reparented's pairs_per_predicate
    fewshot_augmented_subtrees             ... + [[reshaped or adjectives]] + [[subtrees]]
      + subtree_pairs_per_example (10),      subtrees' pairs_per_example
        adjectives (false)                   adjectives in place of reshaped

Forward and reverse pairs take turns per new predicate (one pass); every later kind of pair is a
pass of its own, as the old readers made them. Every other key is the reader's.
`translate_legacy_reader` reads an old config (readers built from old names,
`data/dataset_readers/legacy_names.py`); `legacy_reader_spelling` writes a new one the old way, so
that a config keeps the hash of the rows recorded before the generators (`provenance.experiment_hash`).
Plain dictionaries only: nothing here imports a reader.
"""

from typing import Any, Dict, List, Optional

from fewshot_parser.common.config_walk import rewrite_bottom_up

READER = "fewshot_augmented"
# Every old reader name besides `fewshot_augmented` itself (whose old spelling is its flat keys).
LEGACY_READER_NAMES = (
    "fewshot_augmented_reshaped",
    "fewshot_augmented_adjectives",
    "fewshot_augmented_reparented",
    "fewshot_augmented_subtrees",
)
# The flat keys `fewshot_augmented` itself had.
FLAT_KEYS = ("pairs_per_predicate", "reverse_pairs_per_predicate")


def _generator(kind: str, count: int) -> Dict[str, Any]:
    return {"type": kind, ("pairs_per_example" if kind == "subtrees" else "pairs_per_predicate"): count}


def translate_legacy_reader(name: str, config: Dict[str, Any]) -> Dict[str, Any]:
    """The `fewshot_augmented` config (with `type` and `generators`) that the old reader `name` with
    `config` (no `type`) was. Raises `ValueError` for a negative count or a config that has both spellings."""
    if name != READER and name not in LEGACY_READER_NAMES:
        raise ValueError(f"{name!r} is not an old recombination reader name")
    if "generators" in config:
        raise ValueError(f"dataset_reader: give either generators or the old keys of {name!r}, not both")
    config = dict(config)

    def count(key: str, default: Any) -> Any:
        value = config.pop(key, default)
        if isinstance(value, int) and not isinstance(value, bool) and value < 0:
            raise ValueError(f"dataset_reader.{key} must be at least 0, got {value}")
        return value

    passes: List[List[Dict[str, Any]]] = [
        [
            _generator("forward", count("pairs_per_predicate", 20)),
            _generator("reverse", count("reverse_pairs_per_predicate", 10)),
        ]
    ]
    if name != READER:
        reshaped = count("reshaped_pairs_per_predicate", 10)
        adjectives = name == "fewshot_augmented_adjectives" or (
            name == "fewshot_augmented_subtrees" and bool(config.pop("adjectives", False))
        )
        passes.append([_generator("adjectives" if adjectives else "reshaped", reshaped)])
        if name == "fewshot_augmented_reparented":
            passes.append([_generator("reparented", count("reparented_pairs_per_predicate", 10))])
        if name == "fewshot_augmented_subtrees":
            passes.append([_generator("subtrees", count("subtree_pairs_per_example", 10))])
    return {"type": READER, **config, "generators": passes}


def _count(generator: Any, kind: str) -> Optional[int]:
    """The count of a generator config of type `kind` that says nothing else; None otherwise."""
    key = "pairs_per_example" if kind == "subtrees" else "pairs_per_predicate"
    if not isinstance(generator, dict) or generator.get("type") != kind or set(generator) - {"type", key}:
        return None
    return generator.get(key, {"forward": 20, "reverse": 10}.get(kind, 10))


def _old_spelling(config: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    """A `fewshot_augmented` config with generators as its old reader and flat keys; None when none says it."""
    passes = config["generators"]
    if not isinstance(passes, list) or not passes or not all(isinstance(p, list) and len(p) == 1 for p in passes[1:]):
        return None
    first = passes[0]
    if not isinstance(first, list) or len(first) != 2:
        return None
    forward, reverse = _count(first[0], "forward"), _count(first[1], "reverse")
    if forward is None or reverse is None:
        return None
    old = {key: value for key, value in config.items() if key not in ("type", "generators")}
    if set(old) & {
        *FLAT_KEYS,
        "reshaped_pairs_per_predicate",
        "reparented_pairs_per_predicate",
        "subtree_pairs_per_example",
        "adjectives",
    }:
        return None
    old.update(pairs_per_predicate=forward, reverse_pairs_per_predicate=reverse)
    later = [p[0] for p in passes[1:]]
    kinds = [g.get("type") if isinstance(g, dict) else None for g in later]
    counts = [_count(g, kind) for g, kind in zip(later, kinds) if isinstance(kind, str)]
    if len(counts) != len(later) or None in counts:
        return None
    if kinds == []:
        return {"type": READER, **old}
    if kinds in (["reshaped"], ["adjectives"]):
        name = "fewshot_augmented_reshaped" if kinds == ["reshaped"] else "fewshot_augmented_adjectives"
        return {"type": name, **old, "reshaped_pairs_per_predicate": counts[0]}
    if kinds in (["reshaped", "reparented"], ["reparented"]):
        return {
            "type": "fewshot_augmented_reparented",
            **old,
            "reshaped_pairs_per_predicate": counts[0] if len(counts) == 2 else 0,
            "reparented_pairs_per_predicate": counts[-1],
        }
    if kinds in (["reshaped", "subtrees"], ["adjectives", "subtrees"]):
        return {
            "type": "fewshot_augmented_subtrees",
            **old,
            "reshaped_pairs_per_predicate": counts[0],
            "subtree_pairs_per_example": counts[1],
            "adjectives": kinds[0] == "adjectives",
        }
    return None


def legacy_reader_spelling(config: Any) -> Any:
    """`config` with every `fewshot_augmented` reader with generators written as its old reader, where one says it."""

    def old_way(config: Dict[str, Any]) -> Dict[str, Any]:
        if config.get("type") == READER and "generators" in config:
            return _old_spelling(config) or config
        return config

    return rewrite_bottom_up(config, old_way)
