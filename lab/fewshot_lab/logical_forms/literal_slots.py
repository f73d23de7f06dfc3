"""
Templates whose slots also cover fixed literal atoms, as the authors' `is_lit` makes them.

Our `Abstractor` turns an anonymized atom into an entity slot only when it occurs in the utterance,
and keeps every other constant (`year`, `hour`, `20`, `first:cl`) inside the template. The authors'
code instead treats a fixed set of atoms as entities wherever they occur, in the utterance or not,
and names their value with a classifier over the entity values seen in training and support data
(docs/reproduction.md row 4, note 3). `LiteralSlotAbstractor` does the same for the atoms matching
a regular expression; the other atoms are handled as by `Abstractor`.
"""

import re
from typing import Callable, Optional, Sequence, Tuple

from fewshot_parser.logical_forms.template import (
    DEFAULT_ENTITY_PATTERN,
    UNIFIED_SLOT,
    Abstractor,
    entity_slot,
    entity_type,
    is_variable,
)


class LiteralSlotAbstractor(Abstractor):
    """
    An `Abstractor` for which every atom matching `literal_pattern` (whole atom) is an entity slot,
    whether or not the utterance holds it. Such a slot's value can only be classified, not copied,
    when the utterance lacks it (the copy target is then empty and its copy term is skipped).

    # Parameters

    formalism, entity_pattern, typed_entities, unify_slots
        As for `Abstractor`.
    literal_pattern : `str`
        A regular expression of the atoms that are always entity slots (e.g. for Jobs, the authors'
        `.*id[012]|num_salary|year[01]?|hour|month|20`).
    """

    def __init__(
        self,
        formalism: str,
        literal_pattern: str,
        entity_pattern: str = DEFAULT_ENTITY_PATTERN,
        typed_entities: bool = True,
        unify_slots: bool = False,
    ) -> None:
        super().__init__(formalism, entity_pattern, typed_entities, unify_slots)
        try:
            self._literal_pattern = re.compile(f"(?:{literal_pattern})\\Z")
        except re.error as error:
            raise ValueError(f"literal_pattern {literal_pattern!r} is not a regular expression: {error}") from error
        self.literal_pattern = literal_pattern

    @classmethod
    def around(cls, abstractor: Abstractor, literal_pattern: str) -> "LiteralSlotAbstractor":
        """A literal-slot abstractor with the settings of `abstractor`."""
        return cls(
            abstractor.formalism, literal_pattern, abstractor.entity_pattern, abstractor.typed_entities,
            abstractor.unify_slots,
        )

    def is_literal(self, atom: str) -> bool:
        return not is_variable(atom, self.formalism) and bool(self._literal_pattern.match(atom))

    def cache_key(self) -> Tuple:
        return super().cache_key() + (self.literal_pattern,)

    def token_entity_type(self, token: str) -> Optional[str]:
        found = super().token_entity_type(token)
        if found is None and self.is_literal(token):
            return self.slot_type(entity_type(token))
        return found

    def leaf_labeler(self, utterance: Sequence[str]) -> Callable[[str], str]:
        ordinary = super().leaf_labeler(utterance)

        def label(atom: str) -> str:
            if self.is_literal(atom):
                if self.unify_slots:
                    return UNIFIED_SLOT
                return entity_slot(self.slot_type(entity_type(atom)))
            return ordinary(atom)

        return label
