"""
Re-parented recombination: synthetic pairs that show a new predicate under operators its support
set never puts it under. Not in the paper; an extension of `fewshot_parser.data.reshaping`.

A support example shows a new predicate inside one construction: `elevation:i` as the key of an
`argmax` ("the highest point"). Its GEN action `( elevation:i <v> )` is the same under `argmin`,
but the forward pairs of `Recombiner` keep the support's parent operator and the reshaped pairs
change the argument shape only, so fine-tuning never sees the predicate under `argmin`, and the
parser writes "the lowest point" as it writes any phrase it has no template for. On geo shuffle 0
a new predicate needs a (shape, parent) context its support does not show, with a shape it does
show, in 73 of 211 query LFs (1-shot) and 53 of 206 (2-shot).

A *re-parented* pair takes a training example whose LF calls, once and on atoms only, a known
predicate `q` with the new predicate `p`'s type suffix, arity and argument kinds, under a parent
that no support call of `p` with that argument shape has; `q` becomes `p`, its values become the
support call's, and `q`'s words become `p`'s support words without those that express the support's
operator (`ReshapingRecombiner.words_under`): "what state has the smallest population" ->
"what state has the smallest elevation", `( argmin $0 ( state:t $0 ) ( elevation:i $0 ) )`.
Candidates take turns over the new parents, best first. Predicates without a type suffix get none,
as with reshaped pairs. It needs only the support set, the training set and the predicate names,
and is deterministic.
"""
import collections
import itertools
from typing import Any, Dict, Iterable, List, Sequence, Set, Tuple

from fewshot_parser.data.augmentation import SyntheticPair, atom_calls, call_labels, substitute
from fewshot_parser.data.examples import Example
from fewshot_parser.data.reshaping import ReshapingRecombiner, Shape, argument_shape

Context = Tuple[Shape, str]


class ReparentingRecombiner(ReshapingRecombiner):
    """
    A `ReshapingRecombiner` that also makes re-parented pairs (see the module docstring), at most
    `reparented_pairs_per_predicate` per new predicate, after its forward, reverse and reshaped pairs.
    """

    def __init__(self, *args: Any, reparented_pairs_per_predicate: int = 10, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if reparented_pairs_per_predicate < 0:
            raise ValueError(f"reparented_pairs_per_predicate must be at least 0, got {reparented_pairs_per_predicate}")
        self.reparented_pairs_per_predicate = reparented_pairs_per_predicate

    def synthesize(self, support: Sequence[Example]) -> List[SyntheticPair]:
        pairs = super().synthesize(support)
        if self.reparented_pairs_per_predicate == 0:
            return pairs
        new = set(self.new_predicates(support))
        seen = {(tuple(e.utterance), e.logical_form) for e in [*support, *self.training, *pairs]}

        def unseen(pair: SyntheticPair) -> bool:
            key = (tuple(pair.utterance), pair.logical_form)
            return not (key in seen or seen.add(key))

        for predicate in self.new_predicates(support):
            fresh = filter(unseen, self._reparented(predicate, support, new))
            pairs.extend(itertools.islice(fresh, self.reparented_pairs_per_predicate))
        return pairs

    def support_contexts(self, predicate: str, support: Sequence[Example]) -> Set[Context]:
        """Every (argument shape, parent operator) the support set gives `predicate` (atom-argument calls only)."""
        return {(argument_shape(o, o.signature[1], self.formalism), o.signature[3])
                for example in support for o in atom_calls(example.tree, self.formalism) if o.label == predicate}

    def _reparented(self, predicate: str, support: Sequence[Example], new: Set[str]) -> Iterable[SyntheticPair]:
        shown = self.support_contexts(predicate, support)
        candidates = []
        for support_example, occurrence, support_span in self._support_entries(predicate, support, new):
            suffix, arity, kinds, support_parent = occurrence.signature
            if not suffix:
                continue
            span_words = support_example.utterance[support_span.start: support_span.end]
            shape = argument_shape(occurrence, arity, self.formalism)
            values = dict(occurrence.values)
            in_utterance = {v for v in values.values() if v in support_example.utterance}
            for example in self.training:
                if call_labels(example.tree) & new:
                    continue
                occurrences = collections.Counter(o.label for o in atom_calls(example.tree, self.formalism))
                for known in atom_calls(example.tree, self.formalism):
                    parent = known.signature[3]
                    if known.signature[:3] != (suffix, arity, kinds) or (shape, parent) in shown:
                        continue
                    if occurrences[known.label] != 1 or sum(1 for c in example.tree.calls() if c.label == known.label) != 1:
                        continue
                    # Values must be spoken in both utterances or in neither, as in a forward pair.
                    if any((old in example.utterance) != (values[i] in in_utterance) for i, old in known.values):
                        continue
                    span = self.known_span(example.utterance, example.tree, known.label)
                    if span is None:
                        continue
                    words = self.words_under(predicate, span_words, support_parent, parent)
                    utterance = self._replace(example.utterance, span, words, known.values, values)
                    tree = substitute(example.tree, known.label, predicate, values)
                    candidates.append((span.confidence * support_span.confidence, (parent,), example, utterance, tree,
                                       known.label))
        # `_by_shape` takes turns over the candidates' second field, here the new parent.
        for pair in self._by_shape(predicate, candidates):
            yield pair._replace(direction="reparented")
