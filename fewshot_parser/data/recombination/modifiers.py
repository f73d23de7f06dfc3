"""
Modifier pairs: a new modifier inserted beside a type in the training templates. Not in the paper; in
the spirit of data recombination (Jia and Liang, 2016), as a grammar rule "type -> modifier type".

A support example such as "how many big city are in s0", `( count $0 ( and ( major:t $0 ) ( city:t
$0 ) ( loc:t $0 s0 ) ) )`, shows the new condition `major:t` on a variable that a known condition
(`city:t`) also types: a *modifier*. Forward pairs need a known predicate that plays the same role to
replace, and a known modifier is rare (none is left on geo when `major:t` and `capital:t` are new),
so the parser sees the modifier in the support's `count` template only and answers "what are the
major city in s0" without it.

A *modifier* pair takes a training example whose LF has a conjunction (the support call's parent
operator, `and`) holding a one-argument condition `( T $x )` on a variable, spoken in its utterance
(`wording.known_span`). It adds `( p $x )` to that conjunction beside `T`'s call (first where the
support LF puts `p` first), and `p`'s support word next to `T`'s words ("big"; not the "how many"
that its support words may take in), on the side the support utterance puts it ("big city"). By
default `T` is any known condition of the support type's suffix (`river:t`, `lake:t`, ...); beside the
support's type only (`same_type`), the 2-shot supports of dev geo draws 22 and 23 that show `major:t`
beside `river:t` lost 10-20 points on the development suite. A condition that every
training LF calls (jobs' `job ( ANS )`) is the domain of every question, not a type that sets some
apart: it is neither `T` nor a type of the support. Beside it, the jobs supports' one-argument
`des_deg` ("what job desire a degree") went into every template, while the queries use its
two-argument form (10 of 11 on draw 12), and the pairs lost jobs -0.29 / -0.50 on the development
suite; geo and ATIS have no such condition in any split. A template that uses `T`
more than once, or a new predicate already, is left out. The support word may be a synonym the
queries do not use ("big" for `major:t`), so the pairs take turns between it and the words of the
predicate's name (`name_words`: the name is the user's, as a lexicon's name-derived words are).
Candidates take turns over the types, the templates' operators (the LF's root: `lambda`, `count`,
`argmax`, ...) and the wordings, smallest template first (the common question shapes; a pair's
confidence is 1 / its LF's size), so that the modifier appears beside many types under many
operators.
"""

import collections
from typing import Dict, FrozenSet, Iterable, List, Optional, Sequence, Set, Tuple, Union, cast

from fewshot_parser.data.examples import Example
from fewshot_parser.data.predicate_names import predicate_name
from fewshot_parser.data.recombination.context import RecombinationContext, Support
from fewshot_parser.data.recombination.generator import PairGenerator, SyntheticPair
from fewshot_parser.data.recombination.pipeline import Candidate, in_turns
from fewshot_parser.data.recombination.trees import call_labels, is_variable
from fewshot_parser.data.recombination.wording import Entry, known_span, support_entries
from fewshot_parser.logical_forms.tree import Tree


def type_suffix(label: str) -> str:
    """`t` of `city:t`; empty without a suffix (prolog `job`)."""
    return label.split(":", 1)[1] if ":" in label.strip(":") else ""


def is_condition(label: str) -> bool:
    """Whether a one-argument call of `label` is a condition on its argument (`city:t`, prolog `job`),
    not a function of it (`population:i`)."""
    return type_suffix(label) in ("", "t")


def sibling_types(tree: Tree, modifier: str) -> Dict[str, bool]:
    """The one-argument conditions beside `( modifier $x )` in its parent call that apply to the same
    `$x` (`city:t` in `( and ( major:t $0 ) ( city:t $0 ) ... )`), each with whether the modifier
    comes first."""
    found: Dict[str, bool] = {}
    for call in tree.calls():
        conditions = [
            (index, child)
            for index, child in enumerate(call.children)
            if child.is_call and len(child.children) == 1 and child.children[0].is_leaf and is_condition(child.label)
        ]
        for at, own in (c for c in conditions if c[1].label == modifier):
            for index, other in conditions:
                if other.label != modifier and other.children == own.children:
                    found.setdefault(other.label, at < index)
    return found


def condition_variable(call: Tree, formalism: str) -> Optional[str]:
    """The variable a one-argument condition applies to (`$0` of `( city:t $0 )`); None for any other call."""
    if len(call.children) == 1 and call.children[0].is_leaf and is_condition(call.label):
        if is_variable(call.children[0].label, formalism):
            return call.children[0].label
    return None


def known_conditions(context: RecombinationContext) -> FrozenSet[str]:
    """The labels the training LFs apply as one-argument conditions to a variable."""

    def make() -> FrozenSet[str]:
        return frozenset(
            call.label
            for example in context.training
            for call in example.tree.calls()
            if condition_variable(call, context.formalism) is not None
        )

    return context.derived("modifiers.known_conditions", make)


def domain_conditions(context: RecombinationContext) -> FrozenSet[str]:
    """The labels every training LF calls (jobs' `job`): no type, since they set no question apart."""

    def make() -> FrozenSet[str]:
        common: Optional[Set[str]] = None
        for example in context.training:
            labels = call_labels(example.tree)
            common = labels if common is None else common & labels
        return frozenset(common or ())

    return context.derived("modifiers.domain_conditions", make)


def asked_alone(context: RecombinationContext) -> FrozenSet[str]:
    """The one-argument conditions some training LF applies alone to a variable (`river:t` in "( count $0
    ( and ( river:t $0 ) ( loc:t $0 s0 ) ) )"): types a question can ask for on their own. A modifier
    (`major:t`) always comes with another condition on its variable."""

    def make() -> FrozenSet[str]:
        found: Set[str] = set()
        for example in context.training:
            conditions: Dict[str, Set[str]] = collections.defaultdict(set)
            for call in example.tree.calls():
                variable = condition_variable(call, context.formalism)
                if variable is not None:
                    conditions[variable].add(call.label)
            found.update(next(iter(labels)) for labels in conditions.values() if len(labels) == 1)
        return frozenset(found)

    return context.derived("modifiers.asked_alone", make)


def modifier_words(context: RecombinationContext, entry: Entry, predicate: str, before: bool) -> List[str]:
    """The support word of a modifier: of its support words (which may take in the words of the
    support's operator, "how many big" in "how many big city are in s0"), the one next to the type
    it modifies; its name when that word expresses another call of the support LF."""
    words = entry.example.utterance[entry.span.start : entry.span.end]
    word = words[-1] if before else words[0]
    others = call_labels(entry.example.tree) - {predicate}
    if any(context.statistics.predictiveness(word, label) >= context.max_explained for label in others):
        return [part for part in predicate_name(predicate).split("_") if part]
    return [word]


def inserted(
    tree: Tree, conjunction: str, target: str, modifier: str, first: bool = True
) -> Tuple[Tree, Optional[str]]:
    """`tree` with `( modifier $x )` placed before (`first`) or after the single call `( target $x )` in
    a `conjunction` call, and `$x`; the tree unchanged and None where no such call sits in one."""
    if tree.is_leaf:
        return tree, None
    if tree.label == conjunction:
        children: List[Tree] = []
        variable = None
        for child in tree.children:
            if (
                variable is None
                and child.is_call
                and child.label == target
                and len(child.children) == 1
                and child.children[0].is_leaf
            ):
                variable = child.children[0].label
                added = Tree(modifier, (Tree(variable),), True)
                children.extend([added, child] if first else [child, added])
                continue
            children.append(child)
        if variable is not None:
            return tree.replace_children(tuple(children)), variable
    rebuilt = []
    found = None
    for child in tree.children:
        if found is None:
            child, found = inserted(child, conjunction, target, modifier, first)
        rebuilt.append(child)
    return (tree.replace_children(tuple(rebuilt)), found) if found is not None else (tree, None)


@PairGenerator.register("modifiers")
class ModifierPairs(PairGenerator):
    """
    A new modifier beside a type in training templates (see the module docstring).

    Registered as a `PairGenerator` with name "modifiers".

    # Parameters

    pairs_per_predicate : `int`, optional (default = `20`)
        Modifier pairs per new predicate (at most).
    same_type : `bool`, optional (default = `False`)
        Insert the modifier only beside the types its support examples show it modifying; by
        default beside any known condition of their type suffix.
    name_words : `bool`, optional (default = `True`)
        Pairs take turns between the support word and the words of the predicate's name (`major`
        of `major:t`), where those differ.
    types_asked_alone : `bool`, optional (default = `False`)
        A type is a condition some training LF applies alone to a variable (`asked_alone`), both the
        support's and `T`: where `city:t` is new and its support says "how many major city are in s0",
        the known `major:t` beside it is no type, and `city:t` is not inserted as a modifier of rivers
        and lakes.
    """

    def __init__(
        self,
        pairs_per_predicate: int = 20,
        same_type: bool = False,
        name_words: bool = True,
        types_asked_alone: bool = False,
    ) -> None:
        super().__init__(pairs_per_predicate)
        self.same_type = same_type
        self.name_words = name_words
        self.types_asked_alone = types_asked_alone

    def _is_type(self, context: RecombinationContext, label: str) -> bool:
        """Whether a known condition may be a modifier's type: never a domain condition and, with
        `types_asked_alone`, one some training LF applies alone."""
        if label in domain_conditions(context):
            return False
        return not self.types_asked_alone or label in asked_alone(context)

    def _types(self, context: RecombinationContext, types: Set[str]) -> Set[str]:
        """The types the modifier goes beside, given the types its support shows it beside."""
        if self.same_type:
            return types
        suffixes = {type_suffix(label) for label in types}
        return {
            label
            for label in known_conditions(context)
            if type_suffix(label) in suffixes and self._is_type(context, label)
        }

    def pairs(
        self,
        context: RecombinationContext,
        support: Support,
        unit: Union[str, Example],
        earlier: Sequence[SyntheticPair],
    ) -> Iterable[SyntheticPair]:
        predicate = cast(str, unit)
        # Per support example that applies `predicate` as a modifier: its words, the types beside it,
        # its conjunction operator and whether its words come before the type's.
        uses = []
        for entry in support_entries(context, support, predicate):
            occurrence = entry.occurrence
            if occurrence.signature[1:3] != (1, ("v",)) or occurrence.roles != ("typed",):
                continue
            if not is_condition(predicate):
                continue
            siblings = sibling_types(entry.example.tree, predicate)
            types = {label for label in siblings if label in context.known and self._is_type(context, label)}
            if not types or not occurrence.signature[3]:
                continue
            before = True
            for label in sorted(types):
                span = known_span(context, entry.example.utterance, entry.example.tree, label)
                if span is not None:
                    before = entry.span.end <= span.start
                    break
            first = all(siblings[label] for label in types)
            uses.append((entry, types, occurrence.signature[3], before, first))
        candidates = []
        for entry, types, conjunction, before, first in uses:
            wordings = [modifier_words(context, entry, predicate, before)]
            named = [part for part in predicate_name(predicate).split("_") if part]
            if self.name_words and named != wordings[0]:
                wordings.append(named)
            targets = self._types(context, types)
            for example in context.training:
                labels = call_labels(example.tree)
                if labels & support.new or conjunction not in labels:
                    continue
                counts: Dict[str, int] = collections.Counter(call.label for call in example.tree.calls())
                for target in sorted(targets & labels):
                    if counts[target] != 1:
                        continue
                    tree, variable = inserted(example.tree, conjunction, target, predicate, first)
                    if variable is None or not is_variable(variable, context.formalism):
                        continue
                    span = known_span(context, example.utterance, example.tree, target)
                    if span is None:
                        continue
                    at = span.start if before else span.end
                    for wording, words in enumerate(wordings):
                        utterance = list(example.utterance[:at]) + list(words) + list(example.utterance[at:])
                        group = (target, example.tree.label, wording)
                        confidence = 1.0 / tree.size()
                        candidates.append(Candidate(confidence, group, example, utterance, tree, target))
        yield from in_turns(candidates, predicate, "modifier", context.formalism)
