import json
import subprocess
import sys

from fewshot_parser.commands.inspect_data import inspect_data
from tests import FIXTURE_DATA, PROJECT_ROOT


def test_report_on_fixtures():
    report = inspect_data(FIXTURE_DATA, min_support=2, completeness=0.0)
    geo = report["datasets"]["geo"]["splits"][0]
    assert geo["examples"] == {"train": 11, "support": 2, "query": 4}
    assert geo["predicates"]["new_list"] == ["area:i", "not"]
    assert geo["round_trip_failures"] == [] and geo["round_trip_checked"] == 17
    assert geo["ceiling"] == 100.0
    assert geo["mean_actions"]["after"] <= geo["mean_actions"]["before"]
    jobs = report["datasets"]["jobs"]["splits"][0]
    assert jobs["predicates"]["new_list"] == ["req_exp", "salary_greater_than"]
    atis = report["datasets"]["atis"]["splits"][0]
    assert atis["predicates"]["new_list"] == ["class_type", "ground_fare", "ground_transport", "to_city"]


def test_command_prints_one_json_document():
    # `python -m fewshot_parser` loads the plugin first, so the subcommand works from any directory.
    result = subprocess.run(
        [sys.executable, "-m", "fewshot_parser", "inspect-data", FIXTURE_DATA, "--json", "--datasets", "jobs"],
        cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    report = json.loads(result.stdout)
    assert list(report["datasets"]) == ["jobs"]
    assert report["datasets"]["jobs"]["summary"]["round_trip_failures"] == 0
