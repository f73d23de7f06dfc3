"""
Reshaped recombination: synthetic pairs that show a new predicate with argument shapes its support
set never shows. Not in the paper; an extension of `fewshot_parser.data.augmentation`.

The transition system's GEN actions are typed by the shape of their arguments: `( area:i <v> )`
(the key of an `argmax`), `( area:i <e:s> )` ("the area of s0") and `( area:i usa:co )` are three
actions. A support set that shows `area:i` only as a key leaves the other two out of the fine-tuning
vocabulary, so no decoder can write "what is the area of s0" however well it learned the word: on
geo 2-shot shuffle 3 a third of the query LFs cannot be built from the train and support actions.
The forward pairs of `Recombiner` copy the support shape (same signature, the support's values), so
they never add an action either.

A *reshaped* pair takes a training example whose LF calls, once and on atoms only, a known
predicate `q` with the new predicate `p`'s type suffix and arity but an argument shape that no
support example gives `p`; `q` becomes `p` and `q`'s words become `p`'s support words, as in a
forward pair. Arguments keep `q`'s shape: where `q` has a value and `p`'s support call a variable,
`q`'s value stays (`( population:i s0 )` -> `( area:i s0 )`); where both have values, `p`'s support
value replaces `q`'s, and where `q` has a variable, it stays. So the new action exists, and is
shown in a training template with words that express `p`. Predicates without a type suffix
(jobs' Prolog, ATIS in these files) get no reshaped pairs: nothing then says which known predicates
are alike. Like the rest of the recombination it needs only the support set, the training set and
the predicate names, and is deterministic.
"""
import collections
import re
from typing import Any, Dict, Iterable, List, Sequence, Set, Tuple

from fewshot_parser.data.augmentation import (
    Occurrence, Recombiner, SyntheticPair, atom_calls, call_labels, is_variable, substitute,
)
from fewshot_parser.data.examples import Example
from fewshot_parser.data.predicate_names import predicate_name
from fewshot_parser.logical_forms.template import DEFAULT_ENTITY_PATTERN
from fewshot_parser.logical_forms.tree import to_string

_ENTITY = re.compile(DEFAULT_ENTITY_PATTERN)
_TRAILING_DIGITS = re.compile(r"\d+$")

Shape = Tuple[str, ...]


def argument_shape(call: Occurrence, arity: int, formalism: str) -> Shape:
    """
    The shape of an atom-argument call's arguments, as its GEN action sees it: `"v"` for a variable,
    `"e:<type>"` for an anonymized entity (`s0` -> `e:s`) and the atom itself for a constant
    (`usa:co`).
    """
    values = dict(call.values)
    shape = []
    for position in range(arity):
        atom = values.get(position)
        if atom is None or is_variable(atom, formalism):
            shape.append("v")
        elif _ENTITY.match(atom):
            shape.append("e:" + _TRAILING_DIGITS.sub("", atom))
        else:
            shape.append(atom)
    return tuple(shape)


class ReshapingRecombiner(Recombiner):
    """
    A `Recombiner` that also makes reshaped pairs (see the module docstring), at most
    `reshaped_pairs_per_predicate` per new predicate, after its forward and reverse pairs.
    """

    def __init__(self, *args: Any, reshaped_pairs_per_predicate: int = 10, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if reshaped_pairs_per_predicate < 0:
            raise ValueError(f"reshaped_pairs_per_predicate must be at least 0, got {reshaped_pairs_per_predicate}")
        self.reshaped_pairs_per_predicate = reshaped_pairs_per_predicate

    def synthesize(self, support: Sequence[Example]) -> List[SyntheticPair]:
        pairs = super().synthesize(support)
        if self.reshaped_pairs_per_predicate == 0:
            return pairs
        new = set(self.new_predicates(support))
        seen = {(tuple(e.utterance), e.logical_form) for e in list(support) + self.training}
        seen |= {(tuple(p.utterance), p.logical_form) for p in pairs}
        for predicate in self.new_predicates(support):
            chosen = 0
            for pair in self._reshaped(predicate, support, new):
                key = (tuple(pair.utterance), pair.logical_form)
                if key in seen:
                    continue
                seen.add(key)
                pairs.append(pair)
                chosen += 1
                if chosen >= self.reshaped_pairs_per_predicate:
                    break
        return pairs

    def support_shapes(self, predicate: str, support: Sequence[Example]) -> Set[Shape]:
        """Every argument shape the support set gives `predicate` (atom-argument calls only)."""
        return {argument_shape(o, o.signature[1], self.formalism)
                for example in support for o in atom_calls(example.tree, self.formalism) if o.label == predicate}

    def _reshaped(self, predicate: str, support: Sequence[Example], new: Set[str]) -> Iterable[SyntheticPair]:
        shown = self.support_shapes(predicate, support)
        candidates = []
        for support_example, occurrence, support_span in self._support_entries(predicate, support, new):
            span_words = support_example.utterance[support_span.start: support_span.end]
            suffix, arity, _, support_parent = occurrence.signature
            if not suffix:
                # Without a type suffix (`:i`, `:t`) nothing says which known predicates are alike.
                continue
            support_values = dict(occurrence.values)
            in_utterance = {v for v in support_values.values() if v in support_example.utterance}
            for example in self.training:
                if call_labels(example.tree) & new:
                    continue
                occurrences = collections.Counter(o.label for o in atom_calls(example.tree, self.formalism))
                for known in atom_calls(example.tree, self.formalism):
                    if known.signature[0] != suffix or known.signature[1] != arity or occurrences[known.label] != 1:
                        continue
                    if sum(1 for call in example.tree.calls() if call.label == known.label) != 1:
                        continue
                    # Where both calls have a value, the support's replaces the training one; it
                    # must be spoken in both utterances or in neither.
                    replaced = [(i, old) for i, old in known.values if i in support_values]
                    shape = argument_shape(known._replace(values=tuple(
                        (i, support_values.get(i, old)) for i, old in known.values)), arity, self.formalism)
                    if shape in shown:
                        continue
                    if any((old in example.utterance) != (support_values[i] in in_utterance) for i, old in replaced):
                        continue
                    span = self.known_span(example.utterance, example.tree, known.label)
                    if span is None:
                        continue
                    words = self.words_under(predicate, span_words, support_parent, known.signature[3])
                    values = {i: support_values[i] for i, _ in replaced}
                    utterance = self._replace(example.utterance, span, words, replaced, values)
                    tree = substitute(example.tree, known.label, predicate, values)
                    candidates.append((span.confidence * support_span.confidence, shape, example, utterance, tree,
                                       known.label))
        yield from self._by_shape(predicate, candidates)

    def words_under(self, predicate: str, words: Sequence[str], support_parent: str, parent: str) -> List[str]:
        """
        The support words of `predicate` for a call under `parent` instead of the support's
        `support_parent`: without the words that express the support's operator (those that predict
        it, as `highest` predicts `argmax`), and the predicate's name when none is left.
        """
        kept = list(words)
        if parent != support_parent and support_parent:
            kept = [w for w in words if self.statistics.predictiveness(w, support_parent) < self.max_explained]
        return kept or [part for part in predicate_name(predicate).split("_") if part]

    def _by_shape(self, predicate: str, candidates: List[tuple]) -> Iterable[SyntheticPair]:
        """Candidates best first, taking turns over the argument shapes, so that each new action appears."""
        by_shape: Dict[Shape, List[tuple]] = collections.defaultdict(list)
        for candidate in sorted(candidates, key=lambda c: (-c[0], c[2].source, c[2].line_number, c[5], c[1])):
            by_shape[candidate[1]].append(candidate)
        queues = [iter(by_shape[shape]) for shape in sorted(by_shape, key=lambda shape: (-by_shape[shape][0][0], shape))]
        while queues:
            remaining = []
            for queue in queues:
                candidate = next(queue, None)
                if candidate is None:
                    continue
                remaining.append(queue)
                confidence, _, example, utterance, tree, replaced = candidate
                yield SyntheticPair(utterance, to_string(tree, self.formalism), predicate, "reshaped",
                                    f"{example.source}:{example.line_number}", replaced, round(confidence, 4))
            queues = remaining
