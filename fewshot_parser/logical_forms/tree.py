"""
Logical-form trees for the two formalisms of the benchmarks, with exact parsing and printing.

* ``lambda``: s-expressions as in GeoQuery and ATIS, e.g.
  ``( lambda $0 e ( and ( flight $0 ) ( from $0 ci0 ) ) )``. A parenthesised term becomes a
  node whose label is its first token and whose children are the remaining items.
* ``prolog``: goal lists as in Jobs, e.g. ``job ( ANS ) , \\+ ( req_exp ( ANS ) , loc ( ANS , locid0 ) )``.
  The whole goal list is a conjunction node labelled ``,``; ``\\+`` is a one-child node whose
  child is either a goal or a parenthesised conjunction.

Printing is the inverse of parsing token for token (single spaces between tokens), so
``to_string(parse(s)) == s`` for every normalised LF string ``s``.
"""

from typing import Iterator, List, Optional, Tuple

FORMALISMS = ("lambda", "prolog")

# Label of a Prolog conjunction node.
CONJUNCTION = ","
NEGATION = "\\+"


class LogicalFormError(ValueError):
    """Raised for a logical form that cannot be parsed (the message says where and why)."""


class Tree:
    """
    An immutable node of a logical form.

    `label` is the predicate, operator or atom; `children` are the arguments. A leaf with
    `is_call=False` is a bare atom (``$0``, ``s0``, ``e``); a node with `is_call=True` was written
    as an application (``( f ... )`` or ``f ( ... )``), even when it has no arguments.
    Trees compare and hash by value, so they can be used as dictionary keys and compared with ``==``.
    """

    __slots__ = ("label", "children", "is_call", "_hash")

    def __init__(self, label: str, children: Tuple["Tree", ...] = (), is_call: Optional[bool] = None) -> None:
        self.label = label
        self.children = tuple(children)
        self.is_call = bool(children) if is_call is None else is_call
        self._hash = hash((self.label, self.children, self.is_call))

    @property
    def is_leaf(self) -> bool:
        return not self.is_call

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tree):
            return NotImplemented
        return (
            self._hash == other._hash
            and self.label == other.label
            and self.is_call == other.is_call
            and self.children == other.children
        )

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"Tree({to_sexpr(self)!r})"

    def replace_children(self, children: Tuple["Tree", ...]) -> "Tree":
        return Tree(self.label, children, self.is_call)

    def leaves(self) -> Iterator["Tree"]:
        """The bare atoms of the tree, left to right."""
        if self.is_leaf:
            yield self
        for child in self.children:
            yield from child.leaves()

    def calls(self) -> Iterator["Tree"]:
        """Every application node of the tree, in pre-order."""
        if self.is_call:
            yield self
        for child in self.children:
            yield from child.calls()

    def size(self) -> int:
        return 1 + sum(child.size() for child in self.children)


def to_sexpr(tree: Tree) -> str:
    """A formalism-neutral s-expression rendering, used for vocabulary strings and messages."""
    if tree.is_leaf:
        return tree.label
    return "( " + " ".join([tree.label] + [to_sexpr(child) for child in tree.children]) + " )"


# ---------------------------------------------------------------------------------------------
# Lambda calculus
# ---------------------------------------------------------------------------------------------


def _parse_lambda(tokens: List[str]) -> Tree:
    position = 0

    def parse_item() -> Tree:
        nonlocal position
        if position >= len(tokens):
            raise LogicalFormError("unexpected end of logical form (unbalanced parentheses?)")
        token = tokens[position]
        position += 1
        if token == ")":
            raise LogicalFormError(f"unexpected ')' at token {position}")
        if token != "(":
            return Tree(token)
        if position >= len(tokens):
            raise LogicalFormError("unexpected end of logical form after '('")
        label = tokens[position]
        if label in ("(", ")"):
            raise LogicalFormError(f"expected a predicate after '(' at token {position + 1}, got {label!r}")
        position += 1
        children: List[Tree] = []
        while True:
            if position >= len(tokens):
                raise LogicalFormError("unbalanced parentheses: missing ')'")
            if tokens[position] == ")":
                position += 1
                return Tree(label, tuple(children), is_call=True)
            children.append(parse_item())

    tree = parse_item()
    if position != len(tokens):
        raise LogicalFormError(
            f"unexpected tokens after the end of the logical form at token {position + 1}: "
            f"{' '.join(tokens[position : position + 5])!r}"
        )
    return tree


def _print_lambda(tree: Tree, out: List[str]) -> None:
    if tree.is_leaf:
        out.append(tree.label)
        return
    out.append("(")
    out.append(tree.label)
    for child in tree.children:
        _print_lambda(child, out)
    out.append(")")


# ---------------------------------------------------------------------------------------------
# Prolog goal lists
# ---------------------------------------------------------------------------------------------


def _parse_prolog(tokens: List[str]) -> Tree:
    position = 0

    def peek() -> Optional[str]:
        return tokens[position] if position < len(tokens) else None

    def expect(token: str) -> None:
        nonlocal position
        if peek() != token:
            found = "end of logical form" if peek() is None else repr(peek())
            raise LogicalFormError(f"expected {token!r} at token {position + 1}, found {found}")
        position += 1

    def parse_conjunction(parenthesised: bool) -> Tree:
        goals = [parse_goal()]
        while peek() == ",":
            expect(",")
            goals.append(parse_goal())
        return Tree(CONJUNCTION, tuple(goals), is_call=True)

    def parse_goal() -> Tree:
        nonlocal position
        token = peek()
        if token is None:
            raise LogicalFormError("unexpected end of logical form: expected a goal")
        if token == NEGATION:
            position += 1
            if peek() == "(":
                expect("(")
                inner = parse_conjunction(parenthesised=True)
                expect(")")
                return Tree(NEGATION, (inner,), is_call=True)
            return Tree(NEGATION, (parse_goal(),), is_call=True)
        return parse_term()

    def parse_term() -> Tree:
        nonlocal position
        token = peek()
        if token is None or token in ("(", ")", ","):
            found = "end of logical form" if token is None else repr(token)
            raise LogicalFormError(f"expected a term at token {position + 1}, found {found}")
        position += 1
        if peek() != "(":
            return Tree(token)
        expect("(")
        arguments: List[Tree] = []
        if peek() == ")":
            expect(")")
            return Tree(token, (), is_call=True)
        arguments.append(parse_term())
        while peek() == ",":
            expect(",")
            arguments.append(parse_term())
        expect(")")
        return Tree(token, tuple(arguments), is_call=True)

    tree = parse_conjunction(parenthesised=False)
    if position != len(tokens):
        raise LogicalFormError(
            f"unexpected tokens at token {position + 1}: {' '.join(tokens[position : position + 5])!r}"
            " (unbalanced parentheses?)"
        )
    return tree


def _print_prolog(tree: Tree, out: List[str], top: bool = False) -> None:
    if tree.label == CONJUNCTION and tree.is_call:
        if not top:
            out.append("(")
        for index, goal in enumerate(tree.children):
            if index:
                out.append(",")
            _print_prolog(goal, out)
        if not top:
            out.append(")")
        return
    if tree.label == NEGATION and tree.is_call and len(tree.children) == 1:
        out.append(NEGATION)
        _print_prolog(tree.children[0], out)
        return
    out.append(tree.label)
    if tree.is_call:
        out.append("(")
        for index, argument in enumerate(tree.children):
            if index:
                out.append(",")
            _print_prolog(argument, out)
        out.append(")")


# ---------------------------------------------------------------------------------------------
# Public entry points
# ---------------------------------------------------------------------------------------------


def check_formalism(formalism: str) -> str:
    if formalism not in FORMALISMS:
        raise ValueError(f"unknown formalism {formalism!r}; expected one of {', '.join(FORMALISMS)}")
    return formalism


def tokenize(logical_form: str) -> List[str]:
    return logical_form.split()


def parse(logical_form: str, formalism: str) -> Tree:
    """Parses a space-tokenised logical form of the given formalism into a `Tree`."""
    check_formalism(formalism)
    tokens = tokenize(logical_form)
    if not tokens:
        raise LogicalFormError("empty logical form")
    if tokens.count("(") != tokens.count(")"):
        raise LogicalFormError(f"unbalanced parentheses: {tokens.count('(')} '(' but {tokens.count(')')} ')'")
    if formalism == "lambda":
        return _parse_lambda(tokens)
    return _parse_prolog(tokens)


def to_string(tree: Tree, formalism: str) -> str:
    """Prints a tree in the benchmark's token format (the inverse of `parse`)."""
    check_formalism(formalism)
    out: List[str] = []
    if formalism == "lambda":
        _print_lambda(tree, out)
    else:
        _print_prolog(tree, out, top=True)
    return " ".join(out)
