"""
An ensemble of fine-tuned parsers that share one vocabulary, combined at decoding time. Not in the
paper: meant to even out the seed lottery of fine-tuning on one or two examples per predicate.
"""

from typing import Any, Dict, List, NamedTuple, Optional, Sequence, cast

import torch
from allennlp.common.checks import ConfigurationError
from allennlp.data import Vocabulary
from allennlp.models import Model
from allennlp.training.metrics import Average

from fewshot_parser.logical_forms.namespaces import ENTITY_TYPE_NAMESPACE, NOT_AN_ENTITY
from fewshot_parser.models.metrics import LogicalFormExactMatch, exact_match
from fewshot_lab.models.path_scoring import path_log_probs, rescore_choice
from fewshot_parser.models.proto_parser import ProtoParser
from fewshot_parser.modules.decoding.entity_coverage import coverage_weight, uncovered_entities

# How member predictions are combined (see `FewShotEnsemble`).
COMBINE_RULES = ("vote", "rescore")


class Vote(NamedTuple):
    """The outcome of one example's vote: the winning LF, its first voter, its votes and mean score."""

    logical_form: Optional[str]
    member: int
    votes: int
    score: float


def vote(logical_forms: Sequence[Optional[str]], scores: Sequence[float]) -> Vote:
    """
    Majority vote over the members' LF strings of one example (compared up to whitespace, as
    `exact_match` compares them). A member without an LF (`None`) abstains. Ties between LFs with
    as many votes go to the higher mean sequence score of their voters, then to the LF that the
    lowest-numbered member predicted, so the outcome never depends on anything but the inputs.

    # Parameters

    logical_forms : `Sequence[Optional[str]]`
        Each member's best LF, in member order.
    scores : `Sequence[float]`
        Each member's log-probability of its best LF.
    """
    if not logical_forms or len(logical_forms) != len(scores):
        raise ValueError("vote needs one score per LF, and at least one LF")
    voters: Dict[str, List[int]] = {}
    for member, logical_form in enumerate(logical_forms):
        if logical_form is not None:
            voters.setdefault(" ".join(logical_form.split()), []).append(member)
    if not voters:
        return Vote(None, 0, 0, float(scores[0]))

    def mean_score(members: List[int]) -> float:
        return sum(float(scores[m]) for m in members) / len(members)

    # Python's max keeps the first of equal keys; the LFs are in order of their first voter.
    members = max(voters.values(), key=lambda group: (len(group), mean_score(group)))
    return Vote(logical_forms[members[0]], members[0], len(members), mean_score(members))


@Model.register("fewshot_ensemble")
class FewShotEnsemble(Model):
    """
    Several parsers of the same vocabulary (typically fine-tuned from one pre-trained archive with
    different seeds, as the TrainModel `fewshot_ensemble_finetune` does) that decode
    every batch and combine their predictions per example. The output has the keys of the members'
    output that the `proto_parser` predictor reads (`logical_form`, `predicted_actions`, `score`),
    so `allennlp predict` and `allennlp evaluate` use an ensemble archive like a single parser's.

    Metrics: `exact_match` and `exact_match_unordered` of the combined LFs, `member_exact_match`
    (the members' mean exact match) and `any_member_exact_match` (share of examples that at least
    one member gets right, the ceiling of any combination of their best LFs).

    Registered as a `Model` with name "fewshot_ensemble".

    # Parameters

    vocab : `Vocabulary`
        The vocabulary every member was built with.
    members : `List[Model]`
        The parsers, in order (the order breaks exact ties); `proto_parser` or a subclass.
    combine : `str`, optional (default = `"vote"`)
        `"vote"`: majority vote over the members' LF strings (see `vote`). The output's
        `predicted_actions` are those of the winning LF's first voter, its `score` the mean score of
        the winning LF's voters, `votes` how many members predicted it, and `member_logical_forms`
        every member's LF. `"rescore"`: every member scores every member's template (teacher-forced,
        `models/path_scoring.py`), and the template with the best mean log-probability wins, less the
        members' entity-coverage penalty (the `weight` of their `entity_coverage` reranker per entity
        token its LF leaves out) when they re-rank by coverage; its LF is the vote among the members
        that proposed it. A product of the members' distributions over the templates they found,
        where a vote counts only their first choices. `score` is then the mean log-probability and
        `votes` the proposers.
    """

    default_predictor = "proto_parser"

    def __init__(self, vocab: Vocabulary, members: List[Model], combine: str = "vote", **kwargs: Any) -> None:
        super().__init__(vocab, **kwargs)
        check_ensemble(len(members), combine)
        for index, member in enumerate(members):
            differing = [] if member.vocab is vocab else differing_namespaces(vocab, member.vocab)
            if differing:
                raise ConfigurationError(
                    f"fewshot_ensemble member {index} has another vocabulary than the "
                    f"ensemble (namespaces {', '.join(differing)})"
                )
            member.vocab = vocab
        # A ModuleList (registered, saved), typed as the models it holds.
        self.members = cast(Sequence[Model], torch.nn.ModuleList(members))
        self.combine = combine
        self._exact_match = LogicalFormExactMatch()
        self._any_member = Average()

    def extend_embedder_vocab(self, embedding_sources_mapping: Optional[Dict[str, str]] = None) -> None:
        """Extends every member (`Model.load` calls this before it loads the weights)."""
        for member in self.members:
            member.extend_embedder_vocab(embedding_sources_mapping)

    def forward(self, **inputs: Any) -> Dict[str, Any]:  # type: ignore
        """
        Runs every member on the batch. The loss (when the members give one) is their mean; out of
        training, the members' LFs are combined per example.
        """
        outputs = [member(**inputs) for member in self.members]
        result: Dict[str, Any] = {}
        losses = [output["loss"] for output in outputs if "loss" in output]
        if losses:
            result["loss"] = torch.stack(losses).mean()
        if "logical_form" not in outputs[0]:
            return result
        per_example = list(zip(*(output["logical_form"] for output in outputs)))
        scores = list(zip(*(output["score"] for output in outputs)))
        if self.combine == "rescore":
            votes = self.rescore(inputs, outputs)
        else:
            votes = [vote(forms, example_scores) for forms, example_scores in zip(per_example, scores)]
        result["logical_form"] = [v.logical_form for v in votes]
        result["predicted_actions"] = [outputs[v.member]["predicted_actions"][b] for b, v in enumerate(votes)]
        result["score"] = [v.score for v in votes]
        result["votes"] = [v.votes for v in votes]
        result["member_logical_forms"] = [list(forms) for forms in per_example]
        metadata = inputs.get("metadata")
        if metadata and metadata[0].get("logical_form") is not None:
            gold = [m["logical_form"] for m in metadata]
            self._exact_match(result["logical_form"], gold, metadata[0]["formalism"])
            for forms, reference in zip(per_example, gold):
                self._any_member(float(any(exact_match(form, reference) for form in forms)))
        return result

    def rescore(self, inputs: Dict[str, Any], outputs: List[Dict[str, Any]]) -> List[Vote]:
        """The `"rescore"` rule: per example, the members' templates judged by every member."""
        rows: List[int] = []
        paths: List[List[str]] = []
        proposers: List[List[int]] = []  # per candidate, the members that decoded it
        first: List[int] = []  # per example, its first candidate
        for b in range(len(outputs[0]["logical_form"])):
            first.append(len(paths))
            seen: Dict[tuple, int] = {}
            for m, output in enumerate(outputs):
                if output["logical_form"][b] is None:
                    continue
                key = tuple(output["predicted_actions"][b])
                if key not in seen:
                    seen[key] = len(paths)
                    rows.append(b)
                    paths.append(list(key))
                    proposers.append([])
                proposers[seen[key]].append(m)
        first.append(len(paths))
        judged = (
            torch.stack(
                [path_log_probs(rescoring(member), inputs["source_tokens"], rows, paths) for member in self.members], -1
            ).tolist()
            if paths
            else []
        )
        weight = float(coverage_weight(self.members[0]))
        entities = self.entity_tokens(inputs) if weight else None
        chosen: List[Vote] = []
        for b in range(len(first) - 1):
            candidates = range(first[b], first[b + 1])
            if not candidates:
                chosen.append(Vote(None, 0, 0, float(outputs[0]["score"][b])))
                continue
            forms = [
                vote(
                    [outputs[m]["logical_form"][b] for m in proposers[c]],
                    [outputs[m]["score"][b] for m in proposers[c]],
                )
                for c in candidates
            ]
            penalties = [weight * uncovered_entities(f.logical_form, entities[b]) if entities else 0.0 for f in forms]
            best = rescore_choice([judged[c] for c in candidates], penalties)
            c = first[b] + best
            chosen.append(
                Vote(forms[best].logical_form, proposers[c][0], len(proposers[c]), sum(judged[c]) / len(judged[c]))
            )
        return chosen

    def entity_tokens(self, inputs: Dict[str, Any]) -> List[List[str]]:
        """Per example, the utterance tokens the reader typed as entities (what coverage counts)."""
        none = self.vocab.get_token_index(NOT_AN_ENTITY, ENTITY_TYPE_NAMESPACE)
        types = inputs["source_entity_types"]
        return [
            [token for token, kind in zip(m["utterance"], types[b, : len(m["utterance"])].tolist()) if kind != none]
            for b, m in enumerate(inputs["metadata"])
        ]

    def get_metrics(self, reset: bool = False) -> Dict[str, float]:
        member_metrics = [member.get_metrics(reset) for member in self.members]
        if self.training:
            return {}
        metrics = dict(self._exact_match.get_metric(reset))
        metrics["member_exact_match"] = sum(m.get("exact_match", 0.0) for m in member_metrics) / len(member_metrics)
        metrics["any_member_exact_match"] = self._any_member.get_metric(reset)
        return metrics


def rescoring(member: Model) -> ProtoParser:
    """`member` as a parser the `"rescore"` rule can ask for path scores: a `proto_parser` or a subclass."""
    if not isinstance(member, ProtoParser):
        raise ConfigurationError(f"ensemble combine 'rescore' needs proto_parser members, not {type(member).__name__}")
    return member


def check_ensemble(size: int, combine: str) -> None:
    """Raises a `ConfigurationError` for an ensemble of no member or an unknown combination rule."""
    if size < 1:
        raise ConfigurationError(f"an ensemble needs at least one member, got {size}")
    if combine not in COMBINE_RULES:
        raise ConfigurationError(f"ensemble combine must be one of {', '.join(COMBINE_RULES)}, not {combine!r}")


def differing_namespaces(first: Vocabulary, second: Vocabulary) -> List[str]:
    """
    The namespaces that both vocabularies have but map differently. A namespace only one has is one
    that a token indexer adds when it first indexes (MiniLM's word pieces): ensemble members that
    share a dataset reader share its indexer, which adds it to the first member's vocabulary only.
    """
    both = set(first.get_namespaces()) & set(second.get_namespaces())
    return sorted(n for n in both if first.get_token_to_index_vocabulary(n) != second.get_token_to_index_vocabulary(n))
