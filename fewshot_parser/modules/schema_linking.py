"""
IRNet-style schema linking (Guo et al. 2019), with the predicates of a dataset as the columns of a
schema, for the IRNet baseline (the `schema_encoding` action scorer).

IRNet tags each question n-gram as an exact or partial match of a column name and gives every
column a type from how the question mentions it. Our utterances are single stemmed words and the
predicate names are `_`-joined words (`departure_time`, `req_exp`), so the n-gram test becomes a
test on name words:

* a name word is *mentioned* when some utterance word links to it (`predicate_names.link_similarity`
  at least `threshold`: equal strings, a stem prefix of 4+ characters, or close in Levenshtein);
* a predicate is an *exact* match when all its name words are mentioned, a *partial* match when
  some are, and unmatched otherwise;
* an utterance word is *exact* when it mentions a word of an exactly matched predicate, *partial*
  when it mentions any name word, and unmatched otherwise.

Everything that depends only on the vocabulary is computed once into `SchemaTables`; the per-batch
part is a few tensor operations.
"""

from typing import Dict, List, NamedTuple, Sequence, Tuple

import torch

from fewshot_parser.data.predicate_names import link_similarity, predicate_name

NONE, PARTIAL, EXACT = 0, 1, 2
NUM_MATCH_TYPES = 3


def name_words(predicate: str) -> List[str]:
    """The words of a predicate's name: `departure_time:i` -> `['departure', 'time']` (symbols: none)."""
    return [w for w in predicate_name(predicate).lower().split("_") if w.isalpha()]


class SchemaTables(NamedTuple):
    """Vocabulary-level schema tables (P predicates, J = most name words, V tokens, A actions)."""

    # (P, J, V) bool: name word j of predicate p is linked to token v.
    word_links: torch.Tensor
    # (P, J) bool: real name words (the rest is padding).
    name_mask: torch.Tensor
    # (P, J) long: the token id that stands for each name word (the best-linked token; 0 if none).
    name_token_ids: torch.Tensor
    # (A, P) float: each action's predicates, rows summing to 1 (or 0 for actions without any).
    action_predicates: torch.Tensor


def build_schema_tables(
    action_predicates: Sequence[Sequence[str]], tokens: Sequence[str], threshold: float = 0.75
) -> Tuple[SchemaTables, List[str]]:
    """
    The schema tables for actions with the given predicates and a token vocabulary (index = id;
    names starting with `@@` are padding or unknown). Returns the tables and the predicate list.
    """
    predicates = sorted({p for ps in action_predicates for p in ps if name_words(p)})
    words = [name_words(p) for p in predicates]
    width = max([len(w) for w in words] + [1])
    word_links = torch.zeros(len(predicates), width, len(tokens), dtype=torch.bool)
    name_mask = torch.zeros(len(predicates), width, dtype=torch.bool)
    name_token_ids = torch.zeros(len(predicates), width, dtype=torch.long)
    cache: Dict[str, Tuple[torch.Tensor, int]] = {}
    for p, name in enumerate(words):
        for j, word in enumerate(name):
            if word not in cache:
                scores = torch.tensor([0.0 if t.startswith("@@") else link_similarity(word, t) for t in tokens])
                best = int(scores.argmax()) if len(tokens) else 0
                cache[word] = (scores >= threshold, best if len(tokens) and scores[best] >= threshold else 0)
            word_links[p, j], name_token_ids[p, j] = cache[word]
            name_mask[p, j] = True
    index = {p: i for i, p in enumerate(predicates)}
    pooling = torch.zeros(len(action_predicates), len(predicates))
    for a, ps in enumerate(action_predicates):
        members = sorted({index[p] for p in ps if p in index})
        if members:
            pooling[a, members] = 1.0 / len(members)
    return SchemaTables(word_links, name_mask, name_token_ids, pooling), predicates


def link_batch(tables: SchemaTables, token_ids: torch.Tensor, mask: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    """
    Match types for a batch of utterances `token_ids` `(batch, length)` with `mask`.

    # Returns

    `(batch, length)` word types and `(batch, P)` predicate types, each NONE, PARTIAL or EXACT.
    """
    # shape: (batch, length, P, J): word i of the utterance mentions name word j of predicate p
    hits = tables.word_links.to(token_ids.device)[:, :, token_ids].permute(2, 3, 0, 1) & mask[:, :, None, None]
    mentioned = hits.any(1)  # (batch, P, J)
    name_mask = tables.name_mask.to(token_ids.device)
    exact = ((mentioned | ~name_mask).all(-1)) & name_mask.any(-1)
    partial = mentioned.any(-1)
    predicate_types = torch.where(exact, EXACT, torch.where(partial, PARTIAL, NONE))
    word_hits = hits.any(-1)  # (batch, length, P)
    word_types = torch.where(
        (word_hits & exact.unsqueeze(1)).any(-1), EXACT, torch.where(word_hits.any(-1), PARTIAL, NONE)
    )
    return word_types, predicate_types
