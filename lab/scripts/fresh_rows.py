"""
Which recorded rows `allennlp report` takes for fresh, as the checkout `--root` judges them (its code,
its results files): `staleness.stale_reason` for the official files, `staleness.draw_stale_reason` for
the development suite (`results/dev/runs.csv`, as `suite_report.stale_draw_cells` calls it). Written
to check that re-keying the config hashes (lab/scripts/rekey_hashes.py) leaves the same rows fresh:
run it on a checkout before and one after, and compare.

    python lab/scripts/fresh_rows.py --root /path/to/checkout --out fresh.json
    python lab/scripts/fresh_rows.py --compare before.json after.json
"""

import argparse
import csv
import json
import os
import sys
from collections import Counter
from typing import Dict, List, Optional

FILES = ("results/runs.csv", "results/runs_lent_machine.csv", "results/dev/runs.csv")
KEY = ("system", "setting", "dataset", "shot", "shuffle")
# The reasons that `staleness.config_stale_reason` gives before it looks at the code.
CONFIG_STALE = ("no provenance", "no grid system makes this row any more", "config changed")


def verdicts(root: str, files: List[str]) -> Dict[str, Dict[str, Optional[str]]]:
    """file -> row key (`system|setting|dataset|shot|shuffle`, with `#<n>` for a repeated key) -> why stale, or None."""
    sys.path[:0] = [root, os.path.join(root, "lab")]
    from fewshot_lab.staleness import draw_stale_reason, stale_reason
    from fewshot_lab.systems import SYSTEMS as systems  # the product's and the lab's systems tables
    found: Dict[str, Dict[str, Optional[str]]] = {}
    for path in files:
        with open(os.path.join(root, path), newline="", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
        seen: Counter = Counter()
        found[path] = {}
        for row in rows:
            key = "|".join(row[field] for field in KEY)
            seen[key] += 1
            key += f"#{seen[key]}" if seen[key] > 1 else ""
            if path.startswith("results/dev/"):
                found[path][key] = draw_stale_reason(row, systems, "data/dev", "runs/pretrain/dev")
            else:
                found[path][key] = stale_reason(row, systems)
        print(f"{path}: {len(rows)} rows, {sum(v is None for v in found[path].values())} fresh", file=sys.stderr)
    return found


def compare(before: Dict[str, Dict[str, Optional[str]]], after: Dict[str, Dict[str, Optional[str]]]) -> None:
    for path in before:
        old, new = before[path], after.get(path, {})
        fresh_old = {key for key, reason in old.items() if reason is None}
        fresh_new = {key for key, reason in new.items() if reason is None}
        print(f"{path}: fresh before {len(fresh_old)}, after {len(fresh_new)}, same set: {fresh_old == fresh_new}")
        for key in sorted(fresh_old ^ fresh_new)[:20]:
            print(f"  {key}: before {old.get(key) or 'fresh'}; after {new.get(key) or 'fresh'}")
        # The config criterion alone: rows whose config hash is today's (stale, if at all, for their code).
        matching_old = {key for key, reason in old.items() if reason not in CONFIG_STALE}
        matching_new = {key for key, reason in new.items() if reason not in CONFIG_STALE}
        print(
            f"  config hash matches today's config: before {len(matching_old)}, after {len(matching_new)}, "
            f"same set: {matching_old == matching_new}"
        )
        reasons = Counter((old.get(key), new.get(key)) for key in set(old) | set(new) if old.get(key) != new.get(key))
        for (was, now), count in reasons.most_common():
            print(f"  {count} rows: {was or 'fresh'} -> {now or 'fresh'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", help="the checkout to judge (its code and its results files)")
    parser.add_argument("--out", help="where the verdicts go (JSON)")
    parser.add_argument("--files", nargs="*", default=list(FILES))
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args()
    if args.compare:
        with open(args.compare[0]) as first, open(args.compare[1]) as second:
            compare(json.load(first), json.load(second))
        return
    found = verdicts(os.path.abspath(args.root), args.files)
    with open(args.out, "w", encoding="utf-8") as handle:
        json.dump(found, handle, indent=0, sort_keys=True)


if __name__ == "__main__":
    main()
