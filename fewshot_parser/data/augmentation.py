"""
Support-set recombination: synthetic (utterance, LF) pairs that show each new predicate of a
few-shot support set in templates of the training set, and its support template with other known
content. In the spirit of data recombination (Jia and Liang, 2016) and good-enough compositional
augmentation (Andreas, 2020), written for this task:

* **New predicates** are the predicates of the support LFs that no training LF uses; nothing else
  says which predicates are new.
* **Which words express a predicate** comes from counts over the training set (how often a word
  and a predicate occur in the same example, as a Jaccard association), from name matching
  (`elev` names `elevation:i`) and, optionally, from a predicate lexicon. For a new predicate, the
  words of its support utterance that no known predicate of that LF explains, that are not common
  function words, and that sit closest to its own arguments.
* **Forward pairs**: a training example whose LF uses a known predicate `q` with the same
  signature as the new predicate `p` (type suffix, arity, which arguments are variables or values,
  and the operator above it), once, and whose utterance has `q`'s words: `q` becomes `p` in the LF,
  `q`'s words become `p`'s support words in the utterance, and `q`'s value arguments (entities,
  constants) become `p`'s.
* **Reverse pairs**: the support example itself, with one of its known predicates (and its words)
  replaced by another known predicate of the same signature and that predicate's most frequent
  words in the training set.

Only predicates whose arguments are all atoms (variables, entities, constants) are substituted;
operators over formulas (`not`, `sum`, `argmax`) keep their place. Every choice is deterministic.
"""
import collections
import re
from typing import Dict, Iterable, List, NamedTuple, Optional, Sequence, Set, Tuple

from fewshot_parser.data.examples import Example
from fewshot_parser.data.predicate_names import link_names, link_similarity
from fewshot_parser.logical_forms.template import DEFAULT_ENTITY_PATTERN
from fewshot_parser.logical_forms.tree import Tree, to_string

_ENTITY = re.compile(DEFAULT_ENTITY_PATTERN)
_LAMBDA_VARIABLE = re.compile(r"^\$\d+$")
_PROLOG_VARIABLE = re.compile(r"^[A-Z_][A-Za-z0-9_]*$")
_NUMBERED = re.compile(r"^(.*?)(\d+)$")


class SyntheticPair(NamedTuple):
    """One synthetic example and how it was made (for `inspect-data --augment`)."""

    utterance: List[str]
    logical_form: str
    predicate: str       # the new predicate it shows
    direction: str       # "forward" (new predicate in a training template) or "reverse"
    source: str          # file:line of the example it was made from
    replaced: str        # the known predicate that was replaced
    confidence: float


class Span(NamedTuple):
    start: int
    end: int  # exclusive
    confidence: float


class Occurrence(NamedTuple):
    """A call of a predicate whose arguments are all atoms, with what it may be swapped for."""

    label: str
    signature: Tuple
    values: Tuple[Tuple[int, str], ...]  # (argument position, value atom) of non-variable arguments


def is_variable(atom: str, formalism: str) -> bool:
    pattern = _LAMBDA_VARIABLE if formalism == "lambda" else _PROLOG_VARIABLE
    return bool(pattern.match(atom))


def atom_calls(tree: Tree, formalism: str, parent: str = "") -> Iterable[Occurrence]:
    """The calls of `tree` whose arguments are all atoms, with their signatures, in pre-order."""
    if tree.is_call:
        if tree.children and all(child.is_leaf for child in tree.children):
            kinds = tuple("v" if is_variable(child.label, formalism) else "e" for child in tree.children)
            suffix = tree.label.split(":", 1)[1] if ":" in tree.label.strip(":") else ""
            values = tuple((i, child.label) for i, child in enumerate(tree.children) if kinds[i] == "e")
            yield Occurrence(tree.label, (suffix, len(tree.children), kinds, parent), values)
        for child in tree.children:
            yield from atom_calls(child, formalism, tree.label)


def call_labels(tree: Tree) -> Set[str]:
    return {call.label for call in tree.calls()}


def substitute(tree: Tree, old: str, new: str, values: Dict[int, str]) -> Tree:
    """`tree` with the (single) atom-argument call `old` renamed to `new` and its value arguments replaced."""
    if tree.is_leaf:
        return tree
    if tree.label == old and all(child.is_leaf for child in tree.children):
        children = tuple(Tree(values[i]) if i in values else child for i, child in enumerate(tree.children))
        return Tree(new, children, True)
    return tree.replace_children(tuple(substitute(child, old, new, values) for child in tree.children))


class Statistics:
    """Word-predicate co-occurrence counts over a set of examples (the training set)."""

    def __init__(self, examples: Sequence[Example], lexicon: Optional[Dict[str, List[str]]] = None) -> None:
        self.size = max(1, len(examples))
        self.document_frequency: collections.Counter = collections.Counter()
        self.predicate_frequency: collections.Counter = collections.Counter()
        self.joint: collections.Counter = collections.Counter()
        self.cooccurring: Dict[str, Set[str]] = {}
        for example in examples:
            words, predicates = set(example.utterance), call_labels(example.tree)
            self.document_frequency.update(words)
            self.predicate_frequency.update(predicates)
            self.joint.update((w, p) for w in words for p in predicates)
            for word in words:
                self.cooccurring.setdefault(word, set()).update(predicates)
        self.lexicon = lexicon or {}
        self._names: Dict[str, List[str]] = {}

    def association(self, word: str, predicate: str) -> float:
        """Jaccard association of a word and a predicate over the examples (0 when never together)."""
        joint = self.joint[(word, predicate)]
        if not joint:
            return 0.0
        return joint / (self.document_frequency[word] + self.predicate_frequency[predicate] - joint)

    def predictiveness(self, word: str, predicate: str) -> float:
        """How much a word raises the probability of a predicate: (P(q | w) - P(q)) / (1 - P(q)), with
        P(q | w) smoothed by one unseen example (rare words predict little); 0 when it does not."""
        prior = self.predicate_frequency[predicate] / self.size
        if prior >= 1.0:
            return 0.0
        given = self.joint[(word, predicate)] / (self.document_frequency[word] + 1)
        return max(0.0, (given - prior) / (1.0 - prior))

    def strongest(self, word: str, excluded: Set[str]) -> float:
        """The highest `predictiveness` of a word for a predicate outside `excluded`."""
        return max((self.predictiveness(word, q) for q in self.cooccurring.get(word, ()) if q not in excluded),
                   default=0.0)

    def names(self, word: str, predicate: str) -> bool:
        """Whether a word names a predicate: its name, a part of it or a lexicon word (stemmed prefix match)."""
        if predicate not in self._names:
            self._names[predicate] = link_names([predicate], self.lexicon)
        return any(link_similarity(name, word) >= 0.85 for name in self._names[predicate])

    def is_common(self, word: str, threshold: float) -> bool:
        """Function words: in more than `threshold` of the utterances."""
        return self.document_frequency[word] / self.size > threshold


class Recombiner:
    """
    Makes synthetic pairs for the new predicates of a support set from a training set.

    # Parameters

    training : `Sequence[Example]`
        The training set (known predicates).
    formalism : `str`
        `"lambda"` or `"prolog"`.
    lexicon : `Dict[str, List[str]]`, optional
        Predicate -> words, used besides names and counts to find a predicate's words.
    pairs_per_predicate : `int`, optional (default = `20`)
        Forward pairs per new predicate (at most).
    reverse_pairs_per_predicate : `int`, optional (default = `10`)
        Reverse pairs per new predicate (at most).
    min_association : `float`, optional (default = `0.1`)
        Association a word needs with a known predicate to count as expressing it.
    common_word : `float`, optional (default = `0.25`)
        Words in more than this fraction of training utterances never express a new predicate.
    max_explained : `float`, optional (default = `0.5`)
        A support word predicts a known predicate of its LF with at least this probability (in the
        training set): it expresses that predicate, not the new one.
    max_span : `int`, optional (default = `3`)
        Longest word span taken to express one predicate.
    """

    def __init__(
        self,
        training: Sequence[Example],
        formalism: str,
        lexicon: Optional[Dict[str, List[str]]] = None,
        pairs_per_predicate: int = 20,
        reverse_pairs_per_predicate: int = 10,
        min_association: float = 0.1,
        common_word: float = 0.25,
        max_explained: float = 0.5,
        max_span: int = 3,
    ) -> None:
        self.training = list(training)
        self.formalism = formalism
        self.statistics = Statistics(self.training, lexicon)
        self.pairs_per_predicate = pairs_per_predicate
        self.reverse_pairs_per_predicate = reverse_pairs_per_predicate
        self.min_association = min_association
        self.common_word = common_word
        self.max_explained = max_explained
        self._spans: Dict[Tuple[int, str], Optional[Span]] = {}
        self.max_span = max_span
        self.known: Set[str] = set()
        for example in self.training:
            self.known |= call_labels(example.tree)

    # ---------------------------------------------------------------- spans

    def _is_word(self, token: str) -> bool:
        return not _ENTITY.match(token) and not is_variable(token, self.formalism)

    def known_span(self, tokens: Sequence[str], tree: Tree, predicate: str) -> Optional[Span]:
        """The words of an utterance that express a known predicate of its LF: the best run of words
        whose strongest predicate (by name, else by association) is this one."""
        key = (hash((tuple(tokens), tree)), predicate)
        if key not in self._spans:
            self._spans[key] = self._known_span(tokens, tree, predicate)
        return self._spans[key]

    def _known_span(self, tokens: Sequence[str], tree: Tree, predicate: str) -> Optional[Span]:
        others = call_labels(tree) - {predicate}
        scores = []
        for token in tokens:
            if not self._is_word(token) or (self.statistics.is_common(token, self.common_word)
                                            and not self.statistics.names(token, predicate)):
                scores.append(0.0)
                continue
            mine = 1.0 if self.statistics.names(token, predicate) else self.statistics.association(token, predicate)
            theirs = max((1.0 if self.statistics.names(token, q) else self.statistics.association(token, q)
                          for q in others), default=0.0)
            scores.append(mine if mine >= self.min_association and mine > theirs else 0.0)
        return self._best_run(scores)

    def new_span(self, tokens: Sequence[str], tree: Tree, predicate: str, values: Sequence[str],
                 new_predicates: Set[str]) -> Optional[Span]:
        """The support words of a new predicate: words naming it, else the words no known predicate
        of the LF explains and no other new predicate names, nearest to its own value arguments."""
        known = call_labels(tree) & self.known
        rivals = (call_labels(tree) & new_predicates) - {predicate}
        anchors = [i for i, token in enumerate(tokens) if token in values]
        scores = []
        for i, token in enumerate(tokens):
            if not self._is_word(token) or token in values:
                scores.append(0.0)
                continue
            if self.statistics.names(token, predicate):
                scores.append(2.0)
                continue
            if any(self.statistics.names(token, q) for q in rivals | known) or \
                    self.statistics.is_common(token, self.common_word):
                scores.append(0.0)
                continue
            # A word that predicts a known predicate of this LF expresses that one; a word that
            # predicts a predicate absent from the LF (a near synonym) or none is a candidate.
            explained = max((self.statistics.predictiveness(token, q) for q in known), default=0.0)
            elsewhere = self.statistics.strongest(token, known)
            if explained >= self.max_explained and explained >= elsewhere:
                scores.append(0.0)
                continue
            score = 0.5 + 0.5 * elsewhere
            if rivals and anchors:  # several new predicates: each takes the words nearest its arguments
                score *= 0.5 + 0.5 / (1.0 + min(abs(i - a) for a in anchors))
            scores.append(score)
        return self._best_run(scores)

    def _best_run(self, scores: Sequence[float]) -> Optional[Span]:
        """The contiguous run of positive scores (at most `max_span` long) with the highest sum."""
        best: Optional[Span] = None
        best_total = 0.0
        for start in range(len(scores)):
            total = 0.0
            for end in range(start, min(len(scores), start + self.max_span)):
                if scores[end] <= 0:
                    break
                total += scores[end]
                if total > best_total + 1e-9:
                    best_total = total
                    best = Span(start, end + 1, total / (end + 1 - start))
        return best

    # ---------------------------------------------------------------- pairs

    def new_predicates(self, support: Sequence[Example]) -> List[str]:
        found: List[str] = []
        for example in support:
            for label in sorted(call_labels(example.tree) - self.known):
                if label not in found:
                    found.append(label)
        return found

    def synthesize(self, support: Sequence[Example]) -> List[SyntheticPair]:
        """Synthetic pairs for every new predicate of `support` (forward, then reverse), deduplicated."""
        new = set(self.new_predicates(support))
        seen = {(tuple(e.utterance), e.logical_form) for e in list(support) + self.training}
        pairs: List[SyntheticPair] = []
        for predicate in self.new_predicates(support):
            for make, limit in ((self._forward, self.pairs_per_predicate), (self._reverse, self.reverse_pairs_per_predicate)):
                if limit <= 0:
                    continue
                chosen = 0
                for pair in make(predicate, support, new):
                    key = (tuple(pair.utterance), pair.logical_form)
                    if key in seen:
                        continue
                    seen.add(key)
                    pairs.append(pair)
                    chosen += 1
                    if chosen >= limit:
                        break
        return pairs

    def _support_entries(self, predicate: str, support: Sequence[Example], new: Set[str]):
        """(example, occurrence, span) of each support example that uses `predicate` once on atoms."""
        for example in support:
            occurrences = [o for o in atom_calls(example.tree, self.formalism) if o.label == predicate]
            if len(occurrences) != 1:
                continue
            occurrence = occurrences[0]
            span = self.new_span(example.utterance, example.tree, predicate, [v for _, v in occurrence.values], new)
            if span is not None:
                yield example, occurrence, span

    def _replace(self, tokens: Sequence[str], span: Span, words: Sequence[str],
                 old_values: Sequence[Tuple[int, str]], new_values: Dict[int, str]) -> List[str]:
        """`tokens` with `span` replaced by `words` and the old value atoms by the new ones."""
        result = list(tokens[: span.start]) + list(words) + list(tokens[span.end:])
        for position, old in old_values:
            new_value = new_values[position]
            if old in result:
                result = [new_value if token == old else token for token in result]
        return result

    def _forward(self, predicate: str, support: Sequence[Example], new: Set[str]) -> Iterable[SyntheticPair]:
        entries = list(self._support_entries(predicate, support, new))
        candidates = []
        for support_example, occurrence, support_span in entries:
            words = support_example.utterance[support_span.start: support_span.end]
            in_utterance = {v for _, v in occurrence.values if v in support_example.utterance}
            for example in self.training:
                labels = call_labels(example.tree)
                if labels & new:
                    continue
                occurrences = collections.Counter(o.label for o in atom_calls(example.tree, self.formalism))
                for known in atom_calls(example.tree, self.formalism):
                    if known.signature != occurrence.signature or occurrences[known.label] != 1:
                        continue
                    if sum(1 for call in example.tree.calls() if call.label == known.label) != 1:
                        continue
                    # Values must be spoken in both utterances or in neither.
                    if any((old in example.utterance) != (new_value in in_utterance)
                           for (_, old), (_, new_value) in zip(known.values, occurrence.values)):
                        continue
                    span = self.known_span(example.utterance, example.tree, known.label)
                    if span is None:
                        continue
                    values = dict(occurrence.values)
                    utterance = self._replace(example.utterance, span, words, known.values, values)
                    tree = substitute(example.tree, known.label, predicate, values)
                    candidates.append((span.confidence * support_span.confidence, known.label, example, utterance, tree))
        yield from self._diverse(predicate, "forward", candidates)

    def _reverse(self, predicate: str, support: Sequence[Example], new: Set[str]) -> Iterable[SyntheticPair]:
        lexical = self._lexical_entries()
        candidates = []
        for support_example, _, support_span in self._support_entries(predicate, support, new):
            occurrences = collections.Counter(o.label for o in atom_calls(support_example.tree, self.formalism))
            for known in atom_calls(support_example.tree, self.formalism):
                if known.label not in self.known or occurrences[known.label] != 1:
                    continue
                if sum(1 for call in support_example.tree.calls() if call.label == known.label) != 1:
                    continue
                span = self.known_span(support_example.utterance, support_example.tree, known.label)
                if span is None or span.start < support_span.end and support_span.start < span.end:
                    continue
                for other, (words, values, spoken, confidence) in sorted(lexical.get(known.signature, {}).items()):
                    if other == known.label or other in call_labels(support_example.tree):
                        continue
                    # Values must be spoken in both utterances or in neither.
                    if any((old in support_example.utterance) != (values[position] in spoken)
                           for position, old in known.values):
                        continue
                    utterance = self._replace(support_example.utterance, span, words, known.values, values)
                    tree = substitute(support_example.tree, known.label, other, values)
                    candidates.append((span.confidence * confidence, other, support_example, utterance, tree))
        yield from self._diverse(predicate, "reverse", candidates)

    def _lexical_entries(self) -> Dict[Tuple, Dict[str, Tuple[Tuple[str, ...], Dict[int, str], Set[str], float]]]:
        """Per signature and known predicate: its most frequent confident words in the training set,
        with the value arguments of an example that used them."""
        if hasattr(self, "_lexical"):
            return self._lexical
        counts: Dict[Tuple, Dict[str, collections.Counter]] = collections.defaultdict(
            lambda: collections.defaultdict(collections.Counter))
        values_of: Dict[Tuple, Tuple[Dict[int, str], Set[str]]] = {}
        for example in self.training:
            occurrences = collections.Counter(o.label for o in atom_calls(example.tree, self.formalism))
            for known in atom_calls(example.tree, self.formalism):
                if occurrences[known.label] != 1:
                    continue
                span = self.known_span(example.utterance, example.tree, known.label)
                if span is None:
                    continue
                words = tuple(example.utterance[span.start: span.end])
                counts[known.signature][known.label][words] += 1
                spoken = {value for _, value in known.values if value in example.utterance}
                values_of.setdefault((known.signature, known.label, words), (dict(known.values), spoken))
        lexical: Dict[Tuple, Dict[str, Tuple[Tuple[str, ...], Dict[int, str], Set[str], float]]] = {}
        for signature, by_label in counts.items():
            for label, counter in by_label.items():
                words, count = min(counter.items(), key=lambda item: (-item[1], item[0]))
                total = sum(counter.values())
                values, spoken = values_of[(signature, label, words)]
                lexical.setdefault(signature, {})[label] = (words, values, spoken, count / total)
        self._lexical = lexical
        return lexical

    def _diverse(self, predicate: str, direction: str, candidates: List[tuple]) -> Iterable[SyntheticPair]:
        """Candidates best first, taking turns over the replaced predicates so that many templates appear."""
        by_replaced: Dict[str, List[tuple]] = collections.defaultdict(list)
        for candidate in sorted(candidates, key=lambda c: (-c[0], c[2].source, c[2].line_number, c[1])):
            by_replaced[candidate[1]].append(candidate)
        order = sorted(by_replaced, key=lambda label: (-by_replaced[label][0][0], label))
        queues = [iter(by_replaced[label]) for label in order]
        while queues:
            remaining = []
            for queue in queues:
                candidate = next(queue, None)
                if candidate is None:
                    continue
                remaining.append(queue)
                confidence, replaced, example, utterance, tree = candidate
                yield SyntheticPair(utterance, to_string(tree, self.formalism), predicate, direction,
                                    f"{example.source}:{example.line_number}", replaced, round(confidence, 4))
            queues = remaining
