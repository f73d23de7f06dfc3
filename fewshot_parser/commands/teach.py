"""
`allennlp teach`: fine-tune a pre-trained archive on your own support file, in one command, with the
fine-tuning recipe the archive carries.

    allennlp teach runs/pretrain/geo-ours/model.tar.gz my_support.txt -s runs/my_parser
    allennlp teach runs/pretrain/geo-contextual-schema/model.tar.gz my_support.txt -s runs/my_best --query my_query.txt

A pre-trained archive holds the fine-tuning config of the experiment that pre-trained it, one per shot,
and the data files that config reads (`fewshot_parser.training.teaching_recipe`), so teaching needs
neither this project's checkout nor the benchmark data. The shot (which fine-tuning hyper-parameters) is
read off the support file: 2 when most new predicates have two examples or more and the others only
appear beside them, else 1 (`teaching_recipe.shot_of`; `--shot` chooses). The result is `<serialization
dir>/model.tar.gz`, for `allennlp predict` and `evaluate`, with the files its reader reads under
`<serialization dir>/teaching/`; AllenNLP's log is in `<serialization dir>/out.log`, and the terminal
shows the phases, one line per epoch, the seconds each phase took (`fewshot_parser.common.phases`) and
the time in all.
"""

import argparse
import atexit
import contextlib
import json
import logging
import os
import shutil
import sys
import tempfile
import time
from typing import Any, Callable, Dict, Iterator, List, NamedTuple, Optional

from allennlp.commands.subcommand import Subcommand
from allennlp.common import Params

from fewshot_parser.commands.arguments import int_in, positive_int
from fewshot_parser.common.errors import UserError
from fewshot_parser.common.phases import format_phases, take_phases
from fewshot_parser.common.threads import available_cores
from fewshot_parser.training import teaching_recipe

logger = logging.getLogger(__name__)

# What teach reads from the pre-trained archive.
CONFIG = "config.json"
ACTIONS_VOCABULARY = "vocabulary/actions.txt"
# Where a taught run keeps the files its config reads.
TAUGHT_FILES = "teaching"


@Subcommand.register("teach")
class Teach(Subcommand):
    """Fine-tune a pre-trained archive on a support file with the recipe the archive carries."""

    def add_subparser(self, parser: argparse._SubParsersAction) -> argparse.ArgumentParser:
        description = (
            "Teach a pre-trained parser new predicates: fine-tune its archive on your support file "
            "(utterance<TAB>logical form per line) with the fine-tuning recipe the archive carries, "
            "and write the fine-tuned archive <serialization dir>/model.tar.gz."
        )
        sub = parser.add_parser(self.name, description=description, help=description)
        sub.add_argument("archive", help="the pre-trained archive, e.g. runs/pretrain/geo-ours/model.tar.gz")
        sub.add_argument("support", help="your examples of the new predicates, utterance<TAB>logical form per line")
        sub.add_argument(
            "-s",
            "--serialization-dir",
            default=None,
            help="where the fine-tuned archive (model.tar.gz), its config and log go (required unless --state)",
        )
        sub.add_argument(
            "--state",
            default=None,
            help="a parser state directory, as `allennlp serve --state` keeps: the examples are added "
            "to those taught before, and the parser is taught all of them as its next version "
            "(created from the archive when new; shared with a running server)",
        )
        sub.add_argument(
            "--corrections",
            action="store_true",
            help="accept a support file without new predicates: its examples of known predicates "
            "are corrections the parser is fine-tuned on",
        )
        sub.add_argument(
            "--query",
            default=None,
            help="evaluate the fine-tuned parser on this file (same format) and print its exact match",
        )
        sub.add_argument(
            "--shot",
            type=int_in([1, 2], "shot"),
            default=None,
            help="use the 1-shot or 2-shot recipe (default: 2 when most new predicates have "
            "two examples or more and the others only appear beside them, else 1)",
        )
        sub.add_argument(
            "--threads",
            type=positive_int,
            default=None,
            help="torch threads (default: the plugin's, see FEWSHOT_THREADS)",
        )
        sub.add_argument(
            "-o",
            "--overrides",
            default="",
            help="a JSON object merged into the recipe, as with allennlp train -o "
            '(e.g. \'{"trainer": {"cuda_device": 0}}\')',
        )
        sub.add_argument(
            "-f",
            "--force",
            action="store_true",
            help="overwrite the serialization directory if it holds an earlier run",
        )
        sub.set_defaults(func=teach_from_args)
        return sub


def teach_from_args(args: argparse.Namespace) -> None:
    if args.state is not None:
        from fewshot_parser.serving.state_teaching import teach_state

        if args.serialization_dir is not None or args.query is not None or args.shot is not None:
            raise UserError(
                "--state keeps the taught versions in the state directory; leave out -s, --query and --shot"
            )
        teach_state(
            args.archive, args.support, args.state, teach, threads=args.threads, overrides=args.overrides, report=say
        )
        return
    if args.serialization_dir is None:
        raise UserError("teach: -s/--serialization-dir is required (or --state, a parser state directory)")
    teach(
        args.archive,
        args.support,
        args.serialization_dir,
        query=args.query,
        shot=args.shot,
        threads=args.threads,
        overrides=args.overrides,
        force=args.force,
        allow_known=args.corrections,
    )


class Support(NamedTuple):
    """What the support file holds: its examples, the predicates the archive does not know, the shot."""

    examples: int
    new_predicates: List[str]
    shot: int


def say(text: str) -> None:
    """One progress line on the terminal."""
    print(f"teach: {text}", flush=True)


def teach(
    archive: str,
    support: str,
    serialization_dir: str,
    query: Optional[str] = None,
    shot: Optional[int] = None,
    threads: Optional[int] = None,
    overrides: str = "",
    force: bool = False,
    report: Callable[[str], None] = say,
    allow_known: bool = False,
) -> Dict[str, Any]:
    """
    Fine-tunes the pre-trained `archive` on `support` with the archive's recipe (see the module
    docstring) into `serialization_dir`, evaluating on `query` when given; returns the run's metrics.
    Bad input (a missing or damaged file, a line that does not parse, a known predicate with another
    arity, a support file without a new predicate, an archive without a recipe) is a `UserError`
    naming the file (and line), raised before anything is trained.

    # Parameters

    archive : `str`
        A pre-trained archive (`model.tar.gz` of a pre-training).
    support : `str`
        `utterance<TAB>logical form` lines.
    serialization_dir : `str`
        Where `model.tar.gz` goes; must be new or empty unless `force`.
    query : `str`, optional (default = `None`)
        Evaluated on after fine-tuning (`test_exact_match` in the metrics).
    shot : `int`, optional (default = `None`)
        The 1-shot or 2-shot recipe; by default read off the support file.
    threads : `int`, optional (default = `None`)
        Torch threads; by default the plugin's (`fewshot_parser.common.threads`).
    overrides : `str`, optional (default = `""`)
        JSON merged into the recipe, as `allennlp train -o`.
    force : `bool`, optional (default = `False`)
        Overwrite a serialization directory that holds an earlier run.
    report : `Callable[[str], None]`, optional (default = `say`)
        Where the progress lines go.
    allow_known : `bool`, optional (default = `False`)
        Accept a support file whose examples use only known predicates (corrections).
    """
    import torch

    from fewshot_parser.common.archives import check_archive

    started = time.time()
    if threads is not None:
        torch.set_num_threads(threads)
    if os.path.isdir(archive) and os.path.isfile(os.path.join(archive, "model.tar.gz")):
        archive = os.path.join(archive, "model.tar.gz")  # a pre-training directory stands for its archive
    check_archive(archive, "the pre-trained archive to teach")
    for path, what in ((support, "support"), (query, "query")):
        if path is not None and not os.path.isfile(path):
            raise UserError(f"{path}: no such {what} file (one example per line: utterance<TAB>logical form)")
    check_serialization_dir(serialization_dir, force, [archive, support, query])
    take_phases()  # only this run's phases
    with quiet_console():
        metrics = _teach(archive, support, serialization_dir, query, shot, overrides, force, report, allow_known)
    report(f"time per phase: {format_phases(take_phases())}")
    report(f"done in {time.time() - started:.1f} s: {os.path.join(serialization_dir, 'model.tar.gz')}")
    return metrics


def _teach(
    archive: str,
    support: str,
    serialization_dir: str,
    query: Optional[str],
    shot: Optional[int],
    overrides: str,
    force: bool,
    report: Callable[[str], None],
    allow_known: bool = False,
) -> Dict[str, Any]:
    """`teach` after its arguments are checked: the recipe, the support check, the training."""
    import torch
    from allennlp.commands import train as train_command

    from fewshot_parser.common.archives import read_members

    members = read_members(archive, [CONFIG, ACTIONS_VOCABULARY])
    pretraining = archive_config(archive, members.get(CONFIG))
    recipes = teaching_recipe.read_recipes(archive)
    if recipes is None:
        raise UserError(
            f"{archive}: the archive carries no teaching recipe (it was pre-trained before archives "
            "stored one); add it with lab/scripts/add_teaching_recipe.py, or pre-train it again"
        )
    report(
        f"pre-trained archive {archive} (seed {pretraining.get('random_seed', 'unknown')}, "
        f"torch threads {torch.get_num_threads()}; recipes for {' and '.join(sorted(recipes.by_shot))}-shot)"
    )
    files = teaching_recipe.unpack_files(recipes, tempfile.mkdtemp(prefix="fewshot_teach_"))
    atexit.register(shutil.rmtree, files, True)
    recipe, recipe_shot = teaching_recipe.choose_recipe(recipes, shot or 1, archive)
    found = check_support(
        support,
        teaching_recipe.fill_recipe(recipe, files, support, query),
        known_predicates(members.get(ACTIONS_VOCABULARY)),
        archive,
        allow_known,
    )
    wanted = shot or found.shot
    if wanted != recipe_shot:
        recipe, recipe_shot = teaching_recipe.choose_recipe(recipes, wanted, archive)
    note = "" if shot else " (read off the support file)"
    if recipe_shot != wanted:
        note = f" (the archive has no {wanted}-shot recipe)"
    report(f"recipe: {recipe_shot}-shot{note}")
    new = (
        ", ".join(found.new_predicates)
        if found.new_predicates
        else ("none (corrections only)" if allow_known else "(not checked: no action vocabulary)")
    )
    report(f"support {support}: {found.examples} example(s); new predicate(s): {new}")

    config = teaching_config(recipe, archive, files, support, query)
    size = len(config["model"]["members"]) if config["model"].get("type") == "fewshot_ensemble" else 1
    if size > 1:
        # Members after the first train side by side, one process per core at this thread count;
        # each trains as it would in turn (training/ensemble_finetune.py), so the numbers do not change.
        config["parallel_members"] = max(1, min(size - 1, available_cores() // max(1, torch.get_num_threads())))
    params = with_overrides(config, overrides)
    parallel = params.get("parallel_members", 1)
    report(
        f"fine-tuning {'one model' if size == 1 else f'{size} models that vote'}"
        + (f" ({parallel} at a time after the first)" if size > 1 and parallel > 1 else "")
        + ": loading the archive, reading the support set, new actions start from their prototypes"
    )
    train_command.train_model(params, serialization_dir, force=force)
    keep_files(serialization_dir, files, recipes)
    with open(os.path.join(serialization_dir, "metrics.json")) as handle:
        metrics = json.load(handle)
    if query is not None and "test_exact_match" in metrics:
        report(f"exact match on {query}: {100 * metrics['test_exact_match']:.2f}%")
    return metrics


def teaching_config(
    recipe: Dict[str, Any], archive: str, files: str, support: str, query: Optional[str], progress: bool = True
) -> Dict[str, Any]:
    """
    The experiment config that fine-tunes `archive` on `support` with `recipe`: its placeholders
    filled (`files` holds the bundled files), the archive used as it is (never pre-trained again);
    with `progress`, the trainer reports each epoch (`fewshot_progress`, which changes no number).
    """
    config = teaching_recipe.fill_recipe(recipe, files, support, query)
    config["pretrained_archive"] = os.path.abspath(archive)
    model = config.get("model") or {}
    if model.get("type") == "fewshot_known_fallback" and isinstance(model.get("parser"), dict):
        # A recipe stored from a finished run's config.json, where the `pretrained_fallback` retention
        # had put its routing model in place of the parser (`allennlp train` of such a config stores
        # it): the parser is the experiment's model, and the retention method wraps it again.
        logger.warning("%s: the recipe names the routing model of a finished run; teaching its parser", archive)
        config["model"] = model["parser"]
    if progress:
        model = config.get("model") or {}
        members = len(model.get("members", [])) if model.get("type") == "fewshot_ensemble" else 1
        trainer = config.setdefault("trainer", {})
        trainer["callbacks"] = list(trainer.get("callbacks") or []) + [{"type": "fewshot_progress", "members": members}]
    return config


def keep_files(serialization_dir: str, files: str, recipes: teaching_recipe.Recipes) -> None:
    """
    Makes a taught run stand on its own: the files its config reads move from the temporary `files`
    to `<serialization_dir>/teaching/`, its config (and the archive's) says so, and the archive
    carries the recipes it was taught with.
    """
    target = os.path.abspath(os.path.join(serialization_dir, TAUGHT_FILES))
    teaching_recipe.copy_tree(files, target)
    path = os.path.join(serialization_dir, CONFIG)
    with open(path) as handle:
        config = teaching_recipe.relocate(json.load(handle), files, target)
    data = json.dumps(config, indent=4).encode("utf-8")
    with open(path + ".tmp", "wb") as handle:
        handle.write(data)
    os.replace(path + ".tmp", path)
    archive = os.path.join(serialization_dir, "model.tar.gz")
    if os.path.isfile(archive):
        teaching_recipe.write_recipes(archive, recipes, replace={CONFIG: data})


def archive_config(archive: str, data: Optional[bytes]) -> Dict[str, Any]:
    """The config a pre-trained archive was trained from; a fine-tuned archive is a `UserError`."""
    if data is None:
        raise UserError(f"{archive}: the archive holds no config.json")
    config = json.loads(data.decode("utf-8"))
    if "pretrained_archive" in config:
        raise UserError(
            f"{archive}: a fine-tuned archive (of a few-shot experiment, type {config.get('type')}); "
            "teach starts from a pre-trained one, such as runs/pretrain/geo-ours/model.tar.gz "
            "(to teach predicate after predicate, keep a state: teach PRETRAINED support.txt --state DIR)"
        )
    return config


def known_predicates(actions_vocabulary: Optional[bytes]) -> Optional[List[str]]:
    """The predicates of the actions in an archive's `vocabulary/actions.txt` (None without one)."""
    if actions_vocabulary is None:
        return None
    return teaching_recipe.predicates_of(actions_vocabulary.decode("utf-8").splitlines())


def check_serialization_dir(directory: str, force: bool, inputs: List[Optional[str]]) -> None:
    """Refuses a serialization directory that holds an earlier run (unless `force`) or one of the inputs."""
    if os.path.exists(directory) and not os.path.isdir(directory):
        raise UserError(f"{directory}: a file; -s names the directory the fine-tuned archive goes to")
    inside = os.path.abspath(directory) + os.sep
    for path in inputs:
        if path is not None and os.path.abspath(path).startswith(inside):
            raise UserError(f"{directory}: holds {path}, an input of teach; choose another -s")
    if os.path.isdir(directory) and os.listdir(directory) and not force:
        raise UserError(
            f"Serialization directory ({directory}) already exists and is not empty; "
            "--force replaces it, or choose another -s"
        )


def check_support(
    support: str, config: Dict[str, Any], known: Optional[List[str]], archive: str, allow_known: bool = False
) -> Support:
    """
    Reads `support` with the LF reader of the experiment `config` (so a bad line is the reader's
    `FILE:LINE: reason`) and finds the predicates the archive does not know (`known`, from its action
    vocabulary; None skips the check). A file without a new predicate is a `UserError` unless
    `allow_known` (its examples are corrections).
    """
    by_example = teaching_recipe.new_predicates_by_example(config["dataset_reader"], support, known)
    examples, counts = len(by_example), teaching_recipe.example_counts(by_example)
    if known is None:
        return Support(examples, [], 1)
    if not counts and allow_known:
        return Support(examples, [], 1)
    if not counts:
        raise UserError(
            f"{support}: no new predicate (every predicate of its {examples} example(s) is one "
            f"{archive} already knows); teach adds predicates (--corrections fine-tunes on "
            "corrections of known ones), allennlp predict parses with the archive as it is"
        )
    return Support(examples, sorted(counts), teaching_recipe.shot_of(by_example))


def with_overrides(config: Dict[str, Any], overrides: str) -> Params:
    """The recipe as `Params`, with `-o` overrides merged in as `allennlp train -o` merges them."""
    from allennlp.common import params as params_module

    if not overrides:
        return Params(config)
    try:
        parsed = json.loads(overrides)
    except ValueError as error:
        raise UserError(f"overrides (-o): not a JSON object ({error})") from None
    if not isinstance(parsed, dict):
        raise UserError("overrides (-o): not a JSON object")
    return Params(params_module.with_overrides(config, parsed))


@contextlib.contextmanager
def quiet_console(level: int = logging.WARNING) -> Iterator[None]:
    """
    Leaves AllenNLP's INFO log to `out.log` while teach runs: the console handlers of the root logger,
    including those `allennlp train` installs (`prepare_global_logging`), show only `level` and above.
    `FEWSHOT_VERBOSE=1` (or `ALLENNLP_DEBUG`) keeps them as they are.
    """
    from allennlp.common import logging as common_logging

    from fewshot_parser.common.errors import verbose

    if verbose():
        yield
        return
    changed = []

    def quiet() -> None:
        for handler in logging.getLogger().handlers:
            if (
                type(handler) is logging.StreamHandler
                and handler.stream in (sys.stdout, sys.stderr)
                and handler.level < level
            ):
                changed.append((handler, handler.level))
                handler.setLevel(level)

    original = common_logging.prepare_global_logging

    def prepare_global_logging(*args: Any, **kwargs: Any) -> None:
        original(*args, **kwargs)
        quiet()

    quiet()
    common_logging.prepare_global_logging = prepare_global_logging
    try:
        yield
    finally:
        common_logging.prepare_global_logging = original
        for handler, previous in changed:
            handler.setLevel(previous)
