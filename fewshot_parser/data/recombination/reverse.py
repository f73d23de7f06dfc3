"""
Reverse pairs: the support example itself, with one of its known predicates (and its words) replaced
by another known predicate of the same signature and that predicate's most frequent words in the
training set. The new predicate keeps its support template; the known content around it varies.
Candidates take turns over the predicates put in, best first.
"""

import collections
from typing import Dict, Iterable, Sequence, Set, Tuple, Union, cast

from fewshot_parser.data.examples import Example
from fewshot_parser.data.recombination.context import RecombinationContext, Support
from fewshot_parser.data.recombination.generator import PairGenerator, SyntheticPair
from fewshot_parser.data.recombination.pipeline import Candidate, in_turns
from fewshot_parser.data.recombination.trees import atom_calls, call_labels, substitute
from fewshot_parser.data.recombination.wording import known_span, replace_words, support_entries

# Per signature and known predicate: its words, the value arguments of an example that used them, the
# values that example's utterance speaks, and the share of the predicate's uses with those words.
Lexical = Dict[Tuple, Dict[str, Tuple[Tuple[str, ...], Dict[int, str], Set[str], float]]]


def lexical_entries(context: RecombinationContext) -> Lexical:
    """Per signature and known predicate: its most frequent confident words in the training set,
    with the value arguments of an example that used them."""
    counts: Dict[Tuple, Dict[str, collections.Counter]] = collections.defaultdict(
        lambda: collections.defaultdict(collections.Counter)
    )
    values_of: Dict[Tuple, Tuple[Dict[int, str], Set[str]]] = {}
    for example in context.training:
        occurrences = collections.Counter(o.label for o in atom_calls(example.tree, context.formalism))
        for known in atom_calls(example.tree, context.formalism):
            if occurrences[known.label] != 1:
                continue
            span = known_span(context, example.utterance, example.tree, known.label)
            if span is None:
                continue
            words = tuple(example.utterance[span.start : span.end])
            counts[known.signature][known.label][words] += 1
            spoken = {value for _, value in known.values if value in example.utterance}
            values_of.setdefault((known.signature, known.label, words), (dict(known.values), spoken))
    lexical: Lexical = {}
    for signature, by_label in counts.items():
        for label, counter in by_label.items():
            words, count = min(counter.items(), key=lambda item: (-item[1], item[0]))
            total = sum(counter.values())
            values, spoken = values_of[(signature, label, words)]
            lexical.setdefault(signature, {})[label] = (words, values, spoken, count / total)
    return lexical


@PairGenerator.register("reverse")
class ReversePairs(PairGenerator):
    """
    The support template of the new predicate with other known content (see the module docstring).

    Registered as a `PairGenerator` with name "reverse".

    # Parameters

    pairs_per_predicate : `int`, optional (default = `10`)
        Reverse pairs per new predicate (at most).
    """

    def __init__(self, pairs_per_predicate: int = 10) -> None:
        super().__init__(pairs_per_predicate)

    def pairs(
        self,
        context: RecombinationContext,
        support: Support,
        unit: Union[str, Example],
        earlier: Sequence[SyntheticPair],
    ) -> Iterable[SyntheticPair]:
        predicate = cast(str, unit)
        lexical = context.derived("lexical entries", lambda: lexical_entries(context))
        candidates = []
        for entry in support_entries(context, support, predicate):
            example = entry.example
            occurrences = collections.Counter(o.label for o in atom_calls(example.tree, context.formalism))
            for known in atom_calls(example.tree, context.formalism):
                if known.label not in context.known or occurrences[known.label] != 1:
                    continue
                if sum(1 for call in example.tree.calls() if call.label == known.label) != 1:
                    continue
                span = known_span(context, example.utterance, example.tree, known.label)
                if span is None or span.start < entry.span.end and entry.span.start < span.end:
                    continue
                for other, (words, values, spoken, confidence) in sorted(lexical.get(known.signature, {}).items()):
                    if other == known.label or other in call_labels(example.tree):
                        continue
                    # Values must be spoken in both utterances or in neither.
                    if any(
                        (old in example.utterance) != (values[position] in spoken) for position, old in known.values
                    ):
                        continue
                    utterance = replace_words(example.utterance, span, words, known.values, values)
                    tree = substitute(example.tree, known.label, other, values)
                    candidates.append(Candidate(span.confidence * confidence, other, example, utterance, tree, other))
        yield from in_turns(candidates, predicate, "reverse", context.formalism)
