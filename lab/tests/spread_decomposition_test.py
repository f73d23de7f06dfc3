"""lab/scripts/spread_decomposition.py: reading runs' predictions, the vote over seeds, and the spreads."""
import fewshot_lab  # noqa: F401
import json
import os
import subprocess
import sys

import pytest

from fewshot_parser.common.provenance import PROJECT_ROOT
from tests import load_benchmark

SCRIPTS = os.path.join(PROJECT_ROOT, "lab", "scripts")


def load():
    return load_benchmark("spread_decomposition", "lab/scripts")


GOLD = ["( a )", "( b )", "( c )", "( d )"]


def write_run(directory, members):
    """A finished ensemble run whose members predicted `members` (one list of LFs per member)."""
    directory.mkdir(parents=True)
    with open(directory / "query_predictions.jsonl", "w") as handle:
        for i in range(len(GOLD)):
            forms = [m[i] for m in members]
            handle.write(json.dumps({"logical_form": forms[0], "member_logical_forms": forms}) + "\n")


def test_the_vote_over_seeds_pools_every_member():
    module = load()
    right, wrong = list(GOLD), ["( x )"] * 4
    # Seed A: members right, wrong; seed B: right, right -> 3 of 4 voters right on every query.
    splits = [(GOLD, right, [right, wrong]), (GOLD, right, [right, right])]
    assert module.cross_vote(splits) == GOLD
    # A 2-2 tie goes to the earliest member (seed order), as runs write no member scores.
    tie = [(GOLD, wrong, [wrong, wrong]), (GOLD, right, [right, right])]
    assert module.cross_vote(tie) == ["( x )"] * 4
    assert module.accuracy(["( a )", "( x )", None, " ( d ) "], GOLD) == 50.0


def test_spreads_of_a_column(tmp_path):
    module = load()
    per_shuffle = {}
    for shuffle, right_count in zip((1, 2), (2, 4)):
        predicted = GOLD[:right_count] + ["( x )"] * (4 - right_count)
        per_shuffle[shuffle] = [(GOLD, predicted, [predicted]), (GOLD, predicted, [predicted])]
    numbers = module.column_report(per_shuffle)
    # 50% and 100% on the two shuffles, the same for both seeds: std 25, no seed share.
    assert numbers["run mean"] == numbers["vote mean"] == 75.0
    assert numbers["run std"] == numbers["vote std"] == numbers["member std"] == 25.0
    assert numbers["seed std in a split"] == 0.0 and numbers["voters"] == 2
    assert numbers["splits' own"] == pytest.approx((25.0 ** 2 - numbers["floor"] ** 2) ** 0.5)


def test_bad_predictions_name_the_file_and_line(tmp_path):
    module = load()
    run = tmp_path / "run"
    write_run(run, [GOLD])
    assert module.read_split(str(run), "query.txt", GOLD)[1] == GOLD
    with open(run / "query_predictions.jsonl", "a") as handle:
        handle.write("{not json\n")
    with pytest.raises(SystemExit, match=r"query_predictions.jsonl:5: not JSON"):
        module.read_split(str(run), "query.txt", GOLD)
    assert module.read_split(str(tmp_path / "unfinished"), "query.txt", GOLD) is None


def test_the_command_reports_a_column_from_two_seeds(tmp_path):
    data = tmp_path / "data" / "jobs" / "lemma_data"
    for shuffle in (1, 2):
        split = data / f"shuffle_{shuffle}_shot_1"
        split.mkdir(parents=True)
        (split / "query.txt").write_text("".join(f"q{i}\t{lf}\n" for i, lf in enumerate(GOLD)))
        for seed in ("13", "23"):
            members = [GOLD, GOLD[:shuffle] + ["( x )"] * (4 - shuffle)]
            write_run(tmp_path / seed / "sys" / f"jobs_1shot_s{shuffle}", members)
    out = tmp_path / "report.md"
    result = subprocess.run([sys.executable, os.path.join(SCRIPTS, "spread_decomposition.py"), "--system", "sys",
                             "--runs-dirs", f"13={tmp_path / '13'}", f"23={tmp_path / '23'}", "--datasets", "jobs", "--shots", "1",
                             "--shuffles", "1", "2", "--data-dir", str(tmp_path / "data"), "--out", str(out)],
                            capture_output=True, text=True, cwd=PROJECT_ROOT)
    assert result.returncode == 0, result.stderr
    row = next(line for line in out.read_text().splitlines() if line.startswith("| jobs 1-shot"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[1] == "4"  # two members of two seeds vote
    assert float(cells[6]) == 0.0 and float(cells[7]) == 100.0  # no seed share; vote mean: 2 of 4 voters always right, ties go to member 0 (right)
    bad = subprocess.run([sys.executable, os.path.join(SCRIPTS, "spread_decomposition.py"), "--system", "sys",
                          "--runs-dirs", f"13={tmp_path / 'nowhere'}"], capture_output=True, text=True, cwd=PROJECT_ROOT)
    assert bad.returncode != 0 and "expected SEED=DIR with a folder sys/" in bad.stderr
