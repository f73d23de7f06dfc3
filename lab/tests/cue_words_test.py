"""lab/scripts/cue_words.py: new-predicate queries grouped by whether they repeat a word only the support shows."""
import json
import subprocess
import sys
import os

from fewshot_parser.common.provenance import PROJECT_ROOT

SCRIPT = os.path.join(PROJECT_ROOT, "lab", "scripts", "cue_words.py")
TRAIN = [
    "how many river be in s0\t( count $0 ( and ( river:t $0 ) ( loc:t $0 s0 ) ) )",
    "what river be in s0\t( lambda $0 e ( and ( river:t $0 ) ( loc:t $0 s0 ) ) )",
]
SUPPORT = ["how big be s0\t( area:i s0 )"]  # `big` is the only word the training utterances lack
QUERY = [
    "how big be s1\t( area:i s1 )",  # repeats the cue `big`
    "what be the area of s0\t( area:i s0 )",  # names area:i another way
    "what river be in s1\t( lambda $0 e ( and ( river:t $0 ) ( loc:t $0 s1 ) ) )",  # no new predicate
]


def test_groups_new_predicate_queries_by_the_supports_cue_words(tmp_path):
    split = tmp_path / "data" / "dev" / "draw_3" / "geo" / "lemma_data" / "shuffle_0_shot_1"
    split.mkdir(parents=True)
    for name, lines in (("train.txt", TRAIN), ("support.txt", SUPPORT), ("query.txt", QUERY)):
        (split / name).write_text("\n".join(lines) + "\n")
    for system, right in (("best", {0, 2}), ("ours", {1, 2})):
        run = tmp_path / "runs" / system / "geo_1shot_d3"
        run.mkdir(parents=True)
        with open(run / "query_predictions.jsonl", "w") as handle:
            for i, line in enumerate(QUERY):
                handle.write(json.dumps({"logical_form": line.split("\t")[1] if i in right else ""}) + "\n")
    out = subprocess.run(
        [sys.executable, SCRIPT, "--systems", "best", "ours", "--suite", "dev", "--draws", "3", "--samples", "0",
         "--runs-dir", str(tmp_path / "runs"), "--data-dir", str(tmp_path / "data"), "--shots", "1"],
        capture_output=True, text=True, check=True, cwd=PROJECT_ROOT,
    )
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in out.stdout.splitlines()]
    rows = {c[0]: c for c in cells if len(c) == 6 and c[1] == "geo 1-shot" and c[2] == "1"}  # runs: 1
    assert rows["best"][3:] == ["100.0 (1)", "0.0 (1)", "–"]
    assert rows["ours"][3:] == ["0.0 (1)", "100.0 (1)", "–"]
    assert ["best", "geo 1-shot", "`area:i`", "100.0 (1)", "0.0 (1)", "–"] in cells
