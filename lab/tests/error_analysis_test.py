"""lab/scripts/error_analysis.py over a development suite's runs: folders by draw and sample, cached predictions."""
import json
import os
import shutil
import subprocess
import sys

from fewshot_parser.common.provenance import PROJECT_ROOT

SCRIPT = os.path.join(PROJECT_ROOT, "lab", "scripts", "error_analysis.py")
FIXTURE = os.path.join(PROJECT_ROOT, "fixtures", "data", "geo", "shuffle_0_shot_1")


def test_reads_a_suites_draws_and_samples_from_cached_predictions(tmp_path):
    query = [line.split("\t")[1].strip() for line in open(os.path.join(FIXTURE, "query.txt")) if line.strip()]
    for sample, right in ((0, 4), (1, 2)):  # sample 0 gets every query right, sample 1 the first two
        split = tmp_path / "data" / "dev-frequent" / "draw_6" / "geo" / "lemma_data" / f"shuffle_{sample}_shot_1"
        split.mkdir(parents=True)
        for name in ("train.txt", "query.txt"):
            shutil.copy(os.path.join(FIXTURE, name), split / name)
        run = tmp_path / "runs" / "best" / ("geo_1shot_d6" + (f"s{sample}" if sample else ""))
        run.mkdir(parents=True)
        with open(run / "query_predictions.jsonl", "w") as handle:
            for i, lf in enumerate(query):
                handle.write(json.dumps({"logical_form": lf if i < right else ""}) + "\n")
    out = subprocess.run(
        [sys.executable, SCRIPT, "--system", "best", "--suite", "dev-frequent", "--draws", "6", "--samples", "0", "1",
         "--runs-dir", str(tmp_path / "runs"), "--data-dir", str(tmp_path / "data"), "--datasets", "geo",
         "--shots", "1"],
        capture_output=True, text=True, check=True, cwd=PROJECT_ROOT,
    )
    row = next(line for line in out.stdout.splitlines() if line.startswith("| geo 1-shot"))
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[1:4] == ["2", "8", "75.0"]  # 2 runs, 8 queries, 6 right
    assert cells[5] == "25.0"  # the two empty predictions are `no LF`
    assert "suite `dev-frequent` draws 6" in out.stdout
    assert "d6 sample 1: 50.00 right" in out.stderr
