import logging

import pytest
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.data import Batch, DatasetReader, Vocabulary

from fewshot_parser.data.dataset_readers import AtisReader, FewShotReader, GeoQueryReader, JobsReader
from fewshot_parser.data.dataset_readers.fewshot_reader import idioms_from_vocabulary
from tests import fixture_split


@pytest.mark.parametrize("reader_class, dataset", [(GeoQueryReader, "geo"), (AtisReader, "atis"), (JobsReader, "jobs")])
def test_every_fixture_line_round_trips_through_its_actions(reader_class, dataset):
    reader = reader_class(idiom_source=fixture_split(dataset, "train"), min_support=2, completeness=0.0)
    for part in ("train", "support", "query"):
        instances = list(reader.read(fixture_split(dataset, part)))
        assert instances
        for instance in instances:
            metadata = instance["metadata"].metadata
            steps = reader.transition_system.oracle_for_string(metadata["logical_form"], metadata["utterance"])
            assert [str(s.action) for s in steps] == metadata["actions"]
            assert reader.transition_system.to_logical_form(steps) == metadata["logical_form"]
            assert metadata["location"].startswith(fixture_split(dataset, part))


def test_fields_for_teacher_forcing_and_slots():
    reader = GeoQueryReader()
    instance = reader.text_to_instance("how big be s0", "( area:i s0 )")
    assert [f.label for f in instance["actions"].field_list] == ["GEN ( area:i <e:s> )", "STOP"]
    assert instance["previous_state"].array.tolist() == [0, 1]
    assert instance["stack_size"].array.tolist() == [0, 1]
    assert instance["slot_step"].array.tolist() == [0]
    assert instance["slot_is_variable"].array.tolist() == [0]
    assert instance["entity_targets"].array.tolist() == [[0.0, 0.0, 0.0, 1.0]]


def test_batches_index_and_pad():
    reader = GeoQueryReader()
    instances = list(reader.read(fixture_split("geo", "train")))
    vocab = Vocabulary.from_instances(instances)
    assert vocab.get_token_index("STOP", "actions") > 1  # 0 and 1 are padding and unknown
    assert vocab.get_token_index("$0", "variables") > 1
    for instance in instances:
        reader.apply_token_indexers(instance)
    batch = Batch(instances)
    batch.index_instances(vocab)
    tensors = batch.as_tensor_dict()
    actions = tensors["actions"]
    assert actions.shape[0] == len(instances)
    assert (actions == -1).any()  # shorter sequences are padded with -1
    assert tensors["previous_state"].shape == actions.shape
    assert tensors["entity_targets"].shape[2] == tensors["source_tokens"]["tokens"]["tokens"].shape[1]
    lengths = (actions >= 0).sum(1).tolist()
    assert lengths == [len(i["metadata"].metadata["actions"]) for i in instances]


def test_prediction_instances_have_no_gold_fields():
    instance = AtisReader().text_to_instance("flight from ci0 to ci1")
    assert set(instance.fields) == {"source_tokens", "source_entity_types", "metadata"}


def write(tmp_path, text):
    path = tmp_path / "data.txt"
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize(
    "line, message",
    [
        ("no tab here", "no tab"),
        ("\t( area:i s0 )", "empty utterance"),
        ("how big be s0\t", "empty logical form"),
        ("how big be s0\t( area:i s0", "unbalanced"),
    ],
)
def test_bad_lines_name_file_and_line(tmp_path, line, message):
    path = write(tmp_path, "how big be s0\t( area:i s0 )\n" + line + "\n")
    with pytest.raises(ConfigurationError) as error:
        list(GeoQueryReader().read(path))
    assert f"{path}:2" in str(error.value) and message in str(error.value)


def test_skip_invalid_logs_what_was_skipped(tmp_path, caplog):
    path = write(tmp_path, "how big be s0\t( area:i s0 )\nbroken line\nhow big be s1\t( area:i s1 \n")
    with caplog.at_level(logging.WARNING):
        instances = list(GeoQueryReader(skip_invalid=True).read(path))
    assert len(instances) == 1
    assert "Skipped 2 invalid line(s)" in caplog.text
    assert f"{path}:2" in caplog.text and f"{path}:3" in caplog.text


def test_unknown_or_conflicting_formalism_is_a_configuration_error():
    with pytest.raises(ConfigurationError, match="formalism"):
        FewShotReader(formalism="sql")
    with pytest.raises(ConfigurationError, match="required"):
        FewShotReader()
    with pytest.raises(ConfigurationError, match="reads 'lambda'"):
        AtisReader(formalism="prolog")


def test_from_params_and_data_root(monkeypatch):
    monkeypatch.setenv("FEWSHOT_DATA_DIR", "fixtures/data")
    reader = DatasetReader.from_params(Params({"type": "fewshot_jobs", "idiom_source": "jobs/shuffle_0_shot_1/train.txt"}))
    instances = list(reader.read("jobs/shuffle_0_shot_1/train.txt+jobs/shuffle_0_shot_1/support.txt*3"))
    assert len(instances) == 8 + 2 * 3


def test_missing_file_names_the_data_root(monkeypatch):
    monkeypatch.setenv("FEWSHOT_DATA_DIR", "/nonexistent/root")
    with pytest.raises(FileNotFoundError, match="/nonexistent/root"):
        list(GeoQueryReader().read("geo/train.txt"))


def test_idioms_are_saved_with_the_vocabulary(tmp_path):
    reader = AtisReader(idiom_source=fixture_split("atis", "train"), min_support=2, completeness=0.0)
    instances = list(reader.read(fixture_split("atis", "train")))
    vocab = Vocabulary.from_instances(instances)
    vocab.save_to_files(str(tmp_path / "vocabulary"))
    idioms = idioms_from_vocabulary(str(tmp_path / "vocabulary"))
    assert set(idioms) == set(reader.transition_system.normalizer.idioms) and idioms
    reloaded = AtisReader(idiom_source=str(tmp_path / "vocabulary"))
    for instance in reloaded.read(fixture_split("atis", "support")):
        metadata = instance["metadata"].metadata
        expected = reader.transition_system.oracle_for_string(metadata["logical_form"], metadata["utterance"])
        assert metadata["actions"] == [str(s.action) for s in expected]
