"""
Evidence words of known actions, for the missing-evidence penalty (`models/missing_evidence.py`).
Not in the paper.

Some known actions are (almost) never used in the training set without a particular word: ATIS's
`arrival_time` comes with "arrive" in 92% of its training utterances, and "arrive" is in 7% of all
of them. Such a word is the action's *evidence*. An utterance without it rarely needs the action,
however well its template fits: the fine-tuned parser that writes `arrival_time` for "flights from
ci0 to ci1 before ti0" (a new `departure_time` query) does so only because it has seen the template
with nothing else in that place.

An action's evidence words are found from counts over the training set only, with three thresholds:

    count(a) >= min_count                              (the action is well attested)
    share(w | a) = count(a, w) / count(a) >= min_share (the word comes with the action)
    share(w | a) / (count(w) / N) >= min_lift          (it comes with the action far more than usual)

where counts are of examples (an example counts once however often it repeats a word or an action).
Nothing depends on which predicates a split makes new: the rule is the same for every known action,
and an action the training set never shows (every new one) has no evidence words.
"""

from typing import Sequence, Tuple

import torch


def evidence_words(
    examples: Sequence[Tuple[Sequence[int], Sequence[int]]],
    num_actions: int,
    num_tokens: int,
    min_share: float = 0.8,
    min_lift: float = 3.0,
    min_count: int = 5,
    ignored_tokens: Sequence[int] = (),
) -> Tuple[torch.Tensor, torch.Tensor]:
    """
    Each action's evidence words from `(action ids, token ids)` examples (see the module docstring).

    Returns `(words, shares)`, both `(num_actions, k)` with `k` the most evidence words any action
    has (at least 1): the token ids, padded with -1, and their `share(w | a)`, padded with 0. Token
    ids in `ignored_tokens` (padding, out-of-vocabulary) are never evidence.
    """
    if not 0.0 < min_share <= 1.0:
        raise ValueError(f"min_share must be in (0, 1], got {min_share}")
    if min_lift < 1.0 or min_count < 1:
        raise ValueError(f"min_lift must be at least 1 and min_count at least 1, got {min_lift} and {min_count}")
    if not examples:
        return torch.full((num_actions, 1), -1, dtype=torch.long), torch.zeros(num_actions, 1)
    action_presence = torch.zeros(len(examples), num_actions)
    token_presence = torch.zeros(len(examples), num_tokens)
    for row, (actions, tokens) in enumerate(examples):
        if actions:
            action_presence[row, torch.as_tensor(sorted(set(actions)), dtype=torch.long)] = 1.0
        if tokens:
            token_presence[row, torch.as_tensor(sorted(set(tokens)), dtype=torch.long)] = 1.0
    if ignored_tokens:
        token_presence[:, torch.as_tensor(sorted(set(ignored_tokens)), dtype=torch.long)] = 0.0
    # shape: (num_actions, num_tokens)
    joint = action_presence.t() @ token_presence
    action_count = action_presence.sum(0)
    word_rate = token_presence.sum(0) / len(examples)
    share = joint / action_count.clamp(min=1.0).unsqueeze(1)
    lift = share / word_rate.clamp(min=1.0 / len(examples)).unsqueeze(0)
    chosen = (share >= min_share) & (lift >= min_lift) & (action_count >= min_count).unsqueeze(1) & (joint > 0)
    k = max(1, int(chosen.sum(1).max().item()))
    # The chosen words first (by share), padding after them.
    ranked = torch.where(chosen, share, torch.full_like(share, -1.0))
    top_shares, top_words = ranked.topk(k, dim=1)
    keep = top_shares > 0
    return top_words.masked_fill(~keep, -1), top_shares.clamp(min=0.0)


def missing_evidence(token_ids: torch.Tensor, words: torch.Tensor, shares: torch.Tensor) -> torch.Tensor:
    """
    `(batch, num_actions)`: for each utterance (`token_ids`, `(batch, length)`) and action, the largest
    share of an evidence word of the action that the utterance lacks (0 when it has them all or the
    action has none).
    """
    batch_size = token_ids.size(0)
    num_tokens = max(int(token_ids.max().item()) if token_ids.numel() else 0, int(words.max().item())) + 1
    present = torch.zeros(batch_size, num_tokens, dtype=torch.bool, device=token_ids.device)
    present.scatter_(1, token_ids, True)
    # shape: (batch, num_actions, k)
    has = present[:, words.clamp(min=0)]
    lacking = (~has) & (words >= 0).unsqueeze(0)
    return (shares.to(token_ids.device).unsqueeze(0) * lacking).max(-1)[0]
