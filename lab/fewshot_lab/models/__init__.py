"""The probes' ensemble of fine-tuned parsers."""

from fewshot_lab.models.ensemble import FewShotEnsemble
