"""
Where do the authors' code and ours write a split's new predicates? For one split, both parsers'
predictions on the query set, counted per new predicate: queries whose gold LF uses it and whose
prediction writes it (hit), gold uses it and the prediction does not (missed), and the prediction
writes it where the gold LF does not (wrong). New predicates are those of the support set's LFs that
no training LF uses, found from the data, not from a list.

    python lab/scripts/new_predicate_use.py --dataset jobs --shot 1 --shuffle 4 \\
        --archive <our fine-tuned run>/model.tar.gz --authors-work runs/reference_impl_seed2

The authors' side decodes with their fine-tuned model of that split in ``--authors-work`` (a work
directory of ``benchmarks/reference_runs.py``), through their own test script with
``--save_decode_to``; ours runs ``allennlp predict`` on the archive. Jobs only for now: the predicate
names are read from Prolog-style LFs (``salary_greater_than ( ANS , ... )``) and from the authors'
Jobs action names (``GEN_salary_greater_than_(_A_,_var_,_var_)``).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from typing import Dict, List, Set, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))  # reference_runs.py, a script a user runs

from new_predicates import logical_forms, new_predicate_names, predicates  # noqa: E402  (lab/scripts/, the script's own folder)
from reference_runs import SHOT_DIRS, fine_tuned_model_dir  # noqa: E402  (benchmarks/)

# Run with the authors' interpreter: their hypotheses unpickle only beside their code.
DUMP_AUTHORS = """
import json, pickle, sys
sys.path.insert(0, '.')
decoded = pickle.load(open(sys.argv[1], 'rb'))
with open(sys.argv[2], 'w') as out:
    for hyps in decoded:
        out.write(json.dumps({'actions': [str(a) for a in hyps[0].actions] if hyps else [],
                              'correct': bool(hyps and hyps[0].is_correct)}) + '\\n')
"""


def authors_actions(work: str, dataset: str, shot: int, shuffle: int) -> List[Dict]:
    """The authors' greedy predictions on the query set, as action strings, from their fine-tuned model."""
    models = fine_tuned_model_dir(work, dataset, shot, shuffle)
    found = sorted(f for f in os.listdir(models) if f.endswith(".bin") and ".optim." not in f) if os.path.isdir(models) else []
    if not found:
        raise SystemExit(f"new_predicate_use: no fine-tuned model in {models}; run benchmarks/reference_runs.py first")
    test = os.path.join(work, "scripts", dataset, SHOT_DIRS[shot], "test_run.sh")
    with tempfile.TemporaryDirectory() as tmp:
        pickled, dumped, script = (os.path.join(tmp, name) for name in ("decode.pkl", "decode.jsonl", "test.sh"))
        with open(test, encoding="utf-8") as handle:
            text = handle.read()
        with open(script, "w", encoding="utf-8") as handle:
            handle.write(text.replace("--decode_max_time_step", f"--save_decode_to {pickled} --decode_max_time_step"))
        env = dict(os.environ, PATH=os.path.join(work, "bin") + os.pathsep + os.environ.get("PATH", ""))
        subprocess.run(["bash", script, os.path.join(models, found[0]), str(shuffle), str(shot), "ft"], cwd=work,
                       env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        subprocess.run([os.path.join(work, "bin", "python"), "-c", DUMP_AUTHORS, pickled, dumped], cwd=work, env=env,
                       check=True)
        with open(dumped, encoding="utf-8") as handle:
            return [json.loads(line) for line in handle]


def our_actions(archive: str, utterances: List[str]) -> List[Dict]:
    """Our predictions (`allennlp predict` output lines) for the utterances."""
    with tempfile.TemporaryDirectory() as tmp:
        source, output = os.path.join(tmp, "in.jsonl"), os.path.join(tmp, "out.jsonl")
        with open(source, "w", encoding="utf-8") as handle:
            handle.writelines(json.dumps({"utterance": u}) + "\n" for u in utterances)
        subprocess.run([sys.executable, "-m", "allennlp", "predict", archive, source, "--include-package",
                        "fewshot_parser", "--output-file", output, "--silent"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(output, encoding="utf-8") as handle:
            return [json.loads(line) for line in handle]


def count(gold: List[str], written: List[Set[str]], new: List[str]) -> Dict[str, Counter]:
    """Per new predicate: how many queries are hit, missed, wrong (written but not needed) or none."""
    table = {p: Counter() for p in new}
    for lf, used in zip(gold, written):
        needs = predicates(lf)
        for p in new:
            needed = p in needs
            table[p]["hit" if needed and p in used else "missed" if needed else "wrong" if p in used else "none"] += 1
    return table


def split_arguments(parser: argparse.ArgumentParser) -> None:
    """The options naming a split and the authors' work directory (shared with finetune_probe.py)."""
    parser.add_argument("--dataset", required=True, choices=["jobs"])
    parser.add_argument("--shot", type=int, required=True, choices=[1, 2])
    parser.add_argument("--shuffle", type=int, required=True)
    parser.add_argument("--authors-work", required=True, help="a work directory of benchmarks/reference_runs.py")
    parser.add_argument("--data", default=os.environ.get("FEWSHOT_DATA_DIR", os.path.join(ROOT, "data")))


def read_split(data: str, dataset: str, shot: int, shuffle: int) -> Tuple[List[str], List[str], List[str]]:
    """The split's query utterances and gold LFs, and its new predicates (sorted)."""
    split_dir = os.path.join(data, dataset, "lemma_data", f"shuffle_{shuffle}_shot_{shot}")
    with open(os.path.join(split_dir, "query.txt"), encoding="utf-8") as handle:
        utterances = [line.split("\t")[0] for line in handle if "\t" in line]
    return utterances, logical_forms(os.path.join(split_dir, "query.txt")), sorted(new_predicate_names(split_dir))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    split_arguments(parser)
    parser.add_argument("--archive", required=True, help="our fine-tuned model.tar.gz of that split")
    parser.add_argument("--show-wrong", type=int, default=0, metavar="N",
                        help="also list, per side and new predicate, up to N queries that write it without needing it")
    args = parser.parse_args()

    utterances, gold, new = read_split(args.data, args.dataset, args.shot, args.shuffle)
    theirs = authors_actions(os.path.abspath(args.authors_work), args.dataset, args.shot, args.shuffle)
    ours = our_actions(os.path.abspath(args.archive), utterances)
    if len(theirs) != len(gold) or len(ours) != len(gold):
        raise SystemExit(f"new_predicate_use: {len(gold)} queries, {len(theirs)} authors' and {len(ours)} of our predictions")
    their_written, our_written = written_predicates(theirs, ours)
    print(f"{args.dataset} {args.shot}-shot shuffle {args.shuffle}: {len(gold)} queries; exact match: authors' code "
          f"{sum(p['correct'] for p in theirs)}, ours {our_exact_matches(ours, gold)}\n")
    print("\n".join(use_table(gold, their_written, our_written, new)))
    if args.show_wrong:
        show_wrong(args.show_wrong, new, utterances, gold, {
            "authors' code": (their_written, [" ".join(x["actions"]) for x in theirs]),
            "ours": (our_written, [x.get("logical_form") or "(no LF)" for x in ours]),
        })


def written_predicates(theirs: List[Dict], ours: List[Dict]):
    """The predicates each prediction writes, per side: their GEN actions read `GEN_<predicate>_(...)`, ours `GEN ( <predicate> ...`."""
    their_written = [{m for a in p["actions"] for m in re.findall(r"GEN_([A-Za-z_0-9:]+?)_\(", a)} for p in theirs]
    our_written = [{a.split()[2] for a in p["actions"] if a.startswith("GEN ( ")} for p in ours]
    return their_written, our_written


def our_exact_matches(ours: List[Dict], gold: List[str]) -> int:
    """How many of our predictions equal the gold LF up to whitespace (no LF counts as wrong)."""
    return sum(" ".join((p.get("logical_form") or "").split()) == " ".join(lf.split()) for p, lf in zip(ours, gold))


def use_table(gold: List[str], their_written: List[Set[str]], our_written: List[Set[str]], new: List[str]) -> List[str]:
    """The Markdown table of hits, misses and wrong uses of each new predicate, both sides."""
    lines = ["| new predicate | queries needing it | authors: hit / missed / wrong | ours: hit / missed / wrong |",
             "|---|---|---|---|"]
    theirs_table, ours_table = count(gold, their_written, new), count(gold, our_written, new)
    for p in new:
        t, o = theirs_table[p], ours_table[p]
        lines.append(f"| {p} | {t['hit'] + t['missed']} | {t['hit']} / {t['missed']} / {t['wrong']} | "
                     f"{o['hit']} / {o['missed']} / {o['wrong']} |")
    return lines


def show_wrong(limit: int, new: List[str], utterances: List[str], gold: List[str], sides: Dict) -> None:
    """Up to `limit` queries per side and new predicate whose prediction writes it though the gold LF does not."""
    for side, (written, shown) in sides.items():
        for p in new:
            wrong = [i for i, used in enumerate(written) if p in used and p not in predicates(gold[i])]
            if not wrong:
                continue
            print(f"\n{side}, `{p}` written where not needed ({len(wrong)}; first {min(limit, len(wrong))}):\n")
            for i in wrong[:limit]:
                print(f"- `{utterances[i]}`\n  - gold: `{gold[i]}`\n  - predicted: `{shown[i]}`")


if __name__ == "__main__":
    main()
