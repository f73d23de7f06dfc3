"""Shared fixtures of the recombination tests: a tiny geo training set and support set, and helpers."""
from typing import Dict, List, Optional, Sequence, Tuple

from fewshot_parser.data.examples import Example
from fewshot_parser.data.recombination import ForwardPairs, PairGenerator, RecombinationContext, ReversePairs, SyntheticPair, recombine
from fewshot_parser.logical_forms.tree import parse

TRAINING = [
    ("what is the population of s0", "( population:i s0 )"),
    ("what is the population of c0", "( population:i c0 )"),
    ("how many people live in s0", "( population:i s0 )"),
    ("which state has the largest population", "( argmax $0 ( state:t $0 ) ( population:i $0 ) )"),
    ("what is the smallest city", "( argmin $0 ( city:t $0 ) ( population:i $0 ) )"),
    ("what is the smallest state", "( argmin $0 ( state:t $0 ) ( population:i $0 ) )"),
    ("how long is r0", "( len:i r0 )"),
    ("what is the longest river", "( argmax $0 ( river:t $0 ) ( len:i $0 ) )"),
    ("which river runs through s0", "( lambda $0 e ( and ( river:t $0 ) ( loc:t $0 s0 ) ) )"),
    ("name the cities in s0", "( lambda $0 e ( and ( city:t $0 ) ( loc:t $0 s0 ) ) )"),
]
SUPPORT = [("which state has the smallest area", "( argmin $0 ( state:t $0 ) ( area:i $0 ) )")]


def examples(rows: Sequence[Tuple[str, str]], formalism: str = "lambda", source: str = "train.txt") -> List[Example]:
    return [Example(source, i + 1, utterance.split(), lf, parse(lf, formalism)) for i, (utterance, lf) in enumerate(rows)]


def synthesize(training: Sequence[Example], support: Sequence[Example], *later: PairGenerator,
               formalism: str = "lambda", lexicon: Optional[Dict[str, List[str]]] = None) -> List[SyntheticPair]:
    """Forward and reverse pairs taking turns (default limits), then a pass per generator of `later`."""
    passes = [[ForwardPairs(), ReversePairs()], *([generator] for generator in later)]
    return recombine(RecombinationContext(training, formalism, lexicon), support, passes)


def untyped(rows: Sequence[Tuple[str, str]]) -> List[Tuple[str, str]]:
    """The rows with the type suffixes of their predicates removed (`area:i` -> `area`)."""
    return [(u, " ".join(t.split(":")[0] if t.endswith((":i", ":t")) else t for t in lf.split())) for u, lf in rows]



# The first pass of `fewshot_augmented`'s default generators (a new list each time: `Params` consumes it).
def forward_reverse() -> list:
    return [{"type": "forward", "pairs_per_predicate": 20}, {"type": "reverse", "pairs_per_predicate": 10}]


def write(path, rows: Sequence[Tuple[str, str]]) -> str:
    path.write_text("".join(f"{u}\t{lf}\n" for u, lf in rows), encoding="utf-8")
    return str(path)
