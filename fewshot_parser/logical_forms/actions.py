"""
Transition actions and the tree fragments ("patterns") they build.

A *pattern* is a template subtree in which some application children are replaced by the hole
leaf ``<NT>``. An action is

* ``GEN [pattern]`` when the pattern has no hole: push a finished subtree;
* ``REDUCE [pattern]`` when it has holes: pop one subtree per hole (left to right in push
  order) and push the pattern with its holes filled (the paper's ``REDUCE [head :- body]``);
* ``STOP``: the stack holds exactly one tree, which is the answer.

Each action has a vocabulary string (``GEN ( flight <v> )``, ``REDUCE ( and <NT> <NT> )``,
``STOP``) from which it can be rebuilt, so the action vocabulary *is* the set of patterns,
learned idioms included.
"""

from typing import List, Optional, Tuple

from fewshot_parser.logical_forms.template import predicates, slot_labels
from fewshot_parser.logical_forms.tree import Tree, parse, to_sexpr

HOLE = "<NT>"
HOLE_TREE = Tree(HOLE)
GEN = "GEN"
REDUCE = "REDUCE"
STOP = "STOP"


def count_holes(pattern: Tree) -> int:
    return sum(1 for leaf in pattern.leaves() if leaf.label == HOLE)


def fill_holes(pattern: Tree, subtrees: List[Tree]) -> Tree:
    """Replaces the holes of `pattern`, in pre-order, by `subtrees`."""
    iterator = iter(subtrees)

    def visit(node: Tree) -> Tree:
        if node.is_leaf:
            return next(iterator) if node.label == HOLE else node
        return node.replace_children(tuple(visit(child) for child in node.children))

    return visit(pattern)


def substitute_hole(pattern: Tree, hole_index: int, inner: Tree) -> Tree:
    """Returns `pattern` with its `hole_index`-th hole replaced by the pattern `inner`."""
    seen = -1

    def visit(node: Tree) -> Tree:
        nonlocal seen
        if node.is_leaf:
            if node.label == HOLE:
                seen += 1
                if seen == hole_index:
                    return inner
            return node
        return node.replace_children(tuple(visit(child) for child in node.children))

    result = visit(pattern)
    if seen < hole_index:
        raise ValueError(f"pattern {to_sexpr(pattern)} has no hole {hole_index}")
    return result


class Action:
    """
    One transition action. Equal actions have equal strings; `Action.from_string(str(a)) == a`.

    # Attributes

    kind : `str`
        `GEN`, `REDUCE` or `STOP`.
    pattern : `Tree`, optional
        The fragment built (None for STOP).
    arity : `int`
        Number of subtrees popped (holes of the pattern).
    slots : `Tuple[str, ...]`
        Slot leaves of the pattern in pre-order (`<v>`, `<e:ci>`), filled by the slot decoders.
    predicates : `Tuple[str, ...]`
        Predicate symbols the action produces, so that "actions of new predicates" is defined.
    """

    __slots__ = ("kind", "pattern", "arity", "slots", "predicates", "_string")

    def __init__(self, kind: str, pattern: Optional[Tree] = None) -> None:
        if kind == STOP:
            if pattern is not None:
                raise ValueError("STOP has no pattern")
            self.arity = 0
            self.slots: Tuple[str, ...] = ()
            self.predicates: Tuple[str, ...] = ()
            self._string = STOP
        else:
            if pattern is None:
                raise ValueError(f"{kind} needs a pattern")
            self.arity = count_holes(pattern)
            expected = GEN if self.arity == 0 else REDUCE
            if kind != expected:
                raise ValueError(f"a pattern with {self.arity} holes makes a {expected} action, not {kind}")
            self.slots = tuple(slot_labels(pattern))
            self.predicates = tuple(predicates(pattern))
            self._string = f"{kind} {to_sexpr(pattern)}"
        self.kind = kind
        self.pattern = pattern

    @classmethod
    def for_pattern(cls, pattern: Tree) -> "Action":
        return cls(GEN if count_holes(pattern) == 0 else REDUCE, pattern)

    @classmethod
    def from_string(cls, string: str) -> "Action":
        if string == STOP:
            return cls(STOP)
        kind, _, body = string.partition(" ")
        if kind not in (GEN, REDUCE) or not body:
            raise ValueError(f"not an action string: {string!r}")
        return cls(kind, parse(body, "lambda"))

    def __str__(self) -> str:
        return self._string

    def __repr__(self) -> str:
        return f"Action({self._string!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and self._string == other._string

    def __hash__(self) -> int:
        return hash(self._string)


STOP_ACTION = Action(STOP)
