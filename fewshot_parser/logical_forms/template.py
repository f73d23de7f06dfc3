"""
LF templates: a logical form with its utterance-specific atoms abstracted into typed slots.

* An *entity* is an anonymized atom that also occurs in the utterance (``s0``, ``ci1``,
  ``num_salary``): it becomes the slot leaf ``<e:TYPE>`` (``<e:ci>``), and its value is copied
  from the utterance by the slot filler.
* A *variable* (``$0``, ``$1`` in lambda calculus; capitalised atoms such as ``ANS`` in Prolog)
  becomes the shared slot leaf ``<v>``; its name is restored by the variable slot filler.
* Every other atom (``first:cl``, ``year``, ``e``, ``20``) and every predicate stays in the template.

`abstract` and `fill` are exact inverses: ``fill(*abstract(tree, ...)) == tree``.
"""

import re
from typing import Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

from fewshot_parser.logical_forms.tree import CONJUNCTION, Tree

VARIABLE_SLOT = "<v>"
# With `unify_slots`, variables and entities share this one slot label, so an action such as
# `( area:i <s> )` serves both `( area:i $0 )` and `( area:i s0 )`; the slot filler decides.
UNIFIED_SLOT = "<s>"
ENTITY_SLOT_PREFIX = "<e:"
# Anonymized atoms as produced by Dong & Lapata (2016): a lower-case type and an index
# (`ci0`, `languageid1`), or `num_...` placeholders (`num_salary`).
DEFAULT_ENTITY_PATTERN = r"^(?:[a-z][a-z_]*\d+|num_[a-z_]+)$"
_LAMBDA_VARIABLE = re.compile(r"^\$\d+$")
_PROLOG_VARIABLE = re.compile(r"^[A-Z_][A-Za-z0-9_]*$")
_TRAILING_DIGITS = re.compile(r"\d+$")


class SlotValue(NamedTuple):
    """The value of one slot: `kind` is `"entity"` or `"variable"`, `value` the atom."""

    kind: str
    value: str


def is_variable(atom: str, formalism: str) -> bool:
    pattern = _LAMBDA_VARIABLE if formalism == "lambda" else _PROLOG_VARIABLE
    return bool(pattern.match(atom))


def entity_type(atom: str) -> str:
    """`ci1` -> `ci`, `num_salary` -> `num_salary`."""
    stripped = _TRAILING_DIGITS.sub("", atom)
    return stripped or atom


def entity_slot(type_name: str) -> str:
    return f"{ENTITY_SLOT_PREFIX}{type_name}>"


def is_slot(label: str) -> bool:
    return label in (VARIABLE_SLOT, UNIFIED_SLOT) or (label.startswith(ENTITY_SLOT_PREFIX) and label.endswith(">"))


def slot_type(label: str) -> str:
    """The entity type of an entity slot leaf (`<e:ci>` -> `ci`)."""
    return label[len(ENTITY_SLOT_PREFIX) : -1]


class Abstractor:
    """
    Turns logical forms into templates plus slot values, for one formalism.

    # Parameters

    formalism : `str`
        `"lambda"` or `"prolog"`.
    entity_pattern : `str`, optional (default = `DEFAULT_ENTITY_PATTERN`)
        A regular expression for atoms that may be entities. An atom is an entity when it
        matches and occurs among the utterance tokens.
    typed_entities : `bool`, optional (default = `True`)
        If true, an entity slot carries the atom's type (`<e:ci>`); otherwise all entity slots
        are `<e:entity>` (useful for data whose entities are not anonymized).
    unify_slots : `bool`, optional (default = `False`)
        If true, variables and entities both become the slot `<s>` (see `UNIFIED_SLOT`).
    entity_classes : `Dict[str, str]`, optional (default = `None`)
        With typed entities, the class of each entity type: a slot (and an utterance entity) carries
        its type's class instead of the type, so the types of one class share their actions. A type
        missing from the map is its own class.
    """

    def __init__(
        self,
        formalism: str,
        entity_pattern: str = DEFAULT_ENTITY_PATTERN,
        typed_entities: bool = True,
        unify_slots: bool = False,
        entity_classes: Optional[Dict[str, str]] = None,
    ) -> None:
        self.formalism = formalism
        self._entity_pattern = re.compile(entity_pattern)
        self.typed_entities = typed_entities
        self.unify_slots = unify_slots
        self.entity_classes = dict(entity_classes or {})

    @property
    def entity_pattern(self) -> str:
        return self._entity_pattern.pattern

    def cache_key(self) -> Tuple:
        classes = tuple(sorted(self.entity_classes.items()))
        return (self.formalism, self.entity_pattern, self.typed_entities, self.unify_slots, classes)

    def slot_type(self, type_name: str) -> str:
        """The slot type of an entity of type `type_name`: the type, its class, or `entity` when untyped."""
        return self.entity_classes.get(type_name, type_name) if self.typed_entities else "entity"

    def kind_of(self, atom: str) -> str:
        """Whether a slot atom is a `"variable"` or an `"entity"`."""
        return "variable" if is_variable(atom, self.formalism) else "entity"

    def token_entity_type(self, token: str) -> Optional[str]:
        """The slot type an utterance token can fill (`ci` for `ci0`), or None if it is no entity."""
        if not self._entity_pattern.match(token):
            return None
        return self.slot_type(entity_type(token))

    def leaf_labeler(self, utterance: Sequence[str]) -> Callable[[str], str]:
        """A function mapping each atom of an LF of `utterance` to its template label."""
        tokens = set(utterance)

        def label(atom: str) -> str:
            if is_variable(atom, self.formalism):
                return UNIFIED_SLOT if self.unify_slots else VARIABLE_SLOT
            if atom in tokens and self._entity_pattern.match(atom):
                if self.unify_slots:
                    return UNIFIED_SLOT
                return entity_slot(self.slot_type(entity_type(atom)))
            return atom

        return label

    def abstract(self, tree: Tree, utterance: Sequence[str]) -> Tuple[Tree, List[SlotValue]]:
        """Returns the template and the slot values in pre-order of the template's slot leaves."""
        label = self.leaf_labeler(utterance)
        values: List[SlotValue] = []

        def visit(node: Tree) -> Tree:
            if node.is_leaf:
                template_label = label(node.label)
                if is_slot(template_label):
                    values.append(SlotValue(self.kind_of(node.label), node.label))
                    return Tree(template_label)
                return node
            return node.replace_children(tuple(visit(child) for child in node.children))

        return visit(tree), values


def slot_labels(template: Tree) -> List[str]:
    """The slot leaves of a template (or action pattern), in pre-order."""
    return [leaf.label for leaf in template.leaves() if is_slot(leaf.label)]


def fill(template: Tree, values: Sequence[SlotValue]) -> Tree:
    """Replaces the slot leaves of `template`, in pre-order, by `values` (the inverse of `abstract`)."""
    position = 0

    def visit(node: Tree) -> Tree:
        nonlocal position
        if node.is_leaf and is_slot(node.label):
            if position >= len(values):
                raise ValueError(f"template has more slots than the {len(values)} values given")
            value = values[position]
            position += 1
            return Tree(value.value if isinstance(value, SlotValue) else str(value))
        if node.is_leaf:
            return node
        return node.replace_children(tuple(visit(child) for child in node.children))

    filled = visit(template)
    if position != len(values):
        raise ValueError(f"template has {position} slots but {len(values)} values were given")
    return filled


def predicates(tree: Tree) -> List[str]:
    """The predicate symbols of a tree (labels of its application nodes, Prolog `,` excluded)."""
    return [node.label for node in tree.calls() if node.label != CONJUNCTION]


def entity_positions(value: str, utterance: Sequence[str]) -> List[int]:
    """Every position of `value` in the utterance (an entity may be copied from any of them)."""
    return [index for index, token in enumerate(utterance) if token == value]
