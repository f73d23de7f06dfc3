"""
Teaching predicate after predicate, as `allennlp serve` does, beside teaching them all at once: on a
development-suite draw, the draw's new predicates are taught one at a time through a parser state
(`allennlp teach --state`, the server's code path: each version re-teaches the pre-trained archive
with every example so far), and after each step the version is evaluated on the queries of every
predicate taught so far and on `known.txt`; then the whole support set is taught at once
(`allennlp teach`) and evaluated the same way.

    python benchmarks/sequential_teaching.py --archive runs/pretrain/dev/draw_1/jobs-ours/model.tar.gz \\
        --split data/dev/draw_1/jobs/lemma_data/shuffle_0_shot_1 [--threads 1] [--out results/dev/sequential]

Exact match is the model's metric (`allennlp evaluate`'s), on the query lines that use each taught
predicate and on the held-out known-predicate examples. Writes `<out>/<dataset>_draw<d>_<k>shot.md`.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Dict, List, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def lines_of(path: str) -> List[Tuple[str, str]]:
    with open(path, encoding="utf-8") as handle:
        return [tuple(line.rstrip("\n").split("\t", 1)) for line in handle if line.strip()]  # type: ignore[misc]


def uses(logical_form: str, predicate: str) -> bool:
    return predicate in logical_form.replace("(", " ").replace(")", " ").replace(",", " ").split()


def exact_match(archive: str, examples: List[Tuple[str, str]], work: str) -> float:
    """The archive's exact match (%) on `examples`, as `allennlp evaluate` computes it."""
    from allennlp.data.data_loaders import MultiProcessDataLoader
    from allennlp.models.archival import load_archive
    from allennlp.training.util import evaluate

    if not examples:
        return float("nan")
    path = os.path.join(work, "eval.txt")
    with open(path, "w", encoding="utf-8") as handle:
        handle.writelines(f"{u}\t{lf}\n" for u, lf in examples)
    loaded = load_archive(archive)
    loader = MultiProcessDataLoader(loaded.validation_dataset_reader, path, batch_size=32)
    loader.index_with(loaded.model.vocab)
    metrics = evaluate(loaded.model, loader, cuda_device=-1, batch_weight_key=None)
    return 100.0 * metrics["exact_match"]


def scores(archive: str, taught: List[str], query: List[Tuple[str, str]], known: List[Tuple[str, str]],
           work: str) -> Dict[str, float]:
    result = {predicate: exact_match(archive, [q for q in query if uses(q[1], predicate)], work)
              for predicate in taught}
    result["known.txt"] = exact_match(archive, known, work)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--archive", required=True, help="the draw's pre-trained archive")
    parser.add_argument("--split", required=True, help="the draw's split folder (support, query, known, split.json)")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--row", default="", help="which grid row the archive is, for the title (e.g. \"faithful row (`ours`)\")")
    parser.add_argument("--name", default="", help="suffix of the output file name (e.g. faithful, best)")
    parser.add_argument("--orders", type=int, default=2, help="shuffled orders of support.txt taught at once")
    parser.add_argument("--out", default=os.path.join(ROOT, "results", "dev", "sequential"))
    args = parser.parse_args()
    os.environ.setdefault("FEWSHOT_THREADS", str(args.threads))

    import torch

    import fewshot_parser  # noqa: F401
    from fewshot_parser.commands.teach import teach
    from fewshot_parser.serving.state_teaching import teach_state
    from fewshot_parser.serving.store import Store

    torch.set_num_threads(args.threads)
    split = json.load(open(os.path.join(args.split, "split.json")))
    support = lines_of(os.path.join(args.split, "support.txt"))
    query = lines_of(os.path.join(args.split, "query.txt"))
    known = lines_of(os.path.join(args.split, "known.txt"))
    order = list(split["new_predicates"])

    def new_of(example: Tuple[str, str]) -> set:
        return {p for p in order if uses(example[1], p)}

    work = tempfile.mkdtemp(prefix="sequential_")
    state = os.path.join(work, "state")
    rows = []
    taught: List[str] = []
    quiet = lambda line: None  # noqa: E731
    for step, predicate in enumerate(order, 1):
        taught.append(predicate)
        # The support lines whose new predicates are all taught by now, and were not all taught before.
        examples = [s for s in support if new_of(s) <= set(taught) and not new_of(s) <= set(taught[:-1])]
        path = os.path.join(work, f"step{step}.txt")
        with open(path, "w", encoding="utf-8") as handle:
            handle.writelines(f"{u}\t{lf}\n" for u, lf in examples)
        started = time.time()
        if examples:
            teach_state(args.archive, path, state, teach, threads=args.threads, report=quiet)
        seconds = time.time() - started
        archive = Store(state).archive_of(Store(state).active_version()) if os.path.isdir(state) else args.archive
        rows.append((f"step {step}: + {predicate} ({len(examples)} example(s), {seconds:.1f} s)",
                     scores(archive, list(taught), query, known, work)))
        print(rows[-1], flush=True)
    # All at once, three ways: through a fresh state in one job (the server's path: its support file is
    # written in one canonical order, so this is the last step's teaching whatever the order taught), and
    # with `allennlp teach` on support.txt as it is (the experiment's fine-tuning) and shuffled, which
    # shows how much the order of the examples alone moves a 1- or 2-shot fine-tuning.
    import random

    started = time.time()
    teach_state(args.archive, os.path.join(args.split, "support.txt"), os.path.join(work, "at_once"), teach,
                threads=args.threads, report=quiet)
    seconds = time.time() - started
    rows.append((f"all at once, served (one job; {len(support)} example(s), {seconds:.1f} s)",
                 scores(Store(os.path.join(work, "at_once")).archive_of(1), order, query, known, work)))
    print(rows[-1], flush=True)
    orders = [("support.txt's order", support)]
    for seed in range(1, args.orders + 1):
        shuffled = list(support)
        random.Random(seed).shuffle(shuffled)
        orders.append((f"shuffled (seed {seed})", shuffled))
    for label, examples in orders:
        path = os.path.join(work, f"order_{len(rows)}.txt")
        with open(path, "w", encoding="utf-8") as handle:
            handle.writelines(f"{u}\t{lf}\n" for u, lf in examples)
        started = time.time()
        target = os.path.join(work, f"teach_{len(rows)}")
        teach(args.archive, path, target, threads=args.threads, report=quiet)
        seconds = time.time() - started
        rows.append((f"all at once, `allennlp teach`, {label} ({len(examples)} example(s), {seconds:.1f} s)",
                     scores(os.path.join(target, "model.tar.gz"), order, query, known, work)))
        print(rows[-1], flush=True)
    pretrained = exact_match(args.archive, known, work)

    name = f"{split['dataset']}_draw{split['draw']}_{split['shot']}shot" + (f"_{args.name}" if args.name else "")
    os.makedirs(args.out, exist_ok=True)
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    columns = order + ["known.txt"]
    with open(os.path.join(args.out, f"{name}.md"), "w") as handle:
        title = f"{split['dataset']} draw {split['draw']}, {split['shot']}-shot" + (f", {args.row}" if args.row else "")
        handle.write(f"# Sequential teaching: {title}\n\n")
        handle.write(f"Generated by `python benchmarks/sequential_teaching.py --archive {args.archive} --split "
                     f"{args.split} --threads {args.threads}" + (f" --row '{args.row}'" if args.row else "") + f"` at {commit}. Exact match (%) on the query lines that "
                     f"use each predicate ({', '.join(f'{p}: {sum(uses(q[1], p) for q in query)}' for p in order)} "
                     f"lines) and on known.txt ({len(known)} lines; the pre-trained archive: {pretrained:.2f}). "
                     "Each step is a version of `allennlp teach --state` (the server's path), which re-teaches the "
                     "pre-trained archive with every example so far, written in one canonical order; a blank cell: not "
                     "taught yet. \"All at once, served\" teaches the whole support set in one job of a fresh state "
                     "(the same teaching as the last step, by construction); the `allennlp teach` rows fine-tune on "
                     "the same examples in the order given, which shows how much the order alone moves the "
                     "numbers.\n\n")
        handle.write("| teaching | " + " | ".join(columns) + " |\n|---|" + "---|" * len(columns) + "\n")
        for label, values in rows:
            cells = [f"{values[c]:.2f}" if c in values else "" for c in columns]
            handle.write(f"| {label} | " + " | ".join(cells) + " |\n")
    shutil.rmtree(work, ignore_errors=True)
    print(f"wrote {os.path.join(args.out, name + '.md')}")


if __name__ == "__main__":
    main()
