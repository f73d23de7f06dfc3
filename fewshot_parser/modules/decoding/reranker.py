from typing import Any, List

from allennlp.common import Registrable

from fewshot_parser.modules.decoding.hypotheses import DecodingInputs, Hypothesis, SlotFilling


class Reranker(Registrable):
    """
    Chooses among decoded alternatives after `proto_parser`'s search, at evaluation and prediction
    only. Two hooks, each a no-op unless overridden:

    * `revise`, in every decoding pass (a reranker's own re-decoding included), may replace the
      steps of a hypothesis by another filling of the same template's slots;
    * `rerank`, once per batch, may reorder each example's hypotheses, decoding more through
      `parser.search` when it needs more candidates.

    The parser calls each hook of its `rerankers` in list order.
    """

    # Whether the parser's output lists the hypotheses this reranker chose among (`n_best`), even
    # with a beam of 1.
    lists_candidates: bool = False
    # Whether it reads the greedy path only (the parser then refuses a beam).
    greedy_only: bool = False

    def revise(self, parser: Any, filling: SlotFilling) -> None:
        """Replaces entries of `filling.steps` in place (`parser`: the `ProtoParser` decoding)."""

    def rerank(self, parser: Any, inputs: DecodingInputs, hypotheses: List[List[Hypothesis]]) -> List[List[Hypothesis]]:
        """Per example of `inputs`, its hypotheses best first (`parser`: the `ProtoParser` decoding)."""
        return hypotheses
