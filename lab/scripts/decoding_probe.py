"""
Decoding-only components measured on the development suite's fine-tuned archives: each archive
decodes its query file as it was made and again with the component added to its rerankers, so the
two are paired run by run (same weights), then by draw.

    # measure (runs already in the CSV are skipped; one `allennlp predict` per archive and setting)
    python lab/scripts/decoding_probe.py measure --runs runs/kept/dev-frequent-82 --suite dev-frequent \\
        --component repeated_subtrees --out lab/results/decoding_probe/runs.csv
    # the table: per row, suite and column, added − as made, paired by draw (mean ± standard error)
    python lab/scripts/decoding_probe.py table lab/results/decoding_probe/runs.csv \\
        --out lab/results/decoding_probe/table.md

Archives: `<runs>/<system>/<dataset>_<k>shot_d<draw>[s<sample>]/model.tar.gz`, as `run-grid --suite`
writes them (`lab/scripts/run_suites.sh` deletes all but draw 1's; keep hard links to measure more).
`--known` also decodes the draw's known.txt (retention). The settings (`--component`) are the lab's rerankers
`repeated_subtrees` and `argument_types` (`lab/fewshot_lab/modules/decoding/`; the latter counts argument
types in the run's own train.txt), `argument_atoms` (argument types also charging plain words in argument
places) and `both` (argument types, then repeated subtrees), put after the archive's own rerankers,
`variable_scoping` (the lab's renaming of an ill-scoped LF's variables, put before them), and
`new_action_bias` (1 added to the fine-tuned parser's score of every action the support set added, when
decoding). The "as made" rows are the archive's own decoding again, which should give the exact match the grid
recorded in `results/<suite>/runs.csv`.
"""

import argparse
import csv
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from typing import Any, Dict, List, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

RUN = re.compile(r"^(?P<dataset>[a-z]+)_(?P<shot>\d)shot_d(?P<draw>\d+)(s(?P<sample>\d+))?$")
FIELDS = ["suite", "system", "dataset", "shot", "draw", "sample", "setting", "exact_match", "code_version", "known"]
COMPONENTS: Dict[str, List[Dict[str, Any]]] = {
    "repeated_subtrees": [{"type": "repeated_subtrees"}],
    "argument_types": [{"type": "argument_types", "training_data": "{train}", "formalism": "{formalism}"}],
}
# Revisers of every decoding pass, put before the archive's own rerankers (as the lab's scoped rows had it).
COMPONENTS["variable_scoping"] = [{"type": "variable_scoping"}]
FIRST = {"variable_scoping"}
COMPONENTS["both"] = COMPONENTS["argument_types"] + COMPONENTS["repeated_subtrees"]
COMPONENTS["argument_atoms"] = [
    {
        "type": "argument_types",
        "training_data": "{train}",
        "support_data": "{support}",
        "formalism": "{formalism}",
        "unknown_atoms": True,
    }
]
# Settings of the fine-tuned parser itself (decoding only), overriding its config.
PARSER_SETTINGS: Dict[str, Dict[str, Any]] = {"new_action_bias": {"new_action_bias": 1.0}}
FORMALISM = {"jobs": "prolog", "geo": "lambda", "atis": "lambda"}


def components(name: str, train: str, dataset: str) -> List[Dict[str, Any]]:
    """The setting's rerankers for one run ("{train}", "{support}" and "{formalism}" filled in)."""
    return [
        {
            key: value.format(
                train=train, support=train.replace("train.txt", "support.txt"), formalism=FORMALISM[dataset]
            )
            if isinstance(value, str)
            else value
            for key, value in config.items()
        }
        for config in COMPONENTS[name]
    ]


def parser_key(config: Dict[str, Any]) -> Tuple[str, Dict[str, Any]]:
    """The override prefix of the archive's fine-tuned parser (inside a known fallback or not) and its config."""
    model = config["model"]
    if "parser" in model:
        return "model.parser", model["parser"]
    return "model", model


def setting_overrides(name: str, config: Dict[str, Any], train: str, dataset: str) -> Dict[str, Any]:
    """The `-o` overrides that add setting `name` to an archive of config `config`."""
    prefix, parser = parser_key(config)
    if name in PARSER_SETTINGS:
        return {f"{prefix}.{key}": value for key, value in PARSER_SETTINGS[name].items()}
    own, added = list(parser.get("rerankers", [])), components(name, train, dataset)
    return {f"{prefix}.rerankers": added + own if name in FIRST else own + added}


def exact_match(predictions: str, query: str) -> float:
    gold = [line.rstrip("\n").split("\t")[1] for line in open(query, encoding="utf-8") if line.strip()]
    found = [json.loads(line).get("logical_form") or "" for line in open(predictions, encoding="utf-8")]
    same = sum(" ".join(p.split()) == " ".join(g.split()) for p, g in zip(found, gold))
    return round(100.0 * same / len(gold), 2)


def decode(archive: str, query: str, data_root: str, overrides: Dict[str, Any]) -> float:
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "predictions.jsonl")
        command = [
            sys.executable,
            "-m",
            "allennlp",
            "predict",
            archive,
            query,
            "--use-dataset-reader",
            "--output-file",
            out,
            "--silent",
            "--batch-size",
            "64",
            "--include-package",
            "fewshot_parser",
        ]
        if overrides:
            command += ["-o", json.dumps(overrides)]
        environment = dict(os.environ, FEWSHOT_DATA_DIR=data_root, OMP_NUM_THREADS="1")
        subprocess.run(
            command, check=True, cwd=ROOT, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        return exact_match(out, query)


def upgrade(path: str) -> None:
    """Rewrites a CSV written before a column was added with the current header (new columns empty)."""
    with open(path, encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        if reader.fieldnames == FIELDS:
            return
        rows = list(reader)
    with open(path + ".partial", "w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, FIELDS, restval="")
        writer.writeheader()
        writer.writerows(rows)
    os.replace(path + ".partial", path)


def measure(args: argparse.Namespace) -> None:
    from fewshot_parser.common.provenance import code_version

    done = set()
    if os.path.isfile(args.out):
        upgrade(args.out)
        done = {
            (r["suite"], r["system"], r["dataset"], r["shot"], r["draw"], r["sample"], r["setting"])
            for r in csv.DictReader(open(args.out, encoding="utf-8"))
            if r["known"] or not args.known
        }
    version = code_version(ROOT)
    for system in sorted(args.systems or os.listdir(args.runs)):
        for run in sorted(os.listdir(os.path.join(args.runs, system))):
            match = RUN.match(run)
            archive = os.path.join(args.runs, system, run, "model.tar.gz")
            if not match or not os.path.isfile(archive):
                continue
            dataset, shot, draw = match["dataset"], match["shot"], match["draw"]
            sample = match["sample"] or "0"
            data_root = os.path.join(args.data_dir, args.suite, f"draw_{draw}")
            query = os.path.join(data_root, dataset, "lemma_data", f"shuffle_{sample}_shot_{shot}", "query.txt")
            with tempfile.TemporaryDirectory() as scratch:
                subprocess.run(["tar", "-xzf", archive, "-C", scratch, "config.json"], check=True)
                config = json.load(open(os.path.join(scratch, "config.json")))
            train = f"{dataset}/lemma_data/shuffle_{sample}_shot_{shot}/train.txt"
            added = setting_overrides(args.component, config, train, dataset)
            for setting, overrides in (("as made", {}), (args.component, added)):
                if (args.suite, system, dataset, shot, draw, sample, setting) in done:
                    continue
                score = decode(archive, query, data_root, overrides)
                known = ""
                if args.known:
                    known = str(decode(archive, query.replace("query.txt", "known.txt"), data_root, overrides))
                new = not os.path.isfile(args.out)
                with open(args.out, "a", encoding="utf-8", newline="") as handle:
                    writer = csv.DictWriter(handle, FIELDS)
                    if new:
                        writer.writeheader()
                    writer.writerow(
                        dict(
                            suite=args.suite,
                            system=system,
                            dataset=dataset,
                            shot=shot,
                            draw=draw,
                            sample=sample,
                            setting=setting,
                            exact_match=score,
                            code_version=version,
                            known=known,
                        )
                    )
                print(f"{system} {run} {setting}: {score} (known {known or '-'})", flush=True)


def paired(differences: Dict[str, List[float]]) -> str:
    per_draw = [statistics.mean(values) for values in differences.values()]
    mean = statistics.mean(per_draw)
    error = statistics.stdev(per_draw) / len(per_draw) ** 0.5 if len(per_draw) > 1 else float("nan")
    return f"{mean:+.2f} ± {error:.2f} ({len(per_draw)} draws, {sum(map(len, differences.values()))} runs)"


def table(args: argparse.Namespace) -> None:
    rows = [r for path in args.csv for r in csv.DictReader(open(path, encoding="utf-8"))]
    scores: Dict[Tuple, float] = {}
    known: Dict[Tuple, float] = {}
    for r in rows:  # of reruns, the last in file order
        key = (r["suite"], r["system"], r["dataset"], r["shot"], r["draw"], r["sample"], r["setting"])
        scores[key] = float(r["exact_match"])
        if r.get("known"):
            known[key] = float(r["known"])
    cells: Dict[Tuple[str, str, str, str], Dict[str, List[float]]] = defaultdict(lambda: defaultdict(list))
    known_cells: Dict[Tuple[str, str, str, str], Dict[str, List[float]]] = defaultdict(lambda: defaultdict(list))
    for (suite, system, dataset, shot, draw, sample, setting), score in scores.items():
        base = (suite, system, dataset, shot, draw, sample, "as made")
        if setting != "as made" and base in scores:
            cells[(suite, system, dataset, shot, setting)][draw].append(score - scores[base])
            added = (suite, system, dataset, shot, draw, sample, setting)
            if added in known and base in known:
                known_cells[(suite, system, dataset, shot, setting)][draw].append(known[added] - known[base])
    lines = [
        "# Decoding-only components on the development suite's archives",
        "",
        f"Generated by `python lab/scripts/decoding_probe.py table {' '.join(args.csv)}`. Exact match with "
        "the component added after each archive's rerankers (or the parser's setting changed) minus the "
        "archive as made, paired by run, then averaged per draw; mean ± standard error over draws. known: "
        "the same on the draw's known.txt (retention), where measured. Decoding only: the same weights.",
        "",
        "| suite | row | dataset | shot | component | added − as made | known: added − as made |",
        "|---|---|---|---|---|---|---|",
    ]
    for key in sorted(cells):
        retention = paired(known_cells[key]) if key in known_cells else "–"
        lines.append("| " + " | ".join(key) + f" | {paired(cells[key])} | {retention} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            handle.write(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("measure")
    run.add_argument("--runs", required=True, help="a suite's runs folder (systems under it)")
    run.add_argument("--suite", required=True, choices=["dev", "dev-frequent"])
    run.add_argument("--data-dir", default=os.path.join(ROOT, "data"))
    run.add_argument("--systems", nargs="*", help="only these rows (the faithful row decodes greedily: no beam)")
    run.add_argument("--component", choices=sorted({**COMPONENTS, **PARSER_SETTINGS}), default="repeated_subtrees")
    run.add_argument("--known", action="store_true", help="also decode the draw's known.txt (retention)")
    run.add_argument("--out", required=True)
    show = commands.add_parser("table")
    show.add_argument("csv", nargs="+")
    show.add_argument("--out")
    args = parser.parse_args()
    measure(args) if args.command == "measure" else table(args)


if __name__ == "__main__":
    main()
