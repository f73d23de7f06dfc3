"""
Where a row's split-to-split spread comes from, and what more seeds would remove from it.

Table 1 gives each row's standard deviation over shuffles 1-5. Part of it is the seed (which
fine-tuning and which pre-training a split happened to get), part is sampling (each split's test
queries are a finite draw), and the rest is the splits themselves (which support examples, which
new predicates). This script separates them from the query predictions of the same grid system run
with several seeds (`FEWSHOT_SEED=<N> FEWSHOT_PRETRAIN_DIR=... allennlp run-grid ... --runs-dir
<dir>`, one runs directory per seed; every seed has its own pre-training):

- *member*: each fine-tuned parser alone. An ensemble run (`fewshot_ensemble`) writes every
  member's LF (`member_logical_forms`); a single run is its own one member.
- *run*: the run's own prediction (for an ensemble system, its vote over its members), i.e. what
  Table 1 reports for that seed.
- *vote over K pre-trainings*: the majority vote over every member of every seed's run of a split
  (K x members parsers; ties go to the LF of the earliest member in seed order, since runs do not
  write their members' scores). This is the "ensemble of K pre-trainings" of issue 25, computed from
  the members that exist instead of trained again.

Per column it prints the mean and the split-to-split standard deviation (population, over the
shuffles, as `allennlp report`) of each, the seed's share inside a split (the standard deviation
over seeds of a split's run, averaged as a variance over the splits), the sampling floor of the
vote's spread (`split_ceiling.sampling_floor`), and what is left of the vote's spread above that
floor: the splits' own difference, which no number of seeds removes.

    python lab/scripts/spread_decomposition.py --system coverage-evidence-types-ens5 \\
        --runs-dirs 13=runs/grid 23=runs/seed23/grid 33=runs/seed33/grid --datasets jobs geo \\
        --out lab/results/seeds/spread_decomposition_best.md

A run without cached predictions gets them from its archive first (`allennlp predict`, about a
minute per ensemble run on jobs); after that it takes seconds.
"""
import argparse
import json
import os
import statistics
import sys
from typing import Dict, List, Optional, Sequence, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from compare_predictions import predictions  # noqa: E402
from new_predicates import logical_forms  # noqa: E402
from split_ceiling import sampling_floor  # noqa: E402

from fewshot_lab.models.ensemble import vote  # noqa: E402
from fewshot_parser.models.metrics import exact_match  # noqa: E402

COLUMNS = [("jobs", 1), ("geo", 1), ("atis", 1), ("jobs", 2), ("geo", 2), ("atis", 2)]

# One split of one seed: the gold LFs, the run's LFs and each member's LFs (member-major).
Split = Tuple[List[str], List[Optional[str]], List[List[Optional[str]]]]


def query_file(data_dir: str, dataset: str, shot: int, shuffle: int) -> str:
    """The path of a split's query file."""
    return os.path.abspath(os.path.join(data_dir, dataset, "lemma_data", f"shuffle_{shuffle}_shot_{shot}", "query.txt"))


def read_gold(path: str) -> List[str]:
    """The gold LFs of a query file, in file order."""
    if not os.path.isfile(path):
        raise SystemExit(f"{path}: no such query file (set --data-dir)")
    return logical_forms(path)


def read_split(run_dir: str, query_path: str, gold: List[str]) -> Optional[Split]:
    """
    A finished run's predictions, or None when the run is not finished. They are cached in the run
    folder as `query_predictions.jsonl`, made once by `allennlp predict` (`compare_predictions`).
    """
    path = os.path.join(run_dir, "query_predictions.jsonl")
    if not os.path.isfile(path):
        if not os.path.isfile(os.path.join(run_dir, "model.tar.gz")):
            return None
        predictions(run_dir, query_path)
    runs: List[Optional[str]] = []
    members: List[List[Optional[str]]] = []
    with open(path) as handle:
        for number, line in enumerate(handle, 1):
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                raise SystemExit(f"{path}:{number}: not JSON ({error.msg})")
            runs.append(record.get("logical_form"))
            own = record.get("member_logical_forms") or [record.get("logical_form")]
            if members and len(own) != len(members):
                raise SystemExit(f"{path}:{number}: {len(own)} member LFs, earlier lines had {len(members)}")
            if not members:
                members = [[] for _ in own]
            for index, logical_form in enumerate(own):
                members[index].append(logical_form)
    if len(runs) != len(gold):
        raise SystemExit(f"{path}: {len(runs)} predictions for {len(gold)} queries")
    return gold, runs, members


def accuracy(predicted: Sequence[Optional[str]], gold: Sequence[str]) -> float:
    """Exact match (%) of predictions against gold LFs."""
    return 100.0 * sum(exact_match(p, g) for p, g in zip(predicted, gold)) / max(len(gold), 1)


def cross_vote(splits: Sequence[Split]) -> List[Optional[str]]:
    """The majority vote, per query, over every member of every seed's run of one split."""
    voters = [member for _, _, members in splits for member in members]
    return [vote([member[i] for member in voters], [0.0] * len(voters)).logical_form
            for i in range(len(splits[0][0]))]


def spread(values: Sequence[float]) -> float:
    """Population standard deviation over the splits (as `allennlp report`)."""
    return statistics.pstdev(values) if len(values) > 1 else 0.0


def column_report(per_shuffle: Dict[int, List[Split]]) -> Dict[str, float]:
    """The numbers of one column from each shuffle's splits (one per seed, all seeds present)."""
    member_scores: List[List[float]] = []  # per shuffle: every member of every seed
    run_scores: List[List[float]] = []  # per shuffle: each seed's run
    voted, counts = [], []
    for shuffle in sorted(per_shuffle):
        splits = per_shuffle[shuffle]
        gold = splits[0][0]
        counts.append(len(gold))
        member_scores.append([accuracy(m, gold) for _, _, ms in splits for m in ms])
        run_scores.append([accuracy(r, gold) for _, r, _ in splits])
        voted.append(accuracy(cross_vote(splits), gold))

    def mean_spread(scores: List[List[float]]) -> float:
        """The spread over the shuffles of each index (a member, a seed's run), averaged over the indices."""
        return statistics.mean(spread([row[i] for row in scores]) for i in range(min(map(len, scores))))

    floor = sampling_floor(statistics.mean(voted), counts)
    return {
        "member mean": statistics.mean(map(statistics.mean, member_scores)), "member std": mean_spread(member_scores),
        "run mean": statistics.mean(map(statistics.mean, run_scores)), "run std": mean_spread(run_scores),
        "seed std in a split": statistics.mean(statistics.pvariance(r) if len(r) > 1 else 0.0 for r in run_scores) ** 0.5,
        "vote mean": statistics.mean(voted), "vote std": spread(voted),
        "floor": floor, "splits' own": max(spread(voted) ** 2 - floor ** 2, 0.0) ** 0.5,
        "voters": float(sum(len(ms) for _, _, ms in next(iter(per_shuffle.values())))),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--system", required=True, help="a run-grid system name (a folder in each runs directory)")
    parser.add_argument("--runs-dirs", nargs="+", required=True, metavar="SEED=DIR",
                        help="one grid runs directory per seed, each holding <system>/<dataset>_<shot>shot_s<shuffle>/")
    parser.add_argument("--datasets", nargs="+", default=["jobs", "geo", "atis"], choices=["jobs", "geo", "atis"])
    parser.add_argument("--shots", nargs="+", type=int, default=[1, 2], choices=[1, 2])
    parser.add_argument("--shuffles", nargs="+", type=int, default=[1, 2, 3, 4, 5])
    parser.add_argument("--data-dir", default=os.environ.get("FEWSHOT_DATA_DIR", os.path.join(ROOT, "data")))
    parser.add_argument("--out", help="also write the report to this markdown file")
    args = parser.parse_args()

    seeds: List[Tuple[str, str]] = []
    for spec in args.runs_dirs:
        seed, sep, path = spec.partition("=")
        if not sep or not os.path.isdir(os.path.join(path, args.system)):
            raise SystemExit(f"--runs-dirs {spec}: expected SEED=DIR with a folder {args.system}/ in DIR")
        seeds.append((seed, path))

    names = ["member mean", "member std", "run mean", "run std", "seed std in a split",
             "vote mean", "vote std", "floor", "splits' own"]
    lines = [f"# Split-to-split spread of `{args.system}`, seeds {', '.join(s for s, _ in seeds)}", "",
             "Generated by `python lab/scripts/spread_decomposition.py --system " + args.system + " --runs-dirs "
             + " ".join(f"{s}=<runs dir>" for s, _ in seeds) + "` from the runs' query predictions. "
             "Shuffles " + " ".join(map(str, args.shuffles)) + "; std is the population standard deviation "
             "over the shuffles (Table 1's). member: one fine-tuned parser alone; run: a seed's run as "
             "Table 1 scores it (its own vote, for an ensemble system), mean and std averaged over the seeds; "
             "seed std in a split: how far a split's run moves with the seed (pre-training and fine-tuning); "
             "vote: majority vote over every member of every seed (the ensemble of K pre-trainings); floor: "
             "the vote's sampling floor; splits' own: sqrt(vote std^2 - floor^2), the spread no number of "
             "seeds removes.", "",
             "| column | voters | " + " | ".join(names) + " |", "|---|---|" + "---|" * len(names)]
    averages: Dict[str, List[float]] = {name: [] for name in names}
    for dataset, shot in COLUMNS:
        if dataset not in args.datasets or shot not in args.shots:
            continue
        per_shuffle: Dict[int, List[Split]] = {}
        for shuffle in args.shuffles:
            query_path = query_file(args.data_dir, dataset, shot, shuffle)
            gold = read_gold(query_path)
            found = [read_split(os.path.join(path, args.system, f"{dataset}_{shot}shot_s{shuffle}"), query_path, gold)
                     for _, path in seeds]
            if all(split is not None for split in found):
                per_shuffle[shuffle] = found  # type: ignore[assignment]
        if len(per_shuffle) != len(args.shuffles):
            print(f"{dataset} {shot}-shot: {len(per_shuffle)} of {len(args.shuffles)} shuffles finished for "
                  f"every seed; skipped", file=sys.stderr)
            continue
        numbers = column_report(per_shuffle)
        for name in names:
            averages[name].append(numbers[name])
        lines.append(f"| {dataset} {shot}-shot | {numbers['voters']:.0f} | "
                     + " | ".join(f"{numbers[name]:.2f}" for name in names) + " |")
    if averages["vote std"]:
        lines.append(f"| mean of {len(averages['vote std'])} columns | | "
                     + " | ".join(f"{statistics.mean(averages[name]):.2f}" for name in names) + " |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        with open(args.out, "w") as handle:
            handle.write(text)


if __name__ == "__main__":
    main()
