"""
Which recorded runs and shared pre-trained archives `run-grid --redo-stale` makes again.

A `Freshness` answers two questions for the grid: why a recorded results row would not be reproduced
by the run the grid would start now (given that run's rendered config), and whether a shared
pre-trained archive must be made again before the runs that use it. `run-grid --freshness NAME` picks
one; the package has `config`, which looks at configs only. A plugin can register a stricter one
(the project's lab registers `code`, which also asks whether the code a row depends on changed).
"""

from typing import Dict, NamedTuple, Optional, Sequence

from allennlp.common import Registrable

from fewshot_parser.common.provenance import experiment_hash


class ArchiveUser(NamedTuple):
    """A run that uses a shared pre-trained archive: its results-row key fields and rendered config (JSON)."""

    row: Dict[str, str]
    config_json: str


class Freshness(Registrable):
    """Decides staleness for `run-grid --redo-stale` (see the module docstring)."""

    default_implementation = "config"

    def stale_reason(self, row: Dict[str, str], config_json: Optional[str]) -> Optional[str]:
        """Why the run the grid would start now (its config rendered as JSON, None when it does not render)
        would not reproduce the recorded `row`; None when it would."""
        raise NotImplementedError

    def archive_outdated(self, archive_dir: str, version: str, users: Sequence[ArchiveUser]) -> bool:
        """Whether the pre-trained archive in `archive_dir`, made by code `version`, must be made again for
        `users` (the runs about to use it)."""
        raise NotImplementedError


@Freshness.register("config")
class ConfigFreshness(Freshness):
    """A row is stale when it has no provenance or its run's config changed (`experiment_hash`); an archive
    is never retired here (the grid already pre-trains again when the pre-training config changed)."""

    def stale_reason(self, row: Dict[str, str], config_json: Optional[str]) -> Optional[str]:
        if not row.get("code_version") or not row.get("config_hash"):
            return "no provenance"
        if config_json is None:
            return "the config does not render"
        import json

        if experiment_hash(json.loads(config_json)) != row["config_hash"]:
            return "config changed"
        return None

    def archive_outdated(self, archive_dir: str, version: str, users: Sequence[ArchiveUser]) -> bool:
        return False
