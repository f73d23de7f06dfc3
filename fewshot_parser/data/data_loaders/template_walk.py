import random
from collections import defaultdict
from typing import Any, Dict, List

from allennlp.data import DataLoader, Instance

from fewshot_parser.data.data_loaders.episodes import EpisodeDataLoader


@DataLoader.register("fewshot_template_walk")
class TemplateWalkDataLoader(EpisodeDataLoader):
    """
    `fewshot_episodes` with the authors' choice of meta-batch templates (docs/reproduction.md row 22):
    every template of the training set, singletons included, is shuffled into one list, and
    consecutive meta batches take the next `meta_templates` of it, so a pass visits each template
    once. A template with one example gives a meta-support example and no meta-test example. When
    the list is used up it is shuffled again. `fewshot_episodes` instead samples `meta_templates`
    templates with at least two examples for every meta batch.

    Each epoch starts a new pass (the authors' pass runs on across epochs), so that the order
    depends only on Python's `random`, which the `fewshot_random_state` callback restores when
    pre-training resumes.

    Registered as a `DataLoader` with name "fewshot_template_walk". Parameters as `fewshot_episodes`.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._all_templates: Dict[str, List[int]] = {}
        self._walk: List[str] = []

    def __iter__(self):
        self._walk = []
        return super().__iter__()

    def _every_template(self) -> Dict[str, List[int]]:
        if not self._all_templates:
            groups: Dict[str, List[int]] = defaultdict(list)
            for index, instance in enumerate(self.iter_instances()):
                groups[instance["metadata"].metadata["template"]].append(index)  # type: ignore
            self._all_templates = dict(groups)
        return self._all_templates

    def meta_batch(self) -> Any:
        """The next `meta_templates` templates of the walk as one meta batch (None: no meta-test example)."""
        groups = self._every_template()
        if not any(len(members) >= 2 for members in groups.values()):
            return None
        instances: List[Instance] = self._instances  # type: ignore
        while True:
            if not self._walk:
                self._walk = sorted(groups)
                random.shuffle(self._walk)
            templates, self._walk = self._walk[: self.meta_templates], self._walk[self.meta_templates :]
            support: List[Instance] = []
            query: List[Instance] = []
            for template in templates:
                members = list(groups[template])
                random.shuffle(members)
                support.append(instances[members[0]])
                query.extend(instances[i] for i in members[1 : 1 + self.meta_queries_per_template])
            if query:
                return {"meta_support": self._tensorize(support), "meta_query": self._tensorize(query)}
