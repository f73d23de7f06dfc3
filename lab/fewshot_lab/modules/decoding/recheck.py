"""
What the lab's re-checking rerankers share: for the examples whose first LF a rule flags, decode a beam
and gather the candidates, and the entity-coverage weight and entity tokens to score them as
`entity_coverage` does.
"""

from typing import Any, Dict, List, NamedTuple

from fewshot_parser.modules.decoding.entity_coverage import EntityCoverage, coverage_weight
from fewshot_parser.modules.decoding.hypotheses import DecodingInputs, Hypothesis


class Recheck(NamedTuple):
    # per flagged example: its hypotheses, then the beam's hypotheses with other LFs
    candidates: Dict[int, List[Hypothesis]]
    # the parser's entity-coverage weight (0 without that reranker) and, where it has one, each example's entities
    coverage: float
    entities: List[List[str]]


def recheck(
    parser: Any, inputs: DecodingInputs, hypotheses: List[List[Hypothesis]], flagged: List[int], beam_size: int
) -> Recheck:
    beam = parser.search(inputs.select(flagged), beam_size)
    coverage = coverage_weight(parser)
    entities = EntityCoverage.entity_tokens(parser, inputs) if coverage else [[] for _ in hypotheses]
    candidates = {}
    for i, b in enumerate(flagged):
        seen = {h.logical_form for h in hypotheses[b]}
        candidates[b] = hypotheses[b] + [h for h in beam[i] if h.logical_form not in seen]
    return Recheck(candidates, coverage, entities)
