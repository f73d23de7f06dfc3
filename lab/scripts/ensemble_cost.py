"""
What an ensemble (`fewshot_ensemble`, experiments/ensemble/) costs beside its single model, per
split: the seconds of the whole few-shot run (fine-tuning every member, evaluating on the query set,
archiving; the shared pre-trained archive is made first, outside the timing), the archive's size,
and prediction throughput (examples/s of the `proto_parser` predictor over the query utterances, in
batches of 64, on a freshly loaded archive, so the frozen MiniLM's per-utterance cache starts empty).
It also prints both runs' exact match; tune on split 0 only (1-5 are the evaluation splits).

    python lab/scripts/ensemble_cost.py --config lab/systems.jsonnet#contextual-schema-bias/geo_1shot \\
        --size 5 --splits 0

With `--archives` it trains nothing and measures finished archives (a grid run's `model.tar.gz`, an
ensemble of pre-trainings included) on the query file `--query`: size, load seconds, examples/s.

    python lab/scripts/ensemble_cost.py --archives runs/grid/coverage-evidence-types-ens5/jobs_1shot_s1/model.tar.gz \\
        --query jobs/lemma_data/shuffle_1_shot_1/query.txt
"""
import argparse
import json
import os
import sys
import time
from typing import Any, Dict, List

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import _jsonnet  # noqa: E402
import torch  # noqa: E402
from allennlp.commands.train import train_model  # noqa: E402
from allennlp.common import Params, cached_transformers  # noqa: E402
from allennlp.common import logging as common_logging  # noqa: E402
from allennlp.models.archival import load_archive  # noqa: E402
from allennlp.predictors import Predictor  # noqa: E402

import fewshot_parser  # noqa: E402,F401
from fewshot_parser.data.paths import resolve_data_path  # noqa: E402
from fewshot_parser.training.pretrain_finetune import ensure_pretrained  # noqa: E402


def render(config: str, split: int, seed: str, pretrain_dir: str) -> Dict[str, Any]:
    """The experiment config of `split`, as `allennlp train` would evaluate it."""
    ext = {"FEWSHOT_SPLIT": str(split), "FEWSHOT_SEED": seed, "FEWSHOT_PRETRAIN_DIR": pretrain_dir,
           "FEWSHOT_DATA_DIR": os.environ.get("FEWSHOT_DATA_DIR", "data")}
    if "#" in config:  # a row of a systems table (TABLE#ROW/DATASET_Kshot)
        from fewshot_parser.commands.systems import render_config

        return render_config(config, ext)
    return json.loads(_jsonnet.evaluate_file(config, ext_vars=ext))


def as_ensemble(config: Dict[str, Any], size: int, combine: str) -> Dict[str, Any]:
    """`config` with its model replaced by a `fewshot_ensemble` of `size` copies (as `ensemble.size` renders it)."""
    if config["model"]["type"] == "fewshot_ensemble":
        raise SystemExit("give the single-model config; the benchmark makes the ensemble")
    return {**config, "model": {"type": "fewshot_ensemble", "members": [config["model"]] * size, "combine": combine}}


def timed_run(config: Dict[str, Any], directory: str) -> float:
    """Seconds of `allennlp train` of `config` into `directory` (which must not exist)."""
    if os.path.exists(directory):
        raise SystemExit(f"{directory} exists; remove it or give another --out")
    start = time.perf_counter()
    train_model(Params(json.loads(json.dumps(config))), directory)
    return time.perf_counter() - start


def throughput(archive_path: str, utterances: List[str], batch_size: int = 64) -> Dict[str, float]:
    """Load seconds and examples per second of predicting `utterances` with a fresh load of the archive."""
    start = time.perf_counter()
    predictor = Predictor.from_archive(load_archive(archive_path), "proto_parser")
    loaded = time.perf_counter() - start
    start = time.perf_counter()
    for begin in range(0, len(utterances), batch_size):
        predictor.predict_batch_json([{"utterance": u} for u in utterances[begin:begin + batch_size]])
    seconds = time.perf_counter() - start
    return {"load_s": loaded, "examples_per_s": len(utterances) / seconds}


def measure_archives(archives: List[str], query: str, parser: argparse.ArgumentParser) -> None:
    """Size, load time and prediction throughput of finished archives on one query file."""
    if not query:
        parser.error("--archives needs --query")
    with open(resolve_data_path(query)) as handle:
        utterances = [line.split("\t")[0] for line in handle if line.strip()]
    for archive in archives:
        if not os.path.isfile(archive):
            parser.error(f"{archive}: no such archive")
    print(f"\n{query}: {len(utterances)} utterances, batches of 64, torch threads {torch.get_num_threads()}\n")
    print("| archive | members | archive (MB) | load (s) | predict (ex/s) |\n|---|---|---|---|---|")
    for archive in archives:
        figures = throughput(archive, utterances)
        with open(os.path.join(os.path.dirname(archive), "config.json")) as handle:
            model = json.load(handle)["model"]
        members = len(model["members"]) if model.get("type") == "fewshot_ensemble" else 1
        print(f"| {archive} | {members} | {os.path.getsize(archive) / 2**20:.1f} | {figures['load_s']:.1f} "
              f"| {figures['examples_per_s']:.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", default="lab/systems.jsonnet#contextual-schema-bias/geo_1shot",
                        help="a single-model few-shot config (default: %(default)s)")
    parser.add_argument("--size", type=int, default=5, help="ensemble members (default 5)")
    parser.add_argument("--combine", default="vote")
    parser.add_argument("--splits", type=int, nargs="+", default=[0], choices=range(6))
    parser.add_argument("--seed", default=os.environ.get("FEWSHOT_SEED", "13"))
    parser.add_argument("--pretrain-dir", default=os.environ.get("FEWSHOT_PRETRAIN_DIR", "runs/pretrain"))
    parser.add_argument("--out", default="runs/ensemble_cost", help="where the runs go (default: %(default)s)")
    parser.add_argument("--archives", nargs="+", help="only measure these finished archives on --query")
    parser.add_argument("--query", help="query file for --archives (relative to FEWSHOT_DATA_DIR allowed)")
    args = parser.parse_args()
    if args.size < 2:
        parser.error("--size must be at least 2")
    common_logging.prepare_global_logging = lambda *a, **k: None  # keep the printed figures readable
    torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", "1")))
    if args.archives:
        measure_archives(args.archives, args.query, parser)
        return
    name = os.path.basename(args.config).rsplit(".", 1)[0].replace("#", "_").replace("/", "_")
    rows = []
    for split in args.splits:
        single = render(args.config, split, args.seed, args.pretrain_dir)
        # A transformer already in AllenNLP's cache (from an earlier split's runs) is copied instead of
        # built, which draws nothing from torch's generator: a pre-training here would then start from
        # other initial weights than `allennlp train` gives it (lab/scripts/transformer_cache_check.py).
        cached_transformers._clear_caches()
        ensure_pretrained(single["pretrained_archive"], single.get("pretraining"))  # outside the timings
        base = os.path.join(args.out, f"{name}_s{split}")
        figures: Dict[str, Dict[str, float]] = {}
        with open(resolve_data_path(single["test_data_path"])) as handle:
            utterances = [line.split("\t")[0] for line in handle if line.strip()]
        for label, config in (("K=1", single), (f"K={args.size}", as_ensemble(single, args.size, args.combine))):
            directory = f"{base}_k{label[2:]}"
            seconds = timed_run(config, directory)
            with open(os.path.join(directory, "metrics.json")) as handle:
                metrics = json.load(handle)
            archive = os.path.join(directory, "model.tar.gz")
            figures[label] = {"run_s": seconds, "archive_mb": os.path.getsize(archive) / 2**20,
                              **throughput(archive, utterances),
                              "exact_match": 100 * metrics["test_exact_match"],
                              "member_exact_match": 100 * metrics.get("test_member_exact_match", metrics["test_exact_match"]),
                              "any_member_exact_match": 100 * metrics.get("test_any_member_exact_match", metrics["test_exact_match"])}
        rows.append((split, len(utterances), figures))
    large = f"K={args.size}"
    print(f"\n{args.config}, ensemble of {args.size} ({args.combine}), torch threads {torch.get_num_threads()}\n")
    print("| split | query | K | run (s) | extra (s) | archive (MB) | load (s) | predict (ex/s) | exact match | members' mean | any member |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for split, count, figures in rows:
        for label in ("K=1", large):
            f = figures[label]
            extra = f["run_s"] - figures["K=1"]["run_s"]
            print(f"| {split} | {count} | {label[2:]} | {f['run_s']:.1f} | {extra:+.1f} | {f['archive_mb']:.1f} | {f['load_s']:.1f} "
                  f"| {f['examples_per_s']:.1f} | {f['exact_match']:.2f} | {f['member_exact_match']:.2f} | {f['any_member_exact_match']:.2f} |")


if __name__ == "__main__":
    main()
