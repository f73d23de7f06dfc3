"""
One `allennlp train` per few-shot experiment: pre-train (or reuse a pre-trained archive), extend
the vocabulary with the support set, initialise new actions from prototypes, fine-tune on the
support set and evaluate on the query set.
"""

import copy
import fcntl
import json
import logging
import os
import re
import shutil
from typing import Any, Dict, List, Optional, Tuple, cast

import torch
from allennlp.commands.train import TrainModel, train_model
from allennlp.common import Lazy, Params, cached_transformers
from allennlp.common.checks import ConfigurationError
from allennlp.common.util import prepare_environment
from allennlp.data import DataLoader, DatasetReader, Vocabulary
from allennlp.models import Model
from allennlp.models.archival import load_archive
from allennlp.training import Trainer

from fewshot_parser.common.allennlp_internals import lazy_config_dict
from fewshot_parser.common.archives import check_archive, extracted_archive_dir
from fewshot_parser.common.phases import phase
from fewshot_parser.common.provenance import NUMERICS, code_version, config_hash, numerics
from fewshot_parser.common.safe_io import atomic_open
from fewshot_parser.training.config_check import check_sections
from fewshot_parser.training.retention import RetentionContext, RetentionMethod, attach_retention, check_optimizer

logger = logging.getLogger(__name__)

# How to get a damaged pre-trained archive made again (its config is at hand).
REMAKE = "; delete it and the same command pre-trains it again"


def ensure_pretrained(archive_path: str, pretraining: Optional[Dict[str, Any]]) -> str:
    """
    Returns `archive_path`, pre-training it first from the `pretraining` config when it does not
    exist. Training happens in `<dir>.partial` next to the target directory and is renamed into
    place only when complete, so an interrupted pre-training never looks finished. Instead it is
    resumed: the next call with the same config goes on from the last completed epoch (with the
    `fewshot_random_state` callback in its trainer, exactly as if it had not been interrupted); a
    changed config starts over. A second process asking for the same archive waits for the first.
    """
    if pretraining is None:
        if os.path.isfile(archive_path):
            check_archive(archive_path, "the config's pretrained_archive")
            logger.info("Reusing the pre-trained archive %s", archive_path)
            return archive_path
        raise ConfigurationError(
            f"pretrained_archive {archive_path!r} does not exist and no 'pretraining' config is given"
        )
    params: Dict[str, Any] = pretraining.as_dict(quiet=True) if isinstance(pretraining, Params) else dict(pretraining)
    if os.path.isfile(archive_path) and _made_from(archive_path, params):
        check_archive(archive_path, "the config's pretrained_archive" + REMAKE)
        logger.info("Reusing the pre-trained archive %s", archive_path)
        return archive_path
    if os.path.isfile(archive_path):
        logger.warning("%s was pre-trained with another config; pre-training it again", archive_path)
    target = os.path.dirname(os.path.abspath(archive_path))
    os.makedirs(os.path.dirname(target), exist_ok=True)
    staging = target + ".partial"
    with open(staging + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # blocks while another process pre-trains this archive
        if os.path.isfile(archive_path) and _made_from(archive_path, params):
            check_archive(archive_path, "the config's pretrained_archive" + REMAKE)
            logger.info("Reusing the pre-trained archive %s, written by another process", archive_path)
            return archive_path
        _drop_unfinished_checkpoints(staging)
        recover = _resumable(staging, params)
        if recover:
            logger.info("Resuming the interrupted pre-training in %s", staging)
        else:
            if os.path.isdir(staging):
                shutil.rmtree(staging)
            logger.info("Pre-training into %s", target)
        # A transformer already in AllenNLP's cache (this process loaded one before) is copied, not
        # built, so the modules built after it draw other initial weights than in a fresh process
        # (lab/scripts/transformer_cache_check.py): start from an empty cache, as `allennlp train` does.
        cached_transformers._clear_caches()
        train_model(Params(copy.deepcopy(params), history="pretraining."), staging, recover=recover)
        write_provenance(staging, params)
        if os.path.isdir(target):
            shutil.rmtree(target)
        os.replace(staging, target)
    if not os.path.isfile(archive_path):
        raise ConfigurationError(
            f"pre-training finished but {archive_path} was not written (is the name model.tar.gz?)"
        )
    return archive_path


def store_teaching_recipe(
    archive_path: str, serialization_dir: str, vocab: Vocabulary, replace: bool, shot: Optional[int] = None
) -> bool:
    """
    Stores the experiment of `serialization_dir` (its `config.json`) in the pre-trained archive as
    the recipe for `shot`, by default read off its support set (`training.teaching_recipe.shot_of`);
    while it writes, no other process pre-trains or rewrites the archive. Returns whether it wrote.
    """
    from fewshot_parser.training import teaching_recipe

    try:
        with open(os.path.join(serialization_dir, "config.json")) as handle:
            experiment = json.load(handle)
    except OSError:  # a member of an ensemble run: the run's config is one level up
        return False
    if experiment.get("type") != "fewshot_pretrain_finetune":
        return False
    if shot is None:
        known = teaching_recipe.predicates_of(vocab.get_token_to_index_vocabulary("actions"))
        shot = teaching_recipe.shot_of(
            teaching_recipe.new_predicates_by_example(
                experiment["dataset_reader"], experiment["train_data_path"], known
            )
        )
    staging = os.path.dirname(os.path.abspath(archive_path)) + ".partial"
    with open(staging + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return teaching_recipe.store_recipe(archive_path, experiment, shot, replace)


PROVENANCE = "provenance.json"


def _loss_term_prefixes(model: Model) -> List[str]:
    """The state-dict prefixes of `model`'s loss terms (`ProtoParser.loss_terms`): training-only modules."""
    loss_terms = getattr(model, "loss_terms", None)
    terms = {id(term) for term in loss_terms()} if callable(loss_terms) else set()
    return [name + "." for name, module in model.named_modules() if name and id(module) in terms]


def load_pretrained_weights(final_model: Model, pretrained: Model) -> None:
    """
    Loads the pre-trained weights into the fine-tuning model, strictly but for loss terms, whose layers a model
    builds only when the term is active: the stored layers of a pre-training's term that the fine-tuning model
    does not build (the attention regularizer's gate when its weight is now 0) are left out by the term
    (`OptionalLayers`), and the layers of a fine-tuning term that the pre-training did not build start from
    their initialisation; both are logged. Any other missing or unexpected weight is a `ConfigurationError`.
    Weights only: the fine-tuning model scopes its own lexicon (the pre-trained state holds the
    pre-training's, `ProtoParser.LEXICON_KEY`).
    """
    weights = {k: v for k, v in pretrained.state_dict().items() if not k.endswith("_scoped_lexicon")}
    missing, unexpected = final_model.load_state_dict(weights, strict=False)
    fresh = sorted(k for k in missing if k.startswith(tuple(_loss_term_prefixes(final_model))))
    missing = sorted(set(missing) - set(fresh))
    if missing or unexpected:
        raise ConfigurationError(
            "the fine-tuning model does not match the pre-trained one: "
            f"missing {missing}, unexpected {sorted(unexpected)}"
        )
    if fresh:
        logger.info("Loss-term parameters the pre-trained model did not build start fresh: %s", ", ".join(fresh))


def write_provenance(directory: str, config: Optional[Dict[str, Any]], **extra: Any) -> Dict[str, Any]:
    """
    Writes `<directory>/provenance.json`: the code version (and config hash) that made its contents,
    and what decides their floats (`provenance.numerics`: this process's torch threads, torch version
    and machine; values an earlier write recorded for the directory's training are kept).
    """
    record: Dict[str, Any] = {"code_version": code_version(), **numerics(), **extra}
    earlier = read_provenance(directory)
    record.update({key: earlier[key] for key in NUMERICS if earlier.get(key)})
    if config is not None:
        record["config_hash"] = config_hash(json.loads(json.dumps(config)))
    temporary = os.path.join(directory, PROVENANCE + ".tmp")
    with open(temporary, "w") as handle:
        json.dump(record, handle, indent=1)
    os.replace(temporary, os.path.join(directory, PROVENANCE))
    return record


def read_provenance(directory: str) -> Dict[str, Any]:
    """`provenance.json` of a run or pre-training directory; empty for one made before it existed."""
    try:
        with open(os.path.join(directory, PROVENANCE)) as handle:
            return json.load(handle)
    except (OSError, ValueError):
        return {}


def by_content(config: Any) -> Any:
    """
    A copy of a config with every string that names a data file replaced by that file's digest, so
    that two configs reading the same data under other names (the 1-shot and the 2-shot split's
    byte-identical `train.txt`) compare equal.
    """
    from fewshot_parser.training.teaching_recipe import file_digests

    return file_digests(config)


def same_pretraining(saved: Any, params: Any) -> bool:
    """Whether two pre-training configs are the same training: the same config, data by content."""
    return by_content(saved) == by_content(params)


def _made_from(archive_path: str, params: Dict[str, Any]) -> bool:
    """Whether the pre-trained archive's directory was trained from this config (`same_pretraining`)."""
    try:
        with open(os.path.join(os.path.dirname(archive_path), "config.json")) as handle:
            saved = json.load(handle)
    except (OSError, ValueError):
        return True  # an archive given without its training directory is taken as it is
    return same_pretraining(saved, params)


_CHECKPOINT_FILE = re.compile(r"^(model|training)_state_e(\d+)_b(\d+)\.th$")


def _checkpoints(staging: str) -> Dict[Tuple[int, int], Dict[str, str]]:
    """AllenNLP's checkpoint files in `staging`: {(epochs, batches): {"model" / "training": path}}."""
    found: Dict[Tuple[int, int], Dict[str, str]] = {}
    for name in os.listdir(staging) if os.path.isdir(staging) else []:
        match = _CHECKPOINT_FILE.match(name)
        if match:
            point = (int(match.group(2)), int(match.group(3)))
            found.setdefault(point, {})[match.group(1)] = os.path.join(staging, name)
    return found


def _drop_unfinished_checkpoints(staging: str) -> None:
    """
    Removes what an interruption left of a checkpoint being written: a model state without its training
    state (or the reverse), and newest checkpoints whose files do not load. AllenNLP resumes from the
    newest model state and fails when it is half a checkpoint; without it, it resumes from the last
    whole one.
    """
    checkpoints = _checkpoints(staging)
    for point in sorted(checkpoints, reverse=True):
        files = checkpoints[point]
        whole = set(files) == {"model", "training"}
        if whole:
            try:
                for path in files.values():
                    torch.load(path, map_location="cpu", weights_only=False)
            except Exception:  # a truncated file: pickle, zip and EOF errors alike
                whole = False
        if whole:
            return
        logger.warning("Dropping the unfinished checkpoint %s of %s", "e%d_b%d" % point, staging)
        for path in files.values():
            os.remove(path)


def _resumable(staging: str, params: Dict[str, Any]) -> bool:
    """Whether `staging` holds an interrupted pre-training of exactly this config, with a whole checkpoint
    (a model and a training state of the same point)."""
    if not any(set(files) == {"model", "training"} for files in _checkpoints(staging).values()):
        return False
    try:
        with open(os.path.join(staging, "config.json")) as handle:
            saved = json.load(handle)
    except (OSError, ValueError):
        return False
    if not same_pretraining(saved, params):
        logger.warning("The pre-training config changed since %s was interrupted; starting over", staging)
        return False
    return True


@TrainModel.register("fewshot_pretrain_finetune", constructor="from_partial_objects")
class PretrainFinetune(TrainModel):
    """
    A few-shot experiment as one `allennlp train`. The top-level `model`, `dataset_reader`,
    `data_loader` and `trainer` describe fine-tuning (and the final model, which is what the archive
    holds); `pretraining` is a complete ordinary training config for the pre-trained parser, run only
    when `pretrained_archive` does not exist yet or was trained from another config, so one
    pre-training serves every split whose config names the same pre-training (the paths included).
    `finetune_seed` re-seeds the random generators after that step (and AllenNLP's transformer cache
    is emptied), so that fine-tuning does not depend on whether pre-training ran in the same process.
    `retention` lists what fine-tuning does to keep the known predicates (`training/retention/`);
    without it fine-tuning is the paper's. An experiment that pre-trains stores itself in the archive
    as its fine-tuning recipe for `allennlp teach`, for its shot (`teaching_shot`, by default read
    off its support set) when the archive has none yet, or always with `teaching_recipe`
    (`training.teaching_recipe`). `training_data_path` names the data
    the archive was pre-trained on, for retention methods that replay it (by default the pre-training's).

    Registered as a `TrainModel` with name "fewshot_pretrain_finetune".
    """

    # Set by `from_partial_objects`: the retention methods and the fine-tuned model's `model` config.
    _retention: List[RetentionMethod] = []
    _model_config: Dict[str, Any] = {}

    @property
    def retention(self) -> List[RetentionMethod]:
        """The retention methods run after fine-tuning (bound to this run)."""
        return self._retention

    def run(self) -> Dict[str, Any]:
        with phase("training"):
            metrics = self.trainer.train()
        for method in self._retention:
            replaced = method.final_model(self.model, self._model_config)
            if replaced is not None:
                self.replace_final_model(replaced["model"], replaced["config"])
        return metrics

    def replace_final_model(self, model: Model, config: Dict[str, Any]) -> None:
        """
        Makes `model` the one evaluated and archived: its weights become `best.th` and its config the
        `model` of the run's `config.json`, which `allennlp train` archives with them.
        """
        self.model = model
        torch.save(model.state_dict(), os.path.join(self.serialization_dir, "best.th"))
        path = os.path.join(self.serialization_dir, "config.json")
        with open(path) as handle:
            run_config = json.load(handle)
        run_config["model"] = config
        with atomic_open(path, "w") as handle:
            json.dump(run_config, handle, indent=4)

    def finish(self, metrics: Dict[str, Any]) -> None:
        with phase("decoding the query set"):
            super().finish(metrics)

    @classmethod
    def from_partial_objects(  # type: ignore
        cls,
        serialization_dir: str,
        local_rank: int,
        dataset_reader: DatasetReader,
        train_data_path: str,
        model: Lazy[Model],
        data_loader: Lazy[DataLoader],
        trainer: Lazy[Trainer],
        pretrained_archive: str,
        pretraining: Optional[Dict[str, Any]] = None,
        test_data_path: Optional[str] = None,
        validation_data_loader: Optional[Lazy[DataLoader]] = None,
        evaluate_on_test: bool = True,
        initialize_new_actions: bool = True,
        finetune_seed: Optional[int] = None,
        retention: Optional[List[Lazy[RetentionMethod]]] = None,
        teaching_recipe: bool = False,
        teaching_shot: Optional[int] = None,
        training_data_path: Optional[str] = None,
        ddp_accelerator: Any = None,
    ) -> "PretrainFinetune":
        if teaching_shot not in (None, 1, 2):
            raise ConfigurationError(f"teaching_shot must be 1 or 2 (the shot of the recipe), not {teaching_shot!r}")
        # Every section is checked for unknown keys and types before a pre-training of minutes.
        check_sections(
            pretraining,
            model=model,
            data_loader=data_loader,
            trainer=trainer,
            validation_data_loader=validation_data_loader,
        )
        code_version()  # the code this run executes: asked now, before a pre-training of minutes or hours
        methods = [method.construct() for method in retention or []]  # a bad entry fails before pre-training
        archive_path = ensure_pretrained(pretrained_archive, pretraining)
        pretrained_from = read_provenance(os.path.dirname(os.path.abspath(archive_path)))
        os.makedirs(serialization_dir, exist_ok=True)
        # What made this run: the code now, and the code and config of the pre-trained archive it uses.
        write_provenance(
            serialization_dir,
            None,
            pretrain_code_version=pretrained_from.get("code_version", "unknown"),
            pretrain_config_hash=pretrained_from.get("config_hash", "unknown"),
        )
        if finetune_seed is not None:
            # Fine-tuning starts from the same random state whether or not this process pre-trained
            # first, so a split gives the same numbers with a fresh or a reused archive.
            prepare_environment(
                Params({"random_seed": finetune_seed, "numpy_seed": finetune_seed, "pytorch_seed": finetune_seed})
            )
        # Pre-training in this process leaves its transformer (MiniLM words) in AllenNLP's cache, and
        # `load_archive` then copies it instead of building a randomly initialised one, which draws
        # from torch's generator. Emptying the cache makes fine-tuning start from the same random
        # state whether this process pre-trained or found the archive ready.
        cached_transformers._clear_caches()
        with phase("loading the pre-trained archive"):
            # Extracted once per process: an ensemble's members load the same archive.
            archive = load_archive(extracted_archive_dir(archive_path))
        pretrained: Model = archive.model
        vocab: Vocabulary = pretrained.vocab
        if pretraining is not None:
            # This experiment owns the pre-training: the archive learns how to be taught (`allennlp teach`).
            with phase("storing the teaching recipe"):
                store_teaching_recipe(archive_path, serialization_dir, vocab, teaching_recipe, teaching_shot)
        pretrained_shapes = {name: parameter.shape for name, parameter in pretrained.named_parameters()}
        with phase("reading the support set"):
            support = list(dataset_reader.read(train_data_path))
        vocab.extend_from_instances(support)
        pretrained.extend_embedder_vocab()
        model_config = copy.deepcopy(lazy_config_dict(model))
        with phase("building the model"):
            final_model = model.construct(vocab=vocab, serialization_dir=serialization_dir)
            load_pretrained_weights(final_model, pretrained)
        if hasattr(final_model, "new_actions"):  # ProtoParser: new actions, initialised from prototypes
            new_actions = cast(List[int], getattr(pretrained, "new_actions"))
            setattr(final_model, "new_actions", list(new_actions) if initialize_new_actions else [])
            logger.info("Fine-tuning with %d new actions", len(new_actions))
        vocab.save_to_files(os.path.join(serialization_dir, "vocabulary"))

        training_reader = dataset_reader
        if methods:
            # The pre-training file: `training_data_path` (a teaching names the copy its archive carries),
            # the pretraining config's, or the one the archive's own config trained on.
            training_data = (
                training_data_path
                or (pretraining or {}).get("train_data_path")
                or archive.config.get("train_data_path", None)
            )
            context = RetentionContext(
                final_model,
                pretrained,
                pretrained_shapes,
                dataset_reader,
                training_data,
                13 if finetune_seed is None else finetune_seed,
                pretrained_config=archive.config.as_dict(quiet=True).get("model"),
            )
            training_reader = attach_retention(methods, context, train_data_path)
        with phase("reading the support set"):
            loader = data_loader.construct(reader=training_reader, data_path=train_data_path)
            loader.index_with(vocab)
        evaluation_loader = None
        if test_data_path is not None:
            with phase("reading the query set"):
                lazy = validation_data_loader or data_loader
                evaluation_loader = lazy.construct(reader=dataset_reader, data_path=test_data_path)
                evaluation_loader.index_with(vocab)
        with phase("building the model"):
            built = trainer.construct(serialization_dir=serialization_dir, model=final_model, data_loader=loader)
        if methods:
            check_optimizer(methods, built.optimizer)  # type: ignore[attr-defined]
        del archive, pretrained
        run = cls(
            serialization_dir=serialization_dir,
            model=final_model,
            trainer=built,
            evaluation_data_loader=evaluation_loader,
            evaluate_on_test=evaluate_on_test,
        )
        run._retention, run._model_config = methods, model_config
        return run
