"""
Alignment priors for attention regularization (paper Sec. 4.1, Eq. 5-6).

For an action `a` and an utterance word `x`:

* `conditional[a, x] = count(a, x) / count(x)`: the share of training examples containing `x` whose
  gold action sequence contains `a` (support examples included when fine-tuning);
* `similarity[a, x] = max over the predicates p of a of 1 - normalized Levenshtein(p, x)`, where a
  predicate is compared by its name without the type suffix (`river:t` -> `river`).

The model mixes them with a learned gate, `g = s P(a|x) + (1 - s) sim(a, x)` with
`s = sigmoid(w . h_dec)`, normalises `g` over the utterance and penalises the L1 distance between
that distribution and the attention weights.
"""

from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

import textdistance
import torch

from fewshot_parser.data.predicate_names import link_names, link_similarity, predicate_name

_LEVENSHTEIN = textdistance.Levenshtein()


def _best_match_matrix(
    action_names: Sequence[Sequence[str]],
    tokens: Sequence[str],
    similarity: Callable[[str, str], float],
    threshold: float = 0.0,
) -> torch.Tensor:
    """`(num_actions, num_tokens)`: per action and token, the best `similarity` over the action's names
    (0 for padding and unknown tokens and below `threshold`)."""
    cache: Dict[Tuple[str, str], float] = {}
    matrix = torch.zeros(len(action_names), len(tokens))
    for row, names in enumerate(action_names):
        if not names:
            continue
        for column, token in enumerate(tokens):
            if token.startswith("@@"):
                continue
            best = 0.0
            for name in names:
                key = (name, token)
                if key not in cache:
                    cache[key] = similarity(name, token)
                best = max(best, cache[key])
            if best >= threshold:
                matrix[row, column] = best
    return matrix


def string_similarity_matrix(
    action_predicates: Sequence[Sequence[str]], tokens: Sequence[str], lexicon: Dict[str, List[str]] = None
) -> torch.Tensor:
    """
    `(num_actions, num_tokens)` similarities in [0, 1]: for each action the best match between one of
    its predicates (or a lexicon word for it) and the token.
    """
    lexicon = lexicon or {}
    names = [
        sorted({predicate_name(p) for p in predicates} | {w for p in predicates for w in lexicon.get(p, ())})
        for predicates in action_predicates
    ]
    return _best_match_matrix(names, tokens, _LEVENSHTEIN.normalized_similarity)


def link_similarity_matrix(
    action_predicates: Sequence[Sequence[str]],
    tokens: Sequence[str],
    lexicon: Dict[str, List[str]] = None,
    threshold: float = 0.75,
) -> torch.Tensor:
    """`(num_actions, num_tokens)`: the best `link_similarity` of a word to an action's names, 0 below `threshold`."""
    names = [link_names(predicates, lexicon or {}) for predicates in action_predicates]
    return _best_match_matrix(names, tokens, link_similarity, threshold)


def conditional_matrix(
    examples: Iterable[Tuple[Sequence[int], Sequence[int]]], num_actions: int, num_tokens: int
) -> torch.Tensor:
    """
    `(num_actions, num_tokens)` estimates of `P(a | x)` from `(action ids, token ids)` pairs, one pair
    per training example (each counted once per example).
    """
    action_rows: List[torch.Tensor] = []
    token_rows: List[torch.Tensor] = []
    for actions, tokens in examples:
        action_row = torch.zeros(num_actions)
        action_row[list(set(actions))] = 1.0
        token_row = torch.zeros(num_tokens)
        token_row[list(set(tokens))] = 1.0
        action_rows.append(action_row)
        token_rows.append(token_row)
    if not action_rows:
        return torch.zeros(num_actions, num_tokens)
    actions_matrix = torch.stack(action_rows)
    tokens_matrix = torch.stack(token_rows)
    # shape: (num_actions, num_tokens)
    joint = actions_matrix.t() @ tokens_matrix
    return joint / tokens_matrix.sum(0).clamp(min=1.0)


def regularization(
    attention: torch.Tensor,
    conditional: torch.Tensor,
    similarity: torch.Tensor,
    gate: torch.Tensor,
    source_mask: torch.Tensor,
    step_mask: torch.Tensor,
) -> torch.Tensor:
    """
    Omega: mean over the regularized steps of `sum_i |attention - P'|`.

    # Parameters

    attention : `(batch, steps, source_length)` attention weights.
    conditional, similarity : `(batch, steps, source_length)` priors of each step's gold action.
    gate : `(batch, steps)` the sigmoid gate `s`.
    source_mask : `(batch, source_length)`; step_mask : `(batch, steps)` steps to regularize.
    """
    mixed = gate.unsqueeze(-1) * conditional + (1 - gate.unsqueeze(-1)) * similarity
    mixed = mixed * source_mask.unsqueeze(1)
    total = mixed.sum(-1, keepdim=True)
    # A step whose prior is zero everywhere says nothing about alignment.
    usable = step_mask & (total.squeeze(-1) > 0)
    target = mixed / total.clamp(min=1e-8)
    distance = (attention - target).abs().mul(source_mask.unsqueeze(1)).sum(-1)
    return (distance * usable).sum() / usable.sum().clamp(min=1)


def action_symbols(action_string: str) -> List[str]:
    """
    The symbols an action writes, for supervised attention: the labels of its pattern (predicates,
    constants, `lambda`, ...) split at `_`, lower-cased, without the action kind, parentheses, holes
    and slots (`GEN ( next_to:t <v> <v> )` -> `next`, `to:t`).
    """
    symbols: List[str] = []
    for label in action_string.split():
        if label in ("GEN", "REDUCE", "STOP", "(", ")") or label.startswith("<"):
            continue
        symbols.extend(part.lower() for part in label.split("_") if part)
    return symbols


def attention_candidates(symbols: Sequence[str], token: str, lexicon: Dict[str, List[str]]) -> bool:
    """
    Whether an utterance word is a word the decoder should attend to when writing an action with
    these symbols: the word has at least 2 characters and is a prefix of a symbol, or a symbol is a
    prefix of it, or the lexicon lists it for a symbol (the rule of the authors' supervised attention).
    """
    token = token.lower()
    if len(token) < 2 or token.startswith("@@"):
        return False
    return any(s.startswith(token) or token.startswith(s) or token in lexicon.get(s, ()) for s in symbols)


def attention_candidate_matrix(
    action_strings: Sequence[Optional[str]], tokens: Sequence[str], lexicon: Dict[str, List[str]] = None
) -> torch.Tensor:
    """`(num_actions, num_tokens)`: 1 where `attention_candidates` holds for the action and the word, else 0."""
    lexicon = {key.lower(): [w.lower() for w in words] for key, words in (lexicon or {}).items()}
    matrix = torch.zeros(len(action_strings), len(tokens))
    for row, action in enumerate(action_strings):
        symbols = action_symbols(action) if action else []
        if not symbols:
            continue
        for column, token in enumerate(tokens):
            if attention_candidates(symbols, token, lexicon):
                matrix[row, column] = 1.0
    return matrix


def supervised_attention_loss(
    attention: torch.Tensor, candidates: torch.Tensor, source_mask: torch.Tensor, step_mask: torch.Tensor
) -> torch.Tensor:
    """
    The supervised-attention loss: minus the sum, over each step's candidate words, of the log of the
    attention weight on them, averaged over the decoding steps (`step_mask`), so that it has the
    scale of a per-step cross-entropy. Zero when no step has a candidate word.

    # Parameters

    attention : `(batch, steps, source_length)` attention weights.
    candidates : `(batch, steps, source_length)` 1 for the candidate words of each step's gold action.
    source_mask : `(batch, source_length)`; step_mask : `(batch, steps)` real decoding steps.
    """
    weights = candidates * source_mask.unsqueeze(1) * step_mask.unsqueeze(-1)
    log_attention = attention.clamp(min=1e-10).log()
    return -(weights * log_attention).sum() / step_mask.sum().clamp(min=1)
