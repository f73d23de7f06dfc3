"""
Reshaped pairs: a new predicate with argument shapes its support set never shows. Not in the paper.

The transition system's GEN actions are typed by the shape of their arguments: `( area:i <v> )`
(the key of an `argmax`), `( area:i <e:s> )` ("the area of s0") and `( area:i usa:co )` are three
actions. A support set that shows `area:i` only as a key leaves the other two out of the fine-tuning
vocabulary, so no decoder can write "what is the area of s0" however well it learned the word.
Forward pairs copy the support shape (same signature, the support's values), so they never add an
action either.

A *reshaped* pair takes a training example whose LF calls, once and on atoms only, a known
predicate `q` with the new predicate `p`'s type suffix and arity but an argument shape that no
support example gives `p`; `q` becomes `p` and `q`'s words become `p`'s support words, as in a
forward pair. Arguments keep `q`'s shape: where `q` has a value and `p`'s support call a variable,
`q`'s value stays (`( population:i s0 )` -> `( area:i s0 )`); where both have values, `p`'s support
value replaces `q`'s, and where `q` has a variable, it stays. So the new action exists, and is
shown in a training template with words that express `p` (`wording.words_under`). With
`support_kinds`, a value the support set gives `p` in some call fills that argument in every pair,
also where the followed support call has a variable: a support set {`( argmax $0 ( river:t $0 ) (
len:i $0 ) )`, `( len:i r0 )`} then turns `( population:i s0 )` into `( len:i r0 )`, the kind of
entity the support shows `len:i` taking, not into `( len:i s0 )`; and a relation keeps the direction
its support shows: a pair that puts a value where every support call has a variable while leaving a
variable where the support has a value (`( loc:t c0 $0 )` -> `( capital:t c0 $0 )` for a support
`( capital:t $0 c0 )`) is dropped. `max_arity: 1` reshapes measures and types only, never a relation:
nothing in a relation's type suffix and arity says which known relation is alike, and on the
development suite pairs such as `( named:t r0 $0 )` from `( loc:t r0 $0 )` taught the known queries' "in" and "run
through" to mean the new relation. Predicates without
a type suffix (jobs' Prolog, ATIS in these files) get no reshaped pairs: nothing then says which
known predicates are alike. Candidates take turns over the argument shapes, best first, so that each
new action appears.
"""

import collections
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple, Union, cast

from allennlp.common.checks import ConfigurationError

from fewshot_parser.data.examples import Example
from fewshot_parser.data.recombination.context import RecombinationContext, Support
from fewshot_parser.data.recombination.generator import PairGenerator, SyntheticPair
from fewshot_parser.data.recombination.pipeline import Candidate, in_turns
from fewshot_parser.data.recombination.trees import Shape, argument_shape, atom_calls, call_labels, substitute
from fewshot_parser.data.recombination.wording import (
    Entry,
    Span,
    known_span,
    replace_words,
    support_entries,
    words_under,
)


def support_shapes(context: RecombinationContext, support: Support, predicate: str) -> Set[Shape]:
    """Every argument shape the support set gives `predicate` (atom-argument calls only)."""
    return {
        argument_shape(o, o.signature[1], context.formalism)
        for example in support.examples
        for o in atom_calls(example.tree, context.formalism)
        if o.label == predicate
    }


def swaps_direction(shape: Shape, valued: Set[int]) -> bool:
    """Whether an argument `shape` puts a value where the support never has one (outside `valued`, the
    positions some support call fills with a value) and a variable where it has one: the inverse of
    the relation the support shows."""
    value_moved = any(kind != "v" and i not in valued for i, kind in enumerate(shape))
    return value_moved and any(kind == "v" and i in valued for i, kind in enumerate(shape))


@PairGenerator.register("reshaped")
class ReshapedPairs(PairGenerator):
    """
    The new predicate in the argument shapes its support set lacks (see the module docstring).

    Registered as a `PairGenerator` with name "reshaped".

    # Parameters

    pairs_per_predicate : `int`, optional (default = `10`)
        Reshaped pairs per new predicate (at most).
    support_kinds : `bool`, optional (default = `False`)
        Fill an argument with the value some support call gives the new predicate there (the first
        such call's), also where the followed support call has a variable; by default only the
        followed call's own values replace the training call's.
    max_arity : `int`, optional (default = `None`)
        Reshape only new predicates of at most this many arguments (`None`: any).
    """

    def __init__(
        self, pairs_per_predicate: int = 10, support_kinds: bool = False, max_arity: Optional[int] = None
    ) -> None:
        super().__init__(pairs_per_predicate)
        if max_arity is not None and max_arity < 1:
            raise ConfigurationError(f"{type(self).__name__}: max_arity must be at least 1, got {max_arity}")
        self.support_kinds = support_kinds
        self.max_arity = max_arity

    def words(
        self, context: RecombinationContext, predicate: str, entry: Entry, replaced: Sequence[str], parent: str
    ) -> List[str]:
        """The words for `predicate` in place of the training words `replaced`, in a call under `parent`."""
        span_words = entry.example.utterance[entry.span.start : entry.span.end]
        return words_under(context, predicate, span_words, entry.occurrence.signature[3], parent)

    def utterance(
        self,
        context: RecombinationContext,
        predicate: str,
        entry: Entry,
        example: Example,
        span: Span,
        parent: str,
        replaced: Sequence[Tuple[int, str]],
        values: Dict[int, str],
    ) -> List[str]:
        """The training utterance with `predicate`'s words in place of the known predicate's `span`."""
        words = self.words(context, predicate, entry, example.utterance[span.start : span.end], parent)
        return replace_words(example.utterance, span, words, replaced, values)

    def pairs(
        self,
        context: RecombinationContext,
        support: Support,
        unit: Union[str, Example],
        earlier: Sequence[SyntheticPair],
    ) -> Iterable[SyntheticPair]:
        predicate = cast(str, unit)
        shown = support_shapes(context, support, predicate)
        entries = list(support_entries(context, support, predicate))
        # arity -> position -> (value, whether its support utterance says it), from the first support
        # call of that arity with a value there (`capital:t` may be a unary and a binary predicate).
        shown_values: Dict[int, Dict[int, Tuple[str, bool]]] = collections.defaultdict(dict)
        if self.support_kinds:
            for entry in entries:
                for i, value in entry.occurrence.values:
                    by_position = shown_values[entry.occurrence.signature[1]]
                    by_position.setdefault(i, (value, value in entry.example.utterance))
        candidates = []
        for entry in entries:
            suffix, arity, _, _ = entry.occurrence.signature
            if not suffix:
                # Without a type suffix (`:i`, `:t`) nothing says which known predicates are alike.
                continue
            if self.max_arity is not None and arity > self.max_arity:
                continue
            support_values = dict(entry.occurrence.values)
            in_utterance = {v for v in support_values.values() if v in entry.example.utterance}
            valued = set(shown_values[arity])
            for i, (value, spoken) in shown_values[arity].items():
                if i not in support_values:
                    support_values[i] = value
                    if spoken:
                        in_utterance.add(value)
            for example in context.training:
                if call_labels(example.tree) & support.new:
                    continue
                occurrences = collections.Counter(o.label for o in atom_calls(example.tree, context.formalism))
                for known in atom_calls(example.tree, context.formalism):
                    if known.signature[0] != suffix or known.signature[1] != arity or occurrences[known.label] != 1:
                        continue
                    if sum(1 for call in example.tree.calls() if call.label == known.label) != 1:
                        continue
                    # Where both calls have a value, the support's replaces the training one; it
                    # must be spoken in both utterances or in neither.
                    replaced = [(i, old) for i, old in known.values if i in support_values]
                    shape = argument_shape(
                        known._replace(values=tuple((i, support_values.get(i, old)) for i, old in known.values)),
                        arity,
                        context.formalism,
                    )
                    if shape in shown:
                        continue
                    if self.support_kinds and swaps_direction(shape, valued):
                        continue
                    if any((old in example.utterance) != (support_values[i] in in_utterance) for i, old in replaced):
                        continue
                    span = known_span(context, example.utterance, example.tree, known.label)
                    if span is None:
                        continue
                    values = {i: support_values[i] for i, _ in replaced}
                    utterance = self.utterance(
                        context, predicate, entry, example, span, known.signature[3], replaced, values
                    )
                    tree = substitute(example.tree, known.label, predicate, values)
                    candidates.append(
                        Candidate(span.confidence * entry.span.confidence, shape, example, utterance, tree, known.label)
                    )
        yield from in_turns(candidates, predicate, "reshaped", context.formalism)
