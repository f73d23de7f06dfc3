"""
The names of the recombination readers that preceded `fewshot_augmented`'s list of pair generators,
registered so that archives and configs that name them still build: each builds `fewshot_augmented`
with the generators the name and its flat keys stood for (`fewshot_parser/common/legacy_reader_names.py`
has the translation; `fewshot_augmented`'s own flat keys are translated by its `from_params`).
"""

from typing import Any

from allennlp.common import Params
from allennlp.common.checks import ConfigurationError
from allennlp.data import DatasetReader

from fewshot_parser.common.legacy_reader_names import LEGACY_READER_NAMES, translate_legacy_reader
from fewshot_parser.data.dataset_readers.augmented import AugmentedSupportReader  # noqa: F401 (registers it)


class LegacyReaderName:
    """
    What an old name is registered as: not a class, a builder whose `from_params` translates the
    config (`translate_legacy_reader`) and builds the `fewshot_augmented` reader it names.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.__doc__ = f"The old reader name {name!r}, built as `translate_legacy_reader` says (legacy_names.py)."

    def from_params(
        self, params: Params, constructor_to_call: Any = None, constructor_to_inspect: Any = None, **extras: Any
    ) -> DatasetReader:
        # `constructor_to_*` are what AllenNLP found on this builder: the reader's own are used instead.
        try:
            config = translate_legacy_reader(self.name, params.as_dict(quiet=True))
        except ValueError as error:
            raise ConfigurationError(str(error)) from None
        for key in list(params.keys()):  # consumed: the caller may check that nothing is left
            params.pop(key)
        return DatasetReader.from_params(params=Params(config), **extras)


for _name in LEGACY_READER_NAMES:
    DatasetReader.register(_name)(LegacyReaderName(_name))  # type: ignore[arg-type]
