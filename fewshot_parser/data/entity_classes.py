"""
Entity classes: which entity types share a slot type.

Typed entity slots (`<e:c>` for a city, `<e:s>` for a state) give a predicate one action per type it
takes, so what the parser learns of `( loc:t <v> <e:c> )` does not carry over to `( loc:t <v> <e:s> )`,
and a new predicate shown once with a city cannot be written with a state. Untyped slots share one
action across all types, and then the slot filler no longer knows which of the utterance's entities
to copy where the type named it (Jobs). A reader's `entity_classes` groups types into classes: a
slot, like an utterance entity, then carries its type's class.
"""

from typing import Dict, Iterable, List

from allennlp.common import Registrable
from allennlp.common.checks import ConfigurationError

from fewshot_parser.data.examples import Example, read_training_examples
from fewshot_parser.data.signature_check import is_data_file
from fewshot_parser.logical_forms.template import Abstractor
from fewshot_parser.logical_forms.tree import CONJUNCTION

CLASS_SEPARATOR = "+"


class EntityClasses(Registrable):
    """Groups a reader's entity types into classes (module docstring)."""

    def classes(self, training_file: str, abstractor: Abstractor) -> Dict[str, str]:
        """
        The class name of each entity type. `training_file` is the reader's `idiom_source` and
        `abstractor` its abstractor without classes (it tells an utterance's entities and their types).
        """
        raise NotImplementedError


@EntityClasses.register("shared_arguments")
class SharedArgumentClasses(EntityClasses):
    """
    Two entity types are one class when the training data has both in the same argument of the same
    predicate, closed transitively: GeoQuery's cities, states, rivers, countries and mountains fill
    `loc:t`'s second argument and become one class, while each argument of Jobs takes one type, which
    keeps its types apart. A class is named by its types, sorted and joined by `+`.

    Registered as an `EntityClasses` with name "shared_arguments". Needs the reader's `idiom_source`
    to be the training data file.
    """

    def classes(self, training_file: str, abstractor: Abstractor) -> Dict[str, str]:
        if not is_data_file(training_file):
            raise ConfigurationError(
                "dataset_reader.idiom_source: must be the training data file, for "
                f"entity_classes 'shared_arguments' (got {training_file!r})"
            )
        return shared_argument_classes(read_training_examples(training_file, abstractor.formalism), abstractor)


@EntityClasses.register("given")
class GivenClasses(EntityClasses):
    """
    Classes a user names: `{"place": ["c", "s", "r"]}` makes cities, states and rivers one class,
    `place`; a type not listed is its own class.

    Registered as an `EntityClasses` with name "given".
    """

    def __init__(self, classes: Dict[str, List[str]]) -> None:
        self._classes: Dict[str, str] = {}
        for name, members in classes.items():
            for member in members:
                if member in self._classes:
                    raise ConfigurationError(
                        f"dataset_reader.entity_classes.classes: entity type {member!r} is in two classes "
                        f"({self._classes[member]!r} and {name!r})"
                    )
                self._classes[member] = name

    def classes(self, training_file: str, abstractor: Abstractor) -> Dict[str, str]:
        return dict(self._classes)


def shared_argument_classes(examples: Iterable[Example], abstractor: Abstractor) -> Dict[str, str]:
    """
    The class name of each entity type met in `examples`: types are merged when some predicate takes
    both in the same argument position (a union-find over types and (predicate, position) nodes).
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
                parent[find(name)] = find(f"\0{node.label}\0{position}")  # the argument's node
    members: Dict[str, List[str]] = {}
    for name in parent:
        if not name.startswith("\0"):
            members.setdefault(find(name), []).append(name)
    return {name: CLASS_SEPARATOR.join(sorted(group)) for group in members.values() for name in group}
