"""
Wrote the base configs of experiments/ and the systems tables (experiments/systems.jsonnet,
lab/systems.jsonnet) from the configs of the commit before them (`OLD`: 591 per-cell files over a
flag layer, experiments/systems.csv), by rendering, not by hand: every old row is rendered for the six
cells with sentinel external variables (a split, a seed and a pre-training directory no real run
has, so that what depends on them shows), each base is written as a Jsonnet function of dataset and
shot whose per-dataset values sit in one settings table at its top, and each row becomes its base
plus the JSON Merge Patch that turns the base's rendering into the row's (the smallest that can be
expressed: a patch cannot set a key to null, so a row whose config holds a null the base lacks takes
another base). The output was then tidied by hand (comments, local objects); lab/scripts/
config_equivalence.py proves the result renders as the old configs did.

    python lab/scripts/make_base_configs.py OUT_DIR    # writes OUT_DIR/{experiments,lab}/...
"""

import argparse
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import textwrap
from typing import Any, Dict, List, Optional, Tuple

OLD = "2511cde207a9178058b06a283f274f6c0752780f"
CELLS = [(d, s) for d in ("jobs", "geo", "atis") for s in (1, 2)]
SPLIT, SEED, PRETRAIN = 7771, 50000, "@PRETRAIN@"
SENTINELS = {"FEWSHOT_SPLIT": str(SPLIT), "FEWSHOT_SEED": str(SEED), "FEWSHOT_PRETRAIN_DIR": PRETRAIN}

# base file -> (old row whose config it is, without `teaching_recipe`; or a snippet of the old flag layer)
BASES = {
    "proto_parser.jsonnet": ("snippet", "(import 'common/fewshot.libsonnet').experiment('{dataset}', {shot})"),
    "faithful.jsonnet": ("row", "ours"),
    "best.jsonnet": ("row", "chosen-fallback-roles"),
    "seq2seq_pt.jsonnet": ("row", "seq2seq-pt"),
    "seq2seq_cb.jsonnet": ("row", "seq2seq-cb"),
    "coarse2fine_pt.jsonnet": ("row", "coarse2fine-pt"),
    "coarse2fine_cb.jsonnet": ("row", "coarse2fine-cb"),
    "irnet_pt.jsonnet": ("row", "irnet-pt"),
    "irnet_cb.jsonnet": ("row", "irnet-cb"),
    "ptmaml.jsonnet": ("row", "pt-maml"),
    "da.jsonnet": ("row", "da"),
    "supervised.jsonnet": ("file", "experiments/supervised/{dataset}.jsonnet"),
}
ABOUT = {
    "proto_parser.jsonnet": "ProtoParser (Li et al., EACL 2021) with our defaults: the paper's model, none of the authors' script behaviours (docs/reproduction.md) and no option beyond the paper.",
    "faithful.jsonnet": "ProtoParser as the authors' scripts run it (GloVe 50-d, supervised attention, their behaviours; docs/reproduction.md): the grid's faithful row `ours`. Pre-trains (or reuses) $FEWSHOT_PRETRAIN_DIR/<dataset>-ours, fine-tunes on the split's support set, evaluates on its query set.",
    "best.jsonnet": "The best row (`chosen-fallback-roles`, recipes.HEADLINE_SYSTEMS[1]): ProtoParser with frozen MiniLM words, a predicate lexicon and lexical linking, IRNet schema encoding, support-set recombination with role-checked forward pairs, entity coverage, the slot-type check, and the pre-trained parser where no new predicate is used (docs/results.md).",
    "seq2seq_pt.jsonnet": "Seq2Seq baseline, setting pt: pre-train on train.txt ($FEWSHOT_PRETRAIN_DIR/<dataset>-seq2seq-pt), fine-tune on the support set.",
    "seq2seq_cb.jsonnet": "Seq2Seq baseline, setting cb: train on train + support (os: the support set oversampled, an override in systems.jsonnet).",
    "coarse2fine_pt.jsonnet": "Coarse2Fine baseline, setting pt: pre-train on train.txt, fine-tune on the support set.",
    "coarse2fine_cb.jsonnet": "Coarse2Fine baseline, setting cb: train on train + support (os: an override in systems.jsonnet).",
    "irnet_pt.jsonnet": "IRNet baseline, setting pt: pre-train on train.txt, fine-tune on the support set.",
    "irnet_cb.jsonnet": "IRNet baseline, setting cb: train on train + support (os: an override in systems.jsonnet).",
    "ptmaml.jsonnet": "PT-MAML baseline: Seq2Seq pre-trained with MAML over pseudo-tasks, fine-tuned on the support set.",
    "da.jsonnet": "DA baseline: domain adaptation from train.txt (source) to the support set (target).",
    "supervised.jsonnet": "Supervised ProtoParser on a dataset's training set (shuffle 0), evaluated on its query set; no shot (benchmarks/supervised_sanity.py overrides the data paths with a held-out split).",
}
# The rows a user measures (README's tables, Table 1 and 2 of the paper): experiments/systems.jsonnet.
MEASURED = [
    "ours", "chosen-fallback-roles", "plus",
    "no-sup", "no-proto", "no-reg", "no-strsim", "no-cond", "no-smooth",
    "seq2seq-pt", "seq2seq-cb", "seq2seq-os", "coarse2fine-pt", "coarse2fine-cb", "coarse2fine-os",
    "irnet-pt", "irnet-cb", "irnet-os", "pt-maml", "da",
]  # fmt: skip
# Bases a row may take (experiments/ bases only for measured rows; a probe row may take any).
PROTO_BASES = ["faithful.jsonnet", "best.jsonnet", "proto_parser.jsonnet"]


def old_tree(commit: str = OLD) -> str:
    """The old commit's experiments/ unpacked in a temporary directory (kept for the process)."""
    target = os.path.join(tempfile.gettempdir(), f"fewshot-experiments-{commit[:12]}")
    if not os.path.isdir(os.path.join(target, "experiments")):
        data = subprocess.run(["git", "archive", commit, "experiments"], capture_output=True, check=True).stdout
        os.makedirs(target, exist_ok=True)
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            tar.extractall(target)
    return target


def old_rows(commit: str = OLD) -> List[Dict[str, str]]:
    text = subprocess.run(["git", "show", f"{commit}:experiments/systems.csv"], capture_output=True, check=True).stdout
    return list(csv.DictReader(io.StringIO(text.decode())))


def render_old(tree: str, kind: str, what: str, dataset: str, shot: int, variables: Dict[str, str]) -> Dict:
    import _jsonnet

    if kind == "snippet":
        text = _jsonnet.evaluate_snippet(
            "snippet", what.format(dataset=dataset, shot=shot), ext_vars=variables,
            jpathdir=[os.path.join(tree, "experiments")],
        )  # fmt: skip
    else:
        text = _jsonnet.evaluate_file(os.path.join(tree, what.format(dataset=dataset, shot=shot)), ext_vars=variables)
    return json.loads(text)


# ---- Jsonnet code for rendered values --------------------------------------------------------------

IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
KEYWORDS = {"assert", "else", "error", "false", "for", "function", "if", "import", "importstr", "in", "local",
            "null", "tailstrict", "then", "self", "super", "true"}  # fmt: skip


def key_code(key: str) -> str:
    return key if IDENTIFIER.match(key) and key not in KEYWORDS else quote(key)


def quote(text: str) -> str:
    if "'" not in text and "\\" not in text and "\n" not in text:
        return "'" + text + "'"
    return json.dumps(text)


def string_codes(text: str, dataset: str, shot: int) -> List[str]:
    """Jsonnet for a rendered string of a cell, in order of preference: the sentinels and the cell's
    files by name."""
    exact = {
        f"{dataset}/lemma_data/shuffle_{SPLIT}_shot_{shot}/{name}.txt": f"c.{name}"
        for name in ("train", "support", "query")
    }
    if text in exact:
        return [exact[text]]
    pieces: List[Tuple[str, List[str]]] = []  # (kind, alternatives): 'lit' or 'code'
    patterns = [
        (re.escape(f"{dataset}/lemma_data/shuffle_{SPLIT}_shot_{shot}/") + r"(train|support|query)\.txt", None),
        (re.escape(f"{dataset}/lemma_data/shuffle_{SPLIT}_shot_{shot}"), "c.dir"),
        (re.escape(f"{dataset}/lemma_data/shuffle_") + r"(\d+)_shot_(\d+)", "path"),
        (re.escape(PRETRAIN), "c.pretrain_dir"),
        (r"(?<!\d)(\d{5})(?!\d)", "seed"),
        (r"(?<!\d)" + str(SPLIT) + r"(?!\d)", "(c.split)"),
        (r"(?<![A-Za-z])" + dataset + r"(?![A-Za-z])", "c.dataset"),
    ]
    position = 0
    while position < len(text):
        best: Optional[Tuple[int, int, List[str]]] = None
        for pattern, kind in patterns:
            match = re.compile(pattern).search(text, position)
            if match is None:
                continue
            if kind is None:
                codes = [f"c.{match.group(1)}"]
            elif kind == "path":
                split, k = match.group(1), int(match.group(2))
                split = "c.split" if split == str(SPLIT) else split
                codes = [f"c.split_dir({split})"] if k == shot else []
                codes += [f"c.path({split}, {k})"] + ([f"c.path({split}, c.shot)"] if k == shot else [])
            elif kind == "seed":
                number = int(match.group(1))
                if abs(number - SEED) > 100:
                    continue
                codes = ["c.seed" if number == SEED else f"(c.seed + {number - SEED})"]
            else:
                codes = [kind]
            if best is None or match.start() < best[0]:
                best = (match.start(), match.end(), codes)
        if best is None:
            pieces.append(("lit", [text[position:]]))
            break
        if best[0] > position:
            pieces.append(("lit", [text[position : best[0]]]))
        pieces.append(("code", best[2]))
        position = best[1]
    if not pieces or (len(pieces) == 1 and pieces[0][0] == "lit"):
        return [quote(text)]
    results = [[]]
    for kind, alternatives in pieces:
        results = [r + [quote(a) if kind == "lit" else a] for r in results for a in alternatives]
    codes = []
    for parts in results:
        if parts[0] == "(c.split)" or parts[0].startswith("(c.seed"):
            parts = ["''"] + parts  # a string, not a sum of numbers
        codes.append(" + ".join(parts))
    return codes


def string_code(text: str, dataset: str, shot: int) -> str:
    return string_codes(text, dataset, shot)[0]


def number_code(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if value == SPLIT:
            return "c.split"
        if abs(value - SEED) <= 100:
            return "c.seed" if value == SEED else f"c.seed + {value - SEED}"
        return str(value)
    return json.dumps(value)


def inline(code: str) -> bool:
    return "\n" not in code


def value_code(value: Any, dataset: str, shot: int, indent: int) -> str:
    """Jsonnet for a value of one cell."""
    if value is None:
        return "null"
    if isinstance(value, (bool, int, float)):
        return number_code(value)
    if isinstance(value, str):
        return string_code(value, dataset, shot)
    if isinstance(value, list):
        items = [value_code(item, dataset, shot, indent + 1) for item in value]
        return list_code(items, indent)
    return object_code({k: value_code(v, dataset, shot, indent + 1) for k, v in value.items()}, indent)


def list_code(items: List[str], indent: int) -> str:
    one_line = "[" + ", ".join(items) + "]"
    if all(inline(item) for item in items) and len(one_line) + 2 * indent < 100:
        return one_line
    pad = "  " * (indent + 1)
    return "[\n" + "".join(f"{pad}{item},\n" for item in items) + "  " * indent + "]"


def ordered(keys: List[str]) -> List[str]:
    return (["type"] if "type" in keys else []) + [k for k in keys if k != "type"]


def object_code(fields: Dict[str, str], indent: int) -> str:
    if not fields:
        return "{}"
    one_line = "{ " + ", ".join(f"{key_code(k)}: {fields[k]}" for k in ordered(list(fields))) + " }"
    if all(inline(v) for v in fields.values()) and len(one_line) + 2 * indent < 100:
        return one_line
    pad = "  " * (indent + 1)
    lines = "".join(f"{pad}{key_code(k)}: {fields[k]},\n" for k in ordered(list(fields)))
    return "{\n" + lines + "  " * indent + "}"


def table_entry(codes: List[str]) -> str:
    """[jobs, geo, atis] of per-cell codes (in CELLS order), with c.shots(...) where the shots differ."""
    entries = []
    for i in range(3):
        one, two = codes[2 * i], codes[2 * i + 1]
        entries.append(one if one == two else f"c.shots({one}, {two})")
    return "[" + ", ".join(entries) + "]"


class Unifier:
    """Jsonnet for one value over the six cells: shared code where the cells agree, else a table entry."""

    def __init__(self, settings: Optional[Dict[str, str]] = None):
        self.settings = settings  # name -> table entry, for a base; None: pick inline (overrides)

    def code(self, values: List[Any], path: List[str], indent: int) -> str:
        if all(isinstance(v, dict) for v in values) and not all(v == values[0] for v in values):
            common = [k for k in values[0] if all(k in v for v in values)]
            fields = {k: self.code([v[k] for v in values], path + [k], indent + 1) for k in common}
            extras = [{k: x for k, x in v.items() if k not in common} for v in values]
            if not any(extras):
                return object_code(fields, indent)
            if common:
                return object_code(fields, indent) + " + " + self.code(extras, path + ["more"], indent)
        if all(isinstance(v, list) for v in values) and all(len(v) == len(values[0]) for v in values):
            if values[0] and not all(v == values[0] for v in values):
                items = [self.code([v[i] for v in values], path + [str(i)], indent + 1) for i in range(len(values[0]))]
                return list_code(items, indent)
        if all(isinstance(v, str) for v in values):
            alternatives = [string_codes(v, d, s) for v, (d, s) in zip(values, CELLS)]
            shared = [a for a in alternatives[0] if all(a in other for other in alternatives)]
            if shared:
                return shared[0]
        codes = [value_code(v, d, s, indent) for v, (d, s) in zip(values, CELLS)]
        if all(code == codes[0] for code in codes):
            return codes[0]
        if self.settings is None:
            flat = [value_code(v, d, s, 0) for v, (d, s) in zip(values, CELLS)]
            if all(inline(c) for c in flat):
                return "c.pick(" + table_entry(flat) + ")"
            return "c.pick(" + table_entry([value_code(v, d, s, indent + 1) for v, (d, s) in zip(values, CELLS)]) + ")"
        name = "_".join(p for p in path if not p.isdigit()) or "value"
        while name in self.settings:
            name += "_"
        self.settings[name] = table_entry([value_code(v, d, s, 1) for v, (d, s) in zip(values, CELLS)])
        return f"s.{name}"


SHARED = ("model", "dataset_reader", "data_loader", "validation_data_loader")


def base_code(name: str, about: str, cells: List[Dict]) -> str:
    settings: Dict[str, str] = {}
    unifier = Unifier(settings)
    shared = [
        k
        for k in SHARED
        if all(isinstance(c.get("pretraining"), dict) and k in c and c["pretraining"].get(k) == c[k] for c in cells)
    ]
    locals_code = {k: unifier.code([c[k] for c in cells], [k], 0) for k in shared}
    fields = {}
    for key in cells[0]:
        if key in shared:
            fields[key] = key
        elif key == "pretraining" and shared:
            inner = {}
            for k in cells[0]["pretraining"]:
                inner[k] = (
                    k if k in shared else unifier.code([c["pretraining"][k] for c in cells], ["pretraining", k], 2)
                )
            fields[key] = object_code(inner, 1)
        else:
            fields[key] = unifier.code([c[key] for c in cells], [key], 1)
    assert all(set(c) == set(cells[0]) for c in cells), name
    out = [*textwrap.wrap(about, 100, initial_indent="// ", subsequent_indent="// "), "// Dataset and shot: arguments, by default $FEWSHOT_DATASET and $FEWSHOT_SHOT (common.libsonnet).",
           "function(dataset=std.extVar('FEWSHOT_DATASET'), shot=std.parseInt(std.extVar('FEWSHOT_SHOT')))",
           "  local c = (import 'common.libsonnet').cell(dataset, shot);"]  # fmt: skip
    if settings:
        width = max(len(k) for k in settings) + 1
        out.append("  // Per dataset: [jobs, geo, atis]; c.shots(1-shot, 2-shot) where the shots differ.")
        out.append("  local s = {")
        for key, entry in settings.items():
            entry = entry.replace("\n", "\n  ")
            out.append(f"    {(key + ':').ljust(width)} c.pick({entry}),")
        out.append("  };")
    for key, code in locals_code.items():
        out.append(f"  local {key} = " + code.replace("\n", "\n  ") + ";")
    body = object_code(fields, 0).replace("\n", "\n  ")
    out.append("  " + body)
    return "\n".join(out) + "\n"


# ---- merge patches ----------------------------------------------------------------------------------


class Inexpressible(Exception):
    pass


def has_null(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, dict):
        return any(has_null(v) for v in value.values())
    return False  # lists replace whole: their nulls stay


def diff(base: Any, target: Any, nulls: Optional[List[List[str]]] = None, path: Optional[List[str]] = None) -> Any:
    """The merge patch that turns `base` into `target` (both objects). A key `target` sets to null where
    `base` has another value cannot be patched: with `nulls`, its path is added there instead."""
    path = path or []
    patch = {}
    for key in base:
        if key not in target:
            patch[key] = None
    for key, value in target.items():
        if key not in base:
            if has_null(value):
                raise Inexpressible(key)
            patch[key] = value
        elif base[key] != value:
            if isinstance(value, dict) and isinstance(base[key], dict):
                patch[key] = diff(base[key], value, nulls, path + [key])
            elif value is None and nulls is not None:
                nulls.append(path + [key])
            elif value is None or has_null(value):
                raise Inexpressible(key)
            else:
                patch[key] = value
    return patch


def nulled_base(base: str, nulls: List[List[str]], about: str) -> str:
    """A lab base: `base` with keys set to null by Jsonnet's `+` (which a merge patch cannot do)."""

    def nested(path: List[str]) -> str:
        return (
            f"{{ {key_code(path[0])}+: {nested(path[1:])} }}" if len(path) > 1 else f"{{ {key_code(path[0])}: null }}"
        )

    patches = " + ".join(nested(p) for p in nulls)
    return (
        f"// {about}\n"
        "function(dataset=std.extVar('FEWSHOT_DATASET'), shot=std.parseInt(std.extVar('FEWSHOT_SHOT')))\n"
        f"  (import '../experiments/{base}')(dataset, shot) + {patches}\n"
    )


def merge_patch(target: Any, patch: Any) -> Any:
    if not isinstance(patch, dict):
        return patch
    result = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merge_patch(result.get(key), value)
    return result


def patch_code(patches: List[Dict], bases: List[Dict], indent: int) -> str:
    """Jsonnet for a row's overrides over the six cells; a cell that lacks a key another has gets the
    no-op patch for it (`{}` over an object, the base's value, or null where the base has none)."""
    keys = list(dict.fromkeys(k for p in patches for k in p))
    fields = {}
    for key in keys:
        present = [p[key] for p in patches if key in p]
        values = []
        for patch, base in zip(patches, bases):
            if key in patch:
                values.append(patch[key])
            elif isinstance(base.get(key), dict) and any(isinstance(v, dict) for v in present):
                values.append({})
            else:
                values.append(base.get(key))
        if all(isinstance(v, dict) for v in values) and not all(v == values[0] for v in values):
            fields[key] = patch_code(
                values, [b.get(key) if isinstance(b.get(key), dict) else {} for b in bases], indent + 1
            )
        else:
            fields[key] = Unifier(None).code(values, [key], indent + 1)
    return object_code(fields, indent)


def size(patch: Any) -> int:
    return len(json.dumps(patch))


def main(argv: Optional[List[str]] = None) -> None:
    import _jsonnet

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", help="where to write experiments/ and lab/ files")
    parser.add_argument("--cache", help="a JSON file of the old rows' sentinel renderings (made when missing)")
    args = parser.parse_args(argv)
    tree = old_tree()
    rows = old_rows()
    by_name = {r["name"]: r for r in rows}
    cache: Dict[str, Any] = {}
    if args.cache and os.path.isfile(args.cache):
        with open(args.cache) as handle:
            cache = json.load(handle)
    old: Dict[str, List[Dict]] = {}
    for row in rows:
        old[row["name"]] = [
            cache.get(f"{row['name']}|{d}|{s}") or render_old(tree, "file", row["config"], d, s, SENTINELS)
            for d, s in CELLS
        ]
    if args.cache and not os.path.isfile(args.cache):
        with open(args.cache, "w") as handle:
            json.dump({f"{n}|{d}|{s}": c for n, cells in old.items() for c, (d, s) in zip(cells, CELLS)}, handle)
    os.makedirs(os.path.join(args.out, "experiments"), exist_ok=True)
    os.makedirs(os.path.join(args.out, "lab"), exist_ok=True)
    shutil.copy("experiments/common.libsonnet", os.path.join(args.out, "experiments"))
    rendered: Dict[str, List[Dict]] = {}
    for name, (kind, what) in BASES.items():
        if kind == "row":
            cells = [{k: v for k, v in c.items() if k != "teaching_recipe"} for c in old[what]]
        else:
            cells = [render_old(tree, kind, what, d, s, SENTINELS) for d, s in CELLS]
        about = ABOUT[name]
        path = os.path.join(args.out, "experiments", name)
        with open(path, "w") as handle:
            handle.write(base_code(name, about, cells))
        os.makedirs(os.path.join(args.out, "experiments"), exist_ok=True)
        rendered[name] = [
            json.loads(_jsonnet.evaluate_snippet(
                "base", f"(import {json.dumps(os.path.abspath(path))})('{d}', {s})",
                ext_vars={**SENTINELS}, jpathdir=[os.path.join(args.out, "experiments")],
            ))
            for d, s in CELLS
        ]  # fmt: skip
        for got, want, (d, s) in zip(rendered[name], cells, CELLS):
            assert got == want, f"{name} {d} {s}: the generated base does not render as the old config"
    for table, names in (
        ("experiments", [n for n in by_name if n in MEASURED]),
        ("lab", [n for n in by_name if n not in MEASURED]),
    ):
        entries = []
        for row_name in names:
            row = by_name[row_name]
            candidates = [b for b, (k, w) in BASES.items() if k == "row" and w == row_name]
            if not candidates:
                candidates = [b for b in BASES if b in PROTO_BASES or row["system"] != "ProtoParser"]
            best = None
            for base in candidates:
                try:
                    patches = [diff(b, t) for b, t in zip(rendered[base], old[row_name])]
                except Inexpressible:
                    continue
                if best is None or size(patches) < best[0]:
                    best = (size(patches), base, patches)
            if best is None and table == "lab":
                # A key set to null: a base of its own in lab/, the nearest base with those keys nulled.
                nulls: List[List[str]] = []
                diff(rendered["best.jsonnet"][0], old[row_name][0], nulls)
                base = row_name.replace("-", "_") + ".jsonnet"
                lab_base = os.path.join(args.out, "lab", base)
                with open(lab_base, "w") as handle:
                    handle.write(
                        nulled_base(
                            "best.jsonnet",
                            nulls,
                            f"The best row's base with {', '.join('.'.join(p) for p in nulls)} null, for row {row_name} (a merge patch cannot set null).",
                        )
                    )
                rendered["../lab/" + base] = [
                    json.loads(_jsonnet.evaluate_snippet(
                        "base", f"(import {json.dumps(os.path.abspath(lab_base))})('{d}', {s})", ext_vars={**SENTINELS},
                    ))
                    for d, s in CELLS
                ]  # fmt: skip
                patches = [diff(b, t) for b, t in zip(rendered["../lab/" + base], old[row_name])]
                best = (size(patches), "../lab/" + base, patches)
            if best is None:
                print(f"{row_name}: no base expresses it", file=sys.stderr)
                continue
            _, base, patches = best
            prefix = "" if table == "experiments" else "../experiments/"
            if base.startswith("../lab/"):
                prefix = "/"
            fields = {
                "name": quote(row["name"]),
                "system": quote(row["system"]),
                "setting": quote(row["setting"]),
                "about": quote(row["about"]),
                "base": quote(base[len("../lab/") :] if prefix == "/" else prefix + base),
                "overrides": patch_code(patches, rendered[base], 2),
            }
            entries.append("  " + object_code(fields, 1).replace("{ ", "{\n    ", 0))
        path = os.path.join(args.out, table, "systems.jsonnet")
        with open(path, "w") as handle:
            handle.write(
                "local c = (import '%scommon.libsonnet').cell();\n[\n"
                % ("" if table == "experiments" else "../experiments/")
            )
            handle.write("".join(entry + ",\n" for entry in entries))
            handle.write("]\n")
        print(f"{path}: {len(entries)} rows", file=sys.stderr)


if __name__ == "__main__":
    main()
