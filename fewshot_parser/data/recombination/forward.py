"""
Forward pairs: a new predicate in templates of the training set. In the spirit of data recombination
(Jia and Liang, 2016) and good-enough compositional augmentation (Andreas, 2020), written for this
task.

A training example whose LF uses, once, a known predicate `q` with the same signature as the new
predicate `p` (type suffix, arity, which arguments are variables or values, and the operator above
it), and whose utterance has `q`'s words: `q` becomes `p` in the LF, `q`'s words become `p`'s support
words in the utterance, and `q`'s value arguments (entities, constants) become `p`'s. Candidates take
turns over the replaced predicates, best first, so that many templates appear.

With `same_roles`, `q` must also play `p`'s role in its LF: each variable argument is typed by
another one-argument predicate in both LFs or in neither (`trees.Occurrence.roles`). Without it, a
new modifier (`major:t` beside `city:t` in the support LF) replaces the only type of a training LF
(`city:t` in "how many city in s0" becomes `major:t`, and the pair loses the type), and a relation to a
number (`population:t $1 $0`) replaces a relation between typed entities (`loc:t`).
"""

import collections
from typing import Dict, Iterable, List, Sequence, Tuple, Union, cast

from fewshot_parser.data.examples import Example
from fewshot_parser.data.recombination.context import RecombinationContext, Support
from fewshot_parser.data.recombination.generator import PairGenerator, SyntheticPair
from fewshot_parser.data.recombination.pipeline import Candidate, in_turns
from fewshot_parser.data.recombination.trees import atom_calls, call_labels, substitute
from fewshot_parser.data.recombination.wording import Entry, Span, known_span, replace_words, support_entries


@PairGenerator.register("forward")
class ForwardPairs(PairGenerator):
    """
    The new predicate in training templates of a known predicate with its signature (see the module
    docstring).

    Registered as a `PairGenerator` with name "forward".

    # Parameters

    pairs_per_predicate : `int`, optional (default = `20`)
        Forward pairs per new predicate (at most).
    same_roles : `bool`, optional (default = `False`)
        Replace only a known predicate whose variable arguments play the new predicate's roles (see
        the module docstring).
    """

    def __init__(self, pairs_per_predicate: int = 20, same_roles: bool = False) -> None:
        super().__init__(pairs_per_predicate)
        self.same_roles = same_roles

    def utterance(
        self,
        context: RecombinationContext,
        support: Support,
        entry: Entry,
        example: Example,
        span: Span,
        old_values: Sequence[Tuple[int, str]],
        values: Dict[int, str],
    ) -> List[str]:
        """The training utterance with the support words of `entry` in place of the known predicate's
        `span`, and its value atoms `old_values` replaced by `values`."""
        words = entry.example.utterance[entry.span.start : entry.span.end]
        return replace_words(example.utterance, span, words, old_values, values)

    def pairs(
        self,
        context: RecombinationContext,
        support: Support,
        unit: Union[str, Example],
        earlier: Sequence[SyntheticPair],
    ) -> Iterable[SyntheticPair]:
        predicate = cast(str, unit)
        candidates = []
        for entry in list(support_entries(context, support, predicate)):
            occurrence = entry.occurrence
            in_utterance = {v for _, v in occurrence.values if v in entry.example.utterance}
            for example in context.training:
                if call_labels(example.tree) & support.new:
                    continue
                occurrences = collections.Counter(o.label for o in atom_calls(example.tree, context.formalism))
                for known in atom_calls(example.tree, context.formalism):
                    if known.signature != occurrence.signature or occurrences[known.label] != 1:
                        continue
                    if self.same_roles and known.roles != occurrence.roles:
                        continue
                    if sum(1 for call in example.tree.calls() if call.label == known.label) != 1:
                        continue
                    # Values must be spoken in both utterances or in neither.
                    if any(
                        (old in example.utterance) != (new_value in in_utterance)
                        for (_, old), (_, new_value) in zip(known.values, occurrence.values)
                    ):
                        continue
                    span = known_span(context, example.utterance, example.tree, known.label)
                    if span is None:
                        continue
                    values = dict(occurrence.values)
                    utterance = self.utterance(context, support, entry, example, span, known.values, values)
                    tree = substitute(example.tree, known.label, predicate, values)
                    candidates.append(
                        Candidate(
                            span.confidence * entry.span.confidence, known.label, example, utterance, tree, known.label
                        )
                    )
        yield from in_turns(candidates, predicate, "forward", context.formalism)
