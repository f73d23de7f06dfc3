"""
Digests that a pure refactor of ProtoParser must leave unchanged.

For each configuration below, runs the tiny few-shot experiment of `fixtures/fewshot/` (pre-training
on the geo fixture with meta batches, vocabulary extension, prototype initialisation, fine-tuning on
its support set, evaluation on its query set) with one thread, a fixed seed and the experiments' gradient
clipping, then prints:

* `pre`, `fine`: a digest of the values of the pre-trained and fine-tuned state dicts, in key order
  (the key names are left out, so that a renamed key shows up in `keys` only);
* `keys`: a digest of the fine-tuned state dict's key names;
* `metrics`: a digest of the run's losses and accuracies (`metrics.json`, times left out);
* `out`: a digest of the fine-tuned archive's decoded output on the query set (logical forms,
  actions, scores, n-best lists) and its eval-mode loss.

The configurations: `paper` (the fixture as it is: the paper's model with the regulariser), `faithful`
(the authors' behaviours of experiments/<dataset>_<k>shot.jsonnet), `best` (the components of the best
rows: schema encoding, lexical linking over the scoped lexicon, the slot-type check, entity coverage,
supervised attention, the new-action bias), `beam` (a beam with unified slots and variable scoping) and
`classified` (classified entity slots read out through the decoder, the missing-evidence penalty).

    PYTHONPATH=$PWD OMP_NUM_THREADS=1 python lab/scripts/refactor_check.py [--only paper,best] [--out FILE]

With `--compare FILE` (a file written by `--out`) it exits 1 when any digest differs.
"""
import argparse
import copy
import hashlib
import json
import os
import sys
import tempfile
from typing import Any, Dict

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
os.environ.setdefault("OMP_NUM_THREADS", "1")

import _jsonnet  # noqa: E402
import torch  # noqa: E402

torch.set_num_threads(1)

GEO = "fixtures/data/geo/shuffle_0_shot_1/"
AUTHORS_DECODER = {"type": "authors", "input_dim": 6, "reduce_input": "inputs", "initial_state": "last_cells", "bias": False}

# Per configuration: settings for both models, for the pre-training only, for the fine-tuning only,
# a reader wrapper, and the two trainers' callbacks (None: the fixture's).
CONFIGS: Dict[str, Dict[str, Any]] = {
    "paper": {},
    "faithful": {
        "model": {
            "decoder": AUTHORS_DECODER, "slot_variant": {"type": "authors"}, "loss_reduction": "example",
            "decoder_dim": 8, "restrict_training": False, "rerankers": [{"type": "dead_ends"}],
            "similarity": "parts", "predicate_dropout_unit": "action", "supervised_attention": 1.0,
            "meta_regularization": True, "dropout": 0.3, "dropout_placement": "attentional",
            "label_smoothing": 0.1,
        },
        "entity_values": True,
        "pre_loader": {"type": "fewshot_continuing_template_walk", "batch_size": 4, "meta_templates": 3,
                       "meta_queries_per_template": 2, "supervised_batches": True},
        "pre_callbacks": [{"type": "fewshot_glorot_init"}, {"type": "fewshot_occurrence_statistics"},
                          {"type": "fewshot_random_state"}, {"type": "fewshot_authors_attention_candidates"}],
        "callbacks": [{"type": "fewshot_occurrence_statistics", "extra_data_path": GEO + "train.txt"},
                      {"type": "fewshot_prototype_init_train_mode"}, {"type": "fewshot_random_state"},
                      {"type": "fewshot_authors_attention_candidates"}],
    },
    "best": {
        "model": {
            "action_scorers": [{"type": "schema_encoding"}], "lexical_linking": True, "lexicon": "geo",
            "link_pooling": "both", "supervised_attention": 1.0, "dropout": 0.2, "label_smoothing": 0.1,
        },
        "fine_model": {
            "lexicon_training_data": GEO + "train.txt", "lexicon_support_data": GEO + "support.txt",
            "decoding_scorers": [{"type": "slot_type_check", "weight": 2}],
            "rerankers": [{"type": "entity_coverage", "beam_size": 4, "weight": 5}],
            "new_action_bias": 1.0,
        },
    },
    "beam": {
        "model": {"beam_size": 3, "rerankers": [{"type": "variable_scoping"}], "label_smoothing": 0.1,
                  "similarity_feature": False},
        "reader": {"unify_slots": True},
    },
    "classified": {
        "model": {"slot_variant": {"type": "classified_entities", "readout": "decoder"}, "restrict_training": False,
                  "rerankers": [{"type": "dead_ends"}], "loss_reduction": "example", "lexical_linking": True, "decoder_dim": 8,
                  "link_pooling": "max", "conditional_feature": False},
        "fine_model": {"decoding_scorers": [{"type": "missing_evidence", "min_count": 1, "share": 0.5, "lift": 1.0}],
                       "beam_size": 1},
        "entity_values": True,
        "callbacks": [{"type": "fewshot_alignment_statistics"}, {"type": "fewshot_prototype_init"},
                      {"type": "fewshot_random_state"}, {"type": "fewshot_evidence_statistics", "data_path": GEO + "train.txt"}],
    },
}


def digest(value: Any) -> str:
    return hashlib.sha256(value if isinstance(value, bytes) else json.dumps(value, sort_keys=True).encode()).hexdigest()[:16]


def state_digests(state: Dict[str, torch.Tensor]) -> Dict[str, str]:
    values = hashlib.sha256()
    for key in state:
        tensor = state[key].detach().cpu().contiguous()
        values.update(str(tensor.dtype).encode() + str(tuple(tensor.shape)).encode())
        values.update(tensor.numpy().tobytes() if tensor.numel() else b"")
    return {"values": values.hexdigest()[:16], "keys": digest(list(state))}


def experiment(name: str, pretrained: str) -> dict:
    settings = CONFIGS[name]
    config = json.loads(_jsonnet.evaluate_file(os.path.join(ROOT, "fixtures", "fewshot", "experiment.jsonnet"),
                                               ext_vars={"PRETRAINED": pretrained}))
    for part, own in ((config["pretraining"], settings.get("pre_model", {})), (config, settings.get("fine_model", {}))):
        part["model"].update(copy.deepcopy(settings.get("model", {})))
        part["model"].update(copy.deepcopy(own))
        part["dataset_reader"].update(settings.get("reader", {}))
        if settings.get("entity_values"):
            part["dataset_reader"] = {"type": "fewshot_entity_values", "reader": part["dataset_reader"]}
    if "pre_loader" in settings:
        config["pretraining"]["data_loader"] = settings["pre_loader"]
    if "pre_callbacks" in settings:
        config["pretraining"]["trainer"]["callbacks"] = settings["pre_callbacks"]
    if "callbacks" in settings:
        config["trainer"]["callbacks"] = settings["callbacks"]
    for part in (config, config["pretraining"]):
        # As the experiments' trainers: the clipping sums over the parameters in their order.
        part["trainer"]["grad_norm"] = 5.0
    return config


def run(name: str) -> Dict[str, str]:
    from allennlp.commands.train import train_model_from_file
    from allennlp.data import Batch
    from allennlp.models.archival import load_archive

    import fewshot_parser  # noqa: F401

    with tempfile.TemporaryDirectory() as work:
        pretrained = os.path.join(work, "pretrain", "model.tar.gz")
        path = os.path.join(work, "experiment.json")
        with open(path, "w") as handle:
            json.dump(experiment(name, pretrained), handle)
        train_model_from_file(path, os.path.join(work, "run"))
        with open(os.path.join(work, "run", "metrics.json")) as handle:
            metrics = {k: v for k, v in json.load(handle).items()
                       if any(part in k for part in ("loss", "accuracy", "exact_match"))}
        pre = load_archive(pretrained)
        fine = load_archive(os.path.join(work, "run", "model.tar.gz"))
        pre_state, fine_state = state_digests(pre.model.state_dict()), state_digests(fine.model.state_dict())
        model = fine.model.eval()
        instances = list(fine.dataset_reader.read(GEO + "query.txt"))
        batch = Batch(instances)
        batch.index_instances(model.vocab)
        with torch.no_grad():
            output = model(**batch.as_tensor_dict())
        decoded = {key: output[key] for key in ("logical_form", "predicted_actions", "score", "n_best") if key in output}
        decoded["loss"] = float(output["loss"]) if "loss" in output else None
        return {"pre": pre_state["values"], "fine": fine_state["values"], "keys": fine_state["keys"],
                "metrics": digest(metrics), "out": digest(decoded),
                "_loss": decoded["loss"], "_exact_match": metrics.get("test_exact_match")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default=",".join(CONFIGS), help="comma-separated configurations")
    parser.add_argument("--out", help="write the digests as JSON here")
    parser.add_argument("--compare", help="a file written by --out: exit 1 when a digest differs")
    args = parser.parse_args()
    os.chdir(ROOT)
    import logging

    logging.disable(logging.WARNING)
    results = {}
    for name in args.only.split(","):
        results[name] = run(name)
        print(name, " ".join(f"{k}={v}" for k, v in results[name].items()), flush=True)
    if args.out:
        with open(args.out, "w") as handle:
            json.dump(results, handle, indent=1, sort_keys=True)
    if args.compare:
        with open(args.compare) as handle:
            expected = json.load(handle)
        differ = [f"{name}.{key}" for name in results for key in ("pre", "fine", "metrics", "out")
                  if expected.get(name, {}).get(key) != results[name][key]]
        keys = [name for name in results if expected.get(name, {}).get("keys") != results[name]["keys"]]
        print("identical" if not differ else "DIFFERENT: " + ", ".join(differ))
        if keys:
            print("state-dict key names changed in: " + ", ".join(keys))
        sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
