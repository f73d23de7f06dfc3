"""
Representation check: the authors' action sequences beside ours, per dataset and `freq` setting.

Runs the authors' preprocessing (`preprocess_data/<dataset>/generate_examples.py` of
``../shared/reference_impl``, their pinned commit plus its compatibility patch) in a scratch copy,
reads the pickled examples it writes for one split (`datasets/<dataset>/freq_<F>/
shuffle_<S>_shot_<K>/{train,support,query}.bin`), and turns the same data files into action
sequences with our reader (the `dataset_reader` of `experiments/<dataset>_<K>shot.jsonnet`, the
faithful config). Both sides are mapped to one canonical string per action, the tree fragment the
action builds, so that sequences can be compared; the report says where the two representations
cannot be compared directly.

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/representation_check.py
    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/representation_check.py --datasets jobs geo \\
        --shuffle 2 --shot 2 --work /tmp/repcheck --out report.md

`--work DIR` keeps the scratch copy (and the preprocessed files) for a later run, which then
skips the preprocessing of datasets already done. Without the reference code the script prints
one line and exits 0 (a user's clone has no ``../shared``).
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from typing import Dict, List, Optional, Sequence, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
DEFAULT_REFERENCE = os.path.join(os.path.dirname(ROOT), "shared", "reference_impl")
DATASETS = ("jobs", "geo", "atis")
FREQUENCIES = (0, 50)
PARTS = ("train", "support", "query")
FORMALISM = {"jobs": "prolog", "geo": "lambda", "atis": "lambda"}
STOP = "STOP"
HOLE = "<NT>"
ENTITY = "<e>"

# Runs inside the authors' environment (their `src/` on PYTHONPATH, so that their pickled classes
# load) and prints JSON. Each action becomes the fragment it builds, written as an s-expression
# `( head child ... )`, with variables as <v>, entities as <e>, subtrees still to be popped as
# <NT>, Prolog's implicit conjunction node under `\+` as `,`, and the final reduction into the
# answer root as FINAL (the caller rewrites it per formalism).
AUTHORS_DUMP = r'''
import json, pickle, sys
from model.attention_util import AttentionUtil

ALIASES = {"A": "<v>", "var": "<e>", "hidden": ","}

def label(head):
    return ALIASES.get(head, head)

def inner(vertex):
    while type(vertex).__name__ == "CompositeTreeVertex":
        vertex = vertex.vertex
    return vertex

def sexpr(vertex):
    vertex = inner(vertex)
    if not vertex.children:
        return label(vertex.head)
    return "( " + " ".join([label(vertex.head)] + [sexpr(c) for c in vertex.children]) + " )"

def canonical(action):
    if type(action).__name__ == "GenAction":
        return sexpr(action.vertex)
    rule = action.rule
    head = inner(rule.head)
    if head.head == "answer":
        return "FINAL"
    if hasattr(rule, "body"):  # ProductionRuleBLB: leaves kept in the rule, "nonterminal" marks a pop
        children = ["<NT>" if isinstance(b, str) else sexpr(b) for b in rule.body]
    else:  # ProductionRuleBL: every child is popped
        children = ["<NT>"] * rule.body_length
    return "( " + " ".join([label(head.head)] + children) + " )"

directory, = sys.argv[1:]
out = {}
for part in ("train", "support", "query"):
    examples = pickle.load(open(directory + "/" + part + ".bin", "rb"))
    out[part] = [{
        "utterance": e.src_sent,
        "logical_form": " ".join(e.tgt_code),
        "native": [str(a) for a in e.tgt_actions],
        "canonical": [canonical(a) for a in e.tgt_actions],
        "root_children": len(e.tgt_ast.children),
        "literals": [x for a in e.tgt_actions for x in list(a.entities) + list(a.variables)],
        "attention_targets": [sorted(AttentionUtil.get_candidate_tokens_to_attend(e.src_sent, a).values())
                              for a in e.tgt_actions],
    } for e in examples]
vocab = pickle.load(open(directory + "/train_vocab.bin", "rb"))
support_vocab = pickle.load(open(directory + "/support_vocab.bin", "rb"))
out["vocabulary"] = {"train": len(vocab.action), "support": len(support_vocab.action),
                     "entities": len(support_vocab.entity), "variables": len(support_vocab.variable)}
print(json.dumps(out))
'''


# -- the authors' side ---------------------------------------------------------------------------------


def prepare_reference(reference: str, work: str, data_dir: str, python: str) -> str:
    """
    A patched scratch copy of the authors' code in `work/src` (made once), with the benchmark data
    linked where their scripts look for it and their one extra dependency installed in `work/deps`.
    """
    src = os.path.join(work, "src")
    ready = os.path.join(work, ".ready")
    if os.path.exists(ready):
        return src
    if os.path.exists(src):
        shutil.rmtree(src)
    shutil.copytree(os.path.join(reference, "src"), src)
    for path, _, files in os.walk(src):  # the shared copy is read-only
        os.chmod(path, 0o755)
        for name in files:
            os.chmod(os.path.join(path, name), 0o644)
    with open(os.path.join(reference, "compat.patch"), "rb") as patch:
        subprocess.run(["patch", "-s", "-p1"], stdin=patch, cwd=src, check=True)
    for dataset in DATASETS:
        target = os.path.join(src, "datasets", dataset)
        os.makedirs(target, exist_ok=True)
        os.symlink(os.path.abspath(os.path.join(data_dir, dataset, "lemma_data")), os.path.join(target, "lemma_data"))
    subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--target", os.path.join(work, "deps"), "strsim==0.0.3"],
        check=True,
    )
    open(ready, "w").close()
    return src


def reference_environment(work: str) -> Dict[str, str]:
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join([os.path.join(work, "src"), os.path.join(work, "deps")])
    environment.setdefault("OMP_NUM_THREADS", "1")
    return environment


def run_preprocessing(work: str, dataset: str, python: str, timeout: float) -> Optional[float]:
    """Runs the authors' `generate_examples.py` for a dataset (all splits, freq_0 and freq_50); seconds taken."""
    src = os.path.join(work, "src")
    done = os.path.join(work, f".{dataset}_done")
    if os.path.exists(done):
        return None
    log_path = os.path.join(work, f"preprocess_{dataset}.log")
    start = time.time()
    with open(log_path, "w") as log:
        subprocess.run(
            [python, os.path.join("preprocess_data", dataset, "generate_examples.py")],
            cwd=src, env=reference_environment(work), stdout=log, stderr=subprocess.STDOUT,
            check=True, timeout=timeout,
        )
    seconds = time.time() - start
    with open(done, "w") as handle:
        handle.write(f"{seconds:.0f}\n")
    return seconds


def authors_examples(work: str, dataset: str, frequency: int, shuffle: int, shot: int, python: str) -> Dict:
    """The authors' examples of one split and freq setting, per file, with canonical actions (`AUTHORS_DUMP`)."""
    directory = os.path.join(work, "src", "datasets", dataset, f"freq_{frequency}", f"shuffle_{shuffle}_shot_{shot}")
    result = subprocess.run(
        [python, "-c", AUTHORS_DUMP, directory], cwd=os.path.join(work, "src"),
        env=reference_environment(work), check=True, capture_output=True, text=True,
    )
    dump = json.loads(result.stdout)
    formalism = FORMALISM[dataset]
    for part in PARTS:
        for example in dump[part]:
            example["canonical"] = final_as_ours(example["canonical"], example["root_children"], formalism)
    return dump


def final_as_ours(sequence: List[str], root_children: int, formalism: str) -> List[str]:
    """
    The authors end every sequence with one reduction of the whole stack into the root `answer`.
    In our lambda sequences that is STOP; in Prolog our root is the goal list `,`, so it becomes
    a reduction into `,` followed by STOP.
    """
    if not sequence or sequence[-1] != "FINAL":
        return sequence
    if formalism == "prolog":
        return sequence[:-1] + ["( " + " ".join([","] + [HOLE] * root_children) + " )", STOP]
    return sequence[:-1] + [STOP]


# -- our side ------------------------------------------------------------------------------------------


def render_config(dataset: str, shot: int, shuffle: int, config: str = "experiments/{dataset}_{shot}shot.jsonnet") -> Dict:
    """An experiment config (default: the faithful one) of a dataset and shot, for one split."""
    import _jsonnet

    ext_vars = {"FEWSHOT_SPLIT": str(shuffle), "FEWSHOT_DATA_DIR": "data", "FEWSHOT_SEED": "13",
                "FEWSHOT_PRETRAIN_DIR": "runs/pretrain"}
    path = os.path.join(ROOT, config.format(dataset=dataset, shot=shot))
    if "#" in path:  # a row of a systems table (TABLE#ROW/DATASET_Kshot)
        from fewshot_parser.commands.systems import render_config as render_row

        return render_row(path, ext_vars)
    return json.loads(_jsonnet.evaluate_file(path, ext_vars=ext_vars))


def typed_ours(action: str) -> str:
    """`GEN ( flight <v> )` -> `( flight <v> )`: the action without its GEN/REDUCE kind; STOP stays."""
    return STOP if action == STOP else action.partition(" ")[2]


def canonical_ours(action: str) -> str:
    """`GEN ( flight <v> )` -> `( flight <v> )`; entity slots `<e:ci>` -> `<e>`; STOP stays."""
    if action == STOP:
        return STOP
    _, _, pattern = action.partition(" ")
    return " ".join(ENTITY if t.startswith("<e:") else t for t in pattern.split())


def our_examples(dataset: str, shot: int, shuffle: int, data_dir: str,
                 config_path: str = "experiments/{dataset}_{shot}shot.jsonnet") -> Dict:
    """Our gold action sequences of the split's files, from the pre-training reader of a config (default: the faithful one)."""
    os.environ["FEWSHOT_DATA_DIR"] = data_dir
    import fewshot_parser  # noqa: F401  (registers the readers)
    from allennlp.common import Params
    from allennlp.data import DatasetReader
    from fewshot_parser.data.examples import read_examples

    config = render_config(dataset, shot, shuffle, config_path)
    reader = DatasetReader.from_params(Params(config["pretraining"]["dataset_reader"]))
    system = reader.transition_system
    paths = {"train": config["pretraining"]["train_data_path"], "support": config["train_data_path"],
             "query": config["test_data_path"]}
    out: Dict = {"reader": config["pretraining"]["dataset_reader"]}
    for part in PARTS:
        examples = []
        for example in read_examples(paths[part], reader.formalism):
            native = [str(step.action) for step in system.oracle(example.tree, example.utterance)]
            examples.append({
                "utterance": example.utterance, "logical_form": example.logical_form, "native": native,
                "canonical": [canonical_ours(a) for a in native],
                "typed": [typed_ours(a) for a in native],
            })
        out[part] = examples
    return out


# -- comparison ----------------------------------------------------------------------------------------


def built_template(canonical: Sequence[str]) -> Optional[str]:
    """The template tree a canonical sequence builds (patterns pop one subtree per <NT>), or None."""
    from fewshot_parser.logical_forms.actions import count_holes, fill_holes
    from fewshot_parser.logical_forms.tree import Tree, parse, to_sexpr

    stack: List[Tree] = []
    for pattern_string in canonical:
        if pattern_string == STOP:
            return to_sexpr(stack[0]) if len(stack) == 1 else None
        pattern = parse(pattern_string, "lambda") if pattern_string.startswith("(") else Tree(pattern_string)
        holes = count_holes(pattern)
        if holes > len(stack):
            return None
        children = stack[len(stack) - holes:] if holes else []
        del stack[len(stack) - holes:]
        stack.append(fill_holes(pattern, children))
    return None


def _pattern_tree(pattern: str):
    from fewshot_parser.logical_forms.tree import Tree, parse

    return parse(pattern, "lambda") if pattern.startswith("(") else Tree(pattern)


def _matches(pattern, tree, holes: List) -> bool:
    if not pattern.children and not pattern.is_call:
        if pattern.label == HOLE:
            holes.append(tree)
            return True
        return not tree.children and not tree.is_call and tree.label == pattern.label
    if tree.label != pattern.label or len(tree.children) != len(pattern.children) or not tree.is_call:
        return False
    return all(_matches(p, t, holes) for p, t in zip(pattern.children, tree.children))


def buildable(side: Dict, key: str, any_arity_root: bool) -> List[bool]:
    """
    For each query example, whether its template (the tree its sequence builds) can be built from
    the fragments of the train and support sequences in any combination, i.e. whether a decoder
    restricted to the fine-tuning action vocabulary could output it at all; with `literals` (the
    authors' side) its entities and variables must also be in the classifiers' vocabularies
    (train + support). `any_arity_root`: the authors' final reduction takes the whole stack,
    whatever its size.
    """
    index: Dict[Tuple[str, int], List] = {}
    for part in ("train", "support"):
        for pattern in {p for e in side[part] for p in e[key] if p != STOP}:
            tree = _pattern_tree(pattern)
            index.setdefault((tree.label, len(tree.children)), []).append(tree)
    literals = {x for part in ("train", "support") for e in side[part] for x in e.get("literals", ())}
    memo: Dict = {}

    def tileable(tree, root: bool = False) -> bool:
        if root and any_arity_root and tree.label == ",":
            return all(tileable(child) for child in tree.children)
        if tree not in memo:
            memo[tree] = False
            for pattern in index.get((tree.label, len(tree.children)), ()):
                holes: List = []
                if _matches(pattern, tree, holes) and all(tileable(h) for h in holes):
                    memo[tree] = True
                    break
        return memo[tree]

    flags = []
    for example in side["query"]:
        template = built_template(example[key])
        flags.append(
            template is not None and tileable(_pattern_tree(template), root=True)
            and all(x in literals for x in example.get("literals", ()))
        )
    return flags


def lengths(examples: List[Dict]) -> str:
    """Mean and maximum native sequence length."""
    values = [len(e["native"]) for e in examples]
    return f"{statistics.mean(values):.2f} / {max(values)}"


def side_stats(side: Dict, key: str, any_arity_root: bool) -> Dict[str, str]:
    """The report rows of one side (`key`: which action strings the buildability check uses)."""
    train_actions = {a for e in side["train"] for a in e["native"]}
    support_actions = {a for e in side["support"] for a in e["native"]}
    templates = Counter(" ".join(e["native"]) for e in side["train"])
    canonical_train = {a for e in side["train"] for a in e["canonical"]}
    flags = buildable(side, key, any_arity_root)
    built = (sum(flags), len(flags))
    stats = {
        "distinct actions in train (native strings)": str(len(train_actions)),
        "distinct actions in train (canonical)": str(len(canonical_train)),
        "support actions not in train (new at fine-tuning)": str(len(support_actions - train_actions)),
        "distinct actions in train + support + query":
            str(len({a for p in PARTS for e in side[p] for a in e["native"]})),
        "sequence length, train: mean / max": lengths(side["train"]),
        "sequence length, support: mean / max": lengths(side["support"]),
        "sequence length, query: mean / max": lengths(side["query"]),
        "distinct templates in train (action sequences)": str(len(templates)),
        "... of which with at least 2 examples": str(sum(1 for n in templates.values() if n >= 2)),
        "query LFs buildable from train + support actions":
            "{} / {} ({:.1f}%)".format(*built, 100.0 * built[0] / max(built[1], 1)),
    }
    if "attention_targets" in side["train"][0]:
        steps = [bool(t) for e in side["train"] for t in e["attention_targets"]]
        stats["train steps with a supervised-attention target (their `--sup_attention` rule)"] = (
            f"{sum(steps)} / {len(steps)} ({100.0 * sum(steps) / len(steps):.1f}%)"
        )
    return stats


def compare_part(authors: List[Dict], ours: List[Dict]) -> Tuple[Dict[str, int], List[Tuple[Dict, Dict]]]:
    """Per-reason counts of differing canonical sequences of one file, and the differing pairs."""
    counts = Counter()
    differing = []
    for theirs, mine in zip(authors, ours):
        assert theirs["utterance"] == mine["utterance"], (theirs["utterance"], mine["utterance"])
        counts["examples"] += 1
        if theirs["canonical"] == mine["canonical"]:
            counts["same sequence"] += 1
            continue
        differing.append((theirs, mine))
        if built_template(theirs["canonical"]) != built_template(mine["canonical"]):
            counts["different template tree (which atoms are slots, tree shape)"] += 1
        elif len(theirs["canonical"]) != len(mine["canonical"]):
            counts["same template tree, different segmentation (length differs)"] += 1
        else:
            counts["same template tree, different segmentation (same length)"] += 1
    return counts, differing


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> List[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return lines


def code(sequence: Sequence[str]) -> str:
    """Actions as Markdown code spans."""
    return "`" + "` `".join(sequence) + "`"


def report_dataset(dataset: str, frequency: int, shuffle: int, shot: int, authors: Dict, ours: Dict,
                   examples_shown: int) -> List[str]:
    """The Markdown section of one dataset and freq setting."""
    rule = "ProductionRuleBL" if frequency > 0 else "ProductionRuleBLB"
    lines = [f"### {dataset}, freq_{frequency} ({rule}), shuffle {shuffle}, shot {shot}", ""]
    theirs_stats = side_stats(authors, "canonical", any_arity_root=FORMALISM[dataset] == "prolog")
    our_stats = side_stats(ours, "typed", any_arity_root=False)
    rows = [[name, theirs_stats[name], our_stats.get(name, "n/a")] for name in theirs_stats]
    vocabulary = authors["vocabulary"]
    rows.append(["action vocabulary size (train_vocab.bin / support_vocab.bin, with specials)",
                 f"{vocabulary['train']} / {vocabulary['support']}", "n/a"])
    lines += markdown_table(["", f"authors freq_{frequency}", f"ours ({ours.get('label', 'faithful reader')})"], rows) + [""]
    for name, side, key in (("authors", authors, "canonical"), ("ours", ours, "typed")):
        known = {a for e in side["train"] for a in e[key]}
        new = sorted({a for e in side["support"] for a in e[key]} - known)
        lines.append(f"New at fine-tuning, {name}: " + (code(new) if new else "none"))
    lines.append("")
    rows = []
    shown: List[Tuple[str, Dict, Dict]] = []
    for part in PARTS:
        counts, differing = compare_part(authors[part], ours[part])
        total = counts.pop("examples")
        same = counts.pop("same sequence", 0)
        breakdown = "; ".join(f"{name}: {n}" for name, n in sorted(counts.items())) or "-"
        rows.append([part, str(total), f"{total - same} ({100.0 * (total - same) / max(total, 1):.1f}%)", breakdown])
        shown += [(part, theirs, mine) for theirs, mine in differing]
    lines += markdown_table(["file", "examples", "canonical sequences differ", "why"], rows) + [""]
    theirs_built = buildable(authors, "canonical", any_arity_root=FORMALISM[dataset] == "prolog")
    ours_built = buildable(ours, "typed", any_arity_root=False)
    only_theirs = [e for e, a, b in zip(ours["query"], theirs_built, ours_built) if a and not b]
    only_ours = [e for e, a, b in zip(ours["query"], theirs_built, ours_built) if b and not a]
    lines.append("Query LFs buildable from the authors' train + support actions but not from ours: "
                 f"{len(only_theirs)}; from ours but not theirs: {len(only_ours)}.")
    for name, chosen in (("authors only", only_theirs), ("ours only", only_ours)):
        distinct = list({example["logical_form"]: example for example in chosen}.values())
        for example in distinct[:examples_shown]:
            lines.append(f"- {name}: `{example['logical_form']}` (ours: {code(example['typed'])})")
    lines.append("")
    if shown:
        lines += [f"First {min(examples_shown, len(shown))} differing examples "
                  "(authors' canonical actions, then ours):", ""]
        seen_templates = set()
        for part, theirs, mine in shown:
            key = (tuple(theirs["canonical"]), tuple(mine["canonical"]))
            if key in seen_templates:
                continue
            seen_templates.add(key)
            lines += [f"- {part}: `{' '.join(theirs['utterance'])}` / `{theirs['logical_form']}`",
                      f"  - authors ({len(theirs['canonical'])}): {code(theirs['canonical'])}",
                      f"  - ours ({len(mine['canonical'])}): {code(mine['canonical'])}"]
            if len(seen_templates) >= examples_shown:
                break
        lines.append("")
    return lines


CAVEATS = """\
How the two sides are made comparable, and where they are not:

- **Canonical action** = the tree fragment the action builds, as an s-expression `( head child ... )`:
  variables are `<v>` (theirs `A`, ours `<v>`), entities `<e>` (theirs `var`, ours `<e:TYPE>`: our
  entity slots are typed, theirs are not), a subtree still to be popped is `<NT>` (their BLB rule
  body's `nonterminal`, every child of a BL rule, our hole). GEN and REDUCE are not distinguished
  (a fragment without `<NT>` pops nothing either way; their freq_50 data has REDUCE rules with no
  `<NT>`, which we would call GEN).
- **The end of a sequence.** The authors end with one reduction of the whole stack into the root
  `answer`; we end with STOP. In lambda calculus (geo, atis) their final reduction is counted as
  our STOP. In Prolog (jobs) our root is the goal list `,`, which the authors do not have (their
  `answer` takes the goals directly): their final reduction is counted as `( , <NT> ... )` plus
  STOP, one action more than they actually predict. Native lengths (first table) are the
  sequences as each side trains on them: theirs include the final reduction, ours include STOP.
- **Which atoms are slots differs.** The authors' `is_lit` makes `year`, `hour`, `month`, `20`
  (jobs), constants with some type suffixes (`:cl`, `:me`, `:ap`, `:al`, ...: `first:cl`,
  `breakfast:me`) and a fixed list (`usa:co`, ...) entities (atis, geo), whether or not they occur
  in the utterance, and predict them by classification over an entity vocabulary; ours makes an
  anonymized atom (`ci0`, `num_salary`) an entity only when it occurs in the utterance, and copies
  it from there; every other constant stays inside the action. Their
  `\\+ ( ... )` adds an implicit node (`hidden`, shown as `,`), as our parenthesised goal list does.
  Examples counted under "different template tree" differ for these reasons before any
  segmentation question arises.
- **Idioms.** The authors mine subtrees per file (train, and each support and query file on its
  own) and turn every mined subtree seen at least `freq` times (freq_0: all of them) into one GEN
  of a composite vertex; their support and query sequences therefore depend on those small files'
  own statistics. We learn idioms once from train.txt (min_support 5, completeness 1.0) and tile
  every file with them, so a support or query LF uses training idioms or base fragments.
- **BL versus BLB.** With ProductionRuleBL (freq_50) every leaf that is not inside a composite is
  its own GEN action (`GEN A`, `GEN e`, ...) and a REDUCE names only its head and arity; our
  fragments always carry their leaves, as BLB rules do. So our representation corresponds to
  BLB (freq_0) with different idioms, and freq_50 sequences cannot match ours by construction.
"""


def emit_report(text: str, out: Optional[str]) -> None:
    """Prints a Markdown report and, when `out` is given, also writes it there."""
    print(text, end="")
    if out:
        with open(out, "w", encoding="utf-8") as handle:
            handle.write(text)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS), choices=DATASETS)
    parser.add_argument("--freqs", nargs="+", type=int, default=list(FREQUENCIES), choices=FREQUENCIES)
    parser.add_argument("--shuffle", type=int, default=0, help="split (shuffle) to compare (default 0)")
    parser.add_argument("--shot", type=int, default=1, choices=(1, 2))
    parser.add_argument("--reference", default=DEFAULT_REFERENCE,
                        help="the authors' code (default ../shared/reference_impl)")
    parser.add_argument("--data-dir", default=os.path.join(ROOT, "data"))
    parser.add_argument("--work", default=None, help="scratch directory to keep (default: a temporary one, removed)")
    parser.add_argument("--python", default=sys.executable,
                        help="interpreter for the authors' code (needs torch, nltk)")
    parser.add_argument("--timeout", type=float, default=3600.0, help="seconds allowed per dataset's preprocessing")
    parser.add_argument("--examples", type=int, default=3, help="differing examples shown per dataset and freq")
    parser.add_argument("--out", default=None, help="also write the Markdown report here")
    parser.add_argument("--config", default="experiments/{dataset}_{shot}shot.jsonnet",
                        help="our config whose pre-training reader is compared ({dataset}, {shot} filled in; "
                             "default: the faithful one)")
    args = parser.parse_args(argv)
    if os.sep in args.python:  # the authors' code runs in its own directory
        args.python = os.path.abspath(args.python)

    if not os.path.isdir(os.path.join(args.reference, "src")):
        print(f"representation_check: the authors' code is not at {args.reference}; nothing to compare.")
        return 0
    work = args.work or tempfile.mkdtemp(prefix="representation_check_")
    os.makedirs(work, exist_ok=True)
    lines = [
        "# Representation check: the authors' action sequences and ours", "",
        f"Split: shuffle {args.shuffle}, shot {args.shot}; train.txt is the same file in every split.",
        f"Command: `OMP_NUM_THREADS=1 .venv/bin/python benchmarks/representation_check.py "
        f"{' '.join(argv) if argv is not None else ' '.join(sys.argv[1:])}`".rstrip() + "", "",
    ]
    try:
        prepare_reference(args.reference, work, args.data_dir, args.python)
        timings = []
        for dataset in args.datasets:
            seconds = run_preprocessing(work, dataset, args.python, args.timeout)
            timings.append(f"{dataset}: " + (f"{seconds:.0f} s" if seconds is not None else "reused from --work"))
        lines += ["The authors' preprocessing (all splits, freq_0 and freq_50) took " + ", ".join(timings) + ".", ""]
        lines += CAVEATS.splitlines() + [""]
        for dataset in args.datasets:
            ours = our_examples(dataset, args.shot, args.shuffle, args.data_dir, args.config)
            if args.config != parser.get_default("config"):
                ours["label"] = os.path.basename(args.config.format(dataset=dataset, shot=args.shot))
            for frequency in args.freqs:
                authors = authors_examples(work, dataset, frequency, args.shuffle, args.shot, args.python)
                lines += report_dataset(dataset, frequency, args.shuffle, args.shot, authors, ours, args.examples)
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)
    emit_report("\n".join(lines).rstrip() + "\n", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
