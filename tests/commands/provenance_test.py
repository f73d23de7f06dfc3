import csv
import json
import os
import subprocess
import sys

import _jsonnet

from fewshot_lab.commands.report import REFERENCE, write_report
from fewshot_lab.staleness import stale_reason
from fewshot_parser.commands.run_grid import FIELDS, as_configured
from fewshot_parser.commands.systems import read_systems, render_config
from fewshot_parser.common.provenance import PROJECT_ROOT, code_version, experiment_hash
from tests import SYSTEMS_TABLES

# The rows of both tables: the lab's rows share archives with the product's.
SYSTEMS = read_systems(SYSTEMS_TABLES)

EXT_VARS = {"FEWSHOT_SPLIT": "1", "FEWSHOT_SEED": "13", "FEWSHOT_DATA_DIR": "data", "FEWSHOT_PRETRAIN_DIR": "runs/pretrain"}


def current_hash(path: str) -> str:
    return experiment_hash(render_config(os.path.join(PROJECT_ROOT, path), EXT_VARS))


def row(**values):
    base = {"system": "DA", "setting": "", "dataset": "jobs", "shot": "1", "shuffle": "1", "exact_match": "10.0",
            "seconds": "1.0", "code_version": "", "config_hash": "", "pretrain_code_version": "-", "pretrain_config_hash": "-"}
    return {**base, **values}


def test_experiment_hash_ignores_the_archive_path_and_device_only():
    config = {"pretrained_archive": "a/model.tar.gz", "trainer": {"cuda_device": -1, "num_epochs": 3}}
    moved = {"pretrained_archive": "b/model.tar.gz", "trainer": {"cuda_device": 0, "num_epochs": 3}}
    assert experiment_hash(config) == experiment_hash(moved)
    assert experiment_hash(config) != experiment_hash({**config, "trainer": {"num_epochs": 4}})


def test_a_run_whose_fallback_rewrote_its_config_hashes_as_its_experiment():
    """Retention `pretrained_fallback` writes the archived `fewshot_known_fallback` into the run's
    config.json; the run's recorded hash must still be its experiment's (the best row's config)."""
    from fewshot_parser.models.known_fallback import fallback_config

    experiment = render_config("experiments/systems.jsonnet#best/geo_1shot", EXT_VARS)
    assert experiment["retention"] == [{"type": "pretrained_fallback"}]
    run = {**experiment, "model": fallback_config(experiment["model"], experiment["pretraining"]["model"])}
    assert experiment_hash(run) != experiment_hash(experiment)
    assert experiment_hash(as_configured(run)) == experiment_hash(experiment)
    # Without the retention method, a changed model is a changed experiment.
    assert as_configured({**run, "retention": []})["model"] == run["model"]


def test_a_row_is_stale_without_provenance_or_with_another_config(monkeypatch):
    from fewshot_lab import staleness

    head = code_version().split("-")[0]
    fresh_hash = current_hash("experiments/systems.jsonnet#da/jobs_1shot")
    assert stale_reason(row(), SYSTEMS) == "no provenance"
    assert stale_reason(row(code_version=head, config_hash="0" * 12), SYSTEMS) == "config changed"
    assert stale_reason(row(code_version="f" * 40, config_hash=fresh_hash), SYSTEMS) == "code changed"
    assert stale_reason(row(code_version=head, config_hash=fresh_hash, setting="a retired switch"),
                        SYSTEMS) == "no grid system makes this row any more"
    # The checkout may hold uncommitted changes: take the code as unchanged since HEAD here.
    monkeypatch.setattr(staleness, "code_unchanged_since", lambda version, **_: version.startswith(head))
    assert stale_reason(row(code_version=head, config_hash=fresh_hash), SYSTEMS) is None
    assert stale_reason(row(code_version=head, config_hash=fresh_hash, pretrain_code_version="e" * 40),
                        SYSTEMS) == "pre-trained with older code"


def test_report_shows_the_authors_code_beside_ours_with_a_wilcoxon_p(tmp_path):
    results, reference = tmp_path / "runs.csv", tmp_path / "reference_runs.csv"
    with open(results, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=FIELDS)
        writer.writeheader()
        for shuffle, value in enumerate([10, 12, 14, 16, 18], start=1):
            writer.writerow(row(system="ProtoParser", shuffle=str(shuffle), exact_match=str(value)))
    with open(reference, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=["system", "dataset", "shot", "shuffle", "exact_match", "seconds"])
        writer.writeheader()
        for shuffle, value in enumerate([20, 21, 25, 22, 30], start=1):
            writer.writerow({"system": REFERENCE[0], "dataset": "jobs", "shot": "1", "shuffle": shuffle,
                             "exact_match": value, "seconds": 1})
    out = tmp_path / "out"
    write_report([str(results)], str(out), reference=str(reference))
    table = (out / "table1.md").read_text()
    assert "ProtoParser (authors' code, GloVe 50d) | 23.60" in table
    assert "14.00 ± 2.8 †" in table  # our row has no provenance: marked stale
    gap = (out / "paper_gap.md").read_text()
    assert "| ours - authors' code | -9.60 |" in gap
    assert "| ours, faithful (GloVe 50-d) | 14.00 † |" in gap  # no provenance: stale
    # differences -10 -9 -11 -6 -12: sd 2.30, t(0.975, 4) = 2.776, so -9.6 +- 2.86
    assert "| 95% interval of that difference (paired over shuffles, t) | -12.5 to -6.7 |" in gap
    assert "Wilcoxon p (ours vs the authors' code, 5 shared evaluation sets): 0.0625" in gap
    assert "One behaviour changed at a time" not in gap  # no variant runs yet

    # A run of the authors' code with one setting changed, in a file beside theirs, gets its own line.
    with open(tmp_path / "reference_runs_freq0.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=["system", "dataset", "shot", "shuffle", "exact_match", "seconds"])
        writer.writeheader()
        for shuffle, value in enumerate([10, 10, 10, 10, 15], start=1):
            writer.writerow({"system": REFERENCE[0][:-1] + ", freq_0)", "dataset": "jobs", "shot": "1",
                             "shuffle": shuffle, "exact_match": value, "seconds": 1})
    write_report([str(results)], str(out), reference=str(reference))
    gap = (out / "paper_gap.md").read_text()
    assert "| authors' code here, freq_0 (`reference_runs_freq0.csv`) | 11.00 |" in gap
    assert "ProtoParser (authors' code, GloVe 50d) | 23.60" in (out / "table1.md").read_text()  # not mixed in


def test_make_passes_the_split_to_the_grid():
    import subprocess

    for variable in ("SPLIT=4", "SPLITS=4"):
        command = subprocess.run(["make", "-n", "-C", PROJECT_ROOT, "geo-1shot", variable, "STAMP=README.md"],
                                 capture_output=True, text=True, check=True).stdout
        assert "--shuffles 4 " in command, command


def test_a_run_is_recorded_under_the_split_its_config_used(tmp_path):
    import pytest

    from fewshot_parser.commands.run_grid import Job, read_rows, record, summary_table

    directory = tmp_path / "ours" / "geo_1shot_s4"
    directory.mkdir(parents=True)
    (directory / "metrics.json").write_text(json.dumps({"test_exact_match": 0.25}))
    (directory / "config.json").write_text(json.dumps({"test_data_path": "geo/lemma_data/shuffle_1_shot_1/query.txt"}))
    job = Job("ours", "geo", 1, 4, "experiments/geo_1shot.jsonnet", str(directory))
    results = str(tmp_path / "runs.csv")
    with pytest.raises(RuntimeError, match="shuffle 1, not 4"):
        record(job, 1.0, results)
    assert read_rows(results) == []
    (directory / "config.json").write_text(json.dumps({"test_data_path": "geo/lemma_data/shuffle_4_shot_1/query.txt"}))
    assert record(job, 1.0, results) == 25.0
    table = summary_table([job], results, results)
    assert "25.00 ± 0.00" in table and "paper (shuffles 1-5): 27.49" in table and "(identical per shuffle)" in table


def test_code_changes_that_leave_the_syntax_tree_alone_do_not_make_rows_stale():
    from fewshot_lab.staleness import normalized

    before = 'def f(x):\n    """Doc."""\n    return x + 1  # add one\n'
    wrapped = 'def f(x):\n    """Another doc."""\n    return (x +\n            1)\n'
    changed = 'def f(x):\n    return x + 2\n'
    assert normalized("a.py", before) == normalized("a.py", wrapped)
    assert normalized("a.py", before) != normalized("a.py", changed)


def test_report_writes_the_at_a_glance_block_of_a_readme(tmp_path):
    from fewshot_lab.commands.report import GLANCE_END, GLANCE_START

    results = tmp_path / "runs.csv"
    with open(results, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=FIELDS)
        writer.writeheader()
        for shuffle in range(1, 6):
            writer.writerow(row(system="ProtoParser", shuffle=str(shuffle), exact_match="20"))
    readme = tmp_path / "README.md"
    readme.write_text(f"# title\n\n{GLANCE_START}\nold table\n{GLANCE_END}\n\nmore text\n")
    write_report([str(results)], str(tmp_path / "out"), readme=str(readme))
    text = readme.read_text()
    assert "old table" not in text and text.startswith("# title") and text.endswith("more text\n")
    assert "| ours, faithful (`--systems ours`) | 20.00 † | – |" in text
    assert (tmp_path / "out" / "at_a_glance.md").read_text() in text


def test_a_row_depends_on_the_code_its_config_uses_not_on_every_module():
    from fewshot_lab.staleness import _rendered, dependencies

    faithful = dependencies(_rendered(os.path.join(PROJECT_ROOT, "experiments/systems.jsonnet#ours/geo_1shot"), 1))
    da = dependencies(_rendered(os.path.join(PROJECT_ROOT, "experiments/systems.jsonnet#da/geo_1shot"), 1))
    assert "fewshot_parser/models/proto_parser.py" in faithful
    assert "fewshot_parser/modules/stack_decoder.py" in faithful  # imported by the model, not named in the config
    assert "fewshot_parser/training/callbacks/prototypes.py" in faithful  # a callback the config names
    assert "fewshot_parser/models/coarse2fine.py" not in faithful and "fewshot_parser/models/__init__.py" not in faithful
    assert "fewshot_parser/models/coarse2fine.py" in da and "fewshot_parser/models/proto_parser.py" not in da
    assert any(path.startswith("fewshot_parser/resources/") for path in faithful)
    # Without a config, or with one naming none of our components, everything counts.
    assert dependencies(None) >= faithful | da
    assert dependencies('{"model": {"type": "basic_classifier"}}') == dependencies(None)


def test_a_probe_row_depends_on_the_lab_components_it_names():
    from fewshot_lab.staleness import _rendered, dependencies

    subtrees = dependencies(_rendered(os.path.join(PROJECT_ROOT, "lab/systems.jsonnet#best-subtrees/geo_1shot"), 1))
    best = dependencies(_rendered(os.path.join(PROJECT_ROOT, "experiments/systems.jsonnet#best/geo_1shot"), 1))
    # The probe rows were built on the best row before modifier pairs joined it.
    before = dependencies(_rendered(os.path.join(PROJECT_ROOT, "lab/systems.jsonnet#best-no-modifiers/geo_1shot"), 1))
    assert "lab/fewshot_lab/data/recombination/subtrees.py" in subtrees
    assert subtrees - before == {"lab/fewshot_lab/data/recombination/subtrees.py"}
    # A lab module is followed into what it imports, the product's modules included.
    assert "fewshot_parser/data/recombination/wording.py" in subtrees
    # A product component a probe row names is the product's module.
    modifiers = dependencies(_rendered(os.path.join(PROJECT_ROOT, "lab/systems.jsonnet#best-modifiers/geo_1shot"), 1))
    assert modifiers - before == {"fewshot_parser/data/recombination/modifiers.py"}
    assert best - before == {"fewshot_parser/data/recombination/modifiers.py"}
    assert not any(path.startswith("lab/") for path in best)


def test_an_archive_depends_on_its_pre_training_config_only():
    from fewshot_lab.staleness import _rendered, dependencies

    config = json.loads(_rendered(os.path.join(PROJECT_ROOT, "lab/systems.jsonnet#augmented/geo_1shot"), 1))
    run = dependencies(json.dumps(config))
    archive = dependencies(json.dumps(config["pretraining"], sort_keys=True))
    assert "fewshot_parser/data/dataset_readers/augmented.py" in run
    assert "fewshot_parser/data/dataset_readers/augmented.py" not in archive
    assert "fewshot_parser/modules/action_scorers/schema_encoding.py" in archive


def test_reference_runs_sets_the_seeds_of_the_authors_scripts(tmp_path):
    """`reference_runs.py --seed N` rewrites the work copy's seed lines (pre-training N, fine-tuning 123 + N)."""
    import importlib.util

    import pytest

    spec = importlib.util.spec_from_file_location("reference_runs", os.path.join(PROJECT_ROOT, "benchmarks", "reference_runs.py"))
    reference_runs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(reference_runs)
    scripts = tmp_path / "work" / "scripts" / "jobs" / "one_shot"
    scripts.mkdir(parents=True)
    (tmp_path / "work" / ".ready").write_text("")
    (scripts / "train.sh").write_text("#!/bin/bash\nseed=0\nshuffle=$1\n")
    (scripts / "fine_tune.sh").write_text("#!/bin/bash\nseed=123\n--seed ${seed}\n")
    for _ in range(2):  # idempotent: a resumed run sets the same values
        reference_runs.set_script_seeds(str(tmp_path / "reference"), str(tmp_path / "work"), "jobs", 1, 5)
        assert (scripts / "train.sh").read_text() == "#!/bin/bash\nseed=5\nshuffle=$1\n"
        assert (scripts / "fine_tune.sh").read_text() == "#!/bin/bash\nseed=128\n--seed ${seed}\n"
    assert reference_runs.system_name(None, 5) == "ProtoParser (authors' code, GloVe 50d, seed 5)"
    assert reference_runs.system_name(0, None) == "ProtoParser (authors' code, GloVe 50d, freq_0)"
    assert reference_runs.system_name(None, None) == reference_runs.SYSTEM
    (scripts / "train.sh").write_text("#!/bin/bash\nshuffle=$1\n")
    with pytest.raises(SystemExit, match="no 'seed=<n>' line"):
        reference_runs.set_script_seeds(str(tmp_path / "reference"), str(tmp_path / "work"), "jobs", 1, 5)


def test_only_changes_to_code_make_a_code_version_dirty(tmp_path):
    import subprocess

    def git(*args):
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)

    git("init", "-q")
    for name in ("fewshot_parser/model.py", "results/runs.csv", "README.md"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("first\n")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "first")
    clean = code_version(str(tmp_path))
    assert len(clean) == 40
    # A grid writes its results while it runs; that is no change of the code that made them.
    (tmp_path / "results/runs.csv").write_text("first\nsecond\n")
    (tmp_path / "README.md").write_text("edited\n")
    assert code_version(str(tmp_path)) == clean
    (tmp_path / "fewshot_parser/model.py").write_text("changed\n")
    assert code_version(str(tmp_path)) == clean + "-dirty"


def _fake_pretraining(monkeypatch, end_version: str) -> None:
    """ensure_pretrained as a stub that writes the archive the way the real one does, with the version at its end."""
    import fewshot_parser.training.pretrain_finetune as pretrain_finetune

    def ensure(archive, settings):
        target = os.path.dirname(archive)
        os.makedirs(target, exist_ok=True)
        open(archive, "w").close()
        with open(os.path.join(target, "config.json"), "w") as handle:
            json.dump(settings, handle)
        with open(os.path.join(target, "provenance.json"), "w") as handle:
            json.dump({"code_version": end_version, "threads": "1"}, handle)
        return archive

    monkeypatch.setattr(pretrain_finetune, "ensure_pretrained", ensure)


def _pretraining_config(tmp_path) -> str:
    config = tmp_path / "experiment.json"
    config.write_text(json.dumps({"pretrained_archive": str(tmp_path / "pre" / "geo-x" / "model.tar.gz"),
                                  "pretraining": {"trainer": {"num_epochs": 2}}}))
    return str(config)


def _provenance(tmp_path) -> dict:
    return json.loads((tmp_path / "pre" / "geo-x" / "provenance.json").read_text())


def test_a_pretraining_is_credited_to_the_code_that_started_it_not_a_commit_made_meanwhile(tmp_path, monkeypatch):
    from fewshot_parser.commands.grid_tasks import SEGMENTS, pretrain_main

    _fake_pretraining(monkeypatch, end_version="committed-during-the-run")
    pretrain_main(_pretraining_config(tmp_path), started_with="loaded-at-start")
    record = _provenance(tmp_path)
    assert record["code_version"] == "loaded-at-start" and "resumed_with" not in record
    assert record["threads"] == "1"  # the rest of the record is kept
    assert not os.path.exists(str(tmp_path / "pre" / "geo-x") + SEGMENTS)


def test_a_resumed_pretraining_is_credited_to_its_first_code_and_lists_the_rest(tmp_path, monkeypatch):
    from fewshot_parser.commands.grid_tasks import SEGMENTS, pretrain_main

    config = _pretraining_config(tmp_path)
    staging = tmp_path / "pre" / "geo-x.partial"
    staging.mkdir(parents=True)
    (staging / "config.json").write_text(json.dumps({"trainer": {"num_epochs": 2}}))
    (staging / "model_state_e1_b0.th").write_text("")
    (staging / "training_state_e1_b0.th").write_text("")
    (tmp_path / "pre" / ("geo-x" + SEGMENTS)).write_text(json.dumps(["first-session"]))
    _fake_pretraining(monkeypatch, end_version="second-session")
    pretrain_main(config, started_with="second-session")
    record = _provenance(tmp_path)
    assert record["code_version"] == "first-session" and record["resumed_with"] == ["second-session"]


def test_a_pretraining_started_over_forgets_the_code_of_the_abandoned_one(tmp_path, monkeypatch):
    from fewshot_parser.commands.grid_tasks import SEGMENTS, pretrain_main

    config = _pretraining_config(tmp_path)
    staging = tmp_path / "pre" / "geo-x.partial"
    staging.mkdir(parents=True)
    (staging / "config.json").write_text(json.dumps({"trainer": {"num_epochs": 5}}))  # another config: no resume
    (staging / "model_state_e1_b0.th").write_text("")
    (staging / "training_state_e1_b0.th").write_text("")
    (tmp_path / "pre" / ("geo-x" + SEGMENTS)).write_text(json.dumps(["abandoned"]))
    _fake_pretraining(monkeypatch, end_version="now")
    pretrain_main(config, started_with="now")
    assert _provenance(tmp_path) == {"code_version": "now", "threads": "1"}


def test_a_run_carries_the_code_version_its_process_loaded_not_a_later_commit(tmp_path, monkeypatch):
    from fewshot_parser.common import provenance

    loaded = code_version()
    monkeypatch.setattr(provenance, "checkout_version", lambda root=PROJECT_ROOT: "committed-later")
    assert code_version() == loaded  # the project: as this process loaded it
    assert code_version(PROJECT_ROOT + os.sep) == loaded
    assert code_version(str(tmp_path)) == "committed-later"  # another checkout: as it is now


def test_a_rerun_in_one_results_file_supersedes_the_stale_row_another_file_keeps(monkeypatch):
    from fewshot_lab import staleness
    from fewshot_lab.commands.report import current_rows, stale_cells

    head = code_version().split("-")[0]
    monkeypatch.setattr(staleness, "code_unchanged_since", lambda version, **_: version.startswith(head))
    fresh_hash = current_hash("experiments/systems.jsonnet#da/jobs_1shot")
    rerun = row(code_version=head, config_hash=fresh_hash, exact_match="8.0")
    old = row(code_version=head, config_hash="0" * 12, exact_match="10.0")  # another file, read after
    other_shuffle = row(shuffle="2", code_version=head, config_hash="0" * 12)
    kept = current_rows([rerun, old, other_shuffle])
    assert kept == [rerun, other_shuffle]
    # The cell stays marked while one of its runs has only a stale row, and not after it is rerun too.
    assert ("DA", "", "jobs", 1) in stale_cells(kept)
    assert stale_cells(current_rows([rerun, old])) == {}
    # Two stale rows of one run are both kept (the last one counts), as before.
    assert current_rows([old, other_shuffle, dict(old)]) == [old, other_shuffle, old]


def test_a_grid_pretraining_task_loads_the_plugins_of_its_directory(tmp_path):
    """The grid's pre-training process (`python -m fewshot_parser.commands.grid_tasks`) registers the
    plugins named in `.allennlp_plugins`, as `allennlp train` does for the grid's other runs."""
    fixture = _jsonnet.evaluate_file(os.path.join(PROJECT_ROOT, "fixtures", "fewshot", "experiment.jsonnet"),
                                     ext_vars={"PRETRAINED": str(tmp_path / "pre" / "geo-x" / "model.tar.gz")})
    config = json.loads(fixture.replace('"fixtures/', '"' + os.path.join(PROJECT_ROOT, "fixtures") + "/"))
    config["pretraining"]["trainer"]["num_epochs"] = 1
    config["pretraining"]["dataset_reader"]["type"] = "plugin_only_geoquery"
    (tmp_path / "experiment.json").write_text(json.dumps(config))
    (tmp_path / "plugin_only.py").write_text(
        "from allennlp.data import DatasetReader\n"
        "from fewshot_parser.data.dataset_readers.geoquery import GeoQueryReader\n"
        "DatasetReader.register('plugin_only_geoquery')(type('PluginOnlyReader', (GeoQueryReader,), {}))\n"
    )
    (tmp_path / ".allennlp_plugins").write_text("plugin_only\n")
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), PROJECT_ROOT]), "OMP_NUM_THREADS": "1"}
    done = subprocess.run([sys.executable, "-m", "fewshot_parser.commands.grid_tasks", "experiment.json"],
                          cwd=str(tmp_path), env=environment, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    assert (tmp_path / "pre" / "geo-x" / "model.tar.gz").is_file()
