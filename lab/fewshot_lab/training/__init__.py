"""Probe training: ensembles of fine-tunings or of pre-trainings, retention methods (weight
anchoring, distillation, freezing, replay), and the evidence statistics callback."""

from fewshot_lab.training.callbacks.evidence_statistics import EvidenceStatisticsCallback
from fewshot_lab.training.ensemble_finetune import EnsembleFinetune
from fewshot_lab.training.pretrainings_ensemble import PretrainingsEnsemble
from fewshot_lab.training.retention.anchoring import WeightAnchoring
from fewshot_lab.training.retention.distillation import Distillation
from fewshot_lab.training.retention.freezing import Freezing
from fewshot_lab.training.retention.replay import Replay
