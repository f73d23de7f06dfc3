"""
Fine-tuning an ensemble (not in the paper): K fine-tunings from the same pre-trained archive with
seeds `finetune_seed + i`, combined into one `fewshot_ensemble` model that is evaluated and archived
like a single one. Kept apart from `pretrain_finetune`, which each member's fine-tuning reuses as it is.
"""

import copy
import functools
import json
import logging
import os
import random
import shutil
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import torch
from allennlp.commands.train import TrainModel
from allennlp.common import Lazy, Params
from allennlp.common.checks import ConfigurationError
from allennlp.data import DataLoader, DatasetReader
from allennlp.models import Model
from allennlp.training import Trainer

from fewshot_parser.common.phases import phase
from fewshot_lab.models.ensemble import FewShotEnsemble, check_ensemble
from fewshot_parser.modules.token_embedders.packaged_transformer import PackagedTransformerMismatchedEmbedder
from fewshot_parser.training.pretrain_finetune import PROVENANCE, PretrainFinetune
from fewshot_parser.training.retention import RetentionMethod

logger = logging.getLogger(__name__)


@TrainModel.register("fewshot_ensemble_finetune", constructor="from_partial_objects")
class EnsembleFinetune(PretrainFinetune):
    """
    A few-shot experiment whose fine-tuned model is an ensemble. The config is a
    `fewshot_pretrain_finetune` config whose `model` is a `fewshot_ensemble` (`members`: one model
    config per member, `combine`). Member i is fine-tuned exactly as a `fewshot_pretrain_finetune`
    run of that member's config with seed `finetune_seed + i` would be (member 0 is the single-model
    run), in `member_<i>/` of the serialization directory, one after the other; the ensemble of the
    fine-tuned members is the final model, evaluated on the query set and archived. Because the
    config's `model` is the ensemble, `load_archive` rebuilds it.

    Registered as a `TrainModel` with name "fewshot_ensemble_finetune".
    """

    def __init__(
        self,
        serialization_dir: str,
        model: Model,
        trainer: Trainer,
        evaluation_data_loader: Optional[DataLoader] = None,
        evaluate_on_test: bool = False,
        later_members: Sequence[Callable[[], PretrainFinetune]] = (),
        combine: str = "vote",
        parallel_members: int = 1,
    ) -> None:
        super().__init__(
            serialization_dir=serialization_dir,
            model=model,
            trainer=trainer,
            evaluation_data_loader=evaluation_data_loader,  # type: ignore[arg-type]  # None: no test set
            evaluate_on_test=evaluate_on_test,
        )
        self._later_members = list(later_members)
        self._combine = combine
        self._parallel = parallel_members

    def run(self) -> Dict[str, Any]:
        """Fine-tunes each member, then makes their ensemble the model to evaluate and archive."""
        with phase("training"):
            member_metrics = [self.trainer.train()]
        members = [self.model]
        if self._parallel > 1 and hasattr(os, "fork"):
            for model, metrics in train_in_processes(self.model, self._later_members, self._parallel):
                members.append(model)
                member_metrics.append(metrics)
        else:
            for build in self._later_members:
                member = build_member(build, members[0])
                with phase("training"):
                    member_metrics.append(member.trainer.train())
                members.append(member.model)
                del member
        share_frozen_parameters(members)
        self.model = FewShotEnsemble(members[0].vocab, members, self._combine)
        # The weights `allennlp train` archives with the config (whose `model` is this ensemble).
        torch.save(self.model.state_dict(), os.path.join(self.serialization_dir, "best.th"))
        # A retention method may replace the final model (member 0's methods, bound to its fine-tuning).
        for method in self._retention:
            replaced = method.final_model(self.model, self._model_config)
            if replaced is not None:
                self.replace_final_model(replaced["model"], replaced["config"])
        combined: Dict[str, Any] = {"ensemble_size": len(members)}
        for index, values in enumerate(member_metrics):
            combined.update({f"member_{index}_{key}": value for key, value in values.items()})
        return combined

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
        parallel_members: int = 1,
        training_data_path: Optional[str] = None,
        teaching_shot: Optional[int] = None,
        ddp_accelerator: Any = None,
    ) -> "EnsembleFinetune":
        ensemble_config = copy.deepcopy(model._params.as_dict(quiet=True))  # type: ignore[attr-defined]
        members, combine = ensemble_members(model)
        if finetune_seed is None:
            raise ConfigurationError(
                "a fewshot_ensemble model needs finetune_seed (member i is fine-tuned with finetune_seed + i)"
            )
        if parallel_members < 1:
            raise ConfigurationError(f"parallel_members must be at least 1, got {parallel_members}")

        def build(index: int) -> PretrainFinetune:
            """Member `index`, ready to fine-tune in `member_<index>/`, as a single run would be."""
            return PretrainFinetune.from_partial_objects(
                serialization_dir=os.path.join(serialization_dir, f"member_{index}"),
                local_rank=local_rank,
                dataset_reader=dataset_reader,
                train_data_path=train_data_path,
                model=members[index],
                data_loader=data_loader,
                trainer=trainer,
                pretrained_archive=pretrained_archive,
                pretraining=pretraining,
                test_data_path=test_data_path,
                validation_data_loader=validation_data_loader,
                evaluate_on_test=evaluate_on_test,
                initialize_new_actions=initialize_new_actions,
                finetune_seed=finetune_seed + index,
                retention=retention,
                training_data_path=training_data_path,
                teaching_shot=teaching_shot,
            )

        first = build(0)
        os.makedirs(serialization_dir, exist_ok=True)
        # The run's vocabulary and provenance are member 0's (every member extends the same archive's
        # vocabulary with the same support set).
        first.model.vocab.save_to_files(os.path.join(serialization_dir, "vocabulary"))
        shutil.copyfile(
            os.path.join(serialization_dir, "member_0", PROVENANCE), os.path.join(serialization_dir, PROVENANCE)
        )
        run = cls(
            serialization_dir=serialization_dir,
            model=first.model,
            trainer=first.trainer,
            evaluation_data_loader=first.evaluation_data_loader,
            evaluate_on_test=evaluate_on_test,
            later_members=[functools.partial(build, index) for index in range(1, len(members))],
            combine=combine,
            parallel_members=parallel_members,
        )
        run._retention, run._model_config = first.retention, ensemble_config
        return run


def ensemble_members(model: Lazy[Model]) -> Tuple[List[Lazy[Model]], str]:
    """
    The lazy config of each member of a `fewshot_ensemble` model config and its `combine` rule
    (checked here, so that a bad ensemble fails before any training).
    """
    params = model._params  # the config the `Lazy` will construct from (AllenNLP 2.10 keeps it here)
    if params.get("type") != "fewshot_ensemble":
        raise ConfigurationError("fewshot_ensemble_finetune needs a model of type fewshot_ensemble")
    config = params.as_dict(quiet=True)
    members = config.pop("members", [])
    combine = config.pop("combine", "vote")
    config.pop("type")
    if config:
        raise ConfigurationError(f"fewshot_ensemble does not take {', '.join(sorted(config))}")
    if not isinstance(members, list):
        raise ConfigurationError("fewshot_ensemble members must be a list of model configs")
    check_ensemble(len(members), combine)
    return [Lazy(Model, Params(copy.deepcopy(member))) for member in members], combine


# What a member trained in its own process leaves in its directory for the parent, beside the
# trainer's `best.th` (its final weights).
TRAINED_METRICS = "trained_member_metrics.json"


def build_member(build: Callable[[], PretrainFinetune], first: Model) -> PretrainFinetune:
    """A later member, ready to train, its MiniLM embedders serving from `first`'s caches."""
    member = build()
    share_encoder_caches(first, member.model)
    return member


def train_in_processes(
    first: Model, builds: Sequence[Callable[[], PretrainFinetune]], parallel: int
) -> List[Tuple[Model, Dict[str, Any]]]:
    """
    Fine-tunes the members `builds` make, `parallel` at a time, each in a process forked from this
    one right after it is built (so it starts from exactly the state, random generators included,
    it would have trained from here, and with the frozen MiniLM's cache `first` filled), and loads
    what each trained back into its model here. A member's numbers are therefore those of training
    it in this process, at the thread count of this process. Returns (model, training metrics) per
    member, in order.
    """
    results: List[Optional[Tuple[Model, Dict[str, Any]]]] = [None] * len(builds)
    pending = list(enumerate(builds))
    running: Dict[int, Tuple[int, PretrainFinetune]] = {}
    while pending or running:
        while pending and len(running) < parallel:
            index, build = pending.pop(0)
            member = build_member(build, first)
            sys.stdout.flush()
            sys.stderr.flush()
            state = random.getstate()  # Python re-seeds its generator in a forked child: it gets this back
            pid = os.fork()
            if pid == 0:
                random.setstate(state)
                _train_and_exit(member)
            running[pid] = (index, member)
        with phase("training"):
            pid, status = _wait_for_any(list(running))
        index, member = running.pop(pid)
        directory = member.serialization_dir
        if status != 0:
            for other in running:  # the others' results are of no use without this one
                os.kill(other, 9)
                os.waitpid(other, 0)
            raise RuntimeError(
                f"ensemble member {index + 2} failed in its training process "
                f"(exit status {status}; its log is in {directory})"
            )
        member.model.load_state_dict(torch.load(os.path.join(directory, "best.th")))
        with open(os.path.join(directory, TRAINED_METRICS)) as handle:
            results[index] = (member.model, json.load(handle))
    return [result for result in results if result is not None]


def _wait_for_any(pids: List[int]) -> Tuple[int, int]:
    """(pid, exit status) of the first of `pids` to end."""
    while True:
        for pid in pids:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return pid, os.waitstatus_to_exitcode(status)
        time.sleep(0.05)


def _train_and_exit(member: PretrainFinetune) -> None:
    """In a forked process: trains the member (the trainer leaves its weights in best.th), writes its metrics, exits."""
    code = 1
    try:
        metrics = member.trainer.train()
        with open(os.path.join(member.serialization_dir, TRAINED_METRICS), "w") as handle:
            json.dump(metrics, handle)
        code = 0
    except BaseException:  # noqa: B902 - reported, then the process ends either way
        logger.exception("training the ensemble member in %s failed", member.serialization_dir)
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        # Without the parent's exit handlers (they remove its extracted archives) or its buffers.
        os._exit(code)


def share_encoder_caches(first: Model, member: Model) -> int:
    """
    Lets `member`'s frozen, caching MiniLM embedders serve utterances from the caches of `first`'s
    embedders at the same place (their weights are the same frozen ones of the pre-trained archive,
    so a word vector computed for one member is the one the other would compute); returns how many
    it linked.
    """
    theirs = dict(first.named_modules())
    linked = 0
    for name, module in member.named_modules():
        other = theirs.get(name)
        if isinstance(module, PackagedTransformerMismatchedEmbedder) and isinstance(
            other, PackagedTransformerMismatchedEmbedder
        ):
            linked += module.share_cache_with(other)
    return linked


def share_frozen_parameters(members: Sequence[Model]) -> None:
    """
    Makes every member's frozen parameter that equals member 0's (a frozen MiniLM: fine-tuning never
    changes it) share member 0's tensor, so the ensemble's weights file holds it once.
    """
    reference = dict(members[0].named_parameters())
    for member in members[1:]:
        for name, parameter in member.named_parameters():
            first = reference.get(name)
            if (
                first is not None
                and not parameter.requires_grad
                and not first.requires_grad
                and first.shape == parameter.shape
                and torch.equal(first, parameter)
            ):
                parameter.data = first.data
