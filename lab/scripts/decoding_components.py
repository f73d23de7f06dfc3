"""
Each decoding-time component of a fine-tuned ensemble, removed one at a time, on the development
suite: exact match of the same fine-tuned members decoded without it. Nothing is retrained, so the
comparison is paired (the members' weights are identical) and costs one evaluation per run and setting.

The components measured are those that act only at decoding: the new-action bias, entity-coverage
re-ranking (its beam goes with it), the missing-evidence penalty, the slot-type check, all four
together, and the ensemble's size (its first 1 or 3 members voting); then the two removals the
dev suite favoured, with five members and with one. Components that act in
training as well (words, lexicon, linking, schema encoding, recombination) need their own runs.

    # the best row's dev-suite runs (run-grid --suite dev --systems reshaped40-ens5 --runs-dir R)
    python lab/scripts/decoding_components.py --runs R/reshaped40-ens5 --data-dir data/dev \\
        --out lab/results/decoding_components.csv
    # its official runs (shuffles 1-5), for the official-split effect beside the dev-suite one
    python lab/scripts/decoding_components.py --runs runs/official61/reshaped40-ens5 --data-dir data \\
        --out lab/results/decoding_components.csv
    # the table: mean change in exact match per setting, dev suite beside the official splits
    python lab/scripts/decoding_components.py --table lab/results/decoding_components.csv \\
        --out lab/results/decoding_components.md

`--row best` measures the same way on today's best row (grid system `chosen-fallback-roles`, one
parser behind the pre-trained fallback): entity coverage and the slot-type check removed, the
fallback removed (the fine-tuned parser's own exact match, which every run reports), and the two
decoding components the suite dropped added back at the values the former best row used: the
new-action bias (1) and the missing-evidence penalty (weight 4, its statistics counted on the
split's train.txt, as `fewshot_evidence_statistics` does in fine-tuning).

    python lab/scripts/decoding_components.py --row best --runs runs/components/chosen-fallback-roles \\
        --data-dir data/dev --out lab/results/decoding_components_best.csv
"""
import argparse
import csv
import json
import os
import re
import statistics
import sys
from typing import Any, Callable, Dict, List, Sequence, Tuple

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import torch  # noqa: E402
from allennlp.common import logging as common_logging  # noqa: E402
from allennlp.data.data_loaders import MultiProcessDataLoader  # noqa: E402
from allennlp.models.archival import load_archive  # noqa: E402
from allennlp.training.util import evaluate  # noqa: E402

import fewshot_parser  # noqa: E402,F401
from fewshot_parser.common.provenance import code_version  # noqa: E402

# A grid run directory: `<dataset>_<k>shot_d<draw>` (dev suite) or `..._s<shuffle>` (official split).
RUN = re.compile(r"^(?P<dataset>[a-z]+)_(?P<shot>\d)shot_(?P<split>[ds]\d+)$")
FIELDS = ["dataset", "shot", "split", "setting", "exact_match", "full_exact_match", "recorded_exact_match", "code_version"]


def settings(row: str = "ensemble", train: str = "") -> Dict[str, Callable[[Any], None]]:
    """Each setting's change to a freshly loaded model of `row` (`ensemble` or `best`); `train`: the split's train.txt."""
    if row == "best":
        return best_row_settings(train)

    def members(model: Any) -> List[Any]:
        return list(model.members) if hasattr(model, "members") else [model]

    def without_scorer(name: str) -> Callable[[Any], None]:
        def apply(model: Any) -> None:
            for member in members(model):
                kept = [s for s in member.decoding_scorers if type(s).__name__ != name]
                member.decoding_scorers = torch.nn.ModuleList(kept)
        return apply

    def without_coverage(model: Any) -> None:
        for member in members(model):
            member.rerankers = [r for r in member.rerankers if type(r).__name__ != "EntityCoverage"]

    def without_bias(model: Any) -> None:
        for member in members(model):
            member.new_action_bias = 0.0

    def without_all(model: Any) -> None:
        for apply in (without_bias, without_coverage, without_scorer("MissingEvidence"), without_scorer("SlotTypeCheck")):
            apply(model)

    def first(size: int) -> Callable[[Any], None]:
        def apply(model: Any) -> None:
            model.members = torch.nn.ModuleList(list(model.members)[:size])
        return apply

    def both(*changes: Callable[[Any], None]) -> Callable[[Any], None]:
        def apply(model: Any) -> None:
            for change in changes:
                change(model)
        return apply

    return {
        "full": lambda model: None,
        "- new-action bias": without_bias,
        "- entity coverage": without_coverage,
        "- missing evidence": without_scorer("MissingEvidence"),
        "- slot-type check": without_scorer("SlotTypeCheck"),
        "- all four": without_all,
        "1 member": first(1),
        "3 members": first(3),
        "- missing evidence, new-action bias": both(without_scorer("MissingEvidence"), without_bias),
        "1 member - missing evidence, new-action bias": both(first(1), without_scorer("MissingEvidence"), without_bias),
    }


FALLBACK_OFF = "- pre-trained fallback"


def best_row_settings(train: str) -> Dict[str, Callable[[Any], None]]:
    """
    Settings for the best row's archive (a `fewshot_known_fallback` around one `proto_parser`). The
    changes act on the fine-tuned parser; the pre-trained one has no decoding components. The
    fallback's removal is not a setting: it is the full model's `finetuned_exact_match`.
    """
    from fewshot_lab.modules.decoding.missing_evidence import MissingEvidence

    def without(kind: str) -> Callable[[Any], None]:
        def apply(model: Any) -> None:
            parser = model.parser
            parser.rerankers = [r for r in parser.rerankers if type(r).__name__ != kind]
            parser.decoding_scorers = torch.nn.ModuleList(s for s in parser.decoding_scorers if type(s).__name__ != kind)
        return apply

    def with_bias(model: Any) -> None:
        model.parser.new_action_bias = 1.0

    def with_evidence(model: Any, reader: Any = None) -> None:
        scorer = MissingEvidence(weight=4.0)
        examples = [(i["metadata"].metadata["utterance"], i["metadata"].metadata["actions"])
                    for i in reader.read(train) if "actions" in i["metadata"].metadata]
        scorer.set_statistics(model.parser, examples)
        model.parser.decoding_scorers.append(scorer)

    with_evidence.needs_reader = True  # type: ignore[attr-defined]
    return {
        "full": lambda model: None,
        "- entity coverage": without("EntityCoverage"),
        "- slot-type check": without("SlotTypeCheck"),
        "+ new-action bias 1": with_bias,
        "+ missing evidence 4": with_evidence,
    }


def runs(directory: str) -> List[Tuple[str, int, str, str]]:
    """(dataset, shot, split, run directory) of every finished run under a grid system's directory."""
    found = []
    for name in sorted(os.listdir(directory)):
        match = RUN.match(name)
        if match and os.path.isfile(os.path.join(directory, name, "model.tar.gz")):
            found.append((match["dataset"], int(match["shot"]), match["split"], os.path.join(directory, name)))
    return found


def query_file(data_dir: str, dataset: str, shot: int, split: str) -> str:
    """The query set of a dev-suite draw (`d<n>`, under the suite's root) or an official shuffle (`s<n>`)."""
    if split.startswith("d"):
        return os.path.join(data_dir, f"draw_{split[1:]}", dataset, "lemma_data", f"shuffle_0_shot_{shot}", "query.txt")
    return os.path.join(data_dir, dataset, "lemma_data", f"shuffle_{split[1:]}_shot_{shot}", "query.txt")


def train_file(query: str) -> str:
    """The training set beside a split's query set."""
    return os.path.join(os.path.dirname(query), "train.txt")


def mean_and_error(changes: List[float]) -> str:
    """`+m.mm ± s.ss`: the mean of paired changes and its standard error (nan for one change)."""
    error = statistics.stdev(changes) / len(changes) ** 0.5 if len(changes) > 1 else float("nan")
    return f"{statistics.mean(changes):+.2f} ± {error:.2f}"


def table(paths: List[str], retrained: Sequence[str] = (), results: Sequence[str] = ()) -> str:
    """
    Markdown: per setting, the mean change in exact match (points) against the full model, with its
    standard error over runs, on the dev suite and on the official splits, per dataset.
    """
    rows = []
    for path in paths:
        with open(path, newline="") as handle:
            rows += list(csv.DictReader(handle))
    names = list(dict.fromkeys(r["setting"] for r in rows if r["setting"] != "full"))
    columns = [(suite, dataset) for suite in ("d", "s") for dataset in sorted({r["dataset"] for r in rows})
               if any(r["split"][0] == suite and r["dataset"] == dataset for r in rows)]
    label = {"d": "dev suite", "s": "official 1-5"}
    lines = ["| setting | " + " | ".join(f"{label[s]} {d}" for s, d in columns) + " |",
             "|---" * (len(columns) + 1) + "|"]
    full = [r for r in rows if r["setting"] == "full"]
    cells = [f"{statistics.mean(float(r['exact_match']) for r in full if (r['split'][0], r['dataset']) == c):.2f} "
             f"(n={sum((r['split'][0], r['dataset']) == c for r in full)})" for c in columns]
    lines.append("| full model: exact match | " + " | ".join(cells) + " |")
    for name in names:
        cells = []
        for suite, dataset in columns:
            changes = [float(r["exact_match"]) - float(r["full_exact_match"]) for r in rows
                       if r["setting"] == name and r["split"][0] == suite and r["dataset"] == dataset]
            cells.append(mean_and_error(changes))
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines += retrained_rows(list(retrained), list(results), columns)
    return "\n".join(lines) + "\n"


def system_rows(path: str, name: str) -> Dict[Tuple[str, str, str], float]:
    """(dataset, shot, split) -> exact match of grid system `name` (experiments/systems.jsonnet, lab/systems.jsonnet) in a results CSV."""
    from fewshot_parser.commands.systems import read_systems, tables_with

    system, setting, _ = read_systems(tables_with(["lab/systems.jsonnet"]))[name]
    prefix = "d" if os.path.basename(os.path.dirname(os.path.abspath(path))) == "dev" else "s"
    with open(path, newline="") as handle:
        return {(r["dataset"], r["shot"], prefix + r["shuffle"]): float(r["exact_match"]) for r in csv.DictReader(handle)
                if (r["system"], r["setting"]) == (system, setting)}


def retrained_rows(pairs: List[str], results: List[str], columns: List[Tuple[str, str]]) -> List[str]:
    """
    Table rows for components that act in training: `LABEL=FULL:WITHOUT` (grid systems), the change in
    exact match from FULL to WITHOUT over the splits both have in `results` (separately trained runs).
    """
    lines = []
    for pair in pairs:
        label, systems = pair.split("=", 1)
        full_name, without_name = systems.split(":")
        full, without = {}, {}
        for path in results:
            full.update(system_rows(path, full_name))
            without.update(system_rows(path, without_name))
        cells = []
        for suite, dataset in columns:
            changes = [without[k] - full[k] for k in full if k in without and k[2][0] == suite and k[0] == dataset]
            cells.append(f"{mean_and_error(changes)} (n={len(changes)})" if changes else "–")
        lines.append(f"| {label} (retrained: `{without_name}` against `{full_name}`) | " + " | ".join(cells) + " |")
    return lines


def recorded(run: str) -> float:
    """The exact match the grid recorded for a run (its metrics.json), in %."""
    with open(os.path.join(run, "metrics.json")) as handle:
        return 100 * json.load(handle)["test_exact_match"]


def measure(run: str, query: str, row: str = "ensemble") -> Dict[str, float]:
    """Exact match (%) on `query` of the run's archive under each setting (the archive reloaded for each)."""
    scores = {}
    for name, apply in settings(row, train_file(query)).items():
        archive = load_archive(os.path.join(run, "model.tar.gz"))
        model = archive.model
        model.eval()
        if getattr(apply, "needs_reader", False):
            apply(model, archive.validation_dataset_reader)
        else:
            apply(model)
        loader = MultiProcessDataLoader(archive.validation_dataset_reader, query, batch_size=64)
        loader.index_with(model.vocab)
        metrics = evaluate(model, loader, cuda_device=-1)
        scores[name] = 100 * metrics["exact_match"]
        if name == "full" and row == "best":
            scores[FALLBACK_OFF] = 100 * metrics["finetuned_exact_match"]
        print(f"{run} {name}: {scores[name]:.2f}", file=sys.stderr, flush=True)
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", help="a grid system's directory of dev-suite or official runs")
    parser.add_argument("--data-dir", default="data/dev",
                        help="the suite's root (draw_<d>/...) for dev runs, the data directory for official ones")
    parser.add_argument("--row", choices=["ensemble", "best"], default="ensemble",
                        help="the settings: the former best row's ensemble (default) or today's best row")
    parser.add_argument("--table", nargs="+", help="instead of measuring: the Markdown table of these CSVs")
    parser.add_argument("--retrained", nargs="*", default=[],
                        help="with --table, rows for components that act in training: LABEL=FULL_SYSTEM:SYSTEM_WITHOUT_IT")
    parser.add_argument("--results", nargs="*", default=["results/dev/runs.csv", "results/runs.csv"],
                        help="with --retrained, the results CSVs to read the systems' runs from")
    parser.add_argument("--out", required=True, help="CSV to append rows to (runs already in it are skipped), or with "
                                                     "--table the Markdown file")
    args = parser.parse_args()
    if args.table:
        command = "python lab/scripts/decoding_components.py " + " ".join(sys.argv[1:])
        text = (f"# Decoding components of a row, removed or added one at a time\n\nGenerated by `{command}`. "
                "Change in exact match (points, mean ± standard error over runs) of the same fine-tuned members decoded "
                "with the setting's change, against the full model; paired, nothing retrained (rows marked retrained "
                "compare separately trained runs of two grid systems instead).\n\n"
                + table(args.table, args.retrained, args.results))
        with open(args.out, "w", encoding="utf-8") as handle:
            handle.write(text)
        print(text)
        return
    if not args.runs:
        parser.error("--runs is required unless --table is given")
    torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", "1")))
    common_logging.FILE_FRIENDLY_LOGGING = True
    done = set()
    if os.path.isfile(args.out):
        with open(args.out, newline="") as handle:
            done = {(r["dataset"], r["shot"], r["split"]) for r in csv.DictReader(handle)}
    version = code_version()
    for dataset, shot, split, run in runs(args.runs):
        if (dataset, str(shot), split) in done:
            continue
        scores = measure(run, query_file(args.data_dir, dataset, shot, split), args.row)
        rows = [{"dataset": dataset, "shot": shot, "split": split, "setting": name, "exact_match": f"{value:.2f}",
                 "full_exact_match": f"{scores['full']:.2f}", "recorded_exact_match": f"{recorded(run):.2f}",
                 "code_version": version} for name, value in scores.items()]
        new_file = not os.path.isfile(args.out)
        with open(args.out, "a", newline="") as handle:  # one run's rows at a time: a killed sweep resumes
            writer = csv.DictWriter(handle, fieldnames=FIELDS)
            if new_file:
                writer.writeheader()
            writer.writerows(rows)


if __name__ == "__main__":
    main()
