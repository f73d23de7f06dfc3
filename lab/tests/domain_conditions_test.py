"""lab/scripts/domain_conditions.py: per dataset and kind of split, the labels every training LF calls."""

from tests import load_benchmark


def write(path, rows):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{u}\t{lf}\n" for u, lf in rows), encoding="utf-8")


def test_the_table_names_the_domain_of_each_kind_of_split(tmp_path):
    script = load_benchmark("domain_conditions", "lab/scripts")
    jobs = [("what job use languageid0", "job ( ANS ) , language ( ANS , languageid0 )"),
            ("show me job in locid0", "job ( ANS ) , loc ( ANS , locid0 )")]
    geo = [("what city are in s0", "( lambda $0 e ( and ( city:t $0 ) ( loc:t $0 s0 ) ) )"),
           ("how long is r0", "( len:i r0 )")]
    write(tmp_path / "jobs" / "lemma_data" / "shuffle_1_shot_1" / "train.txt", jobs)
    write(tmp_path / "dev" / "draw_1" / "jobs" / "lemma_data" / "shuffle_0_shot_1" / "train.txt", jobs[:1])
    write(tmp_path / "geo" / "lemma_data" / "shuffle_1_shot_1" / "train.txt", geo)
    lines = script.table(str(tmp_path))
    assert "| jobs | official | 1 | `,`, `job` |" in lines
    assert "| jobs | dev | 1 | `,`, `job`, `language` |" in lines  # one LF: all of its labels
    assert "| geo | official | 1 | none |" in lines
