"""
`allennlp teach`: one command fine-tunes a pre-trained archive on a support file with the recipe the
archive carries. Tiny trainings on the geo fixture (fixtures/grid), each a few seconds; the real
rows' recipes are checked by making them from the rendered configs.
"""
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tarfile

import _jsonnet
import pytest
import torch
from allennlp.commands.train import train_model_from_file
from allennlp.common.checks import ConfigurationError
from allennlp.common.util import pushd
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor

import fewshot_parser  # noqa: F401
from fewshot_parser.commands.teach import teach
from fewshot_parser.common.errors import UserError
from fewshot_parser.training import teaching_recipe
from tests import FIXTURES_ROOT, PROJECT_ROOT, fixture_split

GRID = os.path.join(FIXTURES_ROOT, "grid", "geo_1shot.jsonnet")
BAD_ARITY = "which state border s0\t( lambda $0 e ( and ( state:t $0 $1 ) ( next_to:t $0 s0 ) ) )\n"
# The fixture grid with two voting members and recombination in fine-tuning, as ensemble rows have.
ENSEMBLE = """
local base = import '%s';
local dir = std.extVar('FEWSHOT_DATA_DIR') + '/geo/shuffle_' + std.extVar('FEWSHOT_SPLIT') + '_shot_1/';
base + {
  type: 'fewshot_ensemble_finetune',
  dataset_reader: { type: 'fewshot_augmented', reader: base.dataset_reader, support_data_path: dir + 'support.txt',
                    training_data_path: dir + 'train.txt',
                    generators: [[{ type: 'forward', pairs_per_predicate: 2 }, { type: 'reverse', pairs_per_predicate: 1 }]] },
  model: { type: 'fewshot_ensemble', members: [base.model, base.model] },
}
""" % GRID


def copy_split(root) -> str:
    """The geo fixture split as split 1 of a data directory under `root`; returns that split's directory."""
    directory = root / "data" / "geo" / "shuffle_1_shot_1"
    directory.mkdir(parents=True)
    for part in ("train", "support", "query"):
        shutil.copyfile(fixture_split("geo", part), directory / f"{part}.txt")
    return directory


def render(path: str, root, **extra) -> dict:
    variables = {"FEWSHOT_DATA_DIR": str(root / "data"), "FEWSHOT_PRETRAIN_DIR": str(root / "pretrain"),
                 "FEWSHOT_SPLIT": "1", "FEWSHOT_SEED": "13", **extra}
    return json.loads(_jsonnet.evaluate_file(path, ext_vars=variables))


@pytest.fixture(scope="module")
def grid_run(tmp_path_factory):
    """The fixture grid's split-1 run, which pre-trains `<root>/pretrain/geo-fixture/model.tar.gz`: (root, run dir)."""
    root = tmp_path_factory.mktemp("teach")
    copy_split(root)
    with environment(FEWSHOT_DATA_DIR=str(root / "data"), FEWSHOT_PRETRAIN_DIR=str(root / "pretrain"),
                     FEWSHOT_SPLIT="1"), pushd(PROJECT_ROOT):
        train_model_from_file(GRID, str(root / "row"))
    return root, root / "row"


@contextlib.contextmanager
def environment(**variables: str):
    """The environment with `variables` set, restored as it was afterwards (a module fixture cannot monkeypatch)."""
    before = {name: os.environ.get(name) for name in variables}
    os.environ.update(variables)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@pytest.fixture
def pretrained(grid_run, tmp_path) -> str:
    """A copy of the pre-trained archive, outside the project and away from the data it was trained on."""
    root, _ = grid_run
    shutil.copyfile(root / "pretrain" / "geo-fixture" / "model.tar.gz", tmp_path / "pretrained.tar.gz")
    return str(tmp_path / "pretrained.tar.gz")


@pytest.fixture
def split(tmp_path, monkeypatch):
    """The user's support and query files, in a working directory with no data and no experiments."""
    directory = tmp_path / "mine"
    directory.mkdir()
    for part in ("support", "query"):
        shutil.copyfile(fixture_split("geo", part), directory / f"{part}.txt")
    monkeypatch.chdir(directory)
    monkeypatch.setenv("FEWSHOT_DATA_DIR", str(tmp_path / "no-data"))
    return directory


def state_dict(archive: str) -> dict:
    return load_archive(archive).model.state_dict()


def test_the_pre_trained_archive_carries_the_recipe_of_the_run_that_made_it(grid_run):
    root, run = grid_run
    recipes = teaching_recipe.read_recipes(str(root / "pretrain" / "geo-fixture" / "model.tar.gz"))
    assert sorted(recipes.by_shot) == ["1"] and sorted(recipes.files) == ["training.txt"]
    assert recipes.files["training.txt"] == open(fixture_split("geo", "train"), "rb").read()
    recipe = recipes.by_shot["1"]
    experiment = json.load(open(run / "config.json"))
    assert recipe["train_data_path"] == "<support>" and recipe["test_data_path"] == "<query>"
    assert recipe["dataset_reader"]["idiom_source"] == "<training>" and recipe["training_data_path"] == "<training>"
    assert "pretraining" not in recipe and "pretrained_archive" not in recipe
    for key in ("model", "trainer", "data_loader", "finetune_seed"):
        assert recipe[key] == experiment[key]


def test_teach_fine_tunes_as_the_run_that_made_the_archive_with_nothing_but_the_archive(grid_run, pretrained,
                                                                                          split, tmp_path):
    _, run = grid_run
    lines = []
    metrics = teach(pretrained, "support.txt", "taught", query="query.txt", report=lines.append)
    text = "\n".join(lines)
    assert "recipe: 1-shot (read off the support file)" in text
    assert "2 example(s); new predicate(s): area:i, not" in text
    assert lines[-3].startswith("exact match on query.txt: ")
    assert lines[-2].startswith("time per phase: ") and lines[-1].startswith("done in ")
    row = json.load(open(run / "metrics.json"))
    assert metrics["test_exact_match"] == row["test_exact_match"] and metrics["training_loss"] == row["training_loss"]
    taught, expected = state_dict("taught/model.tar.gz"), state_dict(str(run / "model.tar.gz"))
    assert taught.keys() == expected.keys() and all(torch.equal(taught[name], expected[name]) for name in taught)

    # The taught archive stands on its own: the files its reader reads live beside it, and it decodes
    # the new predicate.
    config = json.load(open(split / "taught" / "config.json"))
    assert config["dataset_reader"]["idiom_source"] == str(split / "taught" / "teaching" / "training.txt")
    assert config["pretrained_archive"] == pretrained and "pretraining" not in config
    with tarfile.open(split / "taught" / "model.tar.gz") as archive:
        assert json.load(archive.extractfile("config.json")) == config
        assert "teaching/recipes.json" in archive.getnames()
    after = load_archive("taught/model.tar.gz").model.vocab.get_token_to_index_vocabulary("actions")
    assert "GEN ( area:i <e:s> )" in after
    predictor = Predictor.from_path("taught/model.tar.gz", "proto_parser")
    assert predictor.predict_json({"utterance": "how big be s0"})["actions"][0] == "GEN ( area:i <e:s> )"

    # Without a query file nothing is evaluated.
    metrics = teach(pretrained, "support.txt", "unevaluated", report=lambda line: None)
    assert "test_exact_match" not in metrics and "test_data_path" not in json.load(open("unevaluated/config.json"))


def test_the_first_run_of_a_shot_writes_its_recipe_and_a_marked_run_replaces_it(grid_run, tmp_path):
    root, run = grid_run
    archive = str(tmp_path / "model.tar.gz")
    shutil.copyfile(root / "pretrain" / "geo-fixture" / "model.tar.gz", archive)
    with pushd(PROJECT_ROOT):
        experiment = json.load(open(run / "config.json"))
        changed = dict(experiment, trainer=dict(experiment["trainer"], num_epochs=7))
        assert not teaching_recipe.store_recipe(archive, changed, 1)  # the shot has one already
        assert teaching_recipe.read_recipes(archive).by_shot["1"]["trainer"]["num_epochs"] == 2
        assert teaching_recipe.store_recipe(archive, changed, 2)  # another shot is added
        assert teaching_recipe.store_recipe(archive, changed, 1, replace=True)
    recipes = teaching_recipe.read_recipes(archive)
    assert sorted(recipes.by_shot) == ["1", "2"] and recipes.by_shot["1"]["trainer"]["num_epochs"] == 7
    assert sorted(recipes.files) == ["training.txt"]  # stored once
    assert load_archive(archive).model is not None  # the rewritten archive loads
    # A run with `teaching_recipe: true` replaces the recipe of its shot when it finds the archive ready.
    with pushd(PROJECT_ROOT), environment(FEWSHOT_DATA_DIR=str(root / "data"),
                                          FEWSHOT_PRETRAIN_DIR=str(root / "pretrain")):
        train_model_from_file(GRID, str(tmp_path / "marked"),
                              overrides=json.dumps({"teaching_recipe": True, "trainer": {"num_epochs": 1}}))
        recipes = teaching_recipe.read_recipes(str(root / "pretrain" / "geo-fixture" / "model.tar.gz"))
        assert recipes.by_shot["1"]["trainer"]["num_epochs"] == 1
        train_model_from_file(GRID, str(tmp_path / "restored"), overrides=json.dumps({"teaching_recipe": True}))


def test_a_run_stores_its_recipe_under_the_shot_it_declares(grid_run, tmp_path):
    root, _ = grid_run
    pretrain = tmp_path / "pretrain"
    shutil.copytree(root / "pretrain", pretrain)  # the module's archive stays as the other tests read it
    with pushd(PROJECT_ROOT), environment(FEWSHOT_DATA_DIR=str(root / "data"), FEWSHOT_PRETRAIN_DIR=str(pretrain)):
        # The fixture's support is 1-shot; a run that says it is the 2-shot experiment fills that recipe.
        train_model_from_file(GRID, str(tmp_path / "declared"), overrides=json.dumps(
            {"teaching_recipe": True, "teaching_shot": 2, "trainer": {"num_epochs": 3}}))
    recipes = teaching_recipe.read_recipes(str(pretrain / "geo-fixture" / "model.tar.gz"))
    assert recipes.by_shot["2"]["trainer"]["num_epochs"] == 3
    assert recipes.by_shot["1"]["trainer"]["num_epochs"] == 2  # the 1-shot run's recipe is left alone
    with pushd(PROJECT_ROOT), environment(FEWSHOT_DATA_DIR=str(root / "data"), FEWSHOT_PRETRAIN_DIR=str(pretrain)):
        with pytest.raises(ConfigurationError, match="teaching_shot must be 1 or 2"):
            train_model_from_file(GRID, str(tmp_path / "bad"), overrides=json.dumps({"teaching_shot": 3}))


@pytest.mark.parametrize(
    "examples, shot",
    [
        ([], 1),
        ([{"a"}, {"b"}], 1),  # one example each
        ([{"a"}, {"a"}, {"b"}], 1),  # b has one example of its own
        ([{"a"}, {"a", "b"}, {"b"}], 2),
        ([{"a", "sum"}, {"a"}, {"b"}, {"b"}], 2),  # `sum` rides along with `a`
        ([{"a", "b"}, {"b"}], 2),  # read both ways; the 2-shot reading wins
        ([{"a", "x"}, {"b", "x"}], 1),  # x has two examples, a and b one each: most have one
        ([{"a", "b", "c"}, {"a"}], 1),
    ],
)
def test_the_shot_read_off_a_support_set(examples, shot):
    assert teaching_recipe.shot_of([frozenset(e) for e in examples]) == shot


@pytest.mark.parametrize("dataset", ["geo", "jobs"])
@pytest.mark.parametrize("config", ["ours", "best"])
def test_the_faithful_and_the_best_recipe_read_only_placeholders_and_bundled_files(dataset, config):
    """Every data file the faithful and the best row read is the support set, the query set, the
    pre-training data or a bundled file: a teaching needs no data directory."""
    from fewshot_parser.commands.systems import read_systems, render_config

    path = read_systems()[config][2].format(dataset=dataset, shot=1)
    with pushd(PROJECT_ROOT):
        experiment = render_config(path, {
            "FEWSHOT_SPLIT": "1", "FEWSHOT_SEED": "13", "FEWSHOT_PRETRAIN_DIR": "p",
            "FEWSHOT_DATA_DIR": os.environ.get("FEWSHOT_DATA_DIR", "data")})
        if not os.path.isfile(teaching_recipe._data_file(experiment["train_data_path"]) or ""):
            pytest.skip("the benchmark data is not set up (make data)")
        recipe, bundled = teaching_recipe.make_recipe(experiment)
    assert experiment["teaching_recipe"] is True
    assert recipe["train_data_path"] == "<support>" and recipe["test_data_path"] == "<query>"
    assert recipe["training_data_path"] == "<training>" and "training.txt" in bundled
    text = json.dumps(recipe)
    assert f"{dataset}/lemma_data" not in text and "shuffle_" not in text
    filled = teaching_recipe.fill_recipe(recipe, "/files", "/s/support.txt", None)
    assert "test_data_path" not in filled and "<" + "support>" not in json.dumps(filled)


def test_an_ensemble_recipe_fine_tunes_every_member_with_recombination(grid_run, tmp_path, capsys):
    import fewshot_lab  # noqa: F401  (the ensemble types are the lab's; the test passed only after another imported it)

    root, _ = grid_run
    directory = copy_split(tmp_path)
    (tmp_path / "ensemble.jsonnet").write_text(ENSEMBLE)
    experiment = render(str(tmp_path / "ensemble.jsonnet"), tmp_path)
    archive = str(tmp_path / "model.tar.gz")
    shutil.copyfile(root / "pretrain" / "geo-fixture" / "model.tar.gz", archive)
    with pushd(PROJECT_ROOT):
        experiment["pretraining"] = render(GRID, root)["pretraining"]
        teaching_recipe.store_recipe(archive, experiment, 1, replace=True)
    shutil.rmtree(tmp_path / "data")
    shutil.copyfile(fixture_split("geo", "support"), tmp_path / "support.txt")
    teach(archive, str(tmp_path / "support.txt"), str(tmp_path / "taught"), overrides='{"trainer": {"num_epochs": 3}}')
    out = capsys.readouterr().out
    assert "teach: fine-tuning 2 models that vote" in out
    for member in (1, 2):
        assert f"fine-tuning member {member} of 2: epoch 3/3, loss " in out
    model = load_archive(str(tmp_path / "taught" / "model.tar.gz")).model
    assert type(model).__name__ == "FewShotEnsemble" and len(model.members) == 2
    reader = json.load(open(tmp_path / "taught" / "config.json"))["dataset_reader"]
    assert reader["support_data_path"] == str(tmp_path / "support.txt")
    assert reader["training_data_path"] == str(tmp_path / "taught" / "teaching" / "training.txt")
    assert not os.path.exists(directory)


CLASSES = """
local base = import '%s';
local classes = { entity_classes: std.parseJson(std.extVar('CLASSES')) };
base + {
  pretrained_archive: std.extVar('FEWSHOT_PRETRAIN_DIR') + '/geo-classes/model.tar.gz',
  dataset_reader+: classes,
  pretraining+: { dataset_reader+: classes },
}
""" % GRID


@pytest.mark.parametrize("classes", [
    {"type": "given", "classes": {"place": ["s", "c", "r"]}},
    {"type": "shared_arguments"},  # computed from the training file the archive carries
])
def test_an_archive_with_entity_classes_teaches_with_them_from_the_archive_alone(tmp_path, split, classes):
    root = tmp_path / "made"
    copy_split(root)
    (tmp_path / "classes.jsonnet").write_text(CLASSES)
    with environment(FEWSHOT_DATA_DIR=str(root / "data"), FEWSHOT_PRETRAIN_DIR=str(root / "pretrain"),
                     FEWSHOT_SPLIT="1", CLASSES=json.dumps(classes)), pushd(PROJECT_ROOT):
        train_model_from_file(str(tmp_path / "classes.jsonnet"), str(root / "row"))
    archive = str(tmp_path / "pretrained.tar.gz")
    shutil.copyfile(root / "pretrain" / "geo-classes" / "model.tar.gz", archive)
    shutil.rmtree(root / "data")
    teach(archive, "support.txt", "taught", report=lambda line: None)
    reader = json.load(open(split / "taught" / "config.json"))["dataset_reader"]
    assert reader["entity_classes"] == classes
    assert reader["idiom_source"] == str(split / "taught" / "teaching" / "training.txt")
    taught = load_archive("taught/model.tar.gz").model.vocab.get_token_to_index_vocabulary("actions")
    made = load_archive(str(root / "row" / "model.tar.gz")).model.vocab.get_token_to_index_vocabulary("actions")
    assert taught == made  # the archive alone gives the actions the run that made it had
    if classes["type"] == "given":
        assert "GEN ( area:i <e:place> )" in taught and not any("<e:s>" in action for action in taught)


def bad_support(directory, extra: str) -> str:
    path = directory / "my_support.txt"
    path.write_text(open(fixture_split("geo", "support")).read() + extra)
    return str(path)


@pytest.mark.parametrize("extra, message", [
    ("what be the area of s0\n", "{support}:3: expected 'utterance<TAB>logical form', found no tab"),
    ("how big be s0\t( area:i s0\n", "{support}:3: malformed lambda logical form: "),
    (BAD_ARITY, "{support}:3: predicate state:t expects 1 argument (variable), got 2"),
])
def test_a_bad_support_line_is_one_error_naming_file_and_line(tmp_path, split, pretrained, extra, message):
    support = bad_support(tmp_path, extra)
    with pytest.raises(ConfigurationError) as error:  # the reader's error, as `allennlp train` reports it
        teach(pretrained, support, str(tmp_path / "taught"), report=lambda text: None)
    assert str(error.value).startswith(message.format(support=support))
    assert "\n" not in str(error.value)
    assert not (tmp_path / "taught").exists()


def test_bad_inputs_are_one_error_naming_the_file(tmp_path, split, pretrained):
    support = str(split / "support.txt")
    out = str(tmp_path / "taught")

    def error(*args, **kwargs) -> str:
        with pytest.raises(UserError) as raised:
            teach(*args, report=lambda text: None, **kwargs)
        assert not os.path.exists(out)
        return str(raised.value)

    missing = str(tmp_path / "missing.tar.gz")
    assert error(missing, support, out) == f"{missing}: no such model archive (the pre-trained archive to teach)"
    assert error(pretrained, str(tmp_path / "none.txt"), out).startswith(f"{tmp_path / 'none.txt'}: no such support file")
    known = tmp_path / "known.txt"
    known.write_text("which state border s0\t( lambda $0 e ( and ( state:t $0 ) ( next_to:t $0 s0 ) ) )\n")
    assert error(pretrained, str(known), out).startswith(f"{known}: no new predicate (every predicate of its 1 example(s)")
    fine_tuned = tmp_path / "fine_tuned"
    fine_tuned.mkdir()
    (fine_tuned / "config.json").write_text(json.dumps({"type": "fewshot_pretrain_finetune", "pretrained_archive": "x"}))
    assert error(str(fine_tuned), support, out).startswith(f"{fine_tuned}: a fine-tuned archive")
    without = tmp_path / "without"
    without.mkdir()
    with tarfile.open(pretrained) as archive:
        archive.extractall(without, filter="data")
    shutil.rmtree(without / "teaching")
    assert error(str(without), support, out).startswith(f"{without}: the archive carries no teaching recipe")
    os.makedirs(os.path.join(out, "earlier"))
    with pytest.raises(UserError, match=r"^Serialization directory \(.*\) already exists and is not empty; --force"):
        teach(pretrained, support, out, report=lambda text: None)


def cli(args, cwd):
    environment = {k: v for k, v in os.environ.items() if k not in ("FEWSHOT_VERBOSE", "ALLENNLP_DEBUG")}
    environment["OMP_NUM_THREADS"] = "1"
    return subprocess.run([sys.executable, "-m", "fewshot_parser", "teach", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=600, env=environment)


def test_the_command_prints_phases_epochs_and_time_or_one_error_line(tmp_path, split, pretrained):
    result = cli([pretrained, "support.txt", "-s", "taught", "--threads", "1"], split)
    assert result.returncode == 0, result.stderr[-3000:]
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"teach: pre-trained archive {pretrained} (seed 1, torch threads 1; recipes for 1-shot)")
    assert "fine-tuning: epoch 1/2, loss " in result.stdout and "fine-tuning: epoch 2/2, loss " in result.stdout
    assert lines[-1].startswith("teach: done in ") and lines[-1].endswith("model.tar.gz")
    assert lines[-2].startswith("teach: time per phase: ") and " training " in lines[-2]
    assert " - INFO - " not in result.stdout  # AllenNLP's log goes to out.log
    assert "Epoch 0/1" in open(split / "taught" / "out.log").read()

    support = bad_support(tmp_path, BAD_ARITY)
    result = cli([pretrained, support, "-s", "again"], split)
    assert result.returncode == 1
    assert result.stderr.rstrip("\n").splitlines()[-1].startswith(f"{support}:3: predicate state:t expects 1 argument")
    assert "Traceback" not in result.stderr and not (split / "again").exists()


def test_a_retention_recipe_replays_the_training_data_the_archive_carries(grid_run, tmp_path, split):
    """A teaching uses the archive as it is: replay reads the copy of its pre-training data it carries."""
    root, run = grid_run
    archive = str(tmp_path / "model.tar.gz")
    shutil.copyfile(root / "pretrain" / "geo-fixture" / "model.tar.gz", archive)
    experiment = json.load(open(run / "config.json"))
    experiment["retention"] = [{"type": "replay", "examples": 3}]
    with pushd(PROJECT_ROOT):
        teaching_recipe.store_recipe(archive, experiment, 1, replace=True)
    teach(archive, "support.txt", "taught", report=lambda line: None)
    log = open(split / "taught" / "out.log").read()
    # The replay method's own log line: the archive's copy of its training data, unpacked for the teaching.
    assert "Retention: read" in log and "fewshot_teach_" in log.split("Retention: read")[1].splitlines()[0]


def test_a_recipe_holding_a_finished_runs_routing_model_teaches_its_parser(tmp_path):
    """`allennlp train` of a finished fallback run's config.json stores that config as the recipe; teach
    takes the parser back out of the routing model (the retention method wraps it again)."""
    from fewshot_parser.commands.teach import teaching_config
    from fewshot_parser.models.known_fallback import fallback_config

    parser = {"type": "proto_parser", "decoder_dim": 8}
    recipe = {
        "model": fallback_config(parser, {"type": "proto_parser", "decoder_dim": 8}),
        "retention": [{"type": "pretrained_fallback"}],
        "train_data_path": teaching_recipe.SUPPORT,
    }
    config = teaching_config(recipe, str(tmp_path / "model.tar.gz"), str(tmp_path), str(tmp_path / "s.txt"), None,
                             progress=False)
    assert config["model"] == parser and config["retention"] == [{"type": "pretrained_fallback"}]
    plain = teaching_config({**recipe, "model": parser}, str(tmp_path / "model.tar.gz"), str(tmp_path),
                            str(tmp_path / "s.txt"), None, progress=False)
    assert plain["model"] == parser
