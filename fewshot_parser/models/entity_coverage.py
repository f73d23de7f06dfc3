"""
Entity-coverage re-ranking of ProtoParser's beam. Not in the paper.

An utterance's entity tokens (the anonymized `ci0`, `num_salary`, `titleid0` the reader marks with an
entity type) almost always appear in its LF. A fine-tuned parser that has seen a new predicate once
or twice often leaves out the conjunct that would use one (jobs: `salary_greater_than ( ANS ,
num_salary , year )` dropped for "what job pays num_salary"); another hypothesis of the beam has it.
This parser decodes with a beam and picks the hypothesis with the best

    log-probability - coverage_weight * (entity tokens of the utterance that the LF does not use)

so a large weight prefers the most complete LF and breaks ties by the parser's own score. Nothing
here depends on which predicates are new: only the utterance's entity tokens and the LF's atoms.
"""
from typing import Any, Dict, List, Optional, Sequence

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import Vocabulary
from allennlp.models import Model

from fewshot_parser.data.dataset_readers.fewshot_reader import ENTITY_TYPE_NAMESPACE, NOT_AN_ENTITY
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
    Mixed into a ProtoParser class (before it): decodes with a beam and re-ranks each utterance's
    hypotheses by how many of its entity tokens their LFs leave out (see the module docstring).
    Training is the parser's own; only decoding differs, so a pre-trained archive of the parser
    loads unchanged.

    # Parameters

    coverage_weight : `float`, optional (default = `5.0`)
        Log-probability charged per entity token of the utterance that the LF does not use.
    beam_size : `int`, optional (default = `5`)
        Hypotheses decoded per utterance (at least 2: re-ranking needs alternatives).
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
        self._hypothesis_actions = {}
        output = super().decode(encoded, source_mask, source_types, metadata, source_tokens)  # type: ignore[misc]
        if "n_best" not in output:  # greedy (beam_size set to 1 after construction): nothing to re-rank
            return output
        none = self.vocab.get_token_index(NOT_AN_ENTITY, ENTITY_TYPE_NAMESPACE)  # type: ignore[attr-defined]
        beams = self.beam_size  # type: ignore[attr-defined]
        for b, example in enumerate(metadata):
            hypotheses = output["n_best"][b]
            if len(hypotheses) < 2:
                continue
            utterance = example["utterance"]
            types = source_types[b, : len(utterance)].tolist()
            entities = [token for token, kind in zip(utterance, types) if kind != none]
            chosen = rerank(hypotheses, entities, self.coverage_weight)
            if chosen == 0:
                continue
            rows = sorted(row for row in self._hypothesis_actions if b * beams <= row < (b + 1) * beams)
            output["logical_form"][b] = hypotheses[chosen]["logical_form"]
            output["score"][b] = hypotheses[chosen]["score"]
            output["predicted_actions"][b] = self._hypothesis_actions[rows[chosen]]
            output["n_best"][b] = [hypotheses[chosen]] + hypotheses[:chosen] + hypotheses[chosen + 1:]
        self._hypothesis_actions = {}
        return output


@Model.register("proto_parser_entity_coverage")
class EntityCoverageProtoParser(EntityCoverageReranking, ProtoParser):
    """`proto_parser` with entity-coverage re-ranking of its beam (`EntityCoverageReranking`).

    Registered as a `Model` with name "proto_parser_entity_coverage"."""


@Model.register("irnet_parser_entity_coverage")
class EntityCoverageIRNetParser(EntityCoverageReranking, IRNetParser):
    """`irnet_parser` (ProtoParser with IRNet's schema encoding) with entity-coverage re-ranking of its beam.

    Registered as a `Model` with name "irnet_parser_entity_coverage"."""
