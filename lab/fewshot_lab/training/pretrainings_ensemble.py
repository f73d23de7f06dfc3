"""
An ensemble over several pre-trainings (not in the paper). `fewshot_ensemble_finetune` evens out the
fine-tuning seed; this also evens out the pre-training seed: it runs K complete experiments, each
from its own pre-trained archive (pre-training it first when it is missing), and makes the vote of
all their members the final model, archived and evaluated like a single parser.
"""

import copy
import gc
import logging
import os
import shutil
from typing import Any, Dict, List, Optional, cast

import torch
from allennlp.commands.train import TrainModel
from allennlp.common import Lazy, Params
from allennlp.common.checks import ConfigurationError
from allennlp.common.util import prepare_environment
from allennlp.data import DataLoader, DatasetReader
from allennlp.models import Model

from fewshot_lab.models.ensemble import FewShotEnsemble, check_ensemble
from fewshot_parser.training.config_check import check_experiment
from fewshot_lab.training.ensemble_finetune import share_frozen_parameters
from fewshot_parser.training.pretrain_finetune import PROVENANCE

logger = logging.getLogger(__name__)

# The experiment types a part may have: one fine-tuned parser, or an ensemble of fine-tunings.
PART_TYPES = ("fewshot_pretrain_finetune", "fewshot_ensemble_finetune")


def _plain(value: Any) -> Any:
    """A config value as plain JSON data (AllenNLP hands nested configs over as `Params`)."""
    if isinstance(value, Params):
        return value.as_dict(quiet=True)
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


def config_members(model: Dict[str, Any]) -> List[Dict[str, Any]]:
    """The member configs of a model config: its `members` for a `fewshot_ensemble`, else itself."""
    return list(model.get("members") or []) if model.get("type") == "fewshot_ensemble" else [model]


def check_parts(parts: List[Dict[str, Any]], model: Dict[str, Any]) -> str:
    """
    Checks, before anything trains, that `parts` are experiments of the types above and that the
    top-level `model` is the `fewshot_ensemble` of all their members (what `load_archive` rebuilds);
    returns its combination rule.
    """
    if not isinstance(parts, list) or not parts:
        raise ConfigurationError(
            "fewshot_pretrainings_ensemble needs 'experiments': a non-empty list of experiment configs"
        )
    for index, part in enumerate(parts):
        if not isinstance(part, dict) or part.get("type") not in PART_TYPES:
            found = part.get("type") if isinstance(part, dict) else type(part).__name__
            raise ConfigurationError(
                f"experiments[{index}] must be an experiment of type {' or '.join(PART_TYPES)}, not {found!r}"
            )
    archives = [part.get("pretrained_archive") for part in parts]
    if len(set(archives)) != len(archives):
        raise ConfigurationError(
            "the experiments of fewshot_pretrainings_ensemble must each have their own pretrained_archive"
        )
    if model.get("type") != "fewshot_ensemble":
        raise ConfigurationError(
            "fewshot_pretrainings_ensemble needs a model of type fewshot_ensemble (every part's members)"
        )
    members = config_members(model)
    wanted = [member for part in parts for member in config_members(part["model"])]
    if members != wanted:
        raise ConfigurationError(
            f"the model's members must be the experiments' members in order: "
            f"{len(members)} given, {len(wanted)} in the experiments"
        )
    combine = model.get("combine", "vote")
    check_ensemble(len(members), combine)
    return combine


@TrainModel.register("fewshot_pretrainings_ensemble", constructor="from_partial_objects")
class PretrainingsEnsemble(TrainModel):
    """
    K few-shot experiments (`experiments`, each a complete `fewshot_pretrain_finetune` or
    `fewshot_ensemble_finetune` config with its own seeds and `pretrained_archive`), run one after
    the other in `part_<p>/` of the serialization directory exactly as `allennlp train` would run
    each alone, then combined: the final model is the `fewshot_ensemble` of every part's fine-tuned
    members in order (the config's `model`, so `load_archive` rebuilds it), evaluated on the query
    set and archived. The top-level `dataset_reader`, `test_data_path` and `validation_data_loader`
    are those of the evaluation and of `allennlp predict`. `pretrained_archive` and `pretraining`
    are the first part's (the archive `run-grid` pre-trains before the run); each part pre-trains
    its own archive when it is missing, so the parts after the first pre-train inside the run.

    Registered as a `TrainModel` with name "fewshot_pretrainings_ensemble".
    """

    def __init__(
        self,
        serialization_dir: str,
        local_rank: int,
        parts: List[Dict[str, Any]],
        combine: str,
        dataset_reader: DatasetReader,
        test_data_path: Optional[str],
        validation_data_loader: Optional[Lazy[DataLoader]],
        evaluate_on_test: bool,
    ) -> None:
        super().__init__(
            serialization_dir=serialization_dir,
            model=None,  # type: ignore[arg-type]  # both set when the parts have run
            trainer=None,  # type: ignore[arg-type]
            evaluate_on_test=evaluate_on_test,
        )
        self._local_rank = local_rank
        self._parts = parts
        self._combine = combine
        self._reader = dataset_reader
        self._test_data_path = test_data_path
        self._validation_data_loader = validation_data_loader

    def run(self) -> Dict[str, Any]:
        """Runs each part in turn, keeps its fine-tuned members, and makes their vote the model."""
        members: List[Model] = []
        combined: Dict[str, Any] = {"pretrainings": len(self._parts)}
        for index, config in enumerate(self._parts):
            directory = os.path.join(self.serialization_dir, f"part_{index}")
            logger.info("Part %d of %d: %s", index + 1, len(self._parts), config.get("pretrained_archive"))
            params = Params(copy.deepcopy(config), history=f"experiments.{index}.")  # where errors say a key is
            prepare_environment(params)  # the part's own seeds, as `allennlp train` of the part would set them
            part = TrainModel.from_params(params, serialization_dir=directory, local_rank=self._local_rank)
            metrics = part.run()
            combined.update({f"part_{index}_{key}": value for key, value in metrics.items()})
            model = part.model
            members.extend(cast(List[Model], list(model.members)) if isinstance(model, FewShotEnsemble) else [model])
            if index == 0:
                self.trainer = part.trainer  # `finish` reads its cuda_device
                # The run's vocabulary and provenance are the first part's (every part extends its
                # archive's vocabulary with the same support set).
                model.vocab.save_to_files(os.path.join(self.serialization_dir, "vocabulary"))
                shutil.copyfile(os.path.join(directory, PROVENANCE), os.path.join(self.serialization_dir, PROVENANCE))
            del part, model
            gc.collect()
        share_frozen_parameters(members)
        self.model = FewShotEnsemble(members[0].vocab, members, self._combine)
        combined["ensemble_size"] = len(members)
        torch.save(self.model.state_dict(), os.path.join(self.serialization_dir, "best.th"))
        if self._test_data_path is not None:
            lazy = self._validation_data_loader or Lazy(DataLoader, Params({"batch_size": 128}))
            loader = lazy.construct(reader=self._reader, data_path=self._test_data_path)
            loader.index_with(self.model.vocab)
            self.evaluation_data_loader = loader
        return combined

    @classmethod
    def from_partial_objects(  # type: ignore
        cls,
        serialization_dir: str,
        local_rank: int,
        experiments: List[Any],
        model: Dict[str, Any],
        dataset_reader: DatasetReader,
        pretrained_archive: Optional[str] = None,
        pretraining: Optional[Dict[str, Any]] = None,
        test_data_path: Optional[str] = None,
        validation_data_loader: Optional[Lazy[DataLoader]] = None,
        evaluate_on_test: bool = True,
        ddp_accelerator: Any = None,
    ) -> "PretrainingsEnsemble":
        parts = _plain(experiments)
        combine = check_parts(parts, _plain(model))
        for index, part in enumerate(parts):  # every part's sections, before the first part pre-trains
            check_experiment(part, f"experiments.{index}.")
        if pretrained_archive is not None and pretrained_archive != parts[0].get("pretrained_archive"):
            raise ConfigurationError("pretrained_archive must be the first experiment's (run-grid pre-trains it first)")
        os.makedirs(serialization_dir, exist_ok=True)
        return cls(
            serialization_dir=serialization_dir,
            local_rank=local_rank,
            parts=parts,
            combine=combine,
            dataset_reader=dataset_reader,
            test_data_path=test_data_path,
            validation_data_loader=validation_data_loader,
            evaluate_on_test=evaluate_on_test,
        )
