"""Archives are written with the members AllenNLP's `archive_model` writes, stored without compression."""
import gzip
import os
import tarfile

from allennlp.models import archival

from fewshot_parser.training.guarded_train import write_archive


def serialization_dir(tmp_path):
    directory = tmp_path / "run"
    (directory / "vocabulary").mkdir(parents=True)
    (directory / "vocabulary" / "actions.txt").write_text("GEN ( a )\n")
    (directory / "config.json").write_text("{}")
    (directory / "best.th").write_bytes(bytes(100_000))  # zeros: any compression would shrink them
    (directory / "meta.json").write_text('{"version": "2.10.1"}')
    (directory / "provenance.json").write_text("{}")
    (directory / "unrelated.log").write_text("left out")
    return str(directory)


def test_the_members_are_allennlps_and_the_bytes_are_stored(tmp_path):
    directory = serialization_dir(tmp_path)
    ours, theirs = str(tmp_path / "ours.tar.gz"), str(tmp_path / "theirs.tar.gz")
    write_archive(directory, "best.th", ours, ["provenance.json"])
    original = getattr(archival.archive_model, "__wrapped__", archival.archive_model)
    original(directory, archive_path=theirs, include_in_archive=["provenance.json"])
    with tarfile.open(ours, "r:gz") as mine, tarfile.open(theirs, "r:gz") as reference:
        assert mine.getnames() == reference.getnames()
        for name in ("weights.th", "config.json", "provenance.json"):
            assert mine.extractfile(name).read() == reference.extractfile(name).read()
    # Stored: the gzip stream is as large as the tar it holds; AllenNLP's (level 9) is a fraction of it.
    assert os.path.getsize(ours) >= len(gzip.decompress(open(ours, "rb").read())) > 100_000 > 10 * os.path.getsize(theirs)
