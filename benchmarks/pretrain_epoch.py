"""
Seconds per pre-training epoch of a few-shot experiment's `pretraining` config on this machine:
supervised batches and predicate-dropout meta batches together, as the real pre-training runs them
(for the faithful ATIS config: 80 epochs with 15 meta-test examples per template).

    python benchmarks/pretrain_epoch.py [--config experiments/atis_1shot.jsonnet] [--epochs 2] [--threads 1]

Prints each epoch's duration and the projected time of the config's full schedule. Reading the data
and building the vocabulary are excluded (reported separately).
"""
import argparse
import json
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", default="experiments/atis_1shot.jsonnet")
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()

    import _jsonnet
    import torch
    from allennlp.commands.train import train_model
    from allennlp.common import Params

    import fewshot_parser  # noqa: F401

    torch.set_num_threads(args.threads)
    ext_vars = {"FEWSHOT_SPLIT": "1", "FEWSHOT_SEED": "13",
                "FEWSHOT_DATA_DIR": os.environ.get("FEWSHOT_DATA_DIR", "data"), "FEWSHOT_PRETRAIN_DIR": "runs/pretrain"}
    config = json.loads(_jsonnet.evaluate_file(args.config, ext_vars=ext_vars))
    pretraining = config.get("pretraining")
    if pretraining is None:
        sys.exit(f"{args.config}: no 'pretraining' section (not a few-shot experiment)")
    scheduled = pretraining["trainer"]["num_epochs"]
    pretraining["trainer"]["num_epochs"] = args.epochs
    loader = pretraining["data_loader"]
    start = time.time()
    with tempfile.TemporaryDirectory() as directory:
        train_model(Params(pretraining), os.path.join(directory, "run"))
        total = time.time() - start
        with open(os.path.join(directory, "run", "metrics.json")) as handle:
            metrics = json.load(handle)
        # `training_duration` of metrics_epoch_<n>.json is cumulative: an epoch's time is the difference.
        elapsed = [0.0]
        for epoch in range(args.epochs):
            with open(os.path.join(directory, "run", f"metrics_epoch_{epoch}.json")) as handle:
                hours, minutes, seconds = json.load(handle)["training_duration"].split(":")
                elapsed.append(3600 * int(hours) + 60 * int(minutes) + float(seconds))
        durations = [b - a for a, b in zip(elapsed, elapsed[1:])]
    print(f"config: {args.config} (pretraining), threads: {args.threads}, meta-test examples per template: "
          f"{loader.get('meta_queries_per_template')}, meta templates: {loader.get('meta_templates')}")
    print("epoch seconds: " + ", ".join(f"{d:.1f}" for d in durations))
    mean = sum(durations) / len(durations)
    print(f"mean {mean:.1f} s per epoch; the schedule's {scheduled} epochs would take {scheduled * mean / 60:.1f} min; "
          f"data reading and set-up took {total - sum(durations):.1f} s; final training loss {metrics.get('training_loss')}")


if __name__ == "__main__":
    main()
