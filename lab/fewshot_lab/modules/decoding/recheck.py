"""
What the lab's re-checking rerankers share: for the examples whose first LF a rule flags, decode a beam
and gather the candidates, and the entity-coverage weight and entity tokens to score them as
`entity_coverage` does; `first_clean` keeps the best candidate the rule does not flag.
"""

from typing import Any, Callable, Dict, List, NamedTuple, Optional

from fewshot_parser.modules.decoding.entity_coverage import EntityCoverage, coverage_weight, uncovered_entities
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


def first_clean(
    parser: Any,
    inputs: DecodingInputs,
    hypotheses: List[List[Hypothesis]],
    flags: Callable[[Optional[str], str], bool],
    beam_size: int,
) -> List[List[Hypothesis]]:
    """
    Where `flags(logical_form, formalism)` holds for an example's first LF, decodes a beam and puts first
    the best-scoring candidate it does not flag (log-probability less the entity-coverage penalty); the
    first LF stays when every candidate is flagged.
    """
    formalisms = [m["formalism"] for m in inputs.metadata]
    flagged = [b for b, found in enumerate(hypotheses) if found and flags(found[0].logical_form, formalisms[b])]
    if not flagged:
        return hypotheses
    found = recheck(parser, inputs, hypotheses, flagged, beam_size)
    reranked = list(hypotheses)
    for b, candidates in found.candidates.items():
        clean = [h for h in candidates[1:] if h.logical_form and not flags(h.logical_form, formalisms[b])]
        if clean:
            chosen = max(
                clean, key=lambda h: h.score - found.coverage * uncovered_entities(h.logical_form, found.entities[b])
            )
            reranked[b] = [chosen] + [h for h in candidates if h is not chosen]
    return reranked
