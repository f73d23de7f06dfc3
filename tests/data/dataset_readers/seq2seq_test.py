import pytest
from allennlp.common.checks import ConfigurationError

from fewshot_parser.data.dataset_readers import FewShotSeq2SeqReader
from tests import fixture_split


def test_reads_lf_tokens_as_targets_with_gold_metadata():
    reader = FewShotSeq2SeqReader(formalism="prolog")
    instances = list(reader.read(fixture_split("jobs", "support") + "*2"))
    assert len(instances) == 4
    target = [t.text for t in instances[0]["target_tokens"].tokens]
    assert target[1:-1] == "job ( ANS ) , salary_greater_than ( ANS , num_salary , year )".split()
    assert instances[0]["metadata"].metadata["logical_form"].startswith("job ( ANS )")


def test_malformed_logical_forms_are_reported(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("all job\tjob ( ANS\n")
    with pytest.raises(ConfigurationError, match=f"{path}:1"):
        list(FewShotSeq2SeqReader(formalism="prolog").read(str(path)))
