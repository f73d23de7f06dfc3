"""
Argument-type re-ranking of ProtoParser's beam. Not in the paper.

Entity slots typed by class (`entity_classes`) let one template take a state where the training data
only ever shows a river: `( loc:t <e:class> $0 )` is learnt from "the r0 run through" and then
written for "what river run through s0" as `( loc:t s0 $0 )`, where every training LF has
`( loc:t $0 s0 )` (dev-frequent geo draw 1: 38 states in the second argument of `loc:t`, 2 in the
first). The class is right to merge the types for templates; the position of each type within a
predicate is still known from the training data.

This reranker counts, in the training file, how often each entity type fills each argument of each
predicate. An entity of type T in argument i of predicate p is *misplaced* when T fills another
argument of p at least `ratio` times as often as argument i (and at least `min_count` times). When
the current first LF has a misplaced entity, it also decodes a beam and takes the hypothesis with the
best

    log-probability - entity coverage's weight * entity tokens left out - weight * misplaced entities

(the first LF stays when none is better). Predicates absent from the training file (the new ones)
have no counts and are never charged: nothing depends on which predicates are new.

With `unknown_atoms`, a leaf that is no entity and never a leaf of a training LF (a plain word the
slot filler copied, as in `( loc:t $0 city )` for "what state have city n0", dev-frequent geo draw 3)
counts as misplaced too.
"""

import re
from collections import Counter
from typing import Any, Dict, List, Optional, Set, Tuple

from allennlp.common.checks import ConfigurationError

from fewshot_lab.modules.decoding.recheck import recheck
from fewshot_parser.data.examples import read_examples
from fewshot_parser.data.paths import resolve_data_path
from fewshot_parser.logical_forms.template import DEFAULT_ENTITY_PATTERN
from fewshot_parser.logical_forms.tree import LogicalFormError, Tree, parse
from fewshot_parser.modules.decoding.entity_coverage import uncovered_entities
from fewshot_parser.modules.decoding.hypotheses import DecodingInputs, Hypothesis
from fewshot_parser.modules.decoding.reranker import Reranker

ENTITY = re.compile(DEFAULT_ENTITY_PATTERN)
TRAILING_DIGITS = re.compile(r"\d+$")
Filling = Tuple[str, int, str]  # (predicate, argument position, entity type)


def fillings(tree: Tree) -> List[Filling]:
    """Every (predicate, argument position, entity type) of the tree's entity arguments."""
    found: List[Filling] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        for position, child in enumerate(node.children):
            if child.is_leaf and ENTITY.match(child.label):
                found.append((node.label, position, TRAILING_DIGITS.sub("", child.label)))
        stack.extend(node.children)
    return found


def leaves(tree: Tree) -> List[Tree]:
    """The tree's leaves that are arguments (not the tree itself when it is a single atom)."""
    found: List[Tree] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        found.extend(child for child in node.children if child.is_leaf)
        stack.extend(child for child in node.children if not child.is_leaf)
    return found


def misplaced(counts: Counter, filling: Filling, ratio: float, min_count: int) -> bool:
    predicate, position, kind = filling
    here = counts[filling]
    elsewhere = max((n for (p, i, k), n in counts.items() if p == predicate and k == kind and i != position), default=0)
    return elsewhere >= min_count and elsewhere >= ratio * here


@Reranker.register("argument_types")
class ArgumentTypes(Reranker):
    """
    When the first LF puts an entity in an argument its type (almost) never fills in the training
    data, decodes a beam and re-ranks (module docstring).

    Registered as a `Reranker` with name "argument_types".

    # Parameters

    training_data : `str`
        The training file the counts come from (a data path, as the readers take it).
    formalism : `str`
        `lambda` or `prolog`, the training file's LFs.
    weight : `float`, optional (default = `5.0`)
        Log-probability charged per misplaced entity.
    ratio : `float`, optional (default = `10.0`)
        How many times more often the type must fill another argument of the predicate.
    min_count : `int`, optional (default = `5`)
        Least count of the type in that other argument.
    beam_size : `int`, optional (default = `10`)
        Hypotheses decoded for an utterance whose first LF misplaces an entity (at least 2).
    unknown_atoms : `bool`, optional (default = `False`)
        Also charge each leaf that is no entity and no leaf of any training (or support) LF.
    support_data : `str`, optional
        The support file, whose LFs' leaves are known atoms too (a new predicate may bring a constant).
    """

    lists_candidates = True

    def __init__(
        self,
        training_data: str,
        formalism: str,
        weight: float = 5.0,
        ratio: float = 10.0,
        min_count: int = 5,
        beam_size: int = 10,
        unknown_atoms: bool = False,
        support_data: Optional[str] = None,
    ) -> None:
        if beam_size < 2:
            raise ConfigurationError(f"argument-type re-ranking: beam_size must be at least 2, not {beam_size}")
        if weight < 0 or ratio < 1 or min_count < 1:
            raise ConfigurationError(
                f"argument-type re-ranking: weight >= 0, ratio >= 1 and min_count >= 1, not {weight}, {ratio}, "
                f"{min_count}"
            )
        self.weight, self.ratio, self.min_count, self.beam_size = weight, ratio, min_count, beam_size
        self.counts: Counter = Counter()
        self.unknown_atoms = unknown_atoms
        self.atoms: Set[str] = set()
        for example in read_examples(resolve_data_path(training_data), formalism):
            self.counts.update(fillings(example.tree))
            self.atoms.update(leaf.label for leaf in leaves(example.tree))
        for example in read_examples(resolve_data_path(support_data), formalism) if support_data else []:
            self.atoms.update(leaf.label for leaf in leaves(example.tree))
        self._cache: Dict[Tuple[str, str], int] = {}

    def violations(self, logical_form: Optional[str], formalism: str) -> int:
        """Misplaced entities (and unknown atoms, if charged) of the LF (0 without an LF)."""
        if not logical_form:
            return 0
        key = (logical_form, formalism)
        if key not in self._cache:
            try:
                tree = parse(logical_form, formalism)
            except LogicalFormError:
                self._cache[key] = 0
                return 0
            found = fillings(tree)
            self._cache[key] = sum(misplaced(self.counts, f, self.ratio, self.min_count) for f in found)
            if self.unknown_atoms:
                self._cache[key] += sum(
                    not ENTITY.match(leaf.label) and leaf.label not in self.atoms for leaf in leaves(tree)
                )
        return self._cache[key]

    def rerank(self, parser: Any, inputs: DecodingInputs, hypotheses: List[List[Hypothesis]]) -> List[List[Hypothesis]]:
        formalisms = [m["formalism"] for m in inputs.metadata]
        wrong = [
            b for b, found in enumerate(hypotheses) if found and self.violations(found[0].logical_form, formalisms[b])
        ]
        if not wrong:
            return hypotheses
        found = recheck(parser, inputs, hypotheses, wrong, self.beam_size)
        reranked = list(hypotheses)
        for b, rechecked in found.candidates.items():
            candidates = rechecked[:1] + [h for h in rechecked[1:] if h.logical_form]
            penalised = [
                h.score
                - found.coverage * uncovered_entities(h.logical_form, found.entities[b])
                - self.weight * self.violations(h.logical_form, formalisms[b])
                for h in candidates
            ]
            best = max(range(len(candidates)), key=lambda k: (penalised[k], -k))
            if best:
                chosen = candidates[best]
                reranked[b] = [chosen] + [h for h in candidates if h is not chosen]
        return reranked
