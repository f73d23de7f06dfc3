"""
A fast stand-in for the trainer of `allennlp run-grid`'s Ray tasks (`grid_tasks.Trainer`), for tests.
It runs inside Ray workers, so it imports only the standard library and takes its settings from the
run's environment: FEWSHOT_FAKE_MARKS (a file it appends "pretrain|run SHUFFLE PID NODE_ID" to when
it starts), FEWSHOT_FAKE_SECONDS (how long it "trains"), FEWSHOT_FAKE_EM (the exact match it reports),
FEWSHOT_FAKE_FAIL (a shuffle whose run fails), FEWSHOT_FAKE_EPOCHS (the pre-training writes that many
epochs of AllenNLP's metrics into its staging directory, FEWSHOT_FAKE_SECONDS apart, as a real one does).
"""
import json
import os
import time


def fake_train(spec, directory, project, log) -> int:
    environment = spec.environment
    marks = environment.get("FEWSHOT_FAKE_MARKS")
    if marks:
        import ray  # only inside a Ray worker: which node runs this step

        node = ray.get_runtime_context().get_node_id() if ray.is_initialized() else "-"
        with open(marks, "a") as handle:
            handle.write(f"{'pretrain' if directory is None else 'run'} {spec.shuffle} {os.getpid()} {node}\n")
    if directory is None and environment.get("FEWSHOT_FAKE_EPOCHS"):
        fake_epochs(spec, project, int(environment["FEWSHOT_FAKE_EPOCHS"]), float(environment.get("FEWSHOT_FAKE_SECONDS", "0")))
    else:
        time.sleep(float(environment.get("FEWSHOT_FAKE_SECONDS", "0")))
    if directory is None:  # the pre-training step: writes the archive the config names
        archive = spec.archive if os.path.isabs(spec.archive) else os.path.join(project, spec.archive)
        os.makedirs(os.path.dirname(archive), exist_ok=True)
        with open(archive, "wb") as handle:
            handle.write(b"a fake pre-trained archive")
        with open(os.path.join(os.path.dirname(archive), "config.json"), "w") as handle:
            json.dump({"fake": True, **({"trainer": {"num_epochs": int(environment["FEWSHOT_FAKE_EPOCHS"])}}
                                        if environment.get("FEWSHOT_FAKE_EPOCHS") else {})}, handle)
        return 0
    if environment.get("FEWSHOT_FAKE_FAIL") == str(spec.shuffle):
        log.write("the fake training failed\n")
        return 1
    os.makedirs(directory)
    with open(os.path.join(directory, "metrics.json"), "w") as handle:
        json.dump({"test_exact_match": float(environment.get("FEWSHOT_FAKE_EM", "0.5"))}, handle)
    with open(os.path.join(directory, "best.th"), "w") as handle:  # a checkpoint: stays on the node
        handle.write("weights")
    log.write(f"trained {spec.name}\n")
    return 0


def fake_evaluate(spec, archive, data, output, project, log) -> int:
    """A stand-in for the retention evaluator: 90% with the pre-trained archive, 70% after fine-tuning;
    it records which data root the run had."""
    finetuned = os.path.basename(archive) == "model.tar.gz" and os.path.basename(os.path.dirname(archive)) == "run"
    with open(output, "w") as handle:
        json.dump({"exact_match": 0.7 if finetuned else 0.9, "data": data,
                   "data_root": spec.environment.get("FEWSHOT_DATA_DIR")}, handle)
    return 0


def fake_epochs(spec, project, epochs: int, seconds: float) -> None:
    """A pre-training's staging directory as `ensure_pretrained` and AllenNLP leave it, epoch by epoch, renamed
    into place at the end."""
    archive = spec.archive if os.path.isabs(spec.archive) else os.path.join(project, spec.archive)
    target = os.path.dirname(archive)
    staging = target + ".partial"
    os.makedirs(staging, exist_ok=True)
    with open(os.path.join(staging, "config.json"), "w") as handle:
        json.dump({"trainer": {"num_epochs": epochs}}, handle)
    with open(os.path.join(staging, "out.log"), "w") as handle:
        handle.write("training\n")
    for epoch in range(epochs):
        time.sleep(seconds)
        with open(os.path.join(staging, f"metrics_epoch_{epoch}.json"), "w") as handle:
            json.dump({"epoch": epoch, "training_loss": 2.0 / (epoch + 1),
                       "training_duration": f"0:00:{seconds * (epoch + 1):09.6f}"}, handle)
    if os.path.isdir(target):
        import shutil

        shutil.rmtree(target)
    os.replace(staging, target)
