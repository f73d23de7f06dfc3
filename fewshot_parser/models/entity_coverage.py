"""
Entity-coverage re-ranking of ProtoParser's beam. Not in the paper.

An utterance's entity tokens (the anonymized `ci0`, `num_salary`, `titleid0` the reader marks with an
entity type) almost always appear in its LF. A fine-tuned parser that has seen a new predicate once
or twice often leaves out the conjunct that would use one (jobs: `salary_greater_than ( ANS ,
num_salary , year )` dropped for "what job pays num_salary"); another hypothesis of the beam has it.
This parser keeps its greedy LF when that LF uses every entity token of the utterance. Otherwise it
also decodes a beam and picks, among the greedy LF and the beam's hypotheses, the one with the best

    log-probability - coverage_weight * (entity tokens of the utterance that the LF does not use)

so a large weight prefers the most complete LF and breaks ties by the parser's own score. Greedy
first, because the beam alone prefers short LFs (a sum of log-probabilities favours fewer steps)
and lost to greedy decoding on several columns of the tuning split. Nothing here depends on which
predicates are new: only the utterance's entity tokens and the LF's atoms.
"""
from typing import Any, Dict, List, Optional, Sequence

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import Vocabulary
from allennlp.models import Model

from fewshot_parser.logical_forms.namespaces import ENTITY_TYPE_NAMESPACE, NOT_AN_ENTITY
from fewshot_parser.logical_forms.transition_system import Step
from fewshot_parser.models.irnet_parser import IRNetParser
from fewshot_parser.models.proto_parser import ProtoParser


def uncovered_entities(logical_form: Optional[str], entities: Sequence[str]) -> int:
    """How many of the distinct `entities` are not an atom of `logical_form` (all of them without an LF)."""
    atoms = set((logical_form or "").split())
    return sum(entity not in atoms for entity in set(entities))


def rerank(hypotheses: List[Dict[str, Any]], entities: Sequence[str], weight: float) -> int:
    """Index of the hypothesis (`logical_form`, `score`) with the best coverage-penalised score; the first
    (the beam's best) among equals."""
    penalised = [h["score"] - weight * uncovered_entities(h["logical_form"], entities) for h in hypotheses]
    return max(range(len(hypotheses)), key=lambda i: (penalised[i], -i))


class EntityCoverageReranking:
    """
    Mixed into a ProtoParser class (before it): when the greedy LF leaves out an entity token of
    the utterance, decodes a beam too and re-ranks the greedy LF and the beam's hypotheses by
    log-probability and left-out entity tokens (see the module docstring).
    Training is the parser's own; only decoding differs, so a pre-trained archive of the parser
    loads unchanged.

    # Parameters

    coverage_weight : `float`, optional (default = `5.0`)
        Log-probability charged per entity token of the utterance that the LF does not use.
    beam_size : `int`, optional (default = `5`)
        Hypotheses of the beam decoded for an utterance whose greedy LF is incomplete (at least 2).
    **kwargs
        Everything else, as for the parser.
    """

    def __init__(self, vocab: Vocabulary, coverage_weight: float = 5.0, beam_size: int = 5, **kwargs: Any) -> None:
        if beam_size < 2:
            raise ConfigurationError(f"entity coverage re-ranking: beam_size must be at least 2, not {beam_size}")
        if coverage_weight < 0:
            raise ConfigurationError(f"entity coverage re-ranking: coverage_weight must be >= 0, not {coverage_weight}")
        super().__init__(vocab, beam_size=beam_size, **kwargs)  # type: ignore[call-arg]
        self.coverage_weight = coverage_weight
        self._hypothesis_actions: Dict[int, List[str]] = {}

    def _steps(self, sequence: List[int], row: int, *args: Any) -> List[Step]:
        # ProtoParser.decode builds every finite hypothesis's steps through here, in beam order: keep
        # their actions, so that a re-ranked choice reports its own (template accuracy stays right).
        steps = super()._steps(sequence, row, *args)  # type: ignore[misc]
        self._hypothesis_actions[row] = [str(step.action) for step in steps]
        return steps

    def decode(
        self, encoded: torch.Tensor, source_mask: torch.Tensor, source_types: torch.Tensor,
        metadata: List[Dict[str, Any]], source_tokens: Optional[Dict[str, Any]] = None,
    ) -> Dict[str, Any]:
        beams = self.beam_size  # type: ignore[attr-defined]
        self.beam_size = 1
        try:
            output = super().decode(encoded, source_mask, source_types, metadata, source_tokens)  # type: ignore[misc]
        finally:
            self.beam_size = beams
        if beams < 2:  # beam_size set to 1 after construction: greedy decoding only
            return output
        none = self.vocab.get_token_index(NOT_AN_ENTITY, ENTITY_TYPE_NAMESPACE)  # type: ignore[attr-defined]
        entities = [
            [token for token, kind in zip(m["utterance"], source_types[b, : len(m["utterance"])].tolist()) if kind != none]
            for b, m in enumerate(metadata)
        ]
        incomplete = [b for b, m in enumerate(metadata) if uncovered_entities(output["logical_form"][b], entities[b])]
        output["n_best"] = [[{"logical_form": lf, "score": score}] for lf, score in zip(output["logical_form"], output["score"])]
        if not incomplete:
            return output
        # Beam search for the incomplete ones only; their hypotheses' actions are kept by `_steps`.
        self._hypothesis_actions = {}
        chosen_rows = torch.tensor(incomplete, device=encoded.device)
        beam = super().decode(  # type: ignore[misc]
            encoded[chosen_rows], source_mask[chosen_rows], source_types[chosen_rows], [metadata[b] for b in incomplete],
            None if source_tokens is None else _select(source_tokens, chosen_rows),
        )
        for i, b in enumerate(incomplete):
            greedy = {"logical_form": output["logical_form"][b], "score": output["score"][b]}
            candidates = [greedy] + beam["n_best"][i]
            chosen = rerank(candidates, entities[b], self.coverage_weight)
            if chosen > 0:
                rows = sorted(row for row in self._hypothesis_actions if i * beams <= row < (i + 1) * beams)
                output["logical_form"][b] = candidates[chosen]["logical_form"]
                output["score"][b] = candidates[chosen]["score"]
                output["predicted_actions"][b] = self._hypothesis_actions[rows[chosen - 1]]
            output["n_best"][b] = [candidates[chosen]] + [h for j, h in enumerate(candidates) if j != chosen]
        self._hypothesis_actions = {}
        return output


def _select(tensors: Any, rows: torch.Tensor) -> Any:
    """The given batch rows of a (nested) dict of tensors, as a TextField's tensors are."""
    if isinstance(tensors, torch.Tensor):
        return tensors[rows]
    return {key: _select(value, rows) for key, value in tensors.items()}


@Model.register("proto_parser_entity_coverage")
class EntityCoverageProtoParser(EntityCoverageReranking, ProtoParser):
    """`proto_parser` with entity-coverage re-ranking of its beam (`EntityCoverageReranking`).

    Registered as a `Model` with name "proto_parser_entity_coverage"."""


@Model.register("irnet_parser_entity_coverage")
class EntityCoverageIRNetParser(EntityCoverageReranking, IRNetParser):
    """`irnet_parser` (ProtoParser with IRNet's schema encoding) with entity-coverage re-ranking of its beam.

    Registered as a `Model` with name "irnet_parser_entity_coverage"."""
