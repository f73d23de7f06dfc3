"""
Compares the ways of combining one trained ensemble (a `fewshot_ensemble` archive, e.g. a run of
grid system `coverage-ens5`) on a query file: each member alone, the vote over LFs, rescoring (every
member scores every member's template), and the share of queries some member gets right (the ceiling
of any choice among the members' LFs). Same members, so the rules are compared without retraining.
Tune on shuffle 0 only.

    python lab/scripts/ensemble_combine.py runs/tune_ensemble/coverage-ens5/geo_1shot_s0/model.tar.gz \\
        data/geo/lemma_data/shuffle_0_shot_1/query.txt
"""
import argparse
import os
import sys
import time
from typing import Dict, List

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import torch  # noqa: E402
from allennlp.common import logging as common_logging  # noqa: E402
from allennlp.models.archival import load_archive  # noqa: E402

import fewshot_parser  # noqa: E402,F401
from fewshot_parser.data.paths import resolve_data_path  # noqa: E402
from fewshot_lab.models.ensemble import COMBINE_RULES, FewShotEnsemble  # noqa: E402


def evaluate(model, instances, batch_size: int) -> Dict[str, float]:
    """The model's metrics on `instances`, decoded in batches."""
    model.get_metrics(reset=True)
    with torch.no_grad():
        for start in range(0, len(instances), batch_size):
            model.forward_on_instances(instances[start:start + batch_size])
    return model.get_metrics(reset=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("archive")
    parser.add_argument("query", help="query file (a path under FEWSHOT_DATA_DIR may be given relative to it)")
    parser.add_argument("--batch-size", type=int, default=64)
    args = parser.parse_args()
    common_logging.FILE_FRIENDLY_LOGGING = True
    archive = load_archive(args.archive)
    model = archive.model
    if not isinstance(model, FewShotEnsemble):
        raise SystemExit(f"{args.archive}: not an ensemble archive (model {type(model).__name__})")
    model.eval()
    instances = list(archive.validation_dataset_reader.read(resolve_data_path(args.query)))
    for instance in instances:
        instance.index_fields(model.vocab)
    rows: List[Dict[str, str]] = []
    for index, member in enumerate(model.members):
        start = time.perf_counter()
        rows.append({"rule": f"member {index}", "em": f"{100 * evaluate(member, instances, args.batch_size)['exact_match']:.2f}",
                     "seconds": f"{time.perf_counter() - start:.1f}"})
    original = model.combine
    for rule in COMBINE_RULES:
        model.combine = rule
        start = time.perf_counter()
        metrics = evaluate(model, instances, args.batch_size)
        rows.append({"rule": rule, "em": f"{100 * metrics['exact_match']:.2f}", "seconds": f"{time.perf_counter() - start:.1f}"})
        any_member = 100 * metrics["any_member_exact_match"]
    model.combine = original
    rows.append({"rule": "some member right", "em": f"{any_member:.2f}", "seconds": ""})
    print(f"\n{args.archive} on {args.query} ({len(instances)} queries, torch threads {torch.get_num_threads()})\n")
    print("| combination | exact match | seconds |")
    print("|---|---|---|")
    for row in rows:
        print(f"| {row['rule']} | {row['em']} | {row['seconds']} |")


if __name__ == "__main__":
    main()
