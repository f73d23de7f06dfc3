"""
Entity slots typed by interchangeable class: a reader wrapper.

Typed slots (`<e:c>`, `<e:s>`) give a predicate one action per entity type it takes, so what the
parser learns of `( loc:t <v> <e:c> )` does not carry over to `( loc:t <v> <e:co> )`, and a new
predicate shown with a city cannot be written with a state. Untyped slots (`<e:entity>`) share one
action across types; on the development suite they gain GeoQuery, where cities, states, rivers and
countries fill the same arguments, and lose Jobs, where each argument takes one kind of entity and
the type tells the slot filler which of the utterance's entities to copy.

`EntityClassAbstractor` types slots by class instead: two entity types are in one class when the
training data has them in the same argument of the same predicate (closed transitively), and a slot,
like an utterance word, carries its type's class. GeoQuery's places become one class; Jobs keeps its
types apart (every argument there takes one type). The classes come from the training file alone.
"""

from typing import Any, Callable, Dict, FrozenSet, Iterable, List, Sequence, Tuple

from allennlp.data import DatasetReader

from fewshot_lab.data.dataset_readers.wrapper import AbstractorWrapper
from fewshot_parser.data.examples import Example, read_training_examples
from fewshot_parser.logical_forms.template import ENTITY_SLOT_PREFIX, Abstractor, entity_slot, entity_type
from fewshot_parser.logical_forms.tree import CONJUNCTION

CLASS_SEPARATOR = "+"


def entity_classes(examples: Iterable[Example], abstractor: Abstractor) -> Dict[str, str]:
    """
    The class name of each entity type met in `examples` (types joined by `+`, sorted): types are
    merged when some predicate takes both in the same argument position.
    """
    parent: Dict[str, str] = {}

    def find(name: str) -> str:
        parent.setdefault(name, name)
        while parent[name] != name:
            parent[name] = parent[parent[name]]
            name = parent[name]
        return name

    for example in examples:
        tokens = set(example.utterance)
        for node in example.tree.calls():
            if node.label == CONJUNCTION:
                continue
            for position, child in enumerate(node.children):
                if not child.is_leaf or child.label not in tokens:
                    continue
                name = abstractor.token_entity_type(child.label)
                if name is None:
                    continue
                key = f"\0{node.label}\0{position}"  # the argument position, a node of the union
                parent[find(name)] = find(key)
    members: Dict[str, List[str]] = {}
    for name in parent:
        if not name.startswith("\0"):
            members.setdefault(find(name), []).append(name)
    return {name: CLASS_SEPARATOR.join(sorted(group)) for group in members.values() for name in group}


class EntityClassAbstractor(Abstractor):
    """An `Abstractor` whose entity slots and utterance entities carry their type's class (module
    docstring); a type outside `classes` is its own class."""

    def __init__(self, classes: Dict[str, str], formalism: str, entity_pattern: str, unify_slots: bool) -> None:
        super().__init__(formalism, entity_pattern, True, unify_slots)
        self.classes = dict(classes)

    def cache_key(self) -> Tuple:
        return super().cache_key() + (tuple(sorted(self.classes.items())),)

    def token_entity_type(self, token: str):
        name = super().token_entity_type(token)
        return None if name is None else self.classes.get(name, name)

    def leaf_labeler(self, utterance: Sequence[str]) -> Callable[[str], str]:
        typed = super().leaf_labeler(utterance)

        def label(atom: str) -> str:
            template_label = typed(atom)
            if template_label.startswith(ENTITY_SLOT_PREFIX):
                name = entity_type(atom)
                return entity_slot(self.classes.get(name, name))
            return template_label

        return label


@DatasetReader.register("fewshot_entity_classes")
class EntityClassesReader(AbstractorWrapper):
    """
    Reads with `reader` (a few-shot LF reader with typed entity slots whose `idiom_source` is the
    training data file) after typing its entity slots by class (module docstring). Use it for the
    pre-training and the fine-tuning reader alike.

    Registered as a `DatasetReader` with name "fewshot_entity_classes".

    # Parameters

    reader : `DatasetReader`
        A few-shot LF reader (`fewshot_lf` or a benchmark reader) with `typed_entities: true`.
    """

    def __init__(self, reader: DatasetReader, **kwargs: Any) -> None:
        super().__init__(reader, **kwargs)
        formalism, entity_pattern, source = self.typed_training_file("entity classes")
        classes = entity_classes(read_training_examples(source, formalism), self.wrapped_abstractor)
        self.abstractor = EntityClassAbstractor(classes, formalism, entity_pattern, False)
        self.replace_abstractor(self.abstractor)

    @property
    def classes(self) -> FrozenSet[str]:
        """The class names, for inspection."""
        return frozenset(self.abstractor.classes.values())
