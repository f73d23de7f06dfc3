"""
Result-type re-ranking of ProtoParser's beam. Not in the paper.

In the lambda-calculus files a predicate's suffix says what a call of it denotes: `city:t` a truth
value, `population:i` a number, `capital:c` a city. Taught `capital:c` and `capital:t` together (two new
predicates spoken "capital"), the best row wrote "which capital are in the state that border s0" as
`( lambda $0 e ( and ( capital:c s0 ) ( exists $1 ... ) ) )`: a city among the conjuncts of `and`, where
every training LF has conditions (dev geo draw 26, `lab/results/error_analysis_dev_geo_d26.md`).

This reranker counts, in the training file, the suffixes of the calls each argument of each operator
and predicate takes (the arguments of `and` and `or` count as one). A call is *misplaced* when its
suffix never appears in its argument there, though the argument takes at least `min_count` calls in
the training file. An argument the training file never shows (of a new predicate) is never charged;
a new predicate's call is charged by its suffix like a known one's, so nothing depends on which
predicates are new. On the 50 geo draws of the development suite no gold query LF has a misplaced
call (3,700 queries; ATIS 3 of 522, `loc:t` as a lambda's body; `lab/scripts/result_types_check.py`).
Calls without a suffix (`exists`, `argmax`, Prolog's and ATIS's predicates) are never charged.

When the current first LF has a misplaced call, it also decodes a beam and takes, among the hypotheses
with none, the one with the best score (log-probability less entity coverage's weight per entity token
left out, as `entity_coverage` scores); the first LF stays when every hypothesis has one.
"""

from collections import Counter, defaultdict
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple

from allennlp.common.checks import ConfigurationError

from fewshot_lab.modules.decoding.recheck import first_clean
from fewshot_parser.data.examples import read_examples
from fewshot_parser.data.paths import resolve_data_path
from fewshot_parser.logical_forms.tree import LogicalFormError, Tree, parse
from fewshot_parser.modules.decoding.hypotheses import DecodingInputs, Hypothesis
from fewshot_parser.modules.decoding.reranker import Reranker

VARIADIC = frozenset({"and", "or"})
Argument = Tuple[str, int]  # (operator or predicate, argument index; 0 for every argument of and/or)


def suffix(label: str) -> str:
    """The type suffix of a predicate (`c` of `capital:c`); empty without one (`exists`, `flight`)."""
    return label.split(":", 1)[1] if ":" in label.strip(":") else ""


def argument_calls(tree: Tree) -> Iterator[Tuple[Argument, str]]:
    """(argument, suffix of the call in it) for every call that is an argument of another node."""
    stack = [tree]
    while stack:
        node = stack.pop()
        for index, child in enumerate(node.children):
            if not child.is_leaf:
                yield (node.label, 0 if node.label in VARIADIC else index), suffix(child.label)
                stack.append(child)


class ResultTypeCounts:
    """Per argument of an operator or predicate: the suffixes of the calls the training LFs put there."""

    def __init__(self, trees: Iterable[Tree], min_count: int) -> None:
        self.counts: Dict[Argument, Counter] = defaultdict(Counter)
        for tree in trees:
            for argument, found in argument_calls(tree):
                self.counts[argument][found] += 1
        self.min_count = min_count

    def misplaced(self, tree: Tree) -> List[Tuple[Argument, str]]:
        """The (argument, suffix) of each suffixed call whose argument never takes that suffix in training."""
        found = []
        for argument, kind in argument_calls(tree):
            seen = self.counts.get(argument)
            if kind and seen is not None and sum(seen.values()) >= self.min_count and not seen[kind]:
                found.append((argument, kind))
        return found


@Reranker.register("result_types")
class ResultTypes(Reranker):
    """
    When the first LF puts a call where the training file never puts a call of its suffix, decodes a
    beam and takes its best LF without one (module docstring). Put it after `entity_coverage`.

    Registered as a `Reranker` with name "result_types".

    # Parameters

    training_data : `str`
        The training file the suffixes are counted in (a data path, as the readers take it).
    min_count : `int`, optional (default = `3`)
        Calls an argument needs in the training file before a suffix it never takes counts as misplaced.
    beam_size : `int`, optional (default = `10`)
        Hypotheses decoded for an utterance whose first LF has a misplaced call (at least 2).
    """

    lists_candidates = True

    def __init__(self, training_data: str, min_count: int = 3, beam_size: int = 10) -> None:
        if beam_size < 2:
            raise ConfigurationError(f"result-type re-ranking: beam_size must be at least 2, not {beam_size}")
        if min_count < 1:
            raise ConfigurationError(f"result-type re-ranking: min_count must be at least 1, not {min_count}")
        self.beam_size = beam_size
        examples = read_examples(resolve_data_path(training_data), "lambda")
        self.counts = ResultTypeCounts((example.tree for example in examples), min_count)

    def violates(self, logical_form: Optional[str], formalism: str) -> bool:
        """Whether the LF has a misplaced call (False without an LF, for Prolog, or when it does not parse)."""
        if not logical_form or formalism != "lambda":
            return False
        try:
            return bool(self.counts.misplaced(parse(logical_form, formalism)))
        except LogicalFormError:
            return False

    def rerank(self, parser: Any, inputs: DecodingInputs, hypotheses: List[List[Hypothesis]]) -> List[List[Hypothesis]]:
        return first_clean(parser, inputs, hypotheses, self.violates, self.beam_size)
