"""
Entity-coverage re-ranking of ProtoParser's beam. Not in the paper.

An utterance's entity tokens (the anonymized `ci0`, `num_salary`, `titleid0` the reader marks with an
entity type) almost always appear in its LF. A fine-tuned parser that has seen a new predicate once
or twice often leaves out the conjunct that would use one (jobs: `salary_greater_than ( ANS ,
num_salary , year )` dropped for "what job pays num_salary"); another hypothesis of the beam has it.
This reranker keeps the parser's greedy LF when that LF uses every entity token of the utterance.
Otherwise it also decodes a beam and picks, among the greedy LF and the beam's hypotheses, the one
with the best

    log-probability - weight * (entity tokens of the utterance that the LF does not use)

so a large weight prefers the most complete LF and breaks ties by the parser's own score. Greedy
first, because the beam alone prefers short LFs (a sum of log-probabilities favours fewer steps)
and lost to greedy decoding on several columns of the tuning split. Nothing here depends on which
predicates are new: only the utterance's entity tokens and the LF's atoms.
"""

from typing import Any, Dict, List, Optional, Sequence

from allennlp.common.checks import ConfigurationError

from fewshot_parser.logical_forms.namespaces import ENTITY_TYPE_NAMESPACE, NOT_AN_ENTITY
from fewshot_parser.modules.decoding.hypotheses import DecodingInputs, Hypothesis
from fewshot_parser.modules.decoding.reranker import Reranker


def uncovered_entities(logical_form: Optional[str], entities: Sequence[str]) -> int:
    """How many of the distinct `entities` are not an atom of `logical_form` (all of them without an LF)."""
    atoms = set((logical_form or "").split())
    return sum(entity not in atoms for entity in set(entities))


def rerank(hypotheses: List[Dict[str, Any]], entities: Sequence[str], weight: float) -> int:
    """Index of the hypothesis (`logical_form`, `score`) with the best coverage-penalised score; the first
    (the beam's best) among equals."""
    penalised = [h["score"] - weight * uncovered_entities(h["logical_form"], entities) for h in hypotheses]
    return max(range(len(hypotheses)), key=lambda i: (penalised[i], -i))


@Reranker.register("entity_coverage")
class EntityCoverage(Reranker):
    """
    When the greedy LF leaves out an entity token of the utterance, decodes a beam too and re-ranks
    the greedy LF and the beam's hypotheses by log-probability and left-out entity tokens (module
    docstring). The parser's own `beam_size` should stay 1: this reranker starts from its best LF.
    The output's `n_best` lists the candidates, the chosen one first.

    Registered as a `Reranker` with name "entity_coverage".

    # Parameters

    weight : `float`, optional (default = `5.0`)
        Log-probability charged per entity token of the utterance that the LF does not use.
    beam_size : `int`, optional (default = `5`)
        Hypotheses of the beam decoded for an utterance whose greedy LF is incomplete (at least 2).
    """

    lists_candidates = True

    def __init__(self, weight: float = 5.0, beam_size: int = 5) -> None:
        if beam_size < 2:
            raise ConfigurationError(f"entity coverage re-ranking: beam_size must be at least 2, not {beam_size}")
        if weight < 0:
            raise ConfigurationError(f"entity coverage re-ranking: weight must be >= 0, not {weight}")
        self.weight = weight
        self.beam_size = beam_size

    @staticmethod
    def entity_tokens(parser: Any, inputs: DecodingInputs) -> List[List[str]]:
        """Per example, the utterance tokens the reader typed as entities."""
        none = parser.vocab.get_token_index(NOT_AN_ENTITY, ENTITY_TYPE_NAMESPACE)
        return [
            [
                token
                for token, kind in zip(m["utterance"], inputs.source_types[b, : len(m["utterance"])].tolist())
                if kind != none
            ]
            for b, m in enumerate(inputs.metadata)
        ]

    def rerank(self, parser: Any, inputs: DecodingInputs, hypotheses: List[List[Hypothesis]]) -> List[List[Hypothesis]]:
        entities = self.entity_tokens(parser, inputs)
        incomplete = [b for b, found in enumerate(hypotheses) if uncovered_entities(found[0].logical_form, entities[b])]
        if not incomplete:
            return hypotheses
        beam = parser.search(inputs.select(incomplete), self.beam_size)
        reranked = list(hypotheses)
        for i, b in enumerate(incomplete):
            candidates = [hypotheses[b][0]] + beam[i]
            chosen = rerank(
                [{"logical_form": h.logical_form, "score": h.score} for h in candidates], entities[b], self.weight
            )
            reranked[b] = [candidates[chosen]] + [h for j, h in enumerate(candidates) if j != chosen]
        return reranked


def coverage_weight(parser: Any) -> float:
    """The weight of a parser's entity-coverage reranker (0 without one)."""
    return next((r.weight for r in getattr(parser, "rerankers", ()) if isinstance(r, EntityCoverage)), 0.0)
