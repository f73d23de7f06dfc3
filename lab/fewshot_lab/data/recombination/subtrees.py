"""
Subtree pairs: a support LF that denotes an entity, placed whole where a template has an entity. Not
in the paper; in the spirit of the "abstract whole phrases" grammar of data recombination (Jia and
Liang, 2016).

A support example such as "what are the highest points of states surrounding s0",
`( argmax $0 ( and ( place:t $0 ) ... ) ( elevation:i $0 ) )`, teaches the new predicates inside one
construction only, while the queries wrap the same phrase in others: "where is the highest point in
s0" is `( lambda $0 e ( loc:t ( argmax $1 ... ) $0 ) )`, "how high is the highest point of s0" is
`( elevation:i ( argmax $0 ... ) )`. Forward, reverse and reshaped pairs swap predicates and leaves;
none moves a whole support LF into another template.

A *subtree* pair takes a support example whose LF is an operator call (`argmax`, ...) that the
training set uses as an argument somewhere an entity atom also goes (the first argument of `loc:t`
holds both `m0` and `( argmax ... )`: so the operator's result is an entity there), and a template
with an entity atom in such a position, spoken once in its utterance: a training example, or a
synthetic pair of an earlier pass (so "how high is r0", a reshaped pair, becomes "how high is the
highest point of ..."). The atom becomes the support LF, its variables renumbered after the
template's, and the atom's word becomes the support's noun phrase: the support utterance from its
operator word on ("highest", a word that predicts the operator), with the article before it; only
supports whose words before the phrase name none of their LF's predicates or entities (a question
opening such as "what are") give one. A position takes the support LF where the training set puts
there an operator call of the same type (`river:t` in `( argmax $0 ( river:t $0 ) ... )`), or any
position of its operator when its type is a new predicate. A support LF whose type predicates have
no type suffix (`:t`; ATIS's `flight` in these files) gets none: nothing then says what it denotes,
as for reshaped pairs. Templates that already use an entity of the support LF are left out.
Candidates take turns over the template positions (predicate, argument), smallest template LF
first, one utterance per template LF. Only the lambda-calculus formalism has such operators (Prolog
files get none).

A support LF can also be a call of a new *function* whose type suffix names a kind of entity: "what is
the capital of s0", `( capital:c s0 )`, where the training set's city atoms are `c0`. The training set
never calls the new function, so nothing there says where its result goes, but its type does: the
positions that take `c` atoms (`population:i` in "how many people live in c0", which becomes "how many
people live in the capital of s0", `( population:i ( capital:c s0 ) )`). Its noun phrase is the
support utterance from the new predicate's words on (`wording.support_entries`), with the article
before them, when it speaks every entity of the LF; the question opening is checked as above.
"""

import collections
import re
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple, Union, cast

from fewshot_parser.data.examples import Example
from fewshot_parser.data.recombination.context import RecombinationContext, Support
from fewshot_parser.data.recombination.generator import PairGenerator, SyntheticPair
from fewshot_parser.data.recombination.pipeline import round_robin
from fewshot_parser.data.recombination.trees import (
    ENTITY,
    Position,
    atom_positions,
    call_labels,
    renumbered,
    replaced_atom,
    subject_types,
    variable_count,
)
from fewshot_parser.data.recombination.wording import support_entries
from fewshot_parser.logical_forms.tree import Tree, parse, to_string

_ARTICLES = ("the", "a", "an")

# (utterance, LF, source, {new predicate: the known predicate it replaced}) of a template.
Template = Tuple[List[str], Tree, str, Dict[str, str]]
# Per operator: the (predicate, argument) positions where the training set puts both a call of the
# operator and an entity atom, with the types of the operator calls it puts there.
EntitySlots = Dict[str, Dict[Position, Set[str]]]


def entity_slots(context: RecombinationContext) -> EntitySlots:
    """Where the training set puts an operator's result in place of an entity (see `EntitySlots`)."""
    operators: Dict[Position, Dict[str, Set[str]]] = collections.defaultdict(lambda: collections.defaultdict(set))
    atoms: Set[Position] = set()
    for example in context.training:
        for label, index, child in atom_positions(example.tree):
            if child.is_call:
                operators[(label, index)][child.label] |= subject_types(child)
            elif ENTITY.match(child.label):
                atoms.add((label, index))
    slots: EntitySlots = collections.defaultdict(dict)
    for position, labels in operators.items():
        if position in atoms:
            for label, types in labels.items():
                slots[label][position] = types
    return slots


_DIGITS = re.compile(r"\d+$")


def entity_kinds(context: RecombinationContext) -> Dict[Position, collections.Counter]:
    """Per (predicate, argument) position: how often the training set puts there each kind of entity atom
    (`c` of `c0`, the atom without its number)."""
    kinds: Dict[Position, collections.Counter] = collections.defaultdict(collections.Counter)
    for example in context.training:
        for label, index, child in atom_positions(example.tree):
            if not child.is_call and ENTITY.match(child.label):
                kinds[(label, index)][_DIGITS.sub("", child.label)] += 1
    return kinds


def function_kind(context: RecombinationContext, support: Support, example: Example) -> Optional[str]:
    """The kind of entity a support LF denotes when it is a call of a new function whose type suffix
    names a kind the training set's entity atoms have (`c` of `( capital:c s0 )`), else None."""
    label = example.tree.label
    if label not in support.new:
        return None
    suffix = label.split(":", 1)[1] if ":" in label.strip(":") else ""
    kinds = context.derived("entity kinds", lambda: entity_kinds(context))
    return suffix if suffix and any(suffix in seen for seen in kinds.values()) else None


def _phrase_from(context: RecombinationContext, example: Example, start: int) -> Optional[List[str]]:
    """The support utterance from word `start` on (from the article before it), unless the words before
    name a predicate or an entity of the LF (not a question opening)."""
    if start > 0 and example.utterance[start - 1] in _ARTICLES:
        start -= 1
    predicates = call_labels(example.tree)
    opening = example.utterance[:start]
    if any(ENTITY.match(w) or context.statistics.names(w, q) for w in opening for q in predicates):
        return None
    return list(example.utterance[start:])


def noun_phrase(context: RecombinationContext, example: Example) -> Optional[List[str]]:
    """The words of a support utterance that speak its whole LF, or None (see the module docstring)."""
    for i, token in enumerate(example.utterance):
        if context.statistics.predictiveness(token, example.tree.label) >= context.max_explained:
            return _phrase_from(context, example, i)
    return None


_QUESTION_WORDS = ("what", "which")


def question_phrase(context: RecombinationContext, example: Example) -> Optional[List[str]]:
    """A noun phrase for a training question whose LF is an operator call: `noun_phrase`'s, else "what is
    the state with the lowest population" -> "the state with the lowest population", else "what state
    border the most state" -> "the state that border the most state" (the word after the question word
    names a type of the call)."""
    phrase = noun_phrase(context, example)
    words = list(example.utterance)
    if phrase is not None or len(words) < 3 or words[0] not in _QUESTION_WORDS:
        return phrase
    if words[1] in ("is", "are") and words[2] in _ARTICLES:
        return words[2:]
    if words[2] not in ("which", "that") and any(
        context.statistics.names(words[1], t) for t in subject_types(example.tree)
    ):
        return ["the", words[1], "that"] + words[2:]
    return None


def function_phrase(context: RecombinationContext, support: Support, example: Example) -> Optional[List[str]]:
    """The words of a support utterance that speak a new function's call: from the function's words on,
    when they speak every entity of the LF; None without such words."""
    entities = {leaf.label for leaf in example.tree.leaves() if ENTITY.match(leaf.label)}
    for entry in support_entries(context, support, example.tree.label):
        if entry.example is example:
            phrase = _phrase_from(context, example, entry.span.start)
            return phrase if phrase is not None and entities <= set(phrase) else None
    return None


def spliced(
    utterance: Sequence[str], host: Tree, atom: str, phrase: List[str], inner: Tree, formalism: str
) -> Tuple[List[str], str]:
    """
    The utterance with the word `atom` replaced by `phrase` (one article kept where both have one), and
    `host`'s LF with the atom replaced by `inner` (its variables renumbered after `host`'s).
    """
    at = list(utterance).index(atom)
    before = list(utterance[:at])
    if before and before[-1] in _ARTICLES and phrase[0] in _ARTICLES:
        before = before[:-1]
    words = before + phrase + list(utterance[at + 1 :])
    return words, to_string(replaced_atom(host, atom, renumbered(inner, variable_count(host))), formalism)


@PairGenerator.register("subtrees")
class SubtreePairs(PairGenerator):
    """
    A support LF placed whole where a template has an entity (see the module docstring).

    Registered as a `PairGenerator` with name "subtrees".

    # Parameters

    pairs_per_example : `int`, optional (default = `10`)
        Subtree pairs per support example (at most).
    """

    per = "example"
    limit_name = "pairs_per_example"

    def __init__(self, pairs_per_example: int = 10) -> None:
        super().__init__(pairs_per_example)

    def pairs(
        self,
        context: RecombinationContext,
        support: Support,
        unit: Union[str, Example],
        earlier: Sequence[SyntheticPair],
    ) -> Iterable[SyntheticPair]:
        example = cast(Example, unit)
        if context.formalism != "lambda":
            return
        kind = function_kind(context, support, example)
        if kind is not None:
            # A new function's call goes where the training set puts entities of its kind.
            kinds = context.derived("entity kinds", lambda: entity_kinds(context))
            slots = {position for position, seen in kinds.items() if kind in seen}
            phrase = function_phrase(context, support, example) if slots else None
        else:
            # The positions that take the support LF's type; all of them when its type is new.
            types = subject_types(example.tree)
            if not types or not all(":" in t.strip(":") for t in types):
                return  # Without type suffixes nothing says what the support LF denotes (as for reshaped pairs).
            slots = {
                position
                for position, seen in context.derived("entity slots", lambda: entity_slots(context))
                .get(example.tree.label, {})
                .items()
                if types & seen or not types & context.known
            }
            phrase = noun_phrase(context, example) if slots and call_labels(example.tree) & support.new else None
        if phrase is None:
            return
        entities = {leaf.label for leaf in example.tree.leaves() if ENTITY.match(leaf.label)}
        predicate = sorted(call_labels(example.tree) & support.new)[0]
        by_position: Dict[Position, List[Tuple[int, SyntheticPair]]] = collections.defaultdict(list)
        used: Set[Tree] = set()
        for utterance, tree, source, renamed in self.templates(context, support, earlier):
            atoms = [leaf.label for leaf in tree.leaves()]
            if entities & set(atoms) or tree in used:  # one utterance per template LF
                continue
            used.add(tree)
            for label, index, child in atom_positions(tree):
                position = (renamed.get(label, label), index)
                atom = child.label
                if (
                    child.is_call
                    or position not in slots
                    or not ENTITY.match(atom)
                    or atoms.count(atom) != 1
                    or list(utterance).count(atom) != 1
                ):
                    continue
                words, lf = spliced(utterance, tree, atom, phrase, example.tree, context.formalism)
                pair = SyntheticPair(words, lf, predicate, "subtree", source, atom, 1.0)
                by_position[position].append((tree.size(), pair))
        # Smallest templates first ("where is m0" before "how many states does m0 run through").
        yield from round_robin(
            [pair for _, pair in sorted(by_position[position], key=lambda c: c[0])] for position in sorted(by_position)
        )

    @staticmethod
    def templates(context: RecombinationContext, support: Support, earlier: Sequence[SyntheticPair]) -> List[Template]:
        """The training examples without a new predicate, then the pairs of the earlier passes."""
        templates: List[Template] = [
            (e.utterance, e.tree, f"{e.source}:{e.line_number}", {})
            for e in context.training
            if not call_labels(e.tree) & support.new
        ]
        templates += [
            (p.utterance, parse(p.logical_form, context.formalism), p.source, {p.predicate: p.replaced})
            for p in earlier
        ]
        return templates


def kind_types(context: RecombinationContext, share: float = 0.9) -> Dict[str, Dict[str, Set[str]]]:
    """Per entity kind (`s`) and operator (`argmax`): the types (`state:t`) of the operator's calls that the
    training set puts in an argument whose entity atoms are of that kind (at least `share` of them:
    `next_to:t`'s second argument takes states, and a river once), so that what such a call denotes is
    known."""
    kinds = context.derived("entity kinds", lambda: entity_kinds(context))
    found: Dict[str, Dict[str, Set[str]]] = collections.defaultdict(lambda: collections.defaultdict(set))
    for operator, positions in context.derived("entity slots", lambda: entity_slots(context)).items():
        for position, types in positions.items():
            seen = kinds.get(position)
            if seen:
                kind, count = seen.most_common(1)[0]
                if count >= share * sum(seen.values()):
                    found[kind][operator] |= types
    return found


@PairGenerator.register("subtree_arguments")
class SubtreeArguments(PairGenerator):
    """
    The reverse of subtree pairs: a training LF that denotes an entity ("what is the largest state",
    `( argmax $0 ( state:t $0 ) ( size:i $0 ) )`) placed whole where a support LF gives a new predicate
    an entity of its kind ("what is the capital of s0", `( capital:c s0 )` -> "what is the capital of
    the largest state", `( capital:c ( argmax $0 ( state:t $0 ) ( size:i $0 ) ) )`). A training LF
    denotes an entity of kind `s` when it is a call of an operator whose calls of its type the training
    set puts in an argument that takes `s` atoms (nearly) only (`kind_types`); its noun phrase is found as for subtree
    pairs, or made of the question ("what state border the most state" -> "the state that border the
    most state", `question_phrase`). The entity must be spoken once in the support utterance and used once in its
    LF; training LFs that use another entity of the support LF are left out. Candidates take turns over
    the support's entities, smallest training LF first, one utterance per training LF.

    Registered as a `PairGenerator` with name "subtree_arguments".

    # Parameters

    pairs_per_example : `int`, optional (default = `10`)
        Pairs per support example (at most).
    """

    per = "example"
    limit_name = "pairs_per_example"

    def __init__(self, pairs_per_example: int = 10) -> None:
        super().__init__(pairs_per_example)

    def pairs(
        self,
        context: RecombinationContext,
        support: Support,
        unit: Union[str, Example],
        earlier: Sequence[SyntheticPair],
    ) -> Iterable[SyntheticPair]:
        example = cast(Example, unit)
        new = call_labels(example.tree) & support.new
        if context.formalism != "lambda" or not new:
            return
        atoms = [leaf.label for leaf in example.tree.leaves()]
        targets = sorted(
            {
                child.label
                for label, _, child in atom_positions(example.tree)
                if label in new
                and not child.is_call
                and ENTITY.match(child.label)
                and atoms.count(child.label) == 1
                and list(example.utterance).count(child.label) == 1
            }
        )
        if not targets:
            return
        types = context.derived("kind types", lambda: kind_types(context))
        entities = {atom for atom in atoms if ENTITY.match(atom)}
        predicate = sorted(new)[0]
        by_target: Dict[str, List[Tuple[int, SyntheticPair]]] = collections.defaultdict(list)
        used: Set[Tuple[str, Tree]] = set()
        phrases = context.derived(
            "question phrases",
            lambda: {i: question_phrase(context, e) for i, e in enumerate(context.training) if subject_types(e.tree)},
        )
        for index, template in enumerate(context.training):
            tree = template.tree
            subject = subject_types(tree)
            if not subject or any(leaf.label in entities for leaf in tree.leaves()):
                continue
            for target in targets:
                denoted = types.get(_DIGITS.sub("", target), {}).get(tree.label, set())
                if not subject & denoted or (target, tree) in used:
                    continue
                phrase = phrases.get(index)
                if phrase is None:
                    continue
                used.add((target, tree))
                words, lf = spliced(example.utterance, example.tree, target, phrase, tree, context.formalism)
                source = f"{template.source}:{template.line_number}"
                by_target[target].append(
                    (tree.size(), SyntheticPair(words, lf, predicate, "subtree", source, target, 1.0))
                )
        yield from round_robin(
            [pair for _, pair in sorted(by_target[target], key=lambda c: c[0])] for target in sorted(by_target)
        )
