"""
Chooses the support-set recombination settings on shuffle 0 (the tuning split; never 1-5): fine-tunes
the `augmented` system (lab/systems.jsonnet) with each setting below, from the shared
pre-trained archive of its base variant, and writes one row per run (exact match, fine-tuning
seconds, number of fine-tuning examples, code version) to a CSV and a Markdown table.

    python lab/scripts/augmentation_tuning.py --datasets jobs geo --shots 1 2
    python lab/scripts/augmentation_tuning.py --settings base default more --datasets geo --shots 1

Resumable: a run whose directory holds `metrics.json` is read, not redone. Settings are passed as
AllenNLP overrides of the rendered config, so the configs on disk stay as they are; `base` is the
variant without augmentation (contextual-schema-bias), for comparison.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import time
from typing import Any, Dict, List

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

from fewshot_parser.common.provenance import code_version  # noqa: E402

# name -> (reader overrides, trainer overrides); None: no augmentation (the base variant's config).
SETTINGS: Dict[str, Any] = {
    "base": None,
    "default": ({}, {}),
    "fewer": ({"pairs_per_predicate": 10, "reverse_pairs_per_predicate": 5}, {}),
    "more": ({"pairs_per_predicate": 40, "reverse_pairs_per_predicate": 20}, {}),
    "forward-only": ({"reverse_pairs_per_predicate": 0}, {}),
    "repeat1": ({"support_repeat": 1}, {}),
    "replay50": ({"replay": 50}, {}),
    # Fine-tuning epochs scaled so that the number of updates is about the support-only run's.
    "same-steps": ({}, "same-steps"),
    "same-steps-replay50": ({"replay": 50}, "same-steps"),
    "double-steps": ({}, "double-steps"),
    # Without contextual-schema-bias's new-action bias (recombination already shows the new predicates).
    "bias0": ({}, {}, {"new_action_bias": 0.0}),
    "fewer-bias0": ({"pairs_per_predicate": 10, "reverse_pairs_per_predicate": 5}, {}, {"new_action_bias": 0.0}),
    "light": ({"pairs_per_predicate": 5, "reverse_pairs_per_predicate": 2, "support_repeat": 10}, {}),
    "balanced": ({"balance": True}, "same-steps"),
    "balanced-replay50": ({"balance": True, "replay": 50}, "same-steps"),
    "light-balanced": ({"pairs_per_predicate": 5, "reverse_pairs_per_predicate": 2, "support_repeat": 10, "balance": True}, {}),
    "balanced-replay100": ({"balance": True, "replay": 100}, "same-steps"),
    "balanced-replay50-double": ({"balance": True, "replay": 50}, "double-steps"),
    "light-bias0": ({"pairs_per_predicate": 5, "reverse_pairs_per_predicate": 2, "support_repeat": 10}, {},
                    {"new_action_bias": 0.0}),
}
FIELDS = ["setting", "dataset", "shot", "shuffle", "exact_match", "seconds", "examples", "code_version", "overrides"]


def config_path(setting: str, dataset: str, shot: int) -> str:
    if SETTINGS[setting] is None:
        return f"lab/systems.jsonnet#contextual-schema-bias/{dataset}_{shot}shot"
    return f"lab/systems.jsonnet#augmented/{dataset}_{shot}shot"


# The settings' counts, as the generator of the first pass (forward, reverse) that each one sets.
COUNTS = {"pairs_per_predicate": "forward", "reverse_pairs_per_predicate": "reverse"}


def with_settings(reader: Dict[str, Any], settings: Dict[str, Any]) -> Dict[str, Any]:
    """The rendered recombination reader `reader` with a setting applied: its counts (`COUNTS`) set on the
    forward and reverse generators of the first pass, its other keys on the reader."""
    reader = json.loads(json.dumps(reader))
    passes = reader.setdefault("generators", [[{"type": "forward", "pairs_per_predicate": 20},
                                               {"type": "reverse", "pairs_per_predicate": 10}]])
    for key, value in settings.items():
        if key in COUNTS:
            for generator in passes[0]:
                if generator.get("type") == COUNTS[key]:
                    generator["pairs_per_predicate"] = value
        else:
            reader[key] = value
    return reader


def overrides(setting: str, dataset: str, shot: int, environment: Dict[str, str]) -> Dict[str, Any]:
    """AllenNLP overrides (dotted keys) of the `augmented` config for a setting."""
    if SETTINGS[setting] is None:
        return {}
    reader, trainer, *model = SETTINGS[setting]
    from fewshot_parser.commands.systems import render_config

    rendered = render_config(config_path(setting, dataset, shot), environment)
    reader = with_settings(rendered["dataset_reader"], reader)
    # The counts are set on the pair generators; the list of generators, which an
    # override replaces whole (AllenNLP merges dictionaries, not lists).
    result: Dict[str, Any] = {f"dataset_reader.{key}": value for key, value in reader.items()
                              if key == "generators" or key in SETTINGS[setting][0]}
    for key, value in (model[0] if model else {}).items():
        result[f"model.{key}"] = value
    if trainer in ("same-steps", "double-steps"):
        from allennlp.common import Params
        from allennlp.data import DatasetReader

        import fewshot_parser  # noqa: F401

        rendered["dataset_reader"] = reader
        rendered["dataset_reader"]["reader"]["token_indexers"] = {"tokens": {"type": "single_id"}}
        augmented = DatasetReader.from_params(Params(json.loads(json.dumps(rendered["dataset_reader"])))).augmented_examples()
        from fewshot_parser.data.examples import read_examples

        support = len(list(read_examples(rendered["dataset_reader"]["support_data_path"],
                                         "prolog" if dataset == "jobs" else "lambda")))
        base = render_config(config_path("base", dataset, shot), environment)
        batch = rendered["data_loader"]["batch_size"]
        steps = base["trainer"]["num_epochs"] * -(-support // base["data_loader"]["batch_size"])
        steps *= 2 if trainer == "double-steps" else 1
        result["trainer.num_epochs"] = max(1, round(steps / -(-len(augmented) // batch)))
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--settings", nargs="+", default=list(SETTINGS), choices=list(SETTINGS))
    parser.add_argument("--datasets", nargs="+", default=["jobs", "geo"], choices=["jobs", "geo", "atis"])
    parser.add_argument("--shots", nargs="+", type=int, default=[1], choices=[1, 2])
    parser.add_argument("--runs", default=os.path.join(ROOT, "runs", "tune_augmentation"))
    parser.add_argument("--out", default=os.path.join(ROOT, "lab", "results", "tuning_augmentation"))
    args = parser.parse_args()

    environment = {"FEWSHOT_SPLIT": "0", "FEWSHOT_SEED": os.environ.get("FEWSHOT_SEED", "13"),
                   "FEWSHOT_DATA_DIR": os.environ.get("FEWSHOT_DATA_DIR", "data"),
                   "FEWSHOT_PRETRAIN_DIR": os.environ.get("FEWSHOT_PRETRAIN_DIR", "runs/pretrain")}
    os.makedirs(args.out, exist_ok=True)
    os.makedirs(args.runs, exist_ok=True)
    table = os.path.join(args.out, "runs.csv")
    rows: List[Dict[str, Any]] = []
    if os.path.exists(table):
        with open(table, newline="") as handle:
            rows = list(csv.DictReader(handle))
    done = {(r["setting"], r["dataset"], r["shot"]) for r in rows}
    for dataset in args.datasets:
        for shot in args.shots:
            for setting in args.settings:
                if (setting, dataset, str(shot)) in done:
                    continue
                directory = os.path.join(args.runs, f"{dataset}_{shot}shot_s0_{setting}")
                extra = overrides(setting, dataset, shot, environment)
                start = time.time()
                if not os.path.isfile(os.path.join(directory, "metrics.json")):
                    command = [sys.executable, "-m", "allennlp", "train", config_path(setting, dataset, shot),
                               "-s", directory, "-f", "-o", json.dumps(extra), "--include-package", "fewshot_parser"]
                    with open(directory + ".log", "w") as log:
                        code = subprocess.call(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                                               env={**os.environ, **environment})
                    if code != 0:
                        print(f"{setting} {dataset} {shot}-shot failed; see {directory}.log", flush=True)
                        continue
                seconds = time.time() - start
                with open(os.path.join(directory, "metrics.json")) as handle:
                    metrics = json.load(handle)
                with open(directory + ".log") as handle:
                    described = [line.split("Fine-tuning data: ", 1)[1].strip() for line in handle if "Fine-tuning data: " in line]
                row = {"setting": setting, "dataset": dataset, "shot": shot, "shuffle": 0,
                       "exact_match": round(100 * metrics["test_exact_match"], 2), "seconds": round(seconds, 1),
                       "examples": described[-1] if described else "support set only",
                       "code_version": code_version(ROOT), "overrides": json.dumps(extra, sort_keys=True)}
                rows.append(row)
                print(f"{setting:<12} {dataset} {shot}-shot s0: {row['exact_match']:6.2f}  ({seconds:.0f} s)", flush=True)
                write(rows, table, os.path.join(args.out, "augmentation.md"))


def write(rows: List[Dict[str, Any]], table: str, markdown: str) -> None:
    with open(table + ".tmp", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=FIELDS)
        writer.writeheader()
        writer.writerows(rows)
    os.replace(table + ".tmp", table)
    columns = sorted({(r["dataset"], int(r["shot"])) for r in rows}, key=lambda c: (c[1], c[0]))
    settings = [s for s in SETTINGS if any(r["setting"] == s for r in rows)]
    got = {(r["setting"], r["dataset"], int(r["shot"])): r for r in rows}
    lines = ["# Recombination settings on shuffle 0 (tuning split)", "",
             f"Generated by `python lab/scripts/augmentation_tuning.py` ({os.path.relpath(table, ROOT)} has every run with its "
             "code version and overrides). Exact match (%) on the query set of shuffle 0; fine-tuning seconds in brackets "
             "(they include pre-training when a run made the shared archive).", "",
             "| setting | overrides | " + " | ".join(f"{d} {s}-shot" for d, s in columns) + " |",
             "|---|---|" + "---|" * len(columns)]
    for setting in settings:
        described = "no augmentation (contextual-schema-bias)" if SETTINGS[setting] is None else (
            json.dumps(SETTINGS[setting][0]) + (f", epochs: {SETTINGS[setting][1]}" if SETTINGS[setting][1] else "")
            + "".join(f", model {k}: {v}" for extra in SETTINGS[setting][2:] for k, v in extra.items()))
        cells = []
        for column in columns:
            row = got.get((setting, *column))
            cells.append(f"{float(row['exact_match']):.2f} ({float(row['seconds']):.0f} s)" if row else "–")
        lines.append(f"| {setting} | {described} | " + " | ".join(cells) + " |")
    with open(markdown, "w") as handle:
        handle.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
