"""
Untyped entity slots for the new predicates only: a reader wrapper.

With typed slots an action names the type of each entity it takes (`( capital:t <e:c> <v> )`), so a
new predicate can only be written with the entity types its support examples show. A query asking
for the capital of a state needs `( capital:t <e:s> <v> )`, an action that does not exist. Untyped
slots (`typed_entities: false`) remove the limit for every predicate, and on the development suite
they gain geo but lose jobs, where the types of known predicates' slots carry information.

`UntypedNewReader` keeps typed slots for the predicates of the training data and gives the other
predicates (the new ones, met in support and query LFs) the untyped slot `<e:entity>`. The slot
filler copies such a slot's value from any utterance word (no word has the type `entity` in a typed
vocabulary); pair it with the decoding scorer `slot_type_check_any`, which does not charge an
untyped slot as a missing type. Pre-training is unchanged: the training data has no new predicate.
"""

from typing import Any, Callable, FrozenSet, List, Optional, Sequence

from allennlp.data import DatasetReader

from fewshot_lab.data.dataset_readers.wrapper import AbstractorWrapper
from fewshot_parser.data.examples import read_training_examples
from fewshot_parser.logical_forms.template import Abstractor, entity_slot, is_slot, predicates
from fewshot_parser.logical_forms.transition_system import Step, TransitionSystem
from fewshot_parser.logical_forms.tree import CONJUNCTION, Tree

ANY_ENTITY = "entity"


class NewPredicateAbstractor(Abstractor):
    """
    An `Abstractor` whose entity slots are untyped (`<e:entity>`) where the entity is an argument of
    a predicate outside `known`, and typed as by `Abstractor` elsewhere.

    The leaf labeler sees atoms, not their parents, so `in_tree` first names the LF whose atoms are
    labelled (the transition system's oracle does so for every LF it abstracts).
    """

    def __init__(self, known: FrozenSet[str], formalism: str, entity_pattern: str, unify_slots: bool) -> None:
        super().__init__(formalism, entity_pattern, True, unify_slots)
        self.known = known
        self._untyped_atoms: FrozenSet[str] = frozenset()

    def in_tree(self, tree: Optional[Tree]) -> None:
        """Makes the next labelling untype the leaf arguments of `tree`'s unknown predicates."""
        atoms = set()
        if tree is not None:
            for node in tree.calls():
                if node.label in self.known or node.label == CONJUNCTION:
                    continue
                atoms.update(child.label for child in node.children if child.is_leaf)
        self._untyped_atoms = frozenset(atoms)

    def leaf_labeler(self, utterance: Sequence[str]) -> Callable[[str], str]:
        typed = super().leaf_labeler(utterance)
        untyped_atoms = self._untyped_atoms

        def label(atom: str) -> str:
            template_label = typed(atom)
            if atom in untyped_atoms and is_slot(template_label) and template_label.startswith("<e:"):
                return entity_slot(ANY_ENTITY)
            return template_label

        return label


class _UntypedNewSystem(TransitionSystem):
    """A transition system that shows each LF to its `NewPredicateAbstractor` before abstracting it."""

    abstractor: NewPredicateAbstractor

    def oracle(self, tree: Tree, utterance: Sequence[str]) -> List[Step]:
        self.abstractor.in_tree(tree)
        try:
            return super().oracle(tree, utterance)
        finally:
            self.abstractor.in_tree(None)


@DatasetReader.register("fewshot_untyped_new")
class UntypedNewReader(AbstractorWrapper):
    """
    Reads with `reader` (a few-shot LF reader with typed entity slots whose `idiom_source` is a
    training data file) after giving the predicates absent from that file untyped entity slots
    (module docstring).

    Registered as a `DatasetReader` with name "fewshot_untyped_new".

    # Parameters

    reader : `DatasetReader`
        A few-shot LF reader (`fewshot_lf` or a benchmark reader) with `typed_entities: true`.
    """

    def __init__(self, reader: DatasetReader, **kwargs: Any) -> None:
        super().__init__(reader, **kwargs)
        formalism, entity_pattern, source = self.typed_training_file("untyped slots for new predicates")
        known = frozenset(p for e in read_training_examples(source, formalism) for p in predicates(e.tree))
        self.abstractor = NewPredicateAbstractor(known, formalism, entity_pattern, False)
        system = self.reader.transition_system  # learns the idioms from the training data, as typed templates
        # The wrapped reader abstracts through its transition system; give it one that knows the LF.
        self.replace_abstractor(self.abstractor, _UntypedNewSystem(formalism, system.normalizer, self.abstractor))
