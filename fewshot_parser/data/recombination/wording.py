"""
Stateless wording helpers: which words of an utterance express a predicate, and the words a
synthetic utterance puts in their place. Each is a function of its arguments and of the context's
statistics; `known_span` keeps its answers in the context (the same answer for the same arguments).

* The words of a **known** predicate: the best run of words whose strongest predicate (by name, else
  by association) is this one.
* The words of a **new** predicate in its support utterance: words naming it, else the words that no
  known predicate of that LF explains, that are not common function words, and that sit closest to
  its own arguments; a word two new predicates take belongs to the one with the shorter span.
"""

from typing import AbstractSet, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple

from fewshot_parser.data.examples import Example
from fewshot_parser.data.predicate_names import predicate_name
from fewshot_parser.data.recombination.context import RecombinationContext, Support
from fewshot_parser.data.recombination.trees import ENTITY, Occurrence, atom_calls, call_labels, is_variable
from fewshot_parser.logical_forms.tree import Tree


class Span(NamedTuple):
    start: int
    end: int  # exclusive
    confidence: float


class Entry(NamedTuple):
    """A support example that uses a new predicate once on atoms, with that call and its words."""

    example: Example
    occurrence: Occurrence
    span: Span


def is_word(token: str, formalism: str) -> bool:
    return not ENTITY.match(token) and not is_variable(token, formalism)


def best_run(scores: Sequence[float], max_span: int) -> Optional[Span]:
    """The contiguous run of positive scores (at most `max_span` long) with the highest sum."""
    best: Optional[Span] = None
    best_total = 0.0
    for start in range(len(scores)):
        total = 0.0
        for end in range(start, min(len(scores), start + max_span)):
            if scores[end] <= 0:
                break
            total += scores[end]
            if total > best_total + 1e-9:
                best_total = total
                best = Span(start, end + 1, total / (end + 1 - start))
    return best


def known_span(context: RecombinationContext, tokens: Sequence[str], tree: Tree, predicate: str) -> Optional[Span]:
    """The words of an utterance that express a known predicate of its LF (kept in the context)."""
    spans: Dict[Tuple, Optional[Span]] = context.derived("known spans", dict)
    key = (tuple(tokens), tree, predicate)
    if key not in spans:
        spans[key] = _known_span(context, tokens, tree, predicate)
    return spans[key]


def _known_span(context: RecombinationContext, tokens: Sequence[str], tree: Tree, predicate: str) -> Optional[Span]:
    statistics = context.statistics
    others = call_labels(tree) - {predicate}
    scores = []
    for token in tokens:
        if not is_word(token, context.formalism) or (
            statistics.is_common(token, context.common_word) and not statistics.names(token, predicate)
        ):
            scores.append(0.0)
            continue
        mine = 1.0 if statistics.names(token, predicate) else statistics.association(token, predicate)
        theirs = max(
            (1.0 if statistics.names(token, q) else statistics.association(token, q) for q in others), default=0.0
        )
        scores.append(mine if mine >= context.min_association and mine > theirs else 0.0)
    return best_run(scores, context.max_span)


def new_word_scores(
    context: RecombinationContext,
    tokens: Sequence[str],
    tree: Tree,
    predicate: str,
    values: Sequence[str],
    new_predicates: AbstractSet[str],
) -> List[float]:
    """How strongly each word of a support utterance expresses the new `predicate`: words naming it
    most, then the words no known predicate of the LF explains and no other new predicate names,
    nearest to its own value arguments; 0 for the others."""
    statistics = context.statistics
    known = call_labels(tree) & context.known
    rivals = (call_labels(tree) & new_predicates) - {predicate}
    anchors = [i for i, token in enumerate(tokens) if token in values]
    scores = []
    for i, token in enumerate(tokens):
        if not is_word(token, context.formalism) or token in values:
            scores.append(0.0)
            continue
        if statistics.names(token, predicate):
            scores.append(2.0)
            continue
        if any(statistics.names(token, q) for q in rivals | known) or statistics.is_common(token, context.common_word):
            scores.append(0.0)
            continue
        # A word that predicts a known predicate of this LF expresses that one; a word that
        # predicts a predicate absent from the LF (a near synonym) or none is a candidate.
        explained = max((statistics.predictiveness(token, q) for q in known), default=0.0)
        elsewhere = statistics.strongest(token, known)
        if explained >= context.max_explained and explained >= elsewhere:
            scores.append(0.0)
            continue
        score = 0.5 + 0.5 * elsewhere
        if rivals and anchors:  # several new predicates: each takes the words nearest its arguments
            score *= 0.5 + 0.5 / (1.0 + min(abs(i - a) for a in anchors))
        scores.append(score)
    return scores


def single_calls(example: Example, formalism: str) -> Dict[str, Occurrence]:
    """The predicates an example calls exactly once on atoms, with that call."""
    calls: Dict[str, List[Occurrence]] = {}
    for occurrence in atom_calls(example.tree, formalism):
        calls.setdefault(occurrence.label, []).append(occurrence)
    return {label: found[0] for label, found in calls.items() if len(found) == 1}


def call_scores(
    context: RecombinationContext, example: Example, call: Occurrence, new_predicates: AbstractSet[str]
) -> List[float]:
    """`new_word_scores` of the predicate of `call`, a call on atoms in a support example."""
    values = [v for _, v in call.values]
    return new_word_scores(context, example.utterance, example.tree, call.label, values, new_predicates)


def support_entries(context: RecombinationContext, support: Support, predicate: str) -> Iterator[Entry]:
    """
    Each support example that uses `predicate` once on atoms, with its words for it (when found). Where
    two new predicates of one example both take a word, it belongs to the one whose span is shorter
    ("what state border s0" with state:t and next_to:t new: next_to:t's `border` against state:t's
    `state border`), so one predicate's words never stand for another's in its pairs: the words of a
    shorter span of another new predicate score 0 for this one, and its span is the best run of the rest.
    """
    for example in support.examples:
        calls = single_calls(example, context.formalism)
        if predicate not in calls:
            continue
        scores = call_scores(context, example, calls[predicate], support.new)
        mine = best_run(scores, context.max_span)
        if mine is None:
            continue
        for other in support.new_predicates:
            if other == predicate or other not in calls:
                continue
            theirs = best_run(call_scores(context, example, calls[other], support.new), context.max_span)
            if theirs is not None and theirs.end - theirs.start < mine.end - mine.start:
                for position in range(max(theirs.start, mine.start), min(theirs.end, mine.end)):
                    scores[position] = 0.0
        span = best_run(scores, context.max_span)
        if span is not None:
            yield Entry(example, calls[predicate], span)


def replace_words(
    tokens: Sequence[str],
    span: Span,
    words: Sequence[str],
    old_values: Sequence[Tuple[int, str]],
    new_values: Dict[int, str],
) -> List[str]:
    """`tokens` with `span` replaced by `words` and the old value atoms by the new ones."""
    result = list(tokens[: span.start]) + list(words) + list(tokens[span.end :])
    for position, old in old_values:
        new_value = new_values[position]
        if old in result:
            result = [new_value if token == old else token for token in result]
    return result


def words_under(
    context: RecombinationContext, predicate: str, words: Sequence[str], support_parent: str, parent: str
) -> List[str]:
    """
    The support words of `predicate` for a call under `parent` instead of the support's
    `support_parent`: without the words that express the support's operator (those that predict
    it, as `highest` predicts `argmax`), and the predicate's name when none is left.
    """
    kept = list(words)
    if parent != support_parent and support_parent:
        kept = [w for w in words if context.statistics.predictiveness(w, support_parent) < context.max_explained]
    return kept or [part for part in predicate_name(predicate).split("_") if part]
