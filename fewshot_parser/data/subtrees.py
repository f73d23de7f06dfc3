"""
Subtree recombination: a support LF that denotes an entity, placed whole where a training template
has an entity. Not in the paper; an extension of `fewshot_parser.data.reshaping` in the spirit of
the "abstract whole phrases" grammar of data recombination (Jia and Liang, 2016).

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
synthetic pair made before (so "how high is r0", a reshaped pair, becomes "how high is the highest
point of ..."). The atom becomes the support LF, its variables renumbered after the template's, and
the atom's word becomes the support's noun phrase: the support utterance from its operator word on
("highest", a word that predicts the operator), with the article before it; only supports whose
words before the phrase name none of their LF's predicates or entities (a question opening such as
"what are") give one. A position takes the support LF where the training set puts there an
operator call of the same type (`river:t` in `( argmax $0 ( river:t $0 ) ... )`), or any
position of its operator when its type is a new predicate. A support LF whose type predicates have
no type suffix (`:t`; ATIS's `flight` in these files) gets none: nothing then says what it denotes,
as for reshaped pairs.
Templates that already use an entity of the support LF are left out. Candidates take turns over the
template positions (predicate, argument), smallest template LF first, one utterance per template LF, at most `subtree_pairs_per_example` per
support example. Only the lambda-calculus formalism has such operators (Prolog files get none). It
needs only the support set, the training set and the predicate names, and is deterministic.
"""
import collections
import re
from typing import Any, Dict, Iterable, List, Optional, Sequence, Set, Tuple

from fewshot_parser.data.adjectives import AdjectiveRecombiner
from fewshot_parser.data.augmentation import SyntheticPair, call_labels, is_variable
from fewshot_parser.data.examples import Example
from fewshot_parser.data.reshaping import ReshapingRecombiner
from fewshot_parser.logical_forms.template import DEFAULT_ENTITY_PATTERN
from fewshot_parser.logical_forms.tree import Tree, parse, to_string

_ENTITY = re.compile(DEFAULT_ENTITY_PATTERN)
_ARTICLES = ("the", "a", "an")

Position = Tuple[str, int]


def renumbered(tree: Tree, offset: int) -> Tree:
    """`tree` with every lambda variable `$k` renamed `$(k + offset)`."""
    if tree.is_leaf:
        return Tree("$" + str(int(tree.label[1:]) + offset)) if is_variable(tree.label, "lambda") else tree
    return tree.replace_children(tuple(renumbered(child, offset) for child in tree.children))


def variable_count(tree: Tree) -> int:
    """One more than the highest lambda variable index of `tree` (0 without variables)."""
    return max((int(leaf.label[1:]) + 1 for leaf in tree.leaves() if is_variable(leaf.label, "lambda")), default=0)


def replaced_atom(tree: Tree, atom: str, subtree: Tree) -> Tree:
    """`tree` with the leaf `atom` replaced by `subtree`."""
    if tree.is_leaf:
        return subtree if tree.label == atom else tree
    return tree.replace_children(tuple(replaced_atom(child, atom, subtree) for child in tree.children))


def atom_positions(tree: Tree) -> Iterable[Tuple[str, int, Tree]]:
    """(call label, argument index, argument) of every argument of every call of `tree`."""
    for call in tree.calls():
        for index, child in enumerate(call.children):
            yield call.label, index, child


def subject_types(call: Tree) -> Set[str]:
    """The one-argument predicates an operator call (`( argmax $0 body key )`) puts on its variable in
    its body (`state:t` in `( and ( state:t $0 ) ... )`): the type of what it denotes."""
    if len(call.children) < 2 or not call.children[0].is_leaf:
        return set()
    variable = call.children[0].label
    return {c.label for c in call.children[1].calls()
            if len(c.children) == 1 and c.children[0].is_leaf and c.children[0].label == variable}


class SubtreeRecombiner(ReshapingRecombiner):
    """
    A `ReshapingRecombiner` that also makes subtree pairs (see the module docstring), at most
    `subtree_pairs_per_example` per support example, after all the other pairs.
    """

    def __init__(self, *args: Any, subtree_pairs_per_example: int = 10, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if subtree_pairs_per_example < 0:
            raise ValueError(f"subtree_pairs_per_example must be at least 0, got {subtree_pairs_per_example}")
        self.subtree_pairs_per_example = subtree_pairs_per_example
        # Per operator: the (predicate, argument) positions where the training set puts both a call
        # of the operator and an entity atom, with the types of the operator calls it puts there.
        operators: Dict[Position, Dict[str, Set[str]]] = collections.defaultdict(lambda: collections.defaultdict(set))
        atoms: Set[Position] = set()
        for example in self.training:
            for label, index, child in atom_positions(example.tree):
                if child.is_call:
                    operators[(label, index)][child.label] |= subject_types(child)
                elif _ENTITY.match(child.label):
                    atoms.add((label, index))
        self.entity_slots: Dict[str, Dict[Position, Set[str]]] = collections.defaultdict(dict)
        for position, labels in operators.items():
            if position in atoms:
                for label, types in labels.items():
                    self.entity_slots[label][position] = types

    def noun_phrase(self, example: Example) -> Optional[List[str]]:
        """The words of a support utterance that speak its whole LF, or None (see the module docstring)."""
        operator = example.tree.label
        predicates = call_labels(example.tree)
        for i, token in enumerate(example.utterance):
            if self.statistics.predictiveness(token, operator) >= self.max_explained:
                start = i - 1 if i > 0 and example.utterance[i - 1] in _ARTICLES else i
                opening = example.utterance[:start]
                if any(_ENTITY.match(w) or self.statistics.names(w, q) for w in opening for q in predicates):
                    return None
                return list(example.utterance[start:])
        return None

    def synthesize(self, support: Sequence[Example]) -> List[SyntheticPair]:
        pairs = super().synthesize(support)
        if self.subtree_pairs_per_example == 0 or self.formalism != "lambda":
            return pairs
        new = set(self.new_predicates(support))
        seen = {(tuple(e.utterance), e.logical_form) for e in list(support) + self.training}
        seen |= {(tuple(p.utterance), p.logical_form) for p in pairs}
        templates = [(e.utterance, e.tree, f"{e.source}:{e.line_number}", {}) for e in self.training
                     if not call_labels(e.tree) & new]
        templates += [(p.utterance, parse(p.logical_form, self.formalism), p.source, {p.predicate: p.replaced})
                      for p in pairs]
        made = []
        for example in support:
            chosen = 0
            for pair in self._subtree_pairs(example, templates, new):
                key = (tuple(pair.utterance), pair.logical_form)
                if key in seen:
                    continue
                seen.add(key)
                made.append(pair)
                chosen += 1
                if chosen >= self.subtree_pairs_per_example:
                    break
        return pairs + made

    def _subtree_pairs(self, example: Example, templates: List[tuple], new: Set[str]) -> Iterable[SyntheticPair]:
        # The positions that take the support LF's type; all of them when its type is new.
        types = subject_types(example.tree)
        if not types or not all(":" in t.strip(":") for t in types):
            return  # Without type suffixes nothing says what the support LF denotes (as for reshaped pairs).
        slots = {position for position, seen in self.entity_slots.get(example.tree.label, {}).items()
                 if types & seen or not types & self.known}
        phrase = self.noun_phrase(example) if slots and call_labels(example.tree) & new else None
        if phrase is None:
            return
        entities = {leaf.label for leaf in example.tree.leaves() if _ENTITY.match(leaf.label)}
        predicate = sorted(call_labels(example.tree) & new)[0]
        by_position: Dict[Position, List[Tuple[int, SyntheticPair]]] = collections.defaultdict(list)
        used: Set[Tree] = set()
        for utterance, tree, source, renamed in templates:
            atoms = [leaf.label for leaf in tree.leaves()]
            if entities & set(atoms) or tree in used:  # one utterance per template LF
                continue
            used.add(tree)
            for label, index, child in atom_positions(tree):
                position = (renamed.get(label, label), index)
                atom = child.label
                if child.is_call or position not in slots or not _ENTITY.match(atom) or atoms.count(atom) != 1 \
                        or list(utterance).count(atom) != 1:
                    continue
                at = list(utterance).index(atom)
                before = list(utterance[:at])
                if before and before[-1] in _ARTICLES and phrase[0] in _ARTICLES:
                    before = before[:-1]
                words = before + phrase + list(utterance[at + 1:])
                lf = to_string(replaced_atom(tree, atom, renumbered(example.tree, variable_count(tree))), self.formalism)
                by_position[position].append((tree.size(), SyntheticPair(words, lf, predicate, "subtree", source, atom, 1.0)))
        # Smallest templates first ("where is m0" before "how many states does m0 run through").
        queues = [iter([pair for _, pair in sorted(by_position[position], key=lambda c: c[0])])
                  for position in sorted(by_position)]
        while queues:
            remaining = []
            for queue in queues:
                pair = next(queue, None)
                if pair is not None:
                    remaining.append(queue)
                    yield pair
            queues = remaining


class AdjectiveSubtreeRecombiner(SubtreeRecombiner, AdjectiveRecombiner):
    """`SubtreeRecombiner` over `AdjectiveRecombiner`'s reshaped pairs ("how high is r0" as a template)."""
