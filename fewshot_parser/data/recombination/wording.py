"""
Stateless wording helpers: which words of an utterance express a predicate, and the words a
synthetic utterance puts in their place. Each is a function of its arguments and of the context's
statistics; `known_span` keeps its answers in the context (the same answer for the same arguments).

* The words of a **known** predicate: the best run of words whose strongest predicate (by name, else
  by association) is this one.
* The words of a **new** predicate in its support utterance: words naming it, else the words that no
  known predicate of that LF explains, that are not common function words, and that sit closest to
  its own arguments.
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


def new_span(
    context: RecombinationContext,
    tokens: Sequence[str],
    tree: Tree,
    predicate: str,
    values: Sequence[str],
    new_predicates: AbstractSet[str],
) -> Optional[Span]:
    """The support words of a new predicate: words naming it, else the words no known predicate
    of the LF explains and no other new predicate names, nearest to its own value arguments."""
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
    return best_run(scores, context.max_span)


def support_entries(context: RecombinationContext, support: Support, predicate: str) -> Iterator[Entry]:
    """Each support example that uses `predicate` once on atoms, with its words for it (when found)."""
    for example in support.examples:
        occurrences = [o for o in atom_calls(example.tree, context.formalism) if o.label == predicate]
        if len(occurrences) != 1:
            continue
        occurrence = occurrences[0]
        span = new_span(
            context, example.utterance, example.tree, predicate, [v for _, v in occurrence.values], support.new
        )
        if span is not None:
            yield Entry(example, occurrence, span)


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
