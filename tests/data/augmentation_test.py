"""Support-set recombination: which predicates are new, the synthetic pairs, the reader that feeds them
to fine-tuning, and a whole fixture experiment with it."""
import json
import os

import _jsonnet
import pytest
from allennlp.commands.train import train_model
from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.data import DatasetReader
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor

import fewshot_parser  # noqa: F401
from fewshot_parser.data.examples import read_examples
from fewshot_parser.data.recombination import ForwardPairs, RecombinationContext, ReversePairs, recombine
from fewshot_parser.data.recombination.trees import atom_calls
from fewshot_parser.logical_forms.tree import parse
from tests import FIXTURE_DATA, FIXTURES_ROOT, PROJECT_ROOT, fixture_split


def resplit(tmp_path, dataset: str, formalism: str, new: str):
    """A split of a fixture dataset in which `new` is the new predicate: training lines that use it
    leave the training set, and the first of them becomes the support set (whatever the official
    splits made new, which the augmentation must not rely on)."""
    lines = []
    for part in ("train", "support", "query"):
        with open(fixture_split(dataset, part), encoding="utf-8") as handle:
            lines += [line for line in handle.read().splitlines() if line.strip()]
    uses = [line for line in lines if any(c.label == new for c in parse(line.split("\t")[1], formalism).calls())]
    train = [line for line in lines if line not in uses]
    directory = tmp_path / f"{dataset}_{new.replace(':', '_')}"
    directory.mkdir()
    (directory / "train.txt").write_text("\n".join(train) + "\n", encoding="utf-8")
    (directory / "support.txt").write_text(uses[0] + "\n", encoding="utf-8")
    (directory / "query.txt").write_text("\n".join(uses[1:] or uses) + "\n", encoding="utf-8")
    return directory


@pytest.mark.parametrize("dataset, formalism, new, word", [
    ("geo", "lambda", "river:t", "river"),
    ("geo", "lambda", "city:t", "city"),
    ("jobs", "prolog", "language", "use"),
])
def test_other_new_predicates_get_pairs_in_training_templates(tmp_path, dataset, formalism, new, word):
    directory = resplit(tmp_path, dataset, formalism, new)
    training = list(read_examples(str(directory / "train.txt"), formalism))
    support = list(read_examples(str(directory / "support.txt"), formalism))
    context = RecombinationContext(training, formalism)
    assert context.new_predicates(support) == [new]
    pairs = recombine(context, support, [[ForwardPairs(), ReversePairs()]])
    assert pairs and {pair.predicate for pair in pairs} == {new}
    for pair in pairs:
        tree = parse(pair.logical_form, formalism)  # well formed
        assert new in {call.label for call in tree.calls()}
        assert word in pair.utterance  # the words of the support example that express the new predicate
        assert pair.direction in ("forward", "reverse")
    forward = [pair for pair in pairs if pair.direction == "forward"]
    assert forward and all(pair.replaced != new for pair in forward)
    known_templates = {e.logical_form for e in training}
    # A forward pair is a training LF with one predicate swapped for the new one.
    assert all(pair.logical_form not in known_templates for pair in forward)
    assert recombine(RecombinationContext(training, formalism), support, [[ForwardPairs(), ReversePairs()]]) == pairs  # deterministic


def test_the_signature_must_match_and_operators_over_formulas_are_left_alone():
    calls = list(atom_calls(parse("( lambda $0 e ( and ( state:t $0 ) ( not ( next_to:t $0 s0 ) ) ) )", "lambda"),
                            "lambda"))
    assert [(c.label, c.signature) for c in calls] == [
        ("state:t", ("t", 1, ("v",), "and")), ("next_to:t", ("t", 2, ("v", "e"), "not"))]
    assert calls[1].values == ((1, "s0"),)


def generators(forward: int = 20, reverse: int = 10) -> list:
    """One pass of forward and reverse pairs (the reader's default, with these counts)."""
    return [[{"type": "forward", "pairs_per_predicate": forward}, {"type": "reverse", "pairs_per_predicate": reverse}]]


def augmented_reader(directory, forward: int = 20, reverse: int = 10, **settings) -> DatasetReader:
    return DatasetReader.from_params(Params({
        "type": "fewshot_augmented",
        "reader": {"type": "fewshot_geoquery", "idiom_source": str(directory / "train.txt"), "min_support": 2},
        "support_data_path": str(directory / "support.txt"),
        "training_data_path": str(directory / "train.txt"),
        "generators": generators(forward, reverse),
        **settings,
    }))


def test_the_reader_augments_only_the_support_path(tmp_path):
    directory = resplit(tmp_path, "geo", "lambda", "river:t")
    reader = augmented_reader(directory, forward=3, reverse=1, support_repeat=2, replay=4)
    pairs = reader.synthetic_pairs()
    instances = list(reader.read(str(directory / "support.txt")))
    assert len(instances) == 2 + len(pairs) + 4
    origins = [instance["metadata"].metadata["location"] for instance in instances]
    assert sum(origin.startswith("synthetic") for origin in origins) == len(pairs) > 0
    assert len(list(reader.read(str(directory / "query.txt")))) == len(
        list(read_examples(str(directory / "query.txt"), "lambda")))
    # Prediction goes through the wrapped reader.
    assert reader.text_to_instance("river in s0")["metadata"].metadata["utterance"] == ["river", "in", "s0"]
    with pytest.raises(ConfigurationError, match="support_repeat must be at least 1"):
        augmented_reader(directory, support_repeat=0)


def test_a_fixture_experiment_fine_tunes_on_augmented_data_saves_and_predicts(tmp_path, monkeypatch):
    monkeypatch.chdir(PROJECT_ROOT)
    config = json.loads(_jsonnet.evaluate_file(os.path.join(FIXTURES_ROOT, "fewshot", "experiment.jsonnet"),
                                               ext_vars={"PRETRAINED": str(tmp_path / "pretrain" / "model.tar.gz")}))
    config["dataset_reader"] = {
        "type": "fewshot_augmented", "reader": config["dataset_reader"],
        "support_data_path": config["train_data_path"],
        "training_data_path": os.path.join(FIXTURE_DATA, "geo", "shuffle_0_shot_1", "train.txt"),
        "generators": generators(4, 2), "support_repeat": 2, "replay": 2,
    }
    train_model(Params(config), str(tmp_path / "run"))
    metrics = json.load(open(tmp_path / "run" / "metrics.json"))
    assert "test_exact_match" in metrics
    archive = load_archive(str(tmp_path / "run" / "model.tar.gz"))
    predictor = Predictor.from_archive(archive, "proto_parser")
    output = predictor.predict_json({"utterance": "how big be s0"})
    assert isinstance(output["logical_form"], str) and output["logical_form"]


def test_balance_repeats_the_support_of_less_augmented_new_predicates(tmp_path):
    lines = [line for line in open(fixture_split("geo", "train"), encoding="utf-8").read().splitlines() if line.strip()]
    uses = lambda line, predicate: predicate in line.split("\t")[1].split()  # noqa: E731
    support = [next(line for line in lines if uses(line, "river:t")), next(line for line in lines if uses(line, "population:i"))]
    (tmp_path / "train.txt").write_text("\n".join(line for line in lines if not uses(line, "river:t")
                                                  and not uses(line, "population:i")) + "\n", encoding="utf-8")
    (tmp_path / "support.txt").write_text("\n".join(support) + "\n", encoding="utf-8")
    (tmp_path / "query.txt").write_text(support[0] + "\n", encoding="utf-8")

    def shown(reader):
        new = reader.context().new_predicates(list(read_examples(str(tmp_path / "support.txt"), "lambda")))
        rows = reader.augmented_examples()
        return {p: sum(1 for _, lf, _ in rows if p in lf.split()) for p in new}

    plain = shown(augmented_reader(tmp_path, forward=6, reverse=0))
    balanced = shown(augmented_reader(tmp_path, forward=6, reverse=0, balance=True))
    assert {"river:t", "population:i"} <= set(plain) and len(set(plain.values())) > 1
    # Every new predicate is now shown at least as often as the best-augmented one was.
    assert min(balanced.values()) >= max(plain.values())


def test_the_reader_recombines_once_while_its_files_stay_the_same(tmp_path, monkeypatch):
    directory = resplit(tmp_path, "geo", "lambda", "river:t")
    reader = augmented_reader(directory, forward=3, reverse=1)
    calls = []
    synthetic_pairs = reader.synthetic_pairs
    monkeypatch.setattr(reader, "synthetic_pairs", lambda *args: calls.append(1) or synthetic_pairs(*args))
    first = [str(instance) for instance in reader.read(str(directory / "support.txt"))]
    assert [str(instance) for instance in reader.read(str(directory / "support.txt"))] == first and len(calls) == 1
    with open(directory / "support.txt", "a") as handle:  # the support set changes: recombined again
        handle.write((directory / "query.txt").read_text().splitlines(keepends=True)[0])
    again = [str(instance) for instance in reader.read(str(directory / "support.txt"))]
    assert len(calls) == 2 and again != first
