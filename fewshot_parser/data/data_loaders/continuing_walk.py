"""
The authors' meta-batch walk as they run it (docs/reproduction.md note 13): one shuffled pass over every
template that runs on across epochs, instead of a new pass at the start of each epoch.
"""

from typing import Iterator

from allennlp.data import DataLoader, TensorDict

from fewshot_parser.data.data_loaders.episodes import EpisodeDataLoader
from fewshot_parser.data.data_loaders.template_walk import TemplateWalkDataLoader


@DataLoader.register("fewshot_continuing_template_walk")
class ContinuingTemplateWalkDataLoader(TemplateWalkDataLoader):
    """
    `fewshot_template_walk` whose pass over the templates is not cut at the end of an epoch: the next
    epoch's first meta batch takes the templates after the last epoch's last one, and a new pass is
    shuffled only when the list is used up, as the authors' template iterator does.

    Resuming stays exact: on recovery AllenNLP reads the data loader again over the completed epochs,
    so the walk is rebuilt from the same draws of Python's generator it was first built from.

    Registered as a `DataLoader` with name "fewshot_continuing_template_walk". Parameters as
    `fewshot_episodes`.
    """

    def __iter__(self) -> Iterator[TensorDict]:
        # The parent's `__iter__` starts a new pass; skip it and keep the walk where it is.
        return EpisodeDataLoader.__iter__(self)
