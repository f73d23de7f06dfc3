"""
Repeated-subtree re-ranking of ProtoParser's beam. Not in the paper.

A parser fine-tuned on one support example copies that example's shape: with `river:t` new and shown
once as `( and ( major:t $0 ) ( river:t $0 ) ( loc:t $0 s0 ) )`, it answers "what river run through
s0" with `( and ( river:t $0 ) ( river:t $0 ) ( loc:t $0 s0 ) )`, three conjuncts of which two are
the same (dev-frequent geo draw 1). No LF of the benchmarks' training sets has a node with two equal
non-leaf children, in any dataset, except two ATIS disjunctions whose anonymised cities made their
two branches equal (2 of 4,716).

This reranker keeps the current first LF unless it repeats a subtree that way. Otherwise it also
decodes a beam and takes, among the hypotheses that repeat none, the one with the best score; with
an `entity_coverage` reranker in the parser, the score is that reranker's (log-probability less its
weight per entity token left out), so the two agree. The first LF stays when every hypothesis
repeats a subtree. It reads the LFs and the utterance's entity tokens only: nothing depends on which
predicates are new.
"""

from typing import Any, List, Optional

from allennlp.common.checks import ConfigurationError

from fewshot_lab.modules.decoding.recheck import first_clean
from fewshot_parser.logical_forms.tree import LogicalFormError, Tree, parse
from fewshot_parser.modules.decoding.hypotheses import DecodingInputs, Hypothesis
from fewshot_parser.modules.decoding.reranker import Reranker


def repeats_a_subtree(logical_form: Optional[str], formalism: str) -> bool:
    """Whether some node of the LF has two equal children that are not leaves (False without an LF)."""
    if not logical_form:
        return False
    try:
        tree = parse(logical_form, formalism)
    except LogicalFormError:
        return False
    stack: List[Tree] = [tree]
    while stack:
        node = stack.pop()
        calls = [str(child) for child in node.children if not child.is_leaf]
        if len(calls) != len(set(calls)):
            return True
        stack.extend(node.children)
    return False


@Reranker.register("repeated_subtrees")
class RepeatedSubtrees(Reranker):
    """
    When the first LF repeats a subtree under one node, decodes a beam and takes its best LF that
    repeats none (module docstring). Put it after `entity_coverage` in `rerankers` to check that
    reranker's choice.

    Registered as a `Reranker` with name "repeated_subtrees".

    # Parameters

    beam_size : `int`, optional (default = `10`)
        Hypotheses decoded for an utterance whose first LF repeats a subtree (at least 2).
    """

    lists_candidates = True

    def __init__(self, beam_size: int = 10) -> None:
        if beam_size < 2:
            raise ConfigurationError(f"repeated-subtree re-ranking: beam_size must be at least 2, not {beam_size}")
        self.beam_size = beam_size

    def rerank(self, parser: Any, inputs: DecodingInputs, hypotheses: List[List[Hypothesis]]) -> List[List[Hypothesis]]:
        return first_clean(parser, inputs, hypotheses, repeats_a_subtree, self.beam_size)
