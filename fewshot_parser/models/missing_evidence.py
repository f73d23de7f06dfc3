"""
Missing-evidence penalty for ProtoParser's decoder. Not in the paper.

A fine-tuned parser has seen a new predicate in one or two templates; where the query needs it in
another template, the known predicate the training set always showed in that place wins. ATIS: with
`departure_time` new, "flights from ci0 to ci1 before ti0" becomes `( < ( arrival_time $0 ) ti0 )`
in about a quarter of the queries, although the utterance never says "arrive", the word that comes
with `arrival_time` in 92% of its training examples.

This parser charges each known action, at every decoding step,

    weight * (the largest share(w | a) of an evidence word w of the action that the utterance lacks)

where an action's evidence words are those almost always present when the training set uses it, and
rare otherwise (`modules/evidence.py`). The counts come from the training set, through the
`fewshot_evidence_statistics` callback, and are stored in the model, so the archive decodes alone.
Training is unchanged (the penalty is for decoding only), and so is any pre-trained archive.
"""
from typing import Any, Callable, List, Optional, Sequence, Tuple

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import TextFieldTensors, Vocabulary
from allennlp.models import Model

from fewshot_parser.logical_forms.actions import GEN
from fewshot_parser.logical_forms.namespaces import ACTION_NAMESPACE
from fewshot_parser.models.entity_coverage import EntityCoverageReranking
from fewshot_parser.models.irnet_parser import IRNetParser
from fewshot_parser.models.proto_parser import ProtoParser
from fewshot_parser.modules.evidence import evidence_words, missing_evidence

_BUFFERS = ("_evidence_words", "_evidence_shares")


class MissingEvidencePenalty:
    """
    Mixed into a ProtoParser class (before it): lowers the decoding score of a known action when the
    utterance lacks a word that the training set almost always shows with it (module docstring).

    # Parameters

    evidence_weight : `float`, optional (default = `2.0`)
        Score subtracted per unit of missing evidence share (0 disables the penalty).
    evidence_share : `float`, optional (default = `0.8`)
        Least share of an action's training examples a word must appear in to be its evidence.
    evidence_lift : `float`, optional (default = `3.0`)
        Least ratio of that share to the word's share of all training examples.
    evidence_min_count : `int`, optional (default = `5`)
        Least training examples of an action for it to have evidence words.
    evidence_actions : `str`, optional (default = `"gen"`)
        Which actions can have evidence words: `"gen"`, those that write a subtree (a predicate with
        its arguments), or `"all"`, also the REDUCE actions that combine subtrees. A REDUCE action's
        words are mostly its children's: with `departure_time` left out of the training set, every
        `( < <NT> ti0 )` had an `arrival_time` child, so "arrive" became the comparison's evidence
        too, and penalising it removed the comparison from the new predicate's queries as well.
    **kwargs
        Everything else, as for the parser.
    """

    def __init__(
        self,
        vocab: Vocabulary,
        evidence_weight: float = 2.0,
        evidence_share: float = 0.8,
        evidence_lift: float = 3.0,
        evidence_min_count: int = 5,
        evidence_actions: str = "gen",
        **kwargs: Any,
    ) -> None:
        if evidence_weight < 0:
            raise ConfigurationError(f"missing-evidence penalty: evidence_weight must be >= 0, not {evidence_weight}")
        if not 0.0 < evidence_share <= 1.0:
            raise ConfigurationError(f"missing-evidence penalty: evidence_share must be in (0, 1], not {evidence_share}")
        if evidence_lift < 1.0 or evidence_min_count < 1:
            raise ConfigurationError(
                "missing-evidence penalty: evidence_lift must be >= 1 and evidence_min_count >= 1, "
                f"not {evidence_lift} and {evidence_min_count}"
            )
        if evidence_actions not in ("gen", "all"):
            raise ConfigurationError(f"missing-evidence penalty: evidence_actions must be 'gen' or 'all', not {evidence_actions!r}")
        super().__init__(vocab, **kwargs)  # type: ignore[call-arg]
        self.evidence_actions = evidence_actions
        self.evidence_weight = evidence_weight
        self.evidence_share = evidence_share
        self.evidence_lift = evidence_lift
        self.evidence_min_count = evidence_min_count
        # Filled by `set_evidence_statistics` (fine-tuning) or from the archive's weights.
        self.register_buffer("_evidence_words", None)  # type: ignore[attr-defined]
        self.register_buffer("_evidence_shares", None)  # type: ignore[attr-defined]

    def set_evidence_statistics(self, examples: Sequence[Tuple[List[str], List[str]]]) -> None:
        """Finds every action's evidence words from `(utterance tokens, gold action strings)` of the training set."""
        vocab: Vocabulary = self.vocab  # type: ignore[attr-defined]
        pairs = [
            ([vocab.get_token_index(a, ACTION_NAMESPACE) for a in actions], [vocab.get_token_index(t, "tokens") for t in tokens])
            for tokens, actions in examples
        ]
        ignored = [vocab.get_token_index(vocab._padding_token, "tokens"), vocab.get_token_index(vocab._oov_token, "tokens")]
        words, shares = evidence_words(
            pairs, vocab.get_vocab_size(ACTION_NAMESPACE), vocab.get_vocab_size("tokens"),
            self.evidence_share, self.evidence_lift, self.evidence_min_count, ignored,
        )
        if self.evidence_actions == "gen":
            actions = self.action_space.actions  # type: ignore[attr-defined]
            eligible = torch.tensor([a is not None and a.kind == GEN for a in actions] + [False] * (words.size(0) - len(actions)))
            words = words.masked_fill(~eligible.unsqueeze(1), -1)
            shares = shares.masked_fill(~eligible.unsqueeze(1), 0.0)
        self._evidence_words, self._evidence_shares = words, shares

    def evidence_penalty(self, source_tokens: TextFieldTensors) -> Optional[torch.Tensor]:
        """`(batch, num_actions)` score terms (<= 0), or None before the statistics are set or at weight 0."""
        if self._evidence_words is None or self.evidence_weight == 0:
            return None
        token_ids = self.word_ids(source_tokens)  # type: ignore[attr-defined]
        return -self.evidence_weight * missing_evidence(token_ids, self._evidence_words, self._evidence_shares)

    def decoding_bonus(
        self, source_tokens: Optional[TextFieldTensors], beams: int
    ) -> Optional[Callable[[torch.Tensor, torch.Tensor], torch.Tensor]]:
        base = super().decoding_bonus(source_tokens, beams)  # type: ignore[misc]
        penalty = None if source_tokens is None else self.evidence_penalty(source_tokens)
        if penalty is None:
            return base
        hypothesis_penalty = penalty.repeat_interleave(beams, 0)
        if base is None:
            return lambda projection, attention: hypothesis_penalty
        return lambda projection, attention: base(projection, attention) + hypothesis_penalty

    def _load_from_state_dict(self, state_dict, prefix, *args, **kwargs):  # type: ignore[no-untyped-def]
        # The statistics are buffers set after construction: make room for an archive's before loading it.
        for name in _BUFFERS:
            if prefix + name in state_dict and getattr(self, name) is None:
                setattr(self, name, torch.empty_like(state_dict[prefix + name]))
        super()._load_from_state_dict(state_dict, prefix, *args, **kwargs)  # type: ignore[misc]


@Model.register("proto_parser_missing_evidence")
class MissingEvidenceProtoParser(MissingEvidencePenalty, ProtoParser):
    """`proto_parser` with the missing-evidence penalty (`MissingEvidencePenalty`).

    Registered as a `Model` with name "proto_parser_missing_evidence"."""


@Model.register("irnet_parser_missing_evidence")
class MissingEvidenceIRNetParser(MissingEvidencePenalty, IRNetParser):
    """`irnet_parser` with the missing-evidence penalty.

    Registered as a `Model` with name "irnet_parser_missing_evidence"."""


@Model.register("proto_parser_entity_coverage_missing_evidence")
class MissingEvidenceCoverageProtoParser(MissingEvidencePenalty, EntityCoverageReranking, ProtoParser):
    """`proto_parser_entity_coverage` with the missing-evidence penalty.

    Registered as a `Model` with name "proto_parser_entity_coverage_missing_evidence"."""


@Model.register("irnet_parser_entity_coverage_missing_evidence")
class MissingEvidenceCoverageIRNetParser(MissingEvidencePenalty, EntityCoverageReranking, IRNetParser):
    """`irnet_parser_entity_coverage` with the missing-evidence penalty.

    Registered as a `Model` with name "irnet_parser_entity_coverage_missing_evidence"."""
