"""
`allennlp inspect-data DATA_DIR [--json]`: statistics of benchmark-style data.

For every dataset folder under DATA_DIR (`<dataset>/lemma_data/shuffle_S_shot_K/{train,support,query}.txt`)
and every split it reports the number of examples, the known and new predicates, templates and
actions before and after template normalization, mean action-sequence lengths, round-trip
failures, and the accuracy ceiling (share of query examples whose predicates all occur in train
or support). Per dataset it lists the predicate signatures (arities and argument kinds) it saw,
flags the predicates used with more than one arity, and per split lists the lines the readers would
reject for a signature mismatch (`fewshot_parser.logical_forms.signatures`). A directory without
this layout is an error.
"""

import argparse
import json
import os
import re
import statistics
import sys
from collections import defaultdict
from typing import Any, Dict, List, Optional, Set

from allennlp.commands.subcommand import Subcommand

from fewshot_parser.common.errors import UserError
from fewshot_parser.data.examples import Example, read_examples
from fewshot_parser.logical_forms.normalize import TemplateNormalizer
from fewshot_parser.logical_forms.signatures import PredicateSignatures, SignatureMismatch
from fewshot_parser.logical_forms.template import Abstractor, is_slot, predicates
from fewshot_parser.logical_forms.transition_system import TransitionSystem
from fewshot_parser.logical_forms.tree import to_string

_SPLIT_DIR = re.compile(r"^shuffle_(\d+)_shot_(\d+)$")
DEFAULT_FORMALISMS = {"jobs": "prolog", "geo": "lambda", "atis": "lambda"}


@Subcommand.register("inspect-data")
class InspectData(Subcommand):
    """Statistics, normalization and accuracy ceilings of few-shot data splits."""

    def add_subparser(self, parser: argparse._SubParsersAction) -> argparse.ArgumentParser:
        description = "Report per dataset and split: examples, predicates, templates, action lengths, ceilings."
        subparser = parser.add_parser(self.name, description=description, help=description)
        subparser.add_argument("data_dir", type=str, help="directory holding <dataset>/lemma_data/shuffle_S_shot_K/")
        subparser.add_argument("--json", action="store_true", help="print one JSON document on stdout")
        subparser.add_argument("--datasets", nargs="*", default=None, help="only these dataset folders")
        subparser.add_argument(
            "--formalism",
            action="append",
            default=[],
            metavar="DATASET=FORMALISM",
            help="formalism of a dataset folder (default: jobs=prolog, others lambda)",
        )
        subparser.add_argument("--min-support", type=int, default=5, help="idiom minimum support")
        subparser.add_argument("--completeness", type=float, default=1.0, help="idiom completeness threshold")
        subparser.set_defaults(func=inspect_data_from_args)
        return subparser


def inspect_data_from_args(args: argparse.Namespace) -> None:
    formalisms = dict(DEFAULT_FORMALISMS)
    for item in args.formalism:
        name, _, formalism = item.partition("=")
        formalisms[name] = formalism
    report = inspect_data(args.data_dir, args.datasets, formalisms, args.min_support, args.completeness)
    if args.json:
        json.dump(report, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(format_report(report))


def _find_splits(dataset_dir: str) -> List[Dict[str, Any]]:
    splits = []
    root = os.path.join(dataset_dir, "lemma_data")
    if not os.path.isdir(root):
        root = dataset_dir
    for name in sorted(os.listdir(root)):
        match = _SPLIT_DIR.match(name)
        if match and os.path.isdir(os.path.join(root, name)):
            splits.append(
                {"shuffle": int(match.group(1)), "shot": int(match.group(2)), "path": os.path.join(root, name)}
            )
    return sorted(splits, key=lambda s: (s["shot"], s["shuffle"]))


def _predicates(examples: List[Example]) -> Set[str]:
    return {p for example in examples for p in predicates(example.tree)}


def _template_symbols(example: Example, abstractor: Abstractor) -> Set[str]:
    """Predicates and template constants (`first:cl`, `hour`): what a template parser must have seen."""
    template, _ = abstractor.abstract(example.tree, example.utterance)
    return set(predicates(template)) | {leaf.label for leaf in template.leaves() if not is_slot(leaf.label)}


def inspect_data(
    data_dir: str,
    datasets: Optional[List[str]] = None,
    formalisms: Optional[Dict[str, str]] = None,
    min_support: int = 5,
    completeness: float = 1.0,
) -> Dict[str, Any]:
    """Computes the report (a JSON-serialisable dictionary) for every dataset under `data_dir`."""
    formalisms = formalisms or DEFAULT_FORMALISMS
    if not os.path.isdir(data_dir):
        raise UserError(f"{data_dir}: no such directory")
    for name, formalism in formalisms.items():
        if formalism not in ("lambda", "prolog"):
            raise UserError(f"--formalism {name}={formalism}: the formalism must be lambda or prolog")
    names = datasets or sorted(d for d in os.listdir(data_dir) if os.path.isdir(os.path.join(data_dir, d)))
    missing = [name for name in datasets or [] if not os.path.isdir(os.path.join(data_dir, name))]
    if missing:
        raise UserError(f"{data_dir}: no dataset folder {', '.join(missing)}")
    report: Dict[str, Any] = {
        "data_dir": data_dir,
        "min_support": min_support,
        "completeness": completeness,
        "datasets": {},
    }
    for name in names:
        splits = _find_splits(os.path.join(data_dir, name))
        if not splits:
            continue
        formalism = formalisms.get(name, "lambda")
        abstractor = Abstractor(formalism)
        systems: Dict[Any, Any] = {}  # one normalizer per distinct training file content
        memo: Dict[Any, Any] = {}  # per-example oracle statistics, shared by the splits
        split_reports = []
        seen = PredicateSignatures(formalism, overloaded_predicates={})  # every use, for the listing
        for split in splits:
            files = {part: os.path.join(split["path"], f"{part}.txt") for part in ("train", "support", "query")}
            examples = {
                part: list(read_examples(path, formalism)) if os.path.isfile(path) else []
                for part, path in files.items()
            }
            train_key = tuple(e.logical_form + "\t" + " ".join(e.utterance) for e in examples["train"])
            if train_key not in systems:
                normalizer = TemplateNormalizer(min_support, completeness)
                normalizer.learn([abstractor.abstract(e.tree, e.utterance)[0] for e in examples["train"]])
                systems[train_key] = (
                    TransitionSystem(formalism, TemplateNormalizer(idioms=[]), abstractor),
                    TransitionSystem(formalism, normalizer, abstractor),
                )
            base, normalized = systems[train_key]
            split_reports.append(
                _split_report(split, examples, base, normalized, abstractor, memo.setdefault(train_key, {}))
            )
            split_reports[-1]["signature_mismatches"] = _signature_mismatches(examples, formalism)
            for part in ("train", "support", "query"):
                for example in examples[part]:
                    seen.learn(example.tree, f"{example.source}:{example.line_number}")
        report["datasets"][name] = {
            "formalism": formalism,
            "splits": split_reports,
            "summary": _summary(split_reports),
            "signatures": seen.summary(),
            "multi_arity": {
                p: {str(a): s.first_use[a] for a in sorted(s.kinds)} for p, s in seen.multi_arity().items()
            },
        }
    if not report["datasets"]:
        raise UserError(
            f"{data_dir}: no dataset splits found (expected <dataset>/lemma_data/shuffle_S_shot_K/"
            "{train,support,query}.txt, or <dataset>/shuffle_S_shot_K/...)"
        )
    return report


def _signature_mismatches(examples: Dict[str, List[Example]], formalism: str) -> List[str]:
    """The support and query lines a reader would reject: signatures learned from train, then extended
    by first uses, as `fewshot_parser.data.signature_check` does."""
    signatures = PredicateSignatures(formalism)
    for example in examples["train"]:
        signatures.learn(example.tree, f"{example.source}:{example.line_number}")
    mismatches = []
    for example in examples["support"] + examples["query"]:
        location = f"{example.source}:{example.line_number}"
        try:
            signatures.check(example.tree, location)
        except SignatureMismatch as error:
            mismatches.append(f"{location}: {error}")
    return mismatches


def _oracle_statistics(example: Example, base: TransitionSystem, normalized: TransitionSystem) -> Dict[str, Any]:
    statistics_: Dict[str, Any] = {}
    for label, system in (("before", base), ("after", normalized)):
        steps = system.oracle(example.tree, example.utterance)
        statistics_[label] = (len(steps), {str(step.action) for step in steps})
        if label == "after":
            statistics_["round_trip_ok"] = system.to_logical_form(steps) == example.logical_form
    return statistics_


def _split_report(
    split: Dict[str, Any],
    examples: Dict[str, List[Example]],
    base: TransitionSystem,
    normalized: TransitionSystem,
    abstractor: Abstractor,
    memo: Dict[Any, Any],
) -> Dict[str, Any]:
    known = _predicates(examples["train"])
    new = _predicates(examples["support"]) - known
    reachable = known | new
    everything = [e for part in ("train", "support", "query") for e in examples[part]]
    lengths: Dict[str, List[int]] = defaultdict(list)
    actions: Dict[str, Set[str]] = defaultdict(set)
    failures = []
    for example in everything:
        key = (example.logical_form, tuple(example.utterance))
        if key not in memo:
            memo[key] = _oracle_statistics(example, base, normalized)
        stats = memo[key]
        for label in ("before", "after"):
            lengths[label].append(stats[label][0])
            actions[label].update(stats[label][1])
        if not stats["round_trip_ok"]:
            failures.append(f"{example.source}:{example.line_number}")
    templates = {to_string(abstractor.abstract(e.tree, e.utterance)[0], abstractor.formalism) for e in everything}
    query = examples["query"]
    within = sum(1 for e in query if set(predicates(e.tree)) <= reachable)
    seen_symbols: Set[str] = set()
    for example in examples["train"] + examples["support"]:
        seen_symbols |= _template_symbols(example, abstractor)
    within_templates = sum(1 for e in query if _template_symbols(e, abstractor) <= seen_symbols)
    return {
        "shuffle": split["shuffle"],
        "shot": split["shot"],
        "examples": {part: len(examples[part]) for part in ("train", "support", "query")},
        "predicates": {
            "known": len(known),
            "new": len(new),
            "total": len(known | _predicates(query)),
            "new_list": sorted(new),
            "unseen_in_query": sorted(_predicates(query) - reachable),
        },
        "templates": len(templates),
        "actions": {"before": len(actions["before"]), "after": len(actions["after"])},
        "idioms": len(normalized.normalizer.idioms),
        "mean_actions": {"before": _mean(lengths["before"]), "after": _mean(lengths["after"])},
        "max_actions": {"before": max(lengths["before"], default=0), "after": max(lengths["after"], default=0)},
        "round_trip_checked": len(everything),
        "round_trip_failures": failures,
        # The paper's ceiling: every predicate of the query LF occurs in train or support.
        "ceiling": 100.0 * within / len(query) if query else None,
        # Stricter: every predicate *and template constant* (first:cl, hour) was seen.
        "template_ceiling": 100.0 * within_templates / len(query) if query else None,
    }


def _mean(values: List[int]) -> float:
    return round(statistics.mean(values), 3) if values else 0.0


def _summary(split_reports: List[Dict[str, Any]]) -> Dict[str, Any]:
    """Mean ceiling over the evaluation shuffles (1-5) per shot, as the paper reports results."""
    summary: Dict[str, Any] = {}
    for shot in sorted({s["shot"] for s in split_reports}):
        evaluation = [s for s in split_reports if s["shot"] == shot and s["shuffle"] != 0 and s["ceiling"] is not None]
        if evaluation:
            summary[f"{shot}shot_mean_ceiling"] = round(statistics.mean(s["ceiling"] for s in evaluation), 2)
            summary[f"{shot}shot_mean_template_ceiling"] = round(
                statistics.mean(s["template_ceiling"] for s in evaluation), 2
            )
    summary["round_trip_checked"] = sum(s["round_trip_checked"] for s in split_reports)
    summary["round_trip_failures"] = sum(len(s["round_trip_failures"]) for s in split_reports)
    summary["signature_mismatches"] = sum(len(s["signature_mismatches"]) for s in split_reports)
    return summary


def format_report(report: Dict[str, Any]) -> str:
    lines = []
    header = (
        f"{'split':<12}{'train':>6}{'supp':>6}{'query':>6}{'known':>6}{'new':>5}{'tmpl':>6}"
        f"{'acts b/a':>11}{'len b/a':>13}{'rt fail':>8}{'ceiling':>9}"
    )
    for name, dataset in report["datasets"].items():
        lines.append(f"== {name} ({dataset['formalism']})")
        lines.append(header)
        for s in dataset["splits"]:
            lines.append(
                f"{'s%d k%d' % (s['shuffle'], s['shot']):<12}{s['examples']['train']:>6}{s['examples']['support']:>6}"
                f"{s['examples']['query']:>6}{s['predicates']['known']:>6}{s['predicates']['new']:>5}{s['templates']:>6}"
                f"{'%d/%d' % (s['actions']['before'], s['actions']['after']):>11}"
                f"{'%.2f/%.2f' % (s['mean_actions']['before'], s['mean_actions']['after']):>13}"
                f"{len(s['round_trip_failures']):>8}{(s['ceiling'] or 0):>8.1f}%"
            )
        summary = dataset["summary"]
        lines.append("summary: " + ", ".join(f"{k} {v}" for k, v in summary.items()))
        signatures = dataset["signatures"]
        lines.append(
            f"signatures ({len(signatures)} predicates): "
            + " ".join(f"{p}/{','.join(arities)}" for p, arities in signatures.items())
        )
        for predicate, arities in dataset["multi_arity"].items():
            lines.append(
                f"  used with {len(arities)} arities: {predicate} ("
                + ", ".join(f"{a} at {where}" for a, where in arities.items())
                + ")"
            )
        for s in dataset["splits"]:
            for mismatch in s["signature_mismatches"]:
                lines.append(f"  signature mismatch: {mismatch}")
        lines.append("")
    return "\n".join(lines) + "\n"
