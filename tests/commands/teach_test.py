"""
`allennlp teach`: one command fine-tunes a pre-trained archive on a support file with the recipe of
the grid row that pre-trained it. Tiny trainings on the geo fixture (the `fixture` grid system,
fixtures/grid), each a few seconds; the real rows' recipes are checked by rendering their configs.
"""
import json
import os
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
from fewshot_parser.commands import recipes, run_grid
from fewshot_parser.commands.teach import teach
from fewshot_parser.common.errors import UserError
from tests import FIXTURES_ROOT, PROJECT_ROOT, fixture_split

FIXTURE_SYSTEM = ("ProtoParser", "fixture", os.path.join(FIXTURES_ROOT, "grid", "{dataset}_{shot}shot.jsonnet"))
BAD_ARITY = "which state border s0\t( lambda $0 e ( and ( state:t $0 $1 ) ( next_to:t $0 s0 ) ) )\n"
# The fixture grid with two voting members and recombination in fine-tuning, as the best row has.
ENSEMBLE = """
local base = import '%s';
local dir = std.extVar('FEWSHOT_DATA_DIR') + '/geo/shuffle_' + std.extVar('FEWSHOT_SPLIT') + '_shot_1/';
base + {
  type: 'fewshot_ensemble_finetune',
  dataset_reader: { type: 'fewshot_augmented', reader: base.dataset_reader, support_data_path: dir + 'support.txt',
                    training_data_path: dir + 'train.txt', pairs_per_predicate: 2, reverse_pairs_per_predicate: 1 },
  model: { type: 'fewshot_ensemble', members: [base.model, base.model] },
}
"""


def render_fixture_grid(data: str, pretrain: str) -> dict:
    variables = {"FEWSHOT_DATA_DIR": data, "FEWSHOT_PRETRAIN_DIR": pretrain, "FEWSHOT_SPLIT": "1", "FEWSHOT_SEED": "13"}
    return json.loads(_jsonnet.evaluate_file(os.path.join(FIXTURES_ROOT, "grid", "geo_1shot.jsonnet"),
                                             ext_vars=variables))


@pytest.fixture(scope="module")
def pretrained(tmp_path_factory):
    """The fixture grid's pre-trained archive (`<pretrain>/geo-fixture/model.tar.gz`), built once."""
    from fewshot_parser.training.pretrain_finetune import ensure_pretrained

    root = tmp_path_factory.mktemp("teach")
    config = render_fixture_grid(str(root / "data"), str(root / "pretrain"))
    with pushd(PROJECT_ROOT):
        return ensure_pretrained(config["pretrained_archive"], config["pretraining"])


@pytest.fixture
def split(tmp_path, monkeypatch):
    """A copy of the geo fixture split as the fixture grid's split 1, and a grid of `ours` and `fixture`."""
    directory = tmp_path / "data" / "geo" / "shuffle_1_shot_1"
    directory.mkdir(parents=True)
    for part in ("train", "support", "query"):
        (directory / f"{part}.txt").write_bytes(open(fixture_split("geo", part), "rb").read())
    monkeypatch.chdir(PROJECT_ROOT)
    monkeypatch.setenv("FEWSHOT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr(run_grid, "SYSTEMS", {"ours": run_grid.SYSTEMS["ours"], "fixture": FIXTURE_SYSTEM})
    return directory


def state_dict(archive: str) -> dict:
    return load_archive(archive).model.state_dict()


def test_teach_finds_the_row_and_fine_tunes_as_its_grid_run_does(tmp_path, split, pretrained, monkeypatch):
    import fewshot_parser.commands.teach as teach_module
    lines, timed = [], {}
    # The summary line leaves out phases under 0.05 s, which the fixture's training can be on a fast CPU:
    # the phases teach timed are checked where they are formatted.
    real_format = teach_module.format_phases
    monkeypatch.setattr(teach_module, "format_phases", lambda seconds: timed.update(seconds) or real_format(seconds))
    metrics = teach(pretrained, str(split / "support.txt"), str(tmp_path / "taught"), query=str(split / "query.txt"),
                    report=lines.append)
    text = "\n".join(lines)
    assert "comparing it with the other 1 rows" in text  # not the pre-training of `ours`: the grid is searched
    assert "recipe: row fixture" in text and "geo 1-shot" in text
    assert "2 example(s); new predicate(s): area:i, not" in text
    assert lines[-3].startswith(f"exact match on {split / 'query.txt'}: ")
    assert lines[-2].startswith("time per phase: ") and "training" in timed and "loading the pre-trained archive" in timed
    assert lines[-1].startswith("done in ") and lines[-1].endswith(f" s: {tmp_path / 'taught' / 'model.tar.gz'}")

    # The row's own run on this split (`allennlp train` of its config, as run-grid runs it).
    monkeypatch.setenv("FEWSHOT_PRETRAIN_DIR", os.path.dirname(os.path.dirname(pretrained)))
    monkeypatch.setenv("FEWSHOT_SPLIT", "1")
    train_model_from_file(FIXTURE_SYSTEM[2].format(dataset="geo", shot=1), str(tmp_path / "row"))
    row = json.load(open(tmp_path / "row" / "metrics.json"))
    assert metrics["test_exact_match"] == row["test_exact_match"] and metrics["training_loss"] == row["training_loss"]
    taught, expected = state_dict(str(tmp_path / "taught" / "model.tar.gz")), state_dict(str(tmp_path / "row" / "model.tar.gz"))
    assert taught.keys() == expected.keys()
    assert all(torch.equal(taught[name], expected[name]) for name in taught)

    # The taught archive is an ordinary one: it has the new predicates' actions and decodes them.
    before = load_archive(pretrained).model.vocab.get_token_to_index_vocabulary("actions")
    after = load_archive(str(tmp_path / "taught" / "model.tar.gz")).model.vocab.get_token_to_index_vocabulary("actions")
    assert "GEN ( area:i <e:s> )" in after and "GEN ( area:i <e:s> )" not in before
    predictor = Predictor.from_path(str(tmp_path / "taught" / "model.tar.gz"), "proto_parser")
    assert predictor.predict_json({"utterance": "how big be s0"})["actions"][0] == "GEN ( area:i <e:s> )"
    config = json.load(open(tmp_path / "taught" / "config.json"))
    assert config["pretraining"] is None and config["pretrained_archive"] == os.path.abspath(pretrained)
    assert config["train_data_path"] == str(split / "support.txt")


def test_an_ensemble_recipe_fine_tunes_every_member_with_recombination(tmp_path, split, pretrained, monkeypatch, capsys):
    (tmp_path / "ensemble").mkdir()
    (tmp_path / "ensemble" / "geo_1shot.jsonnet").write_text(ENSEMBLE % os.path.join(FIXTURES_ROOT, "grid", "geo_1shot.jsonnet"))
    system = ("ProtoParser", "fixture ensemble", str(tmp_path / "ensemble" / "{dataset}_{shot}shot.jsonnet"))
    monkeypatch.setitem(run_grid.SYSTEMS, "fixture-ensemble", system)
    teach(pretrained, str(split / "support.txt"), str(tmp_path / "taught"), system="fixture-ensemble",
          overrides='{"trainer": {"num_epochs": 3}}')  # merged into the recipe as `allennlp train -o` does
    out = capsys.readouterr().out
    assert "teach: recipe: row fixture-ensemble" in out and "teach: fine-tuning 2 models that vote" in out
    for member in (1, 2):
        assert f"fine-tuning member {member} of 2: 3 epoch(s) of " in out
        assert f"fine-tuning member {member} of 2: epoch 3/3, loss " in out
    model = load_archive(str(tmp_path / "taught" / "model.tar.gz")).model
    assert type(model).__name__ == "FewShotEnsemble" and len(model.members) == 2
    config = json.load(open(tmp_path / "taught" / "config.json"))
    assert config["trainer"]["optimizer"] == {"type": "adam", "lr": 0.01}  # the rest of `trainer` is the row's
    reader = config["dataset_reader"]
    # The split's training set is the data the archive was pre-trained on.
    assert reader["support_data_path"] == str(split / "support.txt")
    assert reader["training_data_path"] == "fixtures/data/geo/shuffle_0_shot_1/train.txt"


@pytest.mark.parametrize("dataset", ["geo", "jobs"])
@pytest.mark.parametrize("system, variant", [("ours", "ours"), ("chosen-fallback-roles", "contextual-schema")])
def test_the_faithful_and_the_best_archive_get_their_rows_recipe(dataset, system, variant):
    """A pre-trained archive's config.json is its row's `pretraining`; the recipe is that row's
    experiment with the split's files replaced, and nothing else changed but the progress callback."""
    variables = {"FEWSHOT_SPLIT": "1", "FEWSHOT_SEED": "13", "FEWSHOT_PRETRAIN_DIR": "p"}
    path = os.path.join(PROJECT_ROOT, run_grid.SYSTEMS[system][2].format(dataset=dataset, shot=1))
    row = json.loads(_jsonnet.evaluate_file(path, ext_vars=variables))
    assert row["pretrained_archive"] == f"p/{dataset}-{variant}/model.tar.gz"
    recipe = recipes.find_recipe("archive", row["pretraining"])
    assert (recipe.system, recipe.dataset, recipe.shot, recipe.exact) == (system, dataset, 1, True)

    train = row["pretraining"]["train_data_path"]
    config = recipes.teaching_config(recipe, "/a/model.tar.gz", train, "/s/support.txt", "/q/query.txt")
    callbacks = config["trainer"]["callbacks"]
    members = 1
    assert callbacks[-1] == {"type": "fewshot_progress", "members": members}
    del callbacks[-1]
    split_dir = f"{dataset}/lemma_data/shuffle_1_shot_1/"
    expected = json.loads(json.dumps(row).replace(split_dir + "support.txt", "/s/support.txt")
                          .replace(split_dir + "query.txt", "/q/query.txt").replace(split_dir + "train.txt", train))
    expected.update(pretrained_archive="/a/model.tar.gz", pretraining=None)
    assert config == expected
    # Without a query file, nothing is evaluated.
    assert recipes.teaching_config(recipe, "/a/model.tar.gz", train, "/s/support.txt", None)["test_data_path"] is None


@pytest.mark.parametrize("dataset", ["geo", "jobs"])
def test_an_archive_in_the_old_spelling_gets_its_rows_recipe(dataset):
    """The best row's archives made before schema encoding became a component name `irnet_parser`; they
    are still the best row's pre-training, so teach finds its recipe and calls it exact."""
    from fewshot_parser.common.provenance import old_spelling

    variables = {"FEWSHOT_SPLIT": "1", "FEWSHOT_SEED": "13", "FEWSHOT_PRETRAIN_DIR": "p"}
    path = os.path.join(PROJECT_ROOT, run_grid.SYSTEMS["reshaped40-ens5"][2].format(dataset=dataset, shot=1))
    pretraining = json.loads(_jsonnet.evaluate_file(path, ext_vars=variables))["pretraining"]
    old = old_spelling(pretraining)
    assert old["model"]["type"] == "irnet_parser" and old != pretraining
    recipe = recipes.find_recipe("archive", old)
    assert (recipe.system, recipe.exact) == ("chosen-fallback-roles", True)
    assert recipes.row_recipe("chosen", dataset, 1, 13, old).exact


def test_rows_sharing_a_pre_training_and_a_named_row(split, pretrained, tmp_path, monkeypatch):
    with tarfile.open(pretrained) as archive:
        config = json.loads(archive.extractfile("config.json").read())
    monkeypatch.setitem(run_grid.SYSTEMS, "fixture-copy", FIXTURE_SYSTEM)
    assert recipes.find_recipe(pretrained, config).system == "fixture"  # the first row in the grid's order
    assert recipes.find_recipe(pretrained, config, system="fixture-copy").system == "fixture-copy"
    changed = dict(config, random_seed=2, numpy_seed=2, pytorch_seed=2)
    named = recipes.find_recipe(pretrained, changed, system="fixture")
    assert not named.exact and recipes.first_difference(named.config["pretraining"], changed) == "numpy_seed"
    with pytest.raises(UserError, match="^row fixture has no 2-shot geo experiment"):
        recipes.find_recipe(pretrained, config, shot=2, system="fixture")


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


def test_bad_inputs_are_one_error_naming_the_file(tmp_path, split, pretrained, monkeypatch):
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
    with monkeypatch.context() as patch:
        patch.setattr(run_grid, "SYSTEMS", {"ours": run_grid.SYSTEMS["ours"]})
        assert error(pretrained, support, out).startswith(f"{pretrained}: no row of the grid pre-trains this archive")
    with monkeypatch.context() as patch:
        patch.chdir(tmp_path)  # the fixture's pre-training data is relative to the project
        assert error(pretrained, support, out).startswith(
            f"{pretrained}: the recipe reads the data the archive was pre-trained on, and data file "
            "'fixtures/data/geo/shuffle_0_shot_1/train.txt' not found")
    os.makedirs(os.path.join(out, "earlier"))
    with pytest.raises(UserError, match=r"^Serialization directory \(.*\) already exists and is not empty; --force"):
        teach(pretrained, support, out, report=lambda text: None)


# The command line, with the fixture system in the grid (a subprocess cannot be monkeypatched).
CLI = ("import sys, fewshot_parser; from fewshot_parser.commands import run_grid; "
       f"run_grid.SYSTEMS['fixture'] = {FIXTURE_SYSTEM!r}; "
       "from allennlp.commands import main; sys.argv[0] = 'allennlp'; main(prog='allennlp')")


def cli(args, env):
    environment = {k: v for k, v in os.environ.items() if k not in ("FEWSHOT_VERBOSE", "ALLENNLP_DEBUG")}
    environment.update(env)
    return subprocess.run([sys.executable, "-c", CLI, "teach", *args], cwd=PROJECT_ROOT, capture_output=True,
                          text=True, timeout=600, env=environment)


def test_the_command_prints_phases_epochs_and_time_or_one_error_line(tmp_path, split, pretrained):
    env = {"FEWSHOT_DATA_DIR": str(tmp_path / "data"), "OMP_NUM_THREADS": "1"}
    result = cli([pretrained, str(split / "support.txt"), "-s", str(tmp_path / "taught"), "--system", "fixture",
                  "--threads", "1"], env)
    assert result.returncode == 0, result.stderr[-3000:]
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"teach: pre-trained archive {pretrained} (geo, seed 1, torch threads 1)")
    assert "fine-tuning: epoch 1/2, loss " in result.stdout and "fine-tuning: epoch 2/2, loss " in result.stdout
    assert lines[-1].startswith("teach: done in ") and lines[-1].endswith("model.tar.gz")
    assert lines[-2].startswith("teach: time per phase: ") and " training " in lines[-2]  # phases under 0.05 s left out
    assert " - INFO - " not in result.stdout  # AllenNLP's log goes to out.log
    assert "Epoch 0/1" in open(tmp_path / "taught" / "out.log").read()

    support = bad_support(tmp_path, BAD_ARITY)
    result = cli([pretrained, support, "-s", str(tmp_path / "again"), "--system", "fixture"], env)
    assert result.returncode == 1
    assert result.stderr.rstrip("\n").splitlines()[-1].startswith(f"{support}:3: predicate state:t expects 1 argument")
    assert "Traceback" not in result.stderr and not (tmp_path / "again").exists()


def test_members_trained_side_by_side_equal_members_trained_in_turn(tmp_path, split, pretrained, monkeypatch):
    """`parallel_members` (teach sets it to the free cores) forks a process per member: same weights, same losses."""
    (tmp_path / "ensemble").mkdir()
    three = ENSEMBLE.replace("[base.model, base.model]", "[base.model, base.model, base.model]")
    (tmp_path / "ensemble" / "geo_1shot.jsonnet").write_text(three % os.path.join(FIXTURES_ROOT, "grid", "geo_1shot.jsonnet"))
    monkeypatch.setitem(run_grid.SYSTEMS, "fixture-ensemble",
                       ("ProtoParser", "fixture ensemble", str(tmp_path / "ensemble" / "{dataset}_{shot}shot.jsonnet")))
    runs = {}
    for parallel in (1, 2):
        out = tmp_path / f"parallel_{parallel}"
        metrics = teach(pretrained, str(split / "support.txt"), str(out), system="fixture-ensemble",
                        query=str(split / "query.txt"), report=lambda line: None,
                        overrides=json.dumps({"trainer": {"num_epochs": 2}, "parallel_members": parallel}))
        runs[parallel] = ({k: v for k, v in metrics.items() if "loss" in k or "exact" in k}, state_dict(str(out / "model.tar.gz")))
    (in_turn, weights), (side_by_side, parallel_weights) = runs[1], runs[2]
    assert in_turn == side_by_side and len(in_turn) >= 4
    assert weights.keys() == parallel_weights.keys() and all(weights[k].equal(parallel_weights[k]) for k in weights)


def test_a_retention_recipe_replays_the_archives_own_training_data(tmp_path, split, pretrained, monkeypatch):
    """teach uses the archive as it is (no `pretraining` section): replay reads what the archive was trained on."""
    (tmp_path / "replay").mkdir()
    (tmp_path / "replay" / "geo_1shot.jsonnet").write_text(
        "(import '%s') + { retention: [{ type: 'replay', examples: 3 }] }" % os.path.join(FIXTURES_ROOT, "grid", "geo_1shot.jsonnet"))
    monkeypatch.setitem(run_grid.SYSTEMS, "fixture-replay",
                       ("ProtoParser", "fixture replay", str(tmp_path / "replay" / "{dataset}_{shot}shot.jsonnet")))
    teach(pretrained, str(split / "support.txt"), str(tmp_path / "taught"), system="fixture-replay", report=lambda line: None)
    log = open(tmp_path / "taught" / "out.log").read()
    with tarfile.open(pretrained) as archive:
        trained_on = json.load(archive.extractfile("config.json"))["train_data_path"]
    assert (tmp_path / "taught" / "model.tar.gz").exists()
    # The replay method's own log line (not the config echo, which depends on AllenNLP's logging state).
    assert f"instances of {trained_on}" in log and "Retention: read" in log
