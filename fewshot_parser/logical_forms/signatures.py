"""
Predicate signatures: how many arguments each predicate takes, and of what kinds.

A reader learns the signatures from the training file (its `idiom_source`, or else the first data
file it reads, as in `train.txt+support.txt`); a logical form read later that uses a known predicate
with another number of arguments is an error naming the expected signature
(`predicate state:t expects 1 argument (variable), got 2`). A predicate the training file does not
have (a new one) is not checked: nothing a user has before the queries says how many arguments it
takes, and the benchmark's own query files use new predicates with arities their support sets do not
show (`( departure_time $0 ti0 )` where the support set has `( departure_time $0 )`). Argument
kinds (`variable`, `atom`, `term`) are shown in messages but not enforced: the benchmarks use the
same predicate with a variable, an entity or a sub-term in one position (`( loc:t $0 s0 )`,
`( loc:t s0 $0 )`, `( population:i ( capital:c s0 ) )`).

Some predicates of the benchmark data take one or two arguments (`( airline $0 )` and
`( airline $0 al0 )`). Those the training file shows both ways are learned as such; the few that
other training or support files overload are listed in `BENCHMARK_OVERLOADS` (generated from the
benchmark's training and support files, never its query files). Other data can declare its own (a
reader's `overloaded_predicates`).
"""

import json
import os
from collections import defaultdict
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Set, Tuple

from fewshot_parser.logical_forms.template import is_variable
from fewshot_parser.logical_forms.tree import CONJUNCTION, Tree

# Operators that take any number of arguments: never checked.
VARIADIC = {"lambda": frozenset({"and", "or"}), "prolog": frozenset({CONJUNCTION})}

# Predicates that the benchmark's training and support files use with more than one arity (every
# dataset, split and shot): generated from the data by `fewshot_parser.data.signature_check`
# (`python -m fewshot_parser.data.signature_check data --write`).
with open(
    os.path.join(os.path.dirname(os.path.dirname(__file__)), "resources", "overloads.json"), encoding="utf-8"
) as _file:
    BENCHMARK_OVERLOADS: Dict[str, Dict[str, Tuple[int, ...]]] = {
        formalism: {name: tuple(arities) for name, arities in names.items()}
        for formalism, names in json.load(_file).items()
    }

KINDS = ("variable", "atom", "term")


def argument_kind(argument: Tree, formalism: str) -> str:
    if argument.is_call:
        return "term"
    return "variable" if is_variable(argument.label, formalism) else "atom"


def applications(tree: Tree, formalism: str) -> Iterable[Tree]:
    """The application nodes of `tree` whose arity is checked (variadic operators left out)."""
    variadic = VARIADIC[formalism]
    return (node for node in tree.calls() if node.label not in variadic)


class SignatureMismatch(ValueError):
    """A predicate used with an arity its signature does not allow (the message says which)."""


class Signature:
    """The arities a predicate takes, each with the argument kinds seen per position."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.kinds: Dict[int, List[Set[str]]] = {}
        self.first_use: Dict[int, Optional[str]] = {}
        self.declared: Set[int] = set()

    @property
    def arities(self) -> List[int]:
        return sorted(set(self.kinds) | self.declared)

    def add(self, kinds: Sequence[str], location: Optional[str]) -> None:
        arity = len(kinds)
        if arity not in self.kinds:
            self.kinds[arity] = [set() for _ in range(arity)]
            self.first_use[arity] = location
        for position, kind in enumerate(kinds):
            self.kinds[arity][position].add(kind)

    def describe(self, arity: int) -> str:
        """`1 argument (variable)`, `2 arguments (variable, atom/variable)`."""
        noun = "argument" if arity == 1 else "arguments"
        positions = self.kinds.get(arity)
        if not positions:
            return f"{arity} {noun}"
        shown = ", ".join("/".join(kind for kind in KINDS if kind in position) for position in positions)
        return f"{arity} {noun} ({shown})"

    def expected(self) -> str:
        arities = self.arities
        if len(arities) == 1:
            return self.describe(arities[0])
        return " or ".join(self.describe(arity) for arity in arities)


class PredicateSignatures:
    """
    The signatures of a formalism's predicates, learned from logical forms in the order they are
    seen: the first use of a predicate defines its signature, later uses must match an arity it has.

    # Parameters

    formalism : `str`
        `"lambda"` or `"prolog"`.
    overloaded_predicates : `Mapping[str, Sequence[int]]`, optional (default = `BENCHMARK_OVERLOADS[formalism]`)
        Predicates that may take each of the given arities.
    """

    def __init__(self, formalism: str, overloaded_predicates: Optional[Mapping[str, Sequence[int]]] = None) -> None:
        self.formalism = formalism
        self.signatures: Dict[str, Signature] = {}
        # The training file the signatures were learned from (None: not learned yet).
        self.source: Optional[str] = None
        # The predicates whose arities are checked: learned from the training file, or declared.
        self.known: Set[str] = set()
        overloads = BENCHMARK_OVERLOADS[formalism] if overloaded_predicates is None else overloaded_predicates
        for name, arities in overloads.items():
            self._signature(name).declared.update(int(arity) for arity in arities)
            self.known.add(name)

    def _signature(self, name: str) -> Signature:
        if name not in self.signatures:
            self.signatures[name] = Signature(name)
        return self.signatures[name]

    def learn(self, tree: Tree, location: Optional[str] = None) -> None:
        """Adds every use in `tree` (no checking: the training file defines what is allowed)."""
        for node in applications(tree, self.formalism):
            self._signature(node.label).add([argument_kind(c, self.formalism) for c in node.children], location)
            self.known.add(node.label)

    def check(self, tree: Tree, location: Optional[str] = None) -> None:
        """
        Raises `SignatureMismatch` if `tree` uses a known predicate (learned or declared) with an arity
        it does not take; otherwise records the tree's uses. A new predicate takes any arity.
        """
        for node in applications(tree, self.formalism):
            signature = self.signatures.get(node.label)
            if node.label not in self.known or signature is None or len(node.children) in signature.arities:
                continue
            where = signature.first_use.get(signature.arities[0])
            raise SignatureMismatch(
                f"predicate {node.label} expects {signature.expected()}, got {len(node.children)}"
                + (f" (signature from {where})" if where else "")
            )
        for node in applications(tree, self.formalism):
            self._signature(node.label).add([argument_kind(c, self.formalism) for c in node.children], location)

    def multi_arity(self) -> Dict[str, Signature]:
        """The predicates used with more than one arity."""
        return {name: s for name, s in sorted(self.signatures.items()) if len(s.kinds) > 1}

    def summary(self) -> Dict[str, Dict[str, object]]:
        """JSON-ready: predicate -> {arity: {"kinds": [...], "first_use": location}}."""
        result: Dict[str, Dict[str, object]] = defaultdict(dict)
        for name, signature in sorted(self.signatures.items()):
            for arity in sorted(signature.kinds):
                result[name][str(arity)] = {
                    "kinds": ["/".join(k for k in KINDS if k in position) for position in signature.kinds[arity]],
                    "first_use": signature.first_use[arity],
                }
        return dict(result)
