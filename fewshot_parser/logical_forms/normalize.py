"""
Template normalization (paper Appendix A, Algorithm 2): frequent, complete subtrees of the
training templates collapse into single actions ("idioms").

Every template first decomposes into *base* fragments: an application whose children are all
atoms is one GEN fragment; any other application is a REDUCE fragment with a hole for each
application child. Learning then merges, greedily and most frequent first, a parent fragment with
the child fragment in one of its holes when

* the pair occurs in at least `min_support` training LFs (frequent), and
* the child fragment occurs in that position of that parent in at least `completeness` of all its
  occurrences (complete: the subtree (almost) always has this supertree).

Fixed siblings are collapsed by the same rule applied repeatedly: once a child is merged into its
parent, a sibling that always accompanies it is complete with respect to the merged fragment.

The result is a ranked list of idiom patterns. `tile` decomposes any template (train, support,
query or a user's) into fragments, using at each node the largest matching idiom and falling back
to the base fragment, so an LF with predicates never seen in training (absent from every idiom)
still gets a valid action sequence. Since every idiom is itself an action pattern, the idioms can
be recovered from a model's action vocabulary (`idioms_from_patterns`): normalization is saved
with the vocabulary and applied identically at fine-tuning and test time.
"""

from collections import Counter, defaultdict
from typing import Callable, Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple

from fewshot_parser.logical_forms.actions import HOLE, HOLE_TREE, substitute_hole
from fewshot_parser.logical_forms.template import VARIABLE_SLOT, SlotValue, is_slot
from fewshot_parser.logical_forms.tree import Tree, to_sexpr


class Fragment(NamedTuple):
    """A node of a fragment decomposition: `pattern`, its slot `values` and one child per hole."""

    pattern: Tree
    values: Tuple[SlotValue, ...]
    children: Tuple["Fragment", ...]


def is_base_pattern(pattern: Tree) -> bool:
    """True when no application is nested inside another (a pattern that needs no idiom)."""
    return not any(child.is_call for child in pattern.children)


def base_pattern(template: Tree) -> Tree:
    if template.is_leaf or is_base_pattern(template):
        return template
    return template.replace_children(tuple(HOLE_TREE if child.is_call else child for child in template.children))


def _pattern_size(pattern: Tree) -> int:
    return pattern.size()


def match(pattern: Tree, tree: Tree, leaf_label: Callable[[str], str]) -> Optional[Tuple[List[Tree], List[Tree]]]:
    """
    Matches `pattern` at the root of `tree`. `leaf_label` maps an atom of `tree` to its template
    label (identity for templates). Returns the subtrees bound to the holes and the atoms bound to
    slot leaves (both in pre-order), or None.
    """
    holes: List[Tree] = []
    slots: List[Tree] = []

    def visit(p: Tree, t: Tree) -> bool:
        if p.is_leaf:
            if p.label == HOLE:
                if not t.is_call:
                    return False
                holes.append(t)
                return True
            if not t.is_leaf or leaf_label(t.label) != p.label:
                return False
            if is_slot(p.label):
                slots.append(t)
            return True
        if not t.is_call or p.label != t.label or len(p.children) != len(t.children):
            return False
        return all(visit(pc, tc) for pc, tc in zip(p.children, t.children))

    return (holes, slots) if visit(pattern, tree) else None


class TemplateNormalizer:
    """
    Learns idioms from training templates and tiles templates with them.

    # Parameters

    min_support : `int`, optional (default = `5`)
        Minimum number of training LFs a merged pair must occur in. A value larger than the
        training set switches normalization off.
    completeness : `float`, optional (default = `1.0`)
        Minimum share of a child fragment's occurrences that must sit in the merged position.
    max_idioms : `int`, optional (default = `500`)
        Upper bound on the number of merges.
    idioms : `Sequence[Tree]`, optional
        Already learned idiom patterns, most preferred first (e.g. from a vocabulary).
    """

    def __init__(
        self,
        min_support: int = 5,
        completeness: float = 1.0,
        max_idioms: int = 500,
        idioms: Optional[Sequence[Tree]] = None,
    ) -> None:
        self.min_support = min_support
        self.completeness = completeness
        self.max_idioms = max_idioms
        self.idioms: List[Tree] = []
        self._by_root: Dict[Tuple[str, int], List[Tree]] = defaultdict(list)
        if idioms:
            self.set_idioms(idioms)

    def set_idioms(self, idioms: Iterable[Tree]) -> None:
        # Larger idioms are tried first and ties are broken by the pattern string, so tiling depends
        # only on the *set* of idioms (which is what a saved action vocabulary preserves).
        self.idioms = sorted(set(idioms), key=lambda p: (-_pattern_size(p), to_sexpr(p)))
        self._by_root = defaultdict(list)
        for pattern in self.idioms:
            self._by_root[(pattern.label, len(pattern.children))].append(pattern)

    # -- learning --------------------------------------------------------------------------------

    def learn(self, templates: Iterable[Tree]) -> List[Tree]:
        """Learns idioms from training templates (one entry per LF, repeats count) and returns them."""
        weights = Counter(templates)
        corpus = [(self._base_decomposition(template), weight) for template, weight in weights.items()]
        learned: List[Tree] = []
        while len(learned) < self.max_idioms:
            best = self._best_merge(corpus)
            if best is None:
                break
            parent, hole, child = best
            merged = substitute_hole(parent, hole, child)
            learned.append(merged)
            corpus = [(self._apply_merge(node, parent, hole, child, merged), weight) for node, weight in corpus]
        # Keep only the idioms that tiling the training templates actually uses: exactly the set
        # that can be read back from the action vocabulary of a model trained on them.
        self.set_idioms(learned)
        used = {fragment.pattern for template in weights for fragment in _fragments(self.tile(template))}
        self.set_idioms(used.intersection(learned))
        return list(self.idioms)

    def _base_decomposition(self, template: Tree) -> Fragment:
        pattern = base_pattern(template)
        children = (
            tuple(self._base_decomposition(child) for child in template.children if child.is_call)
            if pattern is not template
            else ()
        )
        return Fragment(pattern, (), children)

    def _best_merge(self, corpus: List[Tuple[Fragment, int]]) -> Optional[Tuple[Tree, int, Tree]]:
        pair_counts: Counter = Counter()
        totals: Counter = Counter()

        def count(node: Fragment, weight: int) -> None:
            totals[node.pattern] += weight
            for hole, child in enumerate(node.children):
                pair_counts[(node.pattern, hole, child.pattern)] += weight
                count(child, weight)

        for root, weight in corpus:
            count(root, weight)
        candidates = [
            (frequency, key)
            for key, frequency in pair_counts.items()
            if frequency >= self.min_support and frequency >= self.completeness * totals[key[2]]
        ]
        if not candidates:
            return None
        # Most frequent first; ties broken by the pattern strings so that learning is deterministic.
        _, best = max(candidates, key=lambda item: (item[0], to_sexpr(item[1][0]), -item[1][1], to_sexpr(item[1][2])))
        return best

    def _apply_merge(self, node: Fragment, parent: Tree, hole: int, child: Tree, merged: Tree) -> Fragment:
        children = tuple(self._apply_merge(c, parent, hole, child, merged) for c in node.children)
        if node.pattern == parent and children[hole].pattern == child:
            children = children[:hole] + children[hole].children + children[hole + 1 :]
            return Fragment(merged, (), children)
        return Fragment(node.pattern, (), children)

    # -- applying ----------------------------------------------------------------------------------

    def tile(
        self,
        tree: Tree,
        leaf_label: Callable[[str], str] = lambda atom: atom,
        kind_of: Optional[Callable[[str], str]] = None,
    ) -> Fragment:
        """
        Decomposes `tree` into fragments. `tree` may be a template or a full LF; `leaf_label` maps
        each atom to its template label, and the atoms matched by slot leaves become the values,
        whose kind (`"variable"` or `"entity"`) `kind_of(atom)` tells (default: from the label).
        """
        kind_of = kind_of or (lambda atom: "variable" if leaf_label(atom) == VARIABLE_SLOT else "entity")
        for pattern in self._by_root.get((tree.label, len(tree.children)), ()):
            bound = match(pattern, tree, leaf_label)
            if bound is not None:
                holes, slots = bound
                return Fragment(
                    pattern, _values(slots, kind_of), tuple(self.tile(h, leaf_label, kind_of) for h in holes)
                )
        return self._tile_base(tree, leaf_label, kind_of)

    def _tile_base(self, tree: Tree, leaf_label: Callable[[str], str], kind_of: Callable[[str], str]) -> Fragment:
        if tree.is_leaf:
            label = leaf_label(tree.label)
            return Fragment(Tree(label), _values([tree] if is_slot(label) else [], kind_of), ())
        if is_base_pattern(tree):
            abstracted = tree.replace_children(tuple(Tree(leaf_label(c.label)) for c in tree.children))
            slots = [c for c in tree.children if is_slot(leaf_label(c.label))]
            return Fragment(abstracted, _values(slots, kind_of), ())
        pattern_children = []
        holes = []
        slots = []
        for child in tree.children:
            if child.is_call:
                pattern_children.append(HOLE_TREE)
                holes.append(child)
            else:
                label = leaf_label(child.label)
                pattern_children.append(Tree(label))
                if is_slot(label):
                    slots.append(child)
        pattern = tree.replace_children(tuple(pattern_children))
        return Fragment(pattern, _values(slots, kind_of), tuple(self.tile(h, leaf_label, kind_of) for h in holes))


def _fragments(root: Fragment) -> Iterable[Fragment]:
    yield root
    for child in root.children:
        yield from _fragments(child)


def _values(atoms: List[Tree], kind_of: Callable[[str], str]) -> Tuple[SlotValue, ...]:
    return tuple(SlotValue(kind_of(atom.label), atom.label) for atom in atoms)


def idioms_from_patterns(patterns: Iterable[Tree]) -> List[Tree]:
    """The idioms among a set of action patterns (those with an application nested in another)."""
    return [pattern for pattern in patterns if pattern.is_call and not is_base_pattern(pattern)]
