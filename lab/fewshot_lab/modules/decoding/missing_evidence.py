"""
Missing-evidence penalty for ProtoParser's decoder. Not in the paper.

A fine-tuned parser has seen a new predicate in one or two templates; where the query needs it in
another template, the known predicate the training set always showed in that place wins. ATIS: with
`departure_time` new, "flights from ci0 to ci1 before ti0" becomes `( < ( arrival_time $0 ) ti0 )`
in about a quarter of the queries, although the utterance never says "arrive", the word that comes
with `arrival_time` in 92% of its training examples.

This scorer charges each known action, at every decoding step,

    weight * (the largest share(w | a) of an evidence word w of the action that the utterance lacks)

where an action's evidence words are those almost always present when the training set uses it, and
rare otherwise (`modules/evidence.py`). The counts come from the training set, through the
`fewshot_evidence_statistics` callback, and are stored in the model (buffers of this module), so the
archive decodes alone. Training is unchanged (the penalty is for decoding only), and so is any
pre-trained archive.
"""

from typing import Any, List, Optional, Sequence, Tuple

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data.vocabulary import DEFAULT_OOV_TOKEN, DEFAULT_PADDING_TOKEN

from fewshot_parser.logical_forms.actions import GEN
from fewshot_parser.logical_forms.namespaces import ACTION_NAMESPACE
from fewshot_parser.modules.decoding.decoding_scorer import DecodingScorer
from fewshot_parser.modules.decoding.hypotheses import DecodingInputs
from fewshot_lab.modules.evidence import evidence_words, missing_evidence

_BUFFERS = ("_evidence_words", "_evidence_shares")


@DecodingScorer.register("missing_evidence")
class MissingEvidence(DecodingScorer):
    """
    Lowers the decoding score of a known action when the utterance lacks a word that the training
    set almost always shows with it (module docstring).

    Registered as a `DecodingScorer` with name "missing_evidence".

    # Parameters

    weight : `float`, optional (default = `2.0`)
        Score subtracted per unit of missing evidence share (0 disables the penalty).
    share : `float`, optional (default = `0.8`)
        Least share of an action's training examples a word must appear in to be its evidence.
    lift : `float`, optional (default = `3.0`)
        Least ratio of that share to the word's share of all training examples.
    min_count : `int`, optional (default = `5`)
        Least training examples of an action for it to have evidence words.
    actions : `str`, optional (default = `"gen"`)
        Which actions can have evidence words: `"gen"`, those that write a subtree (a predicate with
        its arguments), or `"all"`, also the REDUCE actions that combine subtrees. A REDUCE action's
        words are mostly its children's: with `departure_time` left out of the training set, every
        `( < <NT> ti0 )` had an `arrival_time` child, so "arrive" became the comparison's evidence
        too, and penalising it removed the comparison from the new predicate's queries as well.
    """

    def __init__(
        self,
        weight: float = 2.0,
        share: float = 0.8,
        lift: float = 3.0,
        min_count: int = 5,
        actions: str = "gen",
    ) -> None:
        super().__init__()
        if weight < 0:
            raise ConfigurationError(f"missing-evidence penalty: weight must be >= 0, not {weight}")
        if not 0.0 < share <= 1.0:
            raise ConfigurationError(f"missing-evidence penalty: share must be in (0, 1], not {share}")
        if lift < 1.0 or min_count < 1:
            raise ConfigurationError(
                f"missing-evidence penalty: lift must be >= 1 and min_count >= 1, not {lift} and {min_count}"
            )
        if actions not in ("gen", "all"):
            raise ConfigurationError(f"missing-evidence penalty: actions must be 'gen' or 'all', not {actions!r}")
        self.weight = weight
        self.share = share
        self.lift = lift
        self.min_count = min_count
        self.actions = actions
        # Filled by `set_statistics` (fine-tuning) or from the archive's weights.
        self.register_buffer("_evidence_words", None)
        self.register_buffer("_evidence_shares", None)

    def set_statistics(self, parser: Any, examples: Sequence[Tuple[List[str], List[str]]]) -> None:
        """Finds every action's evidence words from `(utterance tokens, gold action strings)` of the training set."""
        vocab = parser.vocab
        pairs = [
            (
                [vocab.get_token_index(a, ACTION_NAMESPACE) for a in actions],
                [vocab.get_token_index(t, "tokens") for t in tokens],
            )
            for tokens, actions in examples
        ]
        ignored = [
            vocab.get_token_index(DEFAULT_PADDING_TOKEN, "tokens"),
            vocab.get_token_index(DEFAULT_OOV_TOKEN, "tokens"),
        ]
        words, shares = evidence_words(
            pairs,
            vocab.get_vocab_size(ACTION_NAMESPACE),
            vocab.get_vocab_size("tokens"),
            self.share,
            self.lift,
            self.min_count,
            ignored,
        )
        if self.actions == "gen":
            actions = parser.action_space.actions
            eligible = torch.tensor(
                [a is not None and a.kind == GEN for a in actions] + [False] * (words.size(0) - len(actions))
            )
            words = words.masked_fill(~eligible.unsqueeze(1), -1)
            shares = shares.masked_fill(~eligible.unsqueeze(1), 0.0)
        self._evidence_words, self._evidence_shares = words, shares

    def scores(self, parser: Any, inputs: DecodingInputs) -> Optional[torch.Tensor]:
        """`(batch, num_actions)` score terms (<= 0), or None before the statistics are set or at weight 0."""
        if self._evidence_words is None or self.weight == 0 or inputs.source_tokens is None:
            return None
        token_ids = parser.word_ids(inputs.source_tokens)
        return -self.weight * missing_evidence(token_ids, self._evidence_words, self._evidence_shares)

    def _load_from_state_dict(self, state_dict, prefix, *args, **kwargs):  # type: ignore[no-untyped-def]
        # The statistics are buffers set after construction: make room for an archive's before loading it.
        for name in _BUFFERS:
            if prefix + name in state_dict and getattr(self, name) is None:
                setattr(self, name, torch.empty_like(state_dict[prefix + name]))
        super()._load_from_state_dict(state_dict, prefix, *args, **kwargs)
