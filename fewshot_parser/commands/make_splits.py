"""
`allennlp make-splits`: few-shot splits of any dataset in the benchmark's layout
(`fewshot_parser.data.splits`), so that a user can estimate, before deploying, how well a parser
learns new predicates of their own domain; `--suite dev` makes the project's development suite
from the official training sets alone (`fewshot_parser.data.dev_suite`).

    allennlp make-splits --train my_train.txt --dataset geo --predicates density:i --out my_splits
    allennlp make-splits --train data/geo/lemma_data/shuffle_0_shot_1/train.txt --dataset geo --new 3 \\
        --draws 1 2 3 --out splits
    allennlp make-splits --suite dev
"""

import argparse
import os
from typing import Dict, List

from allennlp.commands.subcommand import Subcommand

from fewshot_parser.commands.arguments import int_in, one_of, positive_int
from fewshot_parser.common.errors import UserError
from fewshot_parser.data import dev_suite
from fewshot_parser.data.splits import make_splits


@Subcommand.register("make-splits")
class MakeSplits(Subcommand):
    """Make few-shot splits (new predicates, support, query, known) of a training file."""

    def add_subparser(self, parser: argparse._SubParsersAction) -> argparse.ArgumentParser:
        description = (
            "Make few-shot splits of a training file in the benchmark layout: new predicates (named, or "
            "seeded draws), their examples moved to an evaluation pool, k support examples per new "
            "predicate, the rest as queries, and a held-out known.txt to measure retention."
        )
        sub = parser.add_parser(self.name, description=description, help=description)
        sub.add_argument("--train", help="the source file (utterance<TAB>logical form per line)")
        sub.add_argument(
            "--dataset",
            type=one_of(["jobs", "geo", "atis"], "dataset"),
            help="which benchmark's formalism and experiment configs the data follows "
            "(jobs: Prolog; geo, atis: lambda calculus); also the folder name",
        )
        sub.add_argument("--out", help="root of the splits: <out>/draw_<d>/<dataset>/lemma_data/shuffle_<s>_shot_<k>/")
        sub.add_argument(
            "--predicates",
            nargs="+",
            default=None,
            help="make these predicates new (default: a seeded draw of --new per --draws seed)",
        )
        sub.add_argument("--new", type=positive_int, default=3, help="new predicates per draw (default 3)")
        sub.add_argument(
            "--min-examples",
            type=positive_int,
            default=8,
            help="a drawn predicate is used by at least this many examples (default 8)",
        )
        sub.add_argument(
            "--max-share", type=float, default=0.15, help="and by at most this share of the file (default 0.15)"
        )
        sub.add_argument(
            "--min-share",
            type=float,
            default=0.0,
            help="and by more than this share of the file (default 0: any; a stratum of frequent predicates)",
        )
        sub.add_argument("--draws", nargs="+", type=int, default=[1], help="seeds of the draws (default 1)")
        sub.add_argument("--shots", nargs="+", type=int_in([1, 2, 3, 4, 5], "shot"), default=[1, 2])
        sub.add_argument(
            "--shuffles",
            nargs="+",
            type=int,
            default=[0],
            help="support draws per predicate draw, as the official shuffles (default 0)",
        )
        sub.add_argument(
            "--known", type=int, default=50, help="examples of known predicates held out as known.txt (default 50)"
        )
        sub.add_argument(
            "--suite",
            choices=list(dev_suite.SUITES),
            default=None,
            help="make a development suite from the official train.txt files ($FEWSHOT_DATA_DIR): dev, or "
            "dev-frequent (frequent predicates made new)",
        )
        sub.add_argument("--force", action="store_true", help="overwrite split folders that hold other contents")
        sub.set_defaults(func=make_splits_from_args)
        return sub


def make_splits_from_args(args: argparse.Namespace) -> None:
    if args.suite:
        out = args.out or os.path.join(os.environ.get("FEWSHOT_DATA_DIR", "data"), args.suite)
        datasets = [args.dataset] if args.dataset else list(dev_suite.suite_recipe(args.suite))
        summaries = dev_suite.build_dev_suite(os.environ.get("FEWSHOT_DATA_DIR", "data"), out, datasets, args.suite)
    else:
        missing = [
            flag
            for flag, value in (("--train", args.train), ("--dataset", args.dataset), ("--out", args.out))
            if not value
        ]
        if missing:
            raise UserError(f"make-splits needs {', '.join(missing)} (or --suite dev)")
        if not 0 < args.max_share <= 1:
            raise UserError(f"--max-share must be in (0, 1], not {args.max_share}")
        if not 0 <= args.min_share < args.max_share:
            raise UserError(f"--min-share must be in [0, --max-share), not {args.min_share}")
        if args.known < 0:
            raise UserError(f"--known must be at least 0, not {args.known}")
        summaries = [
            {"dataset": args.dataset, **s}
            for s in make_splits(
                args.train,
                args.dataset,
                args.out,
                args.draws,
                args.shots,
                args.shuffles,
                args.predicates,
                args.new,
                args.min_examples,
                args.max_share,
                args.known,
                args.force,
                args.min_share,
            )
        ]
        out = args.out
    print(summary_text(summaries, out))


def summary_text(summaries: List[Dict], out: str) -> str:
    """One block per draw: new predicates, sizes of train / known / pool, and of each split."""
    lines = [f"splits under {out}/draw_<d>/ (each a data root: FEWSHOT_DATA_DIR=<it> FEWSHOT_SPLIT=<shuffle>)"]
    for summary in summaries:
        lines.append(
            f"{summary['dataset']} draw {summary['draw']}: new {', '.join(summary['new_predicates'])}; "
            f"train {summary['train']}, known {summary['known']}, evaluation pool {summary['pool']} "
            f"({summary['dropped']} dropped: logical form occurs once)"
        )
        for name, sizes in summary["splits"].items():
            lines.append(f"  {name}: support {sizes['support']}, query {sizes['query']}")
    return "\n".join(lines)
