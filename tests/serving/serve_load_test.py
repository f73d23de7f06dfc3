"""`benchmarks/serve_load.py` on the tiny fixture parser, bounded to a few requests: it writes its rows."""
import csv
import subprocess
import sys

from tests import PROJECT_ROOT, fixture_split


def test_serve_load_measures_parse_latency_and_teach_to_live(archive, tmp_path):
    out = tmp_path / "speed"
    command = [sys.executable, "benchmarks/serve_load.py", "--archive", archive,
               "--support", fixture_split("geo", "support"), "--utterances", fixture_split("geo", "query"),
               "--label", "fixture", "--requests", "30", "--seconds", "20", "--teachings", "1", "--out", str(out)]
    result = subprocess.run(command, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=400)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    rows = list(csv.DictReader(open(out / "serve.csv")))
    parse = [(r["clients"], r["teaching"]) for r in rows if r["kind"] == "parse"]
    assert parse == [("1", "no"), ("8", "no"), ("1", "yes"), ("8", "yes")]
    assert all(float(r["p95_ms"]) > 0 for r in rows if r["kind"] == "parse" and r["teaching"] == "no")
    live = [r for r in rows if r["kind"] == "teach to live"]
    assert len(live) == 1 and 0 < float(live[0]["seconds"]) < 300
    assert "| fixture | 8 | yes |" in (out / "serve.md").read_text()
