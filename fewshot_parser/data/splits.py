"""
Few-shot splits of any `utterance<TAB>logical form` file, made the way the benchmark's were (paper,
Sec. 4): some predicates are declared new, every example that uses one of them leaves the training
set for an evaluation pool, pool examples whose logical form occurs only once in the file are
dropped, and k support examples per new predicate are drawn from the pool; the rest of the pool is
the query set. Besides, `known.txt` holds a seeded sample of examples that use only known
predicates, taken out of training, on which a run measures what fine-tuning costs the predicates
the parser already knew.

A *draw* is one choice of new predicates (with its training set, pool and known set); a *shuffle*
is one draw of support examples from its pool, as the official shuffles are. The training set of a
draw is the same in all its shuffles and shots, so one pre-training serves them all.

Everything is seeded: the same file, predicates and seeds give byte-identical files.
"""

import hashlib
import itertools
import json
import math
import os
import random
from collections import Counter
from typing import Dict, Iterable, List, NamedTuple, Optional, Sequence, Set, Tuple

from fewshot_parser.common.errors import UserError
from fewshot_parser.common.safe_io import read_lines
from fewshot_parser.data.dataset_readers.coarse2fine import OPERATORS
from fewshot_parser.logical_forms.template import predicates as tree_predicates
from fewshot_parser.logical_forms.tree import LogicalFormError, Tree, parse

FORMALISMS = {"jobs": "prolog", "geo": "lambda", "atis": "lambda"}
SPLIT_FILES = ("train.txt", "support.txt", "query.txt", "known.txt")
MAX_COMBINATIONS = 100_000


class Line(NamedTuple):
    """One example of the source file: its text (as written, whitespace-normalised) and its predicates."""

    number: int
    text: str
    logical_form: str
    predicates: frozenset


class Draw(NamedTuple):
    """One choice of new predicates and what it makes of the file."""

    seed: int
    new_predicates: List[str]
    train: List[Line]
    known: List[Line]
    pool: List[Line]
    dropped: List[Line]  # pool examples whose logical form occurs only once in the file


def read_source(path: str, formalism: str) -> List[Line]:
    """The examples of `path`; a malformed line is a one-line error naming the file and line."""
    if not os.path.isfile(path):
        raise UserError(f"{path}: no such training file")
    examples: List[Line] = []
    for line in read_lines(path):
        if line.text is None:
            raise UserError(f"{path}:{line.number}: {line.error}")
        text = line.text.rstrip("\r\n")
        if not text.strip():
            continue
        utterance, tab, logical_form = text.partition("\t")
        if not tab or "\t" in logical_form or not utterance.split() or not logical_form.split():
            raise UserError(f"{path}:{line.number}: expected 'utterance<TAB>logical form'")
        normalized = " ".join(logical_form.split())
        try:
            tree = parse(normalized, formalism)
        except LogicalFormError as error:
            raise UserError(f"{path}:{line.number}: malformed {formalism} logical form: {error}") from None
        examples.append(
            Line(
                line.number,
                " ".join(utterance.split()) + "\t" + normalized,
                normalized,
                frozenset(predicates_of(tree, formalism)),
            )
        )
    if not examples:
        raise UserError(f"{path}: no examples (the file is empty)")
    return examples


def predicates_of(tree: Tree, formalism: str) -> Set[str]:
    """The predicates of an LF: its applications that are not operators of the formalism."""
    return {label for label in tree_predicates(tree) if label not in OPERATORS[formalism]}


def predicate_counts(examples: Sequence[Line]) -> Counter:
    """How many examples use each predicate."""
    counts: Counter = Counter()
    for example in examples:
        counts.update(example.predicates)
    return counts


def eligible_predicates(
    examples: Sequence[Line], min_examples: int, max_share: float, min_share: float = 0.0
) -> List[str]:
    """The predicates a seeded draw may make new: used by at least `min_examples` examples, by more than
    `min_share` of them (a stratum of frequent predicates) and by at most `max_share` (a predicate in
    most examples would leave nothing to train on)."""
    low, high = min_share * len(examples), max_share * len(examples)
    return sorted(p for p, n in predicate_counts(examples).items() if min_examples <= n <= high and n > low)


def choose_predicates(
    examples: Sequence[Line], count: int, min_examples: int, max_share: float, seed: int, min_share: float = 0.0
) -> List[str]:
    """
    `count` of the eligible predicates, sorted. The combinations of `count` eligible predicates are put
    in one seeded order and draw `seed` takes the `seed`-th (cycling), so draws 1..N are N different
    combinations whenever there are that many; past `MAX_COMBINATIONS` a draw is a seeded sample.
    """
    candidates = eligible_predicates(examples, min_examples, max_share, min_share)
    if len(candidates) < count:
        above = f"more than {min_share:.0%} of the file, " if min_share else ""
        raise UserError(
            f"only {len(candidates)} predicate(s) have {above}at least {min_examples} examples and at most "
            f"{max_share:.0%} of the file ({', '.join(candidates) or 'none'}); cannot draw {count}: "
            "lower --new, --min-examples or --min-share, or raise --max-share"
        )
    if math.comb(len(candidates), count) > MAX_COMBINATIONS:
        return sorted(random.Random(f"predicates-{seed}").sample(candidates, count))
    combinations = list(itertools.combinations(candidates, count))
    random.Random("predicate-combinations").shuffle(combinations)
    return sorted(combinations[(seed - 1) % len(combinations)])


def make_draw(examples: Sequence[Line], new_predicates: Sequence[str], known_size: int, seed: int) -> Draw:
    """Splits the file for `new_predicates`: training set, known set (seeded), evaluation pool."""
    counts = predicate_counts(examples)
    unknown = [p for p in new_predicates if p not in counts]
    if unknown:
        raise UserError(
            f"unknown predicate(s) {', '.join(unknown)}: the file never uses them (it uses {', '.join(sorted(counts))})"
        )
    new = set(new_predicates)
    occurrences = Counter(example.logical_form for example in examples)
    pool = [e for e in examples if e.predicates & new]
    kept = [e for e in pool if occurrences[e.logical_form] > 1]
    dropped = [e for e in pool if occurrences[e.logical_form] <= 1]
    rest = [e for e in examples if not e.predicates & new]
    if known_size >= len(rest):
        raise UserError(
            f"--known {known_size} would leave no training example: only {len(rest)} examples "
            "use known predicates alone"
        )
    chosen = set(random.Random(f"known-{seed}").sample(range(len(rest)), known_size))
    known = [e for i, e in enumerate(rest) if i in chosen]
    train = [e for i, e in enumerate(rest) if i not in chosen]
    return Draw(seed, sorted(new), train, known, kept, dropped)


def draw_support(draw: Draw, shot: int, shuffle: int) -> Tuple[List[Line], List[Line]]:
    """(support, query): `shot` support examples per new predicate, seeded by draw, shot and shuffle.
    An example counts for every new predicate it holds; the rest of the pool is the query set."""
    rng = random.Random(f"support-{draw.seed}-{shot}-{shuffle}")
    support: List[Line] = []
    for predicate in draw.new_predicates:
        have = sum(predicate in e.predicates for e in support)
        if have >= shot:
            continue
        candidates = [e for e in draw.pool if predicate in e.predicates and e not in support]
        if not candidates:
            raise UserError(
                f"new predicate {predicate} is left with no support example: every example "
                "that uses it has a logical form that occurs only once in the file"
            )
        if len(candidates) < shot - have:
            raise UserError(
                f"new predicate {predicate} has {len(candidates) + have} usable example(s), too few for {shot}-shot"
            )
        support.extend(rng.sample(candidates, shot - have))
    chosen = set(support)
    support.sort(key=lambda e: e.number)
    return support, [e for e in draw.pool if e not in chosen]


def split_directory(root: str, draw: int, dataset: str, shot: int, shuffle: int) -> str:
    """Where a split goes: `<root>/draw_<d>/<dataset>/lemma_data/shuffle_<s>_shot_<k>`; each draw's
    folder is a data root in the benchmark's layout (`FEWSHOT_DATA_DIR`)."""
    return os.path.join(root, f"draw_{draw}", dataset, "lemma_data", f"shuffle_{shuffle}_shot_{shot}")


def split_contents(draw: Draw, shot: int, shuffle: int) -> Dict[str, str]:
    """The four files of one split, as text."""
    support, query = draw_support(draw, shot, shuffle)
    text = lambda lines: "".join(e.text + "\n" for e in lines)  # noqa: E731
    return {
        "train.txt": text(draw.train),
        "support.txt": text(support),
        "query.txt": text(query),
        "known.txt": text(draw.known),
    }


def write_split(directory: str, contents: Dict[str, str], description: Dict, force: bool = False) -> None:
    """Writes a split's files, each atomically. A folder that already holds other contents is left
    untouched unless `force` (re-making the same split rewrites nothing new)."""
    files = {**contents, "split.json": json.dumps(description, indent=1, sort_keys=True) + "\n"}
    if not force:
        for name, text in files.items():
            path = os.path.join(directory, name)
            if os.path.isfile(path):
                with open(path, encoding="utf-8") as handle:
                    if handle.read() != text:
                        raise UserError(
                            f"{path}: exists with other contents (another recipe made it); "
                            "choose another --out or pass --force; nothing was written"
                        )
    os.makedirs(directory, exist_ok=True)
    for name, text in files.items():
        path = os.path.join(directory, name)
        temporary = path + ".tmp"
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temporary, path)


def file_digest(path: str) -> str:
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def make_splits(
    source: str,
    dataset: str,
    out: str,
    draws: Iterable[int],
    shots: Iterable[int],
    shuffles: Iterable[int] = (0,),
    predicates: Optional[Sequence[str]] = None,
    new: int = 3,
    min_examples: int = 8,
    max_share: float = 0.15,
    known: int = 50,
    force: bool = False,
    min_share: float = 0.0,
) -> List[Dict]:
    """
    Makes every (draw, shot, shuffle) split of `source` under `out` and returns one summary per draw.
    With `predicates` every draw makes those predicates new (draws then differ in their known set
    and support examples); otherwise each draw draws `new` predicates with its seed. Every split is
    checked before anything is written, so an error leaves `out` as it was.
    """
    if dataset not in FORMALISMS:
        raise UserError(
            f"unknown dataset {dataset!r}: the layout names one of {', '.join(FORMALISMS)} "
            "(it chooses the formalism and the experiment configs)"
        )
    formalism = FORMALISMS[dataset]
    examples = read_source(source, formalism)
    digest = file_digest(source)
    planned = []
    for seed in draws:
        chosen = (
            list(predicates)
            if predicates
            else choose_predicates(examples, new, min_examples, max_share, seed, min_share)
        )
        draw = make_draw(examples, chosen, known, seed)
        splits = {}
        for shot in shots:
            for shuffle in shuffles:
                contents = split_contents(draw, shot, shuffle)
                description = {
                    "source": os.path.basename(source),
                    "source_sha256": digest,
                    "dataset": dataset,
                    "draw": seed,
                    "shot": shot,
                    "shuffle": shuffle,
                    "new_predicates": draw.new_predicates,
                    "sizes": {name[:-4]: text.count("\n") for name, text in contents.items()},
                    "dropped_singletons": len(draw.dropped),
                }
                splits[(shot, shuffle)] = (contents, description)
        planned.append((draw, splits))
    summaries = []
    for draw, splits in planned:
        for (shot, shuffle), (contents, description) in splits.items():
            write_split(split_directory(out, draw.seed, dataset, shot, shuffle), contents, description, force)
        summaries.append(
            {
                "draw": draw.seed,
                "new_predicates": draw.new_predicates,
                "train": len(draw.train),
                "known": len(draw.known),
                "pool": len(draw.pool),
                "dropped": len(draw.dropped),
                "splits": {
                    f"{shot}-shot s{shuffle}": description["sizes"]
                    for (shot, shuffle), (_, description) in splits.items()
                },
            }
        )
    return summaries


def find_samples(root: str, draw: int, dataset: str, shot: int) -> List[int]:
    """The shuffles (support samples) of a draw's `shot`-shot splits of `dataset` under a `make-splits` root."""
    folder = os.path.join(root, f"draw_{draw}", dataset, "lemma_data")
    if not os.path.isdir(folder):
        return []
    found = []
    for name in os.listdir(folder):
        parts = name.split("_")  # shuffle_<s>_shot_<k>
        if len(parts) == 4 and parts[0] == "shuffle" and parts[2] == "shot" and parts[1].isdigit():
            if parts[3] == str(shot):
                found.append(int(parts[1]))
    return sorted(found)


def find_draws(root: str, dataset: str) -> List[int]:
    """The draws under a `make-splits` root that have splits of `dataset`."""
    if not os.path.isdir(root):
        return []
    found = []
    for name in os.listdir(root):
        if (
            name.startswith("draw_")
            and name[5:].isdigit()
            and os.path.isdir(os.path.join(root, name, dataset, "lemma_data"))
        ):
            found.append(int(name[5:]))
    return sorted(found)
