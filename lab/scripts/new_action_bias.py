"""
Exact match of fine-tuned ProtoParser archives for several values of `new_action_bias`, the decoding
prior added to the scores of the actions new to the pre-trained model. Decoding only: nothing is
retrained, so a sweep over a grid's finished runs costs one evaluation per run and value.

Fine-tuned archives record which actions are new. For one written before they did, the new actions
are taken to be those of its vocabulary that the pre-trained archive's vocabulary lacks.

    # the six columns of one shuffle of a grid system, as a Markdown table with the mean per value
    python lab/scripts/new_action_bias.py --runs runs/tune_schema/contextual-schema --variant contextual-schema \\
        --shuffle 0 --biases 0 0.5 1 1.5 2 2.5 3 --out lab/results/tuning_schema/new_action_bias.md
"""
import argparse
import io
import os
import sys
import tarfile
from typing import Any, Callable, Dict, List, Sequence, Tuple

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import torch  # noqa: E402
from allennlp.common import logging as common_logging  # noqa: E402
from allennlp.data import Vocabulary  # noqa: E402
from allennlp.data.data_loaders import MultiProcessDataLoader  # noqa: E402
from allennlp.models.archival import load_archive  # noqa: E402
from allennlp.training.util import evaluate  # noqa: E402

import fewshot_parser  # noqa: E402,F401
from fewshot_parser.logical_forms.namespaces import ACTION_NAMESPACE  # noqa: E402

COLUMNS = [("jobs", 1), ("geo", 1), ("atis", 1), ("jobs", 2), ("geo", 2), ("atis", 2)]


def new_actions(vocab: Vocabulary, pretrained: Vocabulary) -> List[int]:
    """Indices in `vocab` of the actions that `pretrained` does not have."""
    known = set(pretrained.get_token_to_index_vocabulary(ACTION_NAMESPACE))
    return [i for a, i in vocab.get_token_to_index_vocabulary(ACTION_NAMESPACE).items() if a not in known]


def action_vocabulary(archive: str) -> Vocabulary:
    """The vocabulary of an archive, read without loading its weights."""
    vocab = Vocabulary()
    with tarfile.open(archive) as tar:
        member = tar.extractfile(f"vocabulary/{ACTION_NAMESPACE}.txt")
        if member is None:
            raise SystemExit(f"{archive}: no vocabulary/{ACTION_NAMESPACE}.txt")
        for line in io.TextIOWrapper(member, encoding="utf-8"):
            token = line.rstrip("\n")
            if token:
                vocab.add_token_to_namespace(token, ACTION_NAMESPACE)
    return vocab


def sweep(archive_path: str, pretrained: str, query: str, biases: List[float], batch_size: int = 64) -> Dict[float, float]:
    """Exact match (%) on `query` for each bias."""
    for path in (archive_path, pretrained, query):
        if not os.path.isfile(path):
            raise SystemExit(f"{path}: no such file")
    archive = load_archive(archive_path)
    model = archive.model
    if not hasattr(model, "new_action_bias"):
        raise SystemExit(f"{archive_path}: {type(model).__name__} has no new_action_bias (not a ProtoParser)")
    model.eval()
    if not model.new_action_mask.any():  # written before archives recorded their new actions
        model.new_action_mask[new_actions(model.vocab, action_vocabulary(pretrained))] = True
    loader = MultiProcessDataLoader(archive.validation_dataset_reader, query, batch_size=batch_size)
    loader.index_with(model.vocab)
    print(f"{archive_path}: {int(model.new_action_mask.sum())} new actions", file=sys.stderr)
    scores = {}
    for bias in biases:
        model.new_action_bias = bias
        scores[bias] = 100 * evaluate(model, loader, cuda_device=-1)["exact_match"]
        print(f"  bias {bias:5.2f}  exact match {scores[bias]:6.2f}", file=sys.stderr)
    return scores


def exact_match_per_setting(model, reader, query: str, settings: Sequence[Any], apply: Callable[[Any], None],
                            label: str, batch_size: int = 64) -> Dict[Any, float]:
    """Exact match (%) of `model` on `query` after `apply(setting)`, for each setting (progress on stderr)."""
    loader = MultiProcessDataLoader(reader, query, batch_size=batch_size)
    loader.index_with(model.vocab)
    scores = {}
    for setting in settings:
        apply(setting)
        scores[setting] = 100 * evaluate(model, loader, cuda_device=-1)["exact_match"]
        print(f"{label} {setting:g}: {scores[setting]:.2f}", file=sys.stderr, flush=True)
    return scores


def add_column_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments every decoding sweep over a grid's finished runs shares."""
    parser.add_argument("--columns", nargs="+", default=[f"{d}_{k}" for d, k in COLUMNS],
                        help="dataset_shot pairs to sweep (default: all six)")
    parser.add_argument("--data-dir", default="data")
    parser.add_argument("--out", help="write the Markdown table here as well as to stdout")


def parsed_columns(columns: List[str]) -> List[Tuple[str, int]]:
    """`["jobs_1", ...]` as `[("jobs", 1), ...]`."""
    return [(d, int(k)) for d, k in (c.rsplit("_", 1) for c in columns)]


def sweep_columns(args: argparse.Namespace, sweep_one: Callable[[str, str], Tuple[Dict[Any, float], str]]):
    """
    Runs `sweep_one(archive, split folder)` on the shuffle-`args.shuffle` run of every column of
    `args.columns` in `args.runs` (threads from OMP_NUM_THREADS, default 1). Returns the columns and,
    per column, the exact match per setting and the description `sweep_one` gave.
    """
    torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", "1")))
    common_logging.FILE_FRIENDLY_LOGGING = True
    columns = parsed_columns(args.columns)
    results, notes = {}, {}
    for dataset, shot in columns:
        split = os.path.join(args.data_dir, dataset, "lemma_data", f"shuffle_{args.shuffle}_shot_{shot}")
        archive = os.path.join(args.runs, f"{dataset}_{shot}shot_s{args.shuffle}", "model.tar.gz")
        results[dataset, shot], notes[dataset, shot] = sweep_one(archive, split)
    return columns, results, notes


def sweep_rows(header: str, settings: Sequence[Any], results: Dict[Tuple[str, int], Dict[Any, float]],
               columns: Sequence[Tuple[str, int]], label: Callable[[Any], str] = lambda s: f"{s:g}") -> List[str]:
    """Markdown rows: one per setting, the exact match of each column and their mean."""
    lines = ["| " + header + " | " + " | ".join(f"{d} {s}-shot" for d, s in columns) + " | mean |",
             "|---" * (len(columns) + header.count("|") + 2) + "|"]
    for setting in settings:
        cells = [results[column][setting] for column in columns]
        lines.append(f"| {label(setting)} | " + " | ".join(f"{c:.2f}" for c in cells) + f" | {sum(cells) / len(cells):.2f} |")
    return lines


def emit_sweep(title: str, explanation: str, header: str, settings: Sequence[Any],
               results: Dict[Tuple[str, int], Dict[Any, float]], columns: Sequence[Tuple[str, int]],
               notes: Dict[Tuple[str, int], str], out: str = None, notes_heading: str = "") -> None:
    """A decoding sweep's Markdown: title, the command that made it, the table, a note per column."""
    command = f"python lab/scripts/{os.path.basename(sys.argv[0])} " + " ".join(sys.argv[1:])
    lines = [f"# {title}", "", f"Generated by `{command}`. {explanation}", ""]
    lines += sweep_rows(header, settings, results, columns) + [""]
    lines += [notes_heading, ""] if notes_heading else []
    lines += [f"- {dataset} {shot}-shot: {notes[dataset, shot]}" for dataset, shot in columns]
    emit("\n".join(lines) + "\n", out)


def emit(text: str, out: str = None) -> None:
    """Prints a generated Markdown table and, with `out`, writes it there too."""
    print(text)
    if out:
        with open(out, "w", encoding="utf-8") as handle:
            handle.write(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", required=True, help="a grid system's directory of runs (runs/<dir>/<system>)")
    parser.add_argument("--variant", required=True, help="the pre-trained archives' variant name (runs/pretrain/<dataset>-<variant>)")
    parser.add_argument("--shuffle", type=int, required=True,
                        help="the split whose runs to read; choose settings on the development suite (run-grid --suite dev), not on shuffle 0")
    parser.add_argument("--biases", nargs="+", type=float, default=[0.0, 0.5, 1.0, 1.5, 2.0])
    parser.add_argument("--pretrain-dir", default="runs/pretrain")
    parser.add_argument("--data-dir", default="data")
    parser.add_argument("--out", help="write the Markdown table here as well as to stdout")
    args = parser.parse_args()
    torch.set_num_threads(1)
    common_logging.FILE_FRIENDLY_LOGGING = True
    results = {}
    for dataset, shot in COLUMNS:
        results[dataset, shot] = sweep(
            os.path.join(args.runs, f"{dataset}_{shot}shot_s{args.shuffle}", "model.tar.gz"),
            os.path.join(args.pretrain_dir, f"{dataset}-{args.variant}", "model.tar.gz"),
            os.path.join(args.data_dir, dataset, "lemma_data", f"shuffle_{args.shuffle}_shot_{shot}", "query.txt"),
            args.biases,
        )
    command = "python lab/scripts/new_action_bias.py " + " ".join(sys.argv[1:])
    lines = [
        f"# new_action_bias on shuffle {args.shuffle}: exact match (%) of `{args.runs}` decoded with each bias",
        "",
        f"Generated by `{command}`. Decoding only: the fine-tuned archives are the grid's.",
        "",
    ] + sweep_rows("bias", args.biases, results, COLUMNS)
    emit("\n".join(lines) + "\n", args.out)


if __name__ == "__main__":
    main()
