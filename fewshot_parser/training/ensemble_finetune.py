"""
Fine-tuning an ensemble (not in the paper): K fine-tunings from the same pre-trained archive with
seeds `finetune_seed + i`, combined into one `fewshot_ensemble` model that is evaluated and archived
like a single one. Kept apart from `pretrain_finetune`, which each member's fine-tuning reuses as it is.
"""
import copy
import functools
import logging
import os
import shutil
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import torch
from allennlp.commands.train import TrainModel
from allennlp.common import Lazy, Params
from allennlp.common.checks import ConfigurationError
from allennlp.data import DataLoader, DatasetReader
from allennlp.models import Model
from allennlp.training import Trainer

from fewshot_parser.common.phases import phase
from fewshot_parser.modules.token_embedders.packaged_transformer import PackagedTransformerMismatchedEmbedder
from fewshot_parser.models.ensemble import FewShotEnsemble, check_ensemble
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
    ) -> None:
        super().__init__(serialization_dir=serialization_dir, model=model, trainer=trainer,
                         evaluation_data_loader=evaluation_data_loader, evaluate_on_test=evaluate_on_test)
        self._later_members = list(later_members)
        self._combine = combine

    def run(self) -> Dict[str, Any]:
        """Fine-tunes each member in turn, then makes their ensemble the model to evaluate and archive."""
        with phase("training"):
            member_metrics = [self.trainer.train()]
        members = [self.model]
        for build in self._later_members:
            member = build()
            share_encoder_caches(members[0], member.model)
            with phase("training"):
                member_metrics.append(member.trainer.train())
            members.append(member.model)
            del member
        share_frozen_parameters(members)
        self.model = FewShotEnsemble(members[0].vocab, members, self._combine)
        # The weights `allennlp train` archives with the config (whose `model` is this ensemble).
        torch.save(self.model.state_dict(), os.path.join(self.serialization_dir, "best.th"))
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
        ddp_accelerator: Any = None,
    ) -> "EnsembleFinetune":
        members, combine = ensemble_members(model)
        if finetune_seed is None:
            raise ConfigurationError("a fewshot_ensemble model needs finetune_seed (member i is fine-tuned with finetune_seed + i)")

        def build(index: int) -> PretrainFinetune:
            """Member `index`, ready to fine-tune in `member_<index>/`, as a single run would be."""
            return PretrainFinetune.from_partial_objects(
                serialization_dir=os.path.join(serialization_dir, f"member_{index}"), local_rank=local_rank,
                dataset_reader=dataset_reader, train_data_path=train_data_path, model=members[index],
                data_loader=data_loader, trainer=trainer, pretrained_archive=pretrained_archive,
                pretraining=pretraining, test_data_path=test_data_path,
                validation_data_loader=validation_data_loader, evaluate_on_test=evaluate_on_test,
                initialize_new_actions=initialize_new_actions, finetune_seed=finetune_seed + index,
                retention=retention,
            )

        first = build(0)
        os.makedirs(serialization_dir, exist_ok=True)
        # The run's vocabulary and provenance are member 0's (every member extends the same archive's
        # vocabulary with the same support set).
        first.model.vocab.save_to_files(os.path.join(serialization_dir, "vocabulary"))
        shutil.copyfile(os.path.join(serialization_dir, "member_0", PROVENANCE), os.path.join(serialization_dir, PROVENANCE))
        return cls(
            serialization_dir=serialization_dir,
            model=first.model,
            trainer=first.trainer,
            evaluation_data_loader=first.evaluation_data_loader,
            evaluate_on_test=evaluate_on_test,
            later_members=[functools.partial(build, index) for index in range(1, len(members))],
            combine=combine,
        )


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
        if isinstance(module, PackagedTransformerMismatchedEmbedder) and isinstance(other, PackagedTransformerMismatchedEmbedder):
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
            if (first is not None and not parameter.requires_grad and not first.requires_grad
                    and first.shape == parameter.shape and torch.equal(first, parameter)):
                parameter.data = first.data
