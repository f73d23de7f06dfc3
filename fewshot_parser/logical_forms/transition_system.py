"""
The GEN/REDUCE transition system: gold LF -> action sequence (the oracle), action sequence -> LF
(execution), and what a batched stack-LSTM needs for teacher forcing.

Decoder-state indexing used throughout (reader, model, prototypes):

* state 0 is the initial state (from the encoder); decoder step `t` (predicting action `t`)
  produces state `t + 1`;
* step 0 continues from state 0 with a start input; step `t > 0` consumes action `t - 1`: it pops
  that action's `arity` stack elements and continues from the state of the element left on top
  (state 1, the state after the start step, when the stack is empty), and its own state becomes
  the state of the element it pushed.

So `previous_state[t]`, `popped_states[t]` (the states of the children a REDUCE combined) and
`stack_size[t]` (stack height before action `t`, which decides the applicable actions) are known
before decoding for every gold sequence, and the model never simulates the stack per example.
"""

from typing import List, NamedTuple, Optional, Sequence, Tuple

from fewshot_parser.logical_forms.actions import HOLE, STOP_ACTION, Action
from fewshot_parser.logical_forms.normalize import Fragment, TemplateNormalizer
from fewshot_parser.logical_forms.template import Abstractor, SlotValue, is_slot
from fewshot_parser.logical_forms.tree import Tree, parse, to_string


class Step(NamedTuple):
    """One action with the values of its slots (in the pattern's pre-order)."""

    action: Action
    values: Tuple[SlotValue, ...] = ()


class TeacherForcing(NamedTuple):
    previous_state: List[int]
    stack_size: List[int]
    popped_states: List[List[int]]


class TransitionError(ValueError):
    """An action sequence that cannot be executed (wrong arity, missing STOP, ...)."""


def instantiate(pattern: Tree, subtrees: Sequence[Tree], values: Sequence[SlotValue]) -> Tree:
    """Fills the holes of `pattern` with `subtrees` and its slots with `values` (both in pre-order)."""
    holes = iter(subtrees)
    slots = iter(values)

    def visit(node: Tree) -> Tree:
        if node.is_leaf:
            if node.label == HOLE:
                return next(holes)
            if is_slot(node.label):
                value = next(slots, None)
                if value is None:
                    raise TransitionError(f"no value given for slot {node.label}")
                return Tree(value.value)
            return node
        return node.replace_children(tuple(visit(child) for child in node.children))

    return visit(pattern)


def execute(steps: Sequence[Step]) -> Tree:
    """Runs an action sequence on an empty stack and returns the finished tree."""
    stack: List[Tree] = []
    for position, (action, values) in enumerate(steps):
        if action == STOP_ACTION:
            if len(stack) != 1:
                raise TransitionError(f"STOP at step {position} with {len(stack)} trees on the stack")
            if position != len(steps) - 1:
                raise TransitionError(f"actions after STOP at step {position}")
            return stack[0]
        if action.arity > len(stack):
            raise TransitionError(f"{action} at step {position} needs {action.arity} trees, stack has {len(stack)}")
        if len(values) != len(action.slots):
            raise TransitionError(
                f"{action} at step {position} has {len(action.slots)} slots, got {len(values)} values"
            )
        children = stack[len(stack) - action.arity :]
        del stack[len(stack) - action.arity :]
        assert action.pattern is not None
        stack.append(instantiate(action.pattern, children, values))
    raise TransitionError("the action sequence does not end with STOP")


def teacher_forcing(actions: Sequence[Action]) -> TeacherForcing:
    """Stack pointers of a gold action sequence (see the module docstring for the indexing)."""
    previous, sizes = [0], [0]
    popped: List[List[int]] = [[]]
    stack_states: List[int] = []
    for step in range(1, len(actions)):
        action = actions[step - 1]
        children = stack_states[len(stack_states) - action.arity :] if action.arity else []
        if action.arity:
            del stack_states[len(stack_states) - action.arity :]
        previous.append(stack_states[-1] if stack_states else 1)
        stack_states.append(step + 1)
        sizes.append(len(stack_states))
        popped.append(children)
    return TeacherForcing(previous, sizes, popped)


def is_applicable(action: Action, stack_size: int) -> bool:
    if action == STOP_ACTION:
        return stack_size == 1
    return action.arity <= stack_size


class TransitionSystem:
    """
    Converts between LFs of one formalism and action sequences, with a template normalizer.

    # Parameters

    formalism : `str`
        `"lambda"` or `"prolog"`.
    normalizer : `TemplateNormalizer`, optional
        The learned idioms (none: base fragments only).
    abstractor : `Abstractor`, optional
        Decides which atoms are slots (default: anonymized entities and variables).
    """

    def __init__(
        self, formalism: str, normalizer: Optional[TemplateNormalizer] = None, abstractor: Optional[Abstractor] = None
    ) -> None:
        self.formalism = formalism
        self.normalizer = normalizer or TemplateNormalizer(idioms=[])
        self.abstractor = abstractor or Abstractor(formalism)

    def oracle(self, tree: Tree, utterance: Sequence[str]) -> List[Step]:
        """The gold action sequence (with slot values) of an LF tree."""
        fragment = self.normalizer.tile(tree, self.abstractor.leaf_labeler(utterance), self.abstractor.kind_of)
        steps: List[Step] = []
        _post_order(fragment, steps)
        steps.append(Step(STOP_ACTION))
        return steps

    def oracle_for_string(self, logical_form: str, utterance: Sequence[str]) -> List[Step]:
        return self.oracle(parse(logical_form, self.formalism), utterance)

    def to_logical_form(self, steps: Sequence[Step]) -> str:
        return to_string(execute(steps), self.formalism)


def _post_order(fragment: Fragment, out: List[Step]) -> None:
    for child in fragment.children:
        _post_order(child, out)
    out.append(Step(Action.for_pattern(fragment.pattern), fragment.values))
