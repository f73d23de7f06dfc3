import random
from collections import defaultdict
from typing import Any, Dict, Iterator, List

from allennlp.data import DataLoader, DatasetReader, Instance
from allennlp.data.data_loaders import MultiProcessDataLoader
from allennlp.data.data_loaders.data_loader import TensorDict
from allennlp.nn import util as nn_util


@DataLoader.register("fewshot_episodes")
class EpisodeDataLoader(MultiProcessDataLoader):
    """
    Pre-training batches for predicate-dropout (paper Algorithm 1): after every supervised batch
    (a shuffled batch of `batch_size` examples, as a plain data loader gives) comes one meta batch
    `{"meta_support": ..., "meta_query": ...}`: `meta_templates` templates are sampled among those
    with at least two training examples, and for each one meta-support example and up to
    `meta_queries_per_template` other meta-test examples of the same template.

    The model turns a meta batch into the loss L_m and a supervised batch into L_s + lambda Omega,
    so the two alternate as in the paper. Randomness comes from Python's `random`, which AllenNLP
    seeds from the config.

    Registered as a `DataLoader` with name "fewshot_episodes".

    # Parameters

    reader : `DatasetReader`
    data_path : `str`
    batch_size : `int`
        Size of the supervised batches.
    meta_templates : `int`, optional (default = `30`)
    meta_queries_per_template : `int`, optional (default = `15`)
    supervised_batches : `bool`, optional (default = `True`)
        If false, only meta batches are produced (the `-sup` ablation); one per `batch_size` examples.
    """

    def __init__(
        self,
        reader: DatasetReader,
        data_path: str,
        batch_size: int,
        meta_templates: int = 30,
        meta_queries_per_template: int = 15,
        supervised_batches: bool = True,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("shuffle", True)
        super().__init__(reader, data_path, batch_size=batch_size, **kwargs)
        self.meta_templates = meta_templates
        self.meta_queries_per_template = meta_queries_per_template
        self.supervised_batches = supervised_batches
        self._by_template: Dict[str, List[int]] = {}

    def __len__(self) -> int:
        batches = super().__len__()
        return 2 * batches if self.supervised_batches else batches

    def __iter__(self) -> Iterator[TensorDict]:
        if self._vocab is None:
            raise ValueError("This DataLoader has not been indexed with a Vocabulary yet.")
        supervised = super().__iter__()
        for _ in range(super().__len__()):
            if self.supervised_batches:
                yield next(supervised)
            meta = self.meta_batch()
            if meta is not None:
                yield meta

    def _templates(self) -> Dict[str, List[int]]:
        if not self._by_template:
            instances = list(self.iter_instances())
            groups: Dict[str, List[int]] = defaultdict(list)
            for index, instance in enumerate(instances):
                groups[instance["metadata"].metadata["template"]].append(index)  # type: ignore
            self._by_template = {t: members for t, members in groups.items() if len(members) >= 2}
        return self._by_template

    def meta_batch(self) -> Any:
        """One meta batch of tensors, or None when no template has two examples."""
        groups = self._templates()
        if not groups:
            return None
        instances: List[Instance] = self._instances  # type: ignore
        templates = random.sample(sorted(groups), min(self.meta_templates, len(groups)))
        support: List[Instance] = []
        query: List[Instance] = []
        for template in templates:
            members = list(groups[template])
            chosen = random.choice(members)
            rest = [m for m in members if m != chosen]
            support.append(instances[chosen])
            query.extend(instances[i] for i in random.sample(rest, min(self.meta_queries_per_template, len(rest))))
        batch = {"meta_support": self._tensorize(support), "meta_query": self._tensorize(query)}
        return batch

    def _tensorize(self, instances: List[Instance]) -> TensorDict:
        for instance in instances:
            instance.index_fields(self._vocab)  # type: ignore
        tensors = self.collate_fn(instances)  # type: ignore[has-type]  # set by MultiProcessDataLoader.__init__
        if self.cuda_device is not None:
            tensors = nn_util.move_to_device(tensors, self.cuda_device)
        return tensors
