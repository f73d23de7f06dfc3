"""Exact-match metrics over logical-form strings."""

from typing import Dict, Optional, Sequence

from allennlp.training.metrics import Metric

from fewshot_parser.logical_forms.tree import CONJUNCTION, LogicalFormError, Tree, parse, to_sexpr

# Children of these nodes form a set: their order does not change the meaning.
UNORDERED_LABELS = frozenset({"and", "or", CONJUNCTION})


def canonical(tree: Tree) -> Tree:
    """The tree with the children of `and`, `or` and Prolog goal lists sorted (multiset order)."""
    children = tuple(canonical(child) for child in tree.children)
    if tree.label in UNORDERED_LABELS and tree.is_call:
        children = tuple(sorted(children, key=to_sexpr))
    return tree.replace_children(children)


def exact_match(predicted: Optional[str], gold: str) -> bool:
    """The paper's metric: the predicted LF string equals the gold one (up to whitespace)."""
    return predicted is not None and " ".join(predicted.split()) == " ".join(gold.split())


def unordered_match(predicted: Optional[str], gold: str, formalism: str) -> bool:
    """Exact match after sorting the children of conjunctions and disjunctions."""
    if predicted is None:
        return False
    try:
        return canonical(parse(predicted, formalism)) == canonical(parse(gold, formalism))
    except LogicalFormError:
        return False


@Metric.register("fewshot_exact_match")
class LogicalFormExactMatch(Metric):
    """
    Exact-match accuracy of predicted LF strings: `exact_match` (string equality, the paper's
    metric) and `exact_match_unordered` (children of `and`/`or` and Prolog goal lists compared as
    multisets). A prediction of `None` (no LF produced) counts as wrong.

    Registered as a `Metric` with name "fewshot_exact_match".
    """

    def __init__(self) -> None:
        self._total = 0
        self._exact = 0
        self._unordered = 0

    def __call__(self, predictions: Sequence[Optional[str]], gold: Sequence[str], formalism: str) -> None:  # type: ignore
        for predicted, reference in zip(predictions, gold):
            self._total += 1
            self._exact += exact_match(predicted, reference)
            self._unordered += unordered_match(predicted, reference, formalism)

    def get_metric(self, reset: bool = False) -> Dict[str, float]:
        total = max(self._total, 1)
        metrics = {"exact_match": self._exact / total, "exact_match_unordered": self._unordered / total}
        if reset:
            self.reset()
        return metrics

    def reset(self) -> None:
        self._total = self._exact = self._unordered = 0
