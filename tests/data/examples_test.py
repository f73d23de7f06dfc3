"""Reading data files: bad bytes, empty files and wrong arities are errors naming file and line."""
import logging

import pytest
from allennlp.common.checks import ConfigurationError

from fewshot_parser.data.dataset_readers import FewShotSeq2SeqReader, GeoQueryReader, JobsReader
from fewshot_parser.data.examples import read_examples
from tests import fixture_split

GOOD = "how big be s0\t( area:i s0 )\n"


def test_bytes_that_are_not_utf8_name_file_and_line(tmp_path):
    path = tmp_path / "train.txt"
    path.write_bytes(GOOD.encode() + b"how big be \xff s1\t( area:i s1 )\n" + GOOD.encode())
    with pytest.raises(ConfigurationError) as error:
        list(read_examples(str(path), "lambda"))
    assert str(error.value) == f"{path}:2: not valid UTF-8: byte 0xff at column 12"


def test_skip_invalid_skips_bad_bytes_too(tmp_path, caplog):
    path = tmp_path / "train.txt"
    path.write_bytes(GOOD.encode() + b"\xe9t\xe9\t( area:i s1 )\n" + GOOD.encode())
    with caplog.at_level(logging.WARNING):
        instances = list(GeoQueryReader(skip_invalid=True).read(str(path)))
    assert len(instances) == 2
    assert f"{path}:2: not valid UTF-8" in caplog.text


@pytest.mark.parametrize("content, reason", [(b"", "the file is empty"), (b"\n\n", "the file is empty"),
                                             (b"broken\n", "all 1 lines are invalid and were skipped")])
def test_a_file_without_examples_is_an_error(tmp_path, content, reason):
    path = tmp_path / "support.txt"
    path.write_bytes(content)
    with pytest.raises(ConfigurationError) as error:
        list(read_examples(str(path), "lambda", skip_invalid=True))
    assert str(error.value) == f"{path}: no examples ({reason})"


def test_a_support_line_with_a_wrong_arity_is_an_error_naming_the_signature(tmp_path):
    support = tmp_path / "support.txt"
    support.write_text(open(fixture_split("geo", "support")).read()
                       + "which state border s0\t( lambda $0 e ( and ( state:t $0 $1 ) ( next_to:t $0 s0 ) ) )\n")
    reader = GeoQueryReader(idiom_source=fixture_split("geo", "train"), min_support=2)
    with pytest.raises(ConfigurationError) as error:
        list(reader.read(str(support)))
    assert str(error.value).startswith(f"{support}:3: predicate state:t expects 1 argument (variable), got 2")
    assert fixture_split("geo", "train") in str(error.value)  # where the signature comes from
    assert len(list(GeoQueryReader(idiom_source=fixture_split("geo", "train"), min_support=2,
                                   check_signatures=False).read(str(support)))) == 3


def test_the_training_file_beside_the_data_defines_the_signatures_of_readers_without_one(tmp_path):
    (tmp_path / "train.txt").write_text(open(fixture_split("jobs", "train")).read())
    (tmp_path / "support.txt").write_text("what job use perl\tjob ( ANS , ANS ) , language ( ANS , languageid0 )\n")
    expected = r"support.txt:1: predicate job expects 1 argument \(variable\), got 2"
    with pytest.raises(ConfigurationError, match=expected):
        list(FewShotSeq2SeqReader(formalism="prolog").read(str(tmp_path / "support.txt")))
    reader = JobsReader(idiom_source=str(tmp_path / "train.txt"), min_support=2)
    with pytest.raises(ConfigurationError, match="support.txt:1: predicate job"):
        list(reader.read(str(tmp_path / "support.txt")))
