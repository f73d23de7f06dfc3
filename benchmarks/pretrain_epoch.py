"""
Seconds per pre-training epoch of a few-shot experiment's `pretraining` config on this machine:
supervised batches and predicate-dropout meta batches together, as the real pre-training runs them
(for the faithful ATIS config: 80 epochs with 15 meta-test examples per template).

    python benchmarks/pretrain_epoch.py [--config experiments/atis_1shot.jsonnet] [--epochs 2] [--threads 1]
    python benchmarks/pretrain_epoch.py --from-run runs/pretrain/atis-ours   # a finished (or .partial) pre-training
    python benchmarks/pretrain_epoch.py --examples    # examples an epoch decodes: supervised and meta batches
    python benchmarks/pretrain_epoch.py --flops 8     # arithmetic of an epoch and the time it needs at best

Prints each epoch's duration and the projected time of the config's full schedule. Reading the data
and building the vocabulary are excluded (reported separately). `--from-run` reads the epoch times of
a pre-training directory instead of training (its `metrics_epoch_<n>.json`), e.g. one that ran beside
other jobs in a grid.

`--flops N` counts the floating-point operations of N supervised and N meta batches (forward and
backward, `torch.utils.flop_counter`), times them, scales both to a whole epoch, and divides the
epoch's operations by the best rate this machine's matrix multiplications reach on `--threads`
threads at the model's shapes: a lower bound on the epoch time that no rewrite of the Python around
the model can beat, beside the time the model takes today.
"""
import argparse
import json
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def render_variables() -> dict:
    """The Jsonnet external variables a config is rendered with here (split 1, seed 13)."""
    return {"FEWSHOT_SPLIT": "1", "FEWSHOT_SEED": "13",
            "FEWSHOT_DATA_DIR": os.environ.get("FEWSHOT_DATA_DIR", "data"), "FEWSHOT_PRETRAIN_DIR": "runs/pretrain"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", default="experiments/atis_1shot.jsonnet")
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--from-run", default=None, help="a pre-training directory to read epoch times from")
    parser.add_argument("--examples", action="store_true",
                        help="count the examples one epoch decodes in supervised and in meta batches (no training)")
    parser.add_argument("--flops", type=int, default=0, metavar="N",
                        help="count and time the arithmetic of N supervised and N meta batches; print the epoch's "
                             "operations and the time they need at this machine's matrix-multiply rate")
    args = parser.parse_args()
    if args.examples:
        count_examples(args.config)
        return
    if args.flops:
        count_flops(args.config, args.flops, args.threads)
        return
    if args.from_run is not None:
        durations = epoch_seconds(args.from_run)
        if not durations:
            sys.exit(f"{args.from_run}: no metrics_epoch_<n>.json")
        with open(os.path.join(args.from_run, "config.json")) as handle:
            loader = json.load(handle)["data_loader"]
        mean = sum(durations) / len(durations)
        print(f"run: {args.from_run}, meta-test examples per template: {loader.get('meta_queries_per_template')}, "
              f"meta templates: {loader.get('meta_templates')}; {len(durations)} epochs")
        print(f"epoch seconds: min {min(durations):.1f}, median {sorted(durations)[len(durations) // 2]:.1f}, "
              f"max {max(durations):.1f}, mean {mean:.1f}; total {sum(durations) / 60:.1f} min")
        return

    import _jsonnet
    import torch
    from allennlp.commands.train import train_model
    from allennlp.common import Params

    import fewshot_parser  # noqa: F401

    torch.set_num_threads(args.threads)
    ext_vars = render_variables()
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
        durations = epoch_seconds(os.path.join(directory, "run"))
    print(f"config: {args.config} (pretraining), threads: {args.threads}, meta-test examples per template: "
          f"{loader.get('meta_queries_per_template')}, meta templates: {loader.get('meta_templates')}")
    print("epoch seconds: " + ", ".join(f"{d:.1f}" for d in durations))
    mean = sum(durations) / len(durations)
    print(f"mean {mean:.1f} s per epoch; the schedule's {scheduled} epochs would take {scheduled * mean / 60:.1f} min; "
          f"data reading and set-up took {total - sum(durations):.1f} s; final training loss {metrics.get('training_loss')}")


def count_examples(config_path: str) -> None:
    """Prints how many examples an epoch of the config's pre-training runs through the model: the
    supervised pass over train.txt, and the meta batches (one after every supervised batch), each of
    `meta_templates` templates with one meta-support and up to `meta_queries_per_template` meta-test
    examples, in expectation over the templates sampled."""
    import math

    import _jsonnet
    from allennlp.common import Params
    from allennlp.data import DatasetReader

    import fewshot_parser  # noqa: F401

    ext_vars = render_variables()
    pretraining = json.loads(_jsonnet.evaluate_file(config_path, ext_vars=ext_vars))["pretraining"]
    loader = pretraining["data_loader"]
    reader = DatasetReader.from_params(Params(pretraining["dataset_reader"]))
    sizes: dict = {}
    total = 0
    for instance in reader.read(pretraining["train_data_path"]):
        template = instance["metadata"].metadata["template"]
        sizes[template] = sizes.get(template, 0) + 1
        total += 1
    eligible = [n for n in sizes.values() if n >= 2]  # as the episode loader: templates with two examples
    batches = math.ceil(total / loader["batch_size"])
    chosen = min(loader["meta_templates"], len(eligible))
    per_template = sum(1 + min(loader["meta_queries_per_template"], n - 1) for n in eligible) / len(eligible)
    meta = batches * chosen * per_template
    print(f"config: {config_path} (pretraining): {total} training examples, {len(sizes)} templates, "
          f"{len(eligible)} with two or more examples")
    print(f"per epoch: {batches} supervised batches of {loader['batch_size']} ({total} examples) and {batches} meta "
          f"batches of {chosen} templates x {per_template:.1f} examples (about {meta:,.0f} examples): "
          f"{(total + meta) / total:.1f}x the supervised pass")


def count_flops(config_path: str, batches: int, threads: int) -> None:
    """
    Operations and seconds of `batches` supervised and `batches` meta batches of the config's
    pre-training (forward and backward, as the trainer runs them, after its start-of-training
    callbacks), scaled to the epoch's number of each; then the epoch's operations over this machine's
    best matrix-multiply rate.
    """
    import _jsonnet
    import torch
    from allennlp.commands.train import TrainModel
    from allennlp.common import Params
    from allennlp.common.util import prepare_environment
    from torch.utils.flop_counter import FlopCounterMode

    import fewshot_parser  # noqa: F401

    torch.set_num_threads(threads)
    ext_vars = render_variables()
    pretraining = json.loads(_jsonnet.evaluate_file(config_path, ext_vars=ext_vars))["pretraining"]
    with tempfile.TemporaryDirectory() as directory:
        params = Params(pretraining)
        prepare_environment(params)  # takes the seeds, as `allennlp train` does
        pipeline = TrainModel.from_params(params=params, serialization_dir=directory, local_rank=0)
        trainer, model = pipeline.trainer, pipeline.model
        for callback in trainer._callbacks:  # alignment statistics (the regularizer's priors), Glorot init
            callback.on_start(trainer, is_primary=True)
        model.train()
        loader = trainer.data_loader
        per_epoch = len(loader)  # supervised and meta batches together
        counted = {"supervised": [0, 0.0, 0], "meta": [0, 0.0, 0]}  # operations, seconds, batches
        for batch in loader:
            kind = "meta" if "meta_support" in batch else "supervised"
            if counted[kind][2] >= batches:
                if all(c[2] >= batches for c in counted.values()):
                    break
                continue
            with FlopCounterMode(display=False) as counter:
                model(**batch)["loss"].backward()
            start = time.perf_counter()
            model.zero_grad()
            model(**batch)["loss"].backward()
            counted[kind][1] += time.perf_counter() - start
            counted[kind][0] += counter.get_total_flops()
            counted[kind][2] += 1
    supervised = per_epoch // 2 if getattr(loader, "supervised_batches", False) else 0
    meta = per_epoch - supervised
    epoch_flops = epoch_seconds_now = 0.0
    print(f"config: {config_path} (pretraining), threads: {threads}; an epoch has {supervised} supervised and "
          f"{meta} meta batches")
    for kind, count in (("supervised", supervised), ("meta", meta)):
        flops, seconds, seen = counted[kind]
        if not seen:
            continue
        epoch_flops += count * flops / seen
        epoch_seconds_now += count * seconds / seen
        print(f"{kind} batch: {flops / seen / 1e9:.2f} GFLOP, {seconds / seen:.3f} s "
              f"({flops / seconds / 1e9:.1f} GFLOP/s), mean of {seen}")
    rate = matmul_rate(threads)
    print(f"epoch: {epoch_flops / 1e12:.2f} TFLOP; forward and backward take {epoch_seconds_now:.1f} s today "
          f"({epoch_flops / epoch_seconds_now / 1e9:.1f} GFLOP/s); this machine multiplies matrices at up to "
          f"{rate / 1e9:.1f} GFLOP/s on {threads} thread(s), so an epoch needs at least {epoch_flops / rate:.1f} s")


def matmul_rate(threads: int) -> float:
    """The best FLOP/s of float32 matrix products at the model's shapes (batch rows x 256-1024 columns)."""
    import torch

    torch.set_num_threads(threads)
    best = 0.0
    for rows, inner, cols in ((64, 512, 1024), (512, 512, 1024), (2048, 1024, 1024), (512, 256, 256)):
        a, b = torch.randn(rows, inner), torch.randn(inner, cols)
        for _ in range(3):
            a @ b
        repeats = max(3, int(2e9 / (2 * rows * inner * cols)))
        start = time.perf_counter()
        for _ in range(repeats):
            a @ b
        best = max(best, 2 * rows * inner * cols * repeats / (time.perf_counter() - start))
    return best


def epoch_seconds(run: str) -> list:
    """Seconds of each completed epoch of a training directory, from its metrics_epoch_<n>.json."""
    # `training_duration` is cumulative over the run: an epoch's time is the difference.
    elapsed = [0.0]
    epoch = 0
    while os.path.isfile(os.path.join(run, f"metrics_epoch_{epoch}.json")):
        with open(os.path.join(run, f"metrics_epoch_{epoch}.json")) as handle:
            hours, minutes, seconds = json.load(handle)["training_duration"].split(":")
        elapsed.append(3600 * int(hours) + 60 * int(minutes) + float(seconds))
        epoch += 1
    # A resumed run starts counting again: its first epoch's value is that epoch's time alone.
    return [b - a if b >= a else b for a, b in zip(elapsed, elapsed[1:])]


if __name__ == "__main__":
    main()
