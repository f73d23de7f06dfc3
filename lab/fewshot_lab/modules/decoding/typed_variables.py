"""
Variable naming that keeps each variable's type conditions compatible. Not in the paper.

ProtoParser names each variable slot on its own, so a decoded template can be well scoped and still
give one variable two types: for "what state have city n0" the best row wrote
`( lambda $0 e ( and ( state:t $0 ) ( exists $1 ( and ( city:t $0 ) ( named:t $1 n0 ) ( loc:t $1 $0 ) ) ) ) )`,
a state that is a city, on 8 of the 39 queries of dev geo draw 28 (1-shot, support sample 1; the same
parser taught "how many state have a city n0" instead named it `$1` every time).

This reranker extends variable scoping (`variable_scoping`): a naming is acceptable when it is well
scoped and no variable carries two one-argument conditions that the training file never puts on one
variable, though each is common there (at least `min_count` uses on a variable). The decoded naming
is kept when acceptable; otherwise the most probable acceptable naming is taken, as variable scoping
does. Conditions absent from the training file (the new predicates) are never charged, so nothing
depends on which predicates are new. Only `$n` variables (the lambda formalism) are checked.
"""

from collections import Counter, defaultdict
from itertools import combinations
from typing import Dict, FrozenSet, Iterable, List, Optional, Set

from allennlp.common.checks import ConfigurationError

from fewshot_parser.data.examples import read_examples
from fewshot_parser.data.paths import resolve_data_path
from fewshot_parser.logical_forms.transition_system import Step, TransitionError, execute
from fewshot_parser.logical_forms.tree import Tree
from fewshot_parser.modules.decoding.reranker import Reranker
from fewshot_parser.modules.decoding.variable_scoping import VariableScoping, is_well_scoped


def variable_conditions(tree: Tree) -> Dict[str, Set[str]]:
    """Per variable `$n`, the labels of the one-argument calls applied to it (`( city:t $0 )`)."""
    found: Dict[str, Set[str]] = defaultdict(set)
    for call in tree.calls():
        if len(call.children) == 1 and call.children[0].is_leaf and call.children[0].label.startswith("$"):
            found[call.children[0].label].add(call.label)
    return found


class ConditionPairs:
    """Which one-argument conditions the training LFs put on one variable together, and how often each is used."""

    def __init__(self, trees: Iterable[Tree], min_count: int) -> None:
        self.counts: Counter = Counter()
        self.together: Set[FrozenSet[str]] = set()
        for tree in trees:
            for conditions in variable_conditions(tree).values():
                self.counts.update(conditions)
                self.together.update(frozenset(pair) for pair in combinations(sorted(conditions), 2))
        self.min_count = min_count

    def clashes(self, tree: Tree) -> List[FrozenSet[str]]:
        """The pairs of common conditions on one variable of `tree` that no training LF puts together."""
        found = []
        for conditions in variable_conditions(tree).values():
            for pair in combinations(sorted(conditions), 2):
                common = all(self.counts[label] >= self.min_count for label in pair)
                if common and frozenset(pair) not in self.together:
                    found.append(frozenset(pair))
        return found


@Reranker.register("typed_variables")
class TypedVariables(VariableScoping):
    """
    Variable scoping whose acceptable namings also give no variable two conditions that never share a
    variable in the training file (module docstring).

    Registered as a `Reranker` with name "typed_variables".

    # Parameters

    training_data : `str`
        The training file the conditions are counted in (a data path, as the readers take it).
    min_count : `int`, optional (default = `3`)
        Uses on a variable a condition needs in the training file before a clash with it counts.
    names_per_slot : `int`, optional (default = `3`)
        Names tried per variable slot (its most probable ones).
    max_namings : `int`, optional (default = `200`)
        Namings tried per template at most.
    """

    def __init__(self, training_data: str, min_count: int = 3, names_per_slot: int = 3, max_namings: int = 200) -> None:
        super().__init__(names_per_slot, max_namings)
        if min_count < 1:
            raise ConfigurationError(f"typed variables: min_count must be >= 1, not {min_count}")
        examples = read_examples(resolve_data_path(training_data), "lambda")
        self.pairs = ConditionPairs((example.tree for example in examples), min_count)

    def acceptable(self, steps: List[Step]) -> bool:
        if not is_well_scoped(steps):
            return False
        try:
            tree: Optional[Tree] = execute(steps)
        except TransitionError:
            return True
        return tree is None or not self.pairs.clashes(tree)
