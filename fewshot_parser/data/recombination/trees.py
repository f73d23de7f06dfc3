"""
What recombination reads in a logical form: the calls whose arguments are all atoms (variables,
entities, constants) with their signatures and argument shapes, and the substitutions that make a
synthetic LF. Only such calls are substituted; operators over formulas (`not`, `sum`, `argmax`) keep
their place. Plain functions of trees.
"""

import collections
import re
from typing import Dict, Iterable, Mapping, NamedTuple, Set, Tuple

from fewshot_parser.logical_forms.template import DEFAULT_ENTITY_PATTERN
from fewshot_parser.logical_forms.tree import Tree

ENTITY = re.compile(DEFAULT_ENTITY_PATTERN)
_LAMBDA_VARIABLE = re.compile(r"^\$\d+$")
_PROLOG_VARIABLE = re.compile(r"^[A-Z_][A-Za-z0-9_]*$")
_TRAILING_DIGITS = re.compile(r"\d+$")

# The argument shape of a call as its GEN action sees it: "v", "e:<type>" or a constant, per argument.
Shape = Tuple[str, ...]
# A (predicate, argument index) place in an LF.
Position = Tuple[str, int]


class Occurrence(NamedTuple):
    """A call of a predicate whose arguments are all atoms, with what it may be swapped for."""

    label: str
    signature: Tuple  # (type suffix, arity, "v"/"e" per argument, parent label)
    values: Tuple[Tuple[int, str], ...]  # (argument position, value atom) of non-variable arguments
    # Per argument: "e" for a value; for a variable, "typed" when another one-argument condition of the
    # LF applies to it (`city:t` beside `major:t` in `( and ( major:t $0 ) ( city:t $0 ) ... )`), else
    # "bare" (a unary call that is its variable's only type, or a number such as `population:t`'s `$0`).
    roles: Tuple[str, ...] = ()


def is_variable(atom: str, formalism: str) -> bool:
    pattern = _LAMBDA_VARIABLE if formalism == "lambda" else _PROLOG_VARIABLE
    return bool(pattern.match(atom))


def atom_calls(tree: Tree, formalism: str, parent: str = "") -> Iterable[Occurrence]:
    """The calls of `tree` whose arguments are all atoms, with their signatures, in pre-order."""
    typing = collections.Counter(
        call.children[0].label
        for call in tree.calls()
        if len(call.children) == 1 and call.children[0].is_leaf and _truth_valued(call.label)
    )
    yield from _atom_calls(tree, formalism, parent, typing)


def _suffix(label: str) -> str:
    """The type suffix of a predicate label (`t` of `city:t`), empty without one (prolog `job`, `:`)."""
    return label.split(":", 1)[1] if ":" in label.strip(":") else ""


def _truth_valued(label: str) -> bool:
    """Whether a call of `label` is a condition (`city:t`, prolog `job`), not a function of its argument
    (`population:i`, `len:i`): only conditions type a variable."""
    return _suffix(label) in ("", "t")


def _atom_calls(tree: Tree, formalism: str, parent: str, typing: Mapping[str, int]) -> Iterable[Occurrence]:
    if tree.is_call:
        if tree.children and all(child.is_leaf for child in tree.children):
            kinds = tuple("v" if is_variable(child.label, formalism) else "e" for child in tree.children)
            suffix = _suffix(tree.label)
            values = tuple((i, child.label) for i, child in enumerate(tree.children) if kinds[i] == "e")
            own = 1 if len(tree.children) == 1 and _truth_valued(tree.label) else 0
            roles = tuple(
                "e" if kind == "e" else "typed" if typing[child.label] - own > 0 else "bare"
                for kind, child in zip(kinds, tree.children)
            )
            yield Occurrence(tree.label, (suffix, len(tree.children), kinds, parent), values, roles)
        for child in tree.children:
            yield from _atom_calls(child, formalism, tree.label, typing)


def call_labels(tree: Tree) -> Set[str]:
    return {call.label for call in tree.calls()}


def substitute(tree: Tree, old: str, new: str, values: Dict[int, str]) -> Tree:
    """`tree` with the (single) atom-argument call `old` renamed to `new` and its value arguments replaced."""
    if tree.is_leaf:
        return tree
    if tree.label == old and all(child.is_leaf for child in tree.children):
        children = tuple(Tree(values[i]) if i in values else child for i, child in enumerate(tree.children))
        return Tree(new, children, True)
    return tree.replace_children(tuple(substitute(child, old, new, values) for child in tree.children))


def argument_shape(call: Occurrence, arity: int, formalism: str) -> Shape:
    """
    The shape of an atom-argument call's arguments, as its GEN action sees it: `"v"` for a variable,
    `"e:<type>"` for an anonymized entity (`s0` -> `e:s`) and the atom itself for a constant
    (`usa:co`).
    """
    values = dict(call.values)
    shape = []
    for position in range(arity):
        atom = values.get(position)
        if atom is None or is_variable(atom, formalism):
            shape.append("v")
        elif ENTITY.match(atom):
            shape.append("e:" + _TRAILING_DIGITS.sub("", atom))
        else:
            shape.append(atom)
    return tuple(shape)


def renumbered(tree: Tree, offset: int) -> Tree:
    """`tree` with every lambda variable `$k` renamed `$(k + offset)`."""
    if tree.is_leaf:
        return Tree("$" + str(int(tree.label[1:]) + offset)) if is_variable(tree.label, "lambda") else tree
    return tree.replace_children(tuple(renumbered(child, offset) for child in tree.children))


def variable_count(tree: Tree) -> int:
    """One more than the highest lambda variable index of `tree` (0 without variables)."""
    return max((int(leaf.label[1:]) + 1 for leaf in tree.leaves() if is_variable(leaf.label, "lambda")), default=0)


def replaced_atom(tree: Tree, atom: str, subtree: Tree) -> Tree:
    """`tree` with the leaf `atom` replaced by `subtree`."""
    if tree.is_leaf:
        return subtree if tree.label == atom else tree
    return tree.replace_children(tuple(replaced_atom(child, atom, subtree) for child in tree.children))


def atom_positions(tree: Tree) -> Iterable[Tuple[str, int, Tree]]:
    """(call label, argument index, argument) of every argument of every call of `tree`."""
    for call in tree.calls():
        for index, child in enumerate(call.children):
            yield call.label, index, child


def subject_types(call: Tree) -> Set[str]:
    """The one-argument predicates an operator call (`( argmax $0 body key )`) puts on its variable in
    its body (`state:t` in `( and ( state:t $0 ) ... )`): the type of what it denotes."""
    if len(call.children) < 2 or not call.children[0].is_leaf:
        return set()
    variable = call.children[0].label
    return {
        c.label
        for c in call.children[1].calls()
        if len(c.children) == 1 and c.children[0].is_leaf and c.children[0].label == variable
    }
