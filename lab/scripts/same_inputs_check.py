"""
Whether `run-grid --same-inputs-as` copies only what training would give: over the suite cells where
both a row and its base row were trained (and both are current for today's configs), the cells the
proof (`fewshot_parser/commands/grid_same_inputs.py`) calls the same must have equal numbers.

    python lab/scripts/same_inputs_check.py --pair best-modifiers:best-no-modifiers --pair ours-modifiers:ours \\
        --suite dev --results results/dev/runs.csv --out lab/results/same_inputs_check.csv

Writes one line per cell (the proof's verdict, both exact matches and retentions) and prints, per
verdict, how many cells agree in every number.
"""

import argparse
import csv
import json
import os
import sys
from typing import Dict, List, Optional, Sequence

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "lab")]
os.chdir(ROOT)

import fewshot_lab  # noqa: E402,F401  (registers the lab's rows' components)

from fewshot_parser.commands import run_grid  # noqa: E402
from fewshot_parser.commands.grid_freshness import ConfigFreshness  # noqa: E402
from fewshot_parser.commands.grid_same_inputs import same_inputs  # noqa: E402
from fewshot_parser.common.safe_io import atomic_open  # noqa: E402

NUMBERS = ("exact_match", "known_pretrained", "known_finetuned")
FIELDS = ["with", "base", "dataset", "shot", "draw", "sample", "proof", *(f"{n}_{s}" for n in NUMBERS for s in ("with", "base"))]


def check(pair: str, suite: str, results: str, data_dir: str, pretrain_dir: str) -> List[Dict[str, str]]:
    """One line per cell of the suite where both rows of `pair` (WITH:BASE) are recorded and current."""
    with_name, _, base = pair.partition(":")
    rows = {run_grid.row_key(row): row for row in run_grid.read_rows(results)}
    environment = {**os.environ, "FEWSHOT_SEED": "13", "FEWSHOT_PRETRAIN_DIR": pretrain_dir}
    fresh = ConfigFreshness()
    lines = []
    for job in run_grid.plan_draws([with_name, base], ["jobs", "geo", "atis"], [1, 2], os.path.join(data_dir, suite),
                                   "runs/unused", os.path.join(pretrain_dir, suite)):
        if job.system != with_name:
            continue
        base_job = job._replace(system=base, config=run_grid.config_template(base).format(dataset=job.dataset, shot=job.shot))
        row, base_row = rows.get(run_grid.job_key(job)), rows.get(run_grid.job_key(base_job))
        if row is None or base_row is None or row.get("same_inputs_as") or base_row.get("same_inputs_as"):
            continue
        config, base_config = run_grid.evaluated_config(job, environment), run_grid.evaluated_config(base_job, environment)
        if fresh.stale_reason(row, json.dumps(config)) or fresh.stale_reason(base_row, json.dumps(base_config)):
            continue
        known = [path for path in [job.known_data()] if path is not None]
        why = same_inputs(config, base_config, job.variables(environment), base_job.variables(environment), known)
        line = {"with": with_name, "base": base, "dataset": job.dataset, "shot": str(job.shot), "draw": str(job.shuffle),
                "sample": str(job.sample), "proof": "same" if why is None else why}
        for number in NUMBERS:
            line[f"{number}_with"], line[f"{number}_base"] = row.get(number, ""), base_row.get(number, "")
        lines.append(line)
        print(f"{with_name} {job.dataset} {job.shot}-shot d{job.shuffle} s{job.sample}: {line['proof']}", flush=True)
    return lines


def main(argv: Optional[Sequence[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--pair", action="append", required=True, metavar="WITH:BASE")
    parser.add_argument("--suite", default="dev")
    parser.add_argument("--results", default=None, help="default results/<suite>/runs.csv")
    parser.add_argument("--data-dir", default="data")
    parser.add_argument("--pretrain-dir", default="runs/pretrain", help="as the grid was run (configs name archives)")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    run_grid.use_tables(["lab/systems.jsonnet"])
    lines = [line for pair in args.pair for line in check(pair, args.suite, args.results or
                                                           os.path.join("results", args.suite, "runs.csv"),
                                                           args.data_dir, args.pretrain_dir)]
    with atomic_open(args.out) as handle:
        writer = csv.DictWriter(handle, fieldnames=FIELDS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(lines)
    for verdict in ("same", "other"):
        chosen = [line for line in lines if (line["proof"] == "same") == (verdict == "same")]
        equal = sum(all(line[f"{n}_with"] == line[f"{n}_base"] for n in NUMBERS) for line in chosen)
        print(f"proof {verdict}: {len(chosen)} cells, {equal} with every number equal")


if __name__ == "__main__":
    main()
