"""
How many of a fine-tuned run's right answers depend on decoding only among applicable actions.

The paper's decoder (grid system `applicable-only`) takes the best *applicable* action at every step; the authors' decoder takes the best
action of the whole vocabulary and drops the hypothesis when it cannot be applied (docs/reproduction.md
row 12, note 8). For every query our greedy search gets right along the oracle's own action
sequence, this script teacher-forces that sequence, scores every action at every step as the
decoder does, and asks whether the unrestricted best action is the gold one at each step. Where it
is not, an unrestricted greedy decoder with the same weights would have left the gold path: the
answer is right only because of the restriction.

    python lab/scripts/unmasked_decoding.py --system applicable-only --dataset jobs --shot 1
    python lab/scripts/unmasked_decoding.py --runs runs/grid/applicable-only --dataset geo --shot 2 --shuffles 1 2 3

It reads `<runs>/<dataset>_<shot>shot_s<k>/model.tar.gz` and the split's query file. It measures our
weights only: the authors train without the restriction too, so their model also learns to push
inapplicable actions down, which this cannot show.
"""
import argparse
import os
import sys
from typing import Dict, List

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)


def split_counts(archive_path: str, query_path: str, batch_size: int = 64) -> Dict[str, int]:
    """queries, right (exact match), right along the oracle's actions, and of those, right only with the restriction."""
    import torch
    from allennlp.data import Batch
    from allennlp.models.archival import load_archive

    archive = load_archive(archive_path)
    model, reader = archive.model.eval(), archive.dataset_reader
    instances = list(reader.read(query_path))
    counts = {"queries": len(instances), "right": 0, "right_on_oracle_path": 0, "right_only_with_restriction": 0}
    with torch.no_grad():
        for start in range(0, len(instances), batch_size):
            chunk = instances[start:start + batch_size]
            batch = Batch(chunk)
            batch.index_instances(model.vocab)
            tensors = batch.as_tensor_dict()
            output = model(**tensors)
            metadata = tensors["metadata"]
            decoded, _, _ = model.teacher_forced(tensors)
            scores = torch.matmul(decoded.projections, model.action_matrix().t())
            bonus = model.action_bonus(decoded.projections, decoded.attention, tensors["source_tokens"])
            if bonus is not None:
                scores = scores + bonus
            if getattr(model, "new_action_bias", 0):
                scores = scores + model.new_action_mask.to(scores.dtype) * model.new_action_bias
            best = scores.argmax(-1)
            gold = tensors["actions"]
            for row, meta in enumerate(metadata):
                if " ".join(output["logical_form"][row].split()) != " ".join(meta["logical_form"].split()):
                    continue
                counts["right"] += 1
                if output["predicted_actions"][row] != meta["actions"]:
                    continue
                counts["right_on_oracle_path"] += 1
                steps = gold[row] >= 0
                if bool((best[row][steps] != gold[row][steps]).any()):
                    counts["right_only_with_restriction"] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--system", default="applicable-only", help="grid system whose runs to read (runs/grid/<system>); the faithful `ours` already decodes as the authors do")
    parser.add_argument("--runs", default=None, help="the folder of the runs (default runs/grid/<system>)")
    parser.add_argument("--dataset", required=True, choices=["jobs", "geo", "atis"])
    parser.add_argument("--shot", type=int, required=True, choices=[1, 2])
    parser.add_argument("--shuffles", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    args = parser.parse_args()
    import fewshot_parser  # noqa: F401
    from fewshot_parser.data.paths import data_root

    runs = args.runs or os.path.join(ROOT, "runs", "grid", args.system)
    print(f"| shuffle | queries | right | right along the oracle's actions | of those, right only with the restriction | "
          f"exact match | without those |\n|---|---|---|---|---|---|---|")
    totals: List[float] = [0.0, 0.0]
    for shuffle in args.shuffles:
        archive = os.path.join(runs, f"{args.dataset}_{args.shot}shot_s{shuffle}", "model.tar.gz")
        query = os.path.join(data_root(), args.dataset, "lemma_data", f"shuffle_{shuffle}_shot_{args.shot}", "query.txt")
        if not os.path.isfile(archive):
            sys.exit(f"{archive}: no such run (run `allennlp run-grid --systems {args.system}` first)")
        c = split_counts(archive, query)
        accuracy = 100 * c["right"] / c["queries"]
        without = 100 * (c["right"] - c["right_only_with_restriction"]) / c["queries"]
        totals[0] += accuracy
        totals[1] += without
        print(f"| {shuffle} | {c['queries']} | {c['right']} | {c['right_on_oracle_path']} | "
              f"{c['right_only_with_restriction']} | {accuracy:.2f} | {without:.2f} |")
    n = len(args.shuffles)
    print(f"| mean | | | | | {totals[0] / n:.2f} | {totals[1] / n:.2f} |")


if __name__ == "__main__":
    main()
