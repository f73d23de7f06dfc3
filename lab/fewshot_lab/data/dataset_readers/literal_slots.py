"""
A reader wrapper that makes fixed literal atoms entity slots wherever they occur, as the authors'
code does (docs/reproduction.md row 4, note 3; `fewshot_lab.logical_forms.literal_slots`).
"""

from typing import Any

from allennlp.common.checks import ConfigurationError
from allennlp.data import DatasetReader

from fewshot_lab.data.dataset_readers.wrapper import AbstractorWrapper
from fewshot_lab.logical_forms.literal_slots import LiteralSlotAbstractor


@DatasetReader.register("fewshot_literal_slots")
class LiteralSlotsReader(AbstractorWrapper):
    """
    Reads with `reader` (a `fewshot_*` LF reader) after giving it a `LiteralSlotAbstractor`: every
    atom matching `literal_pattern` becomes an entity slot, in training, support and query logical
    forms alike, and the idioms are learned from templates abstracted that way. Use it under
    `fewshot_entity_values` with classified entity slots, since a literal absent from the utterance
    cannot be copied.

    Registered as a `DatasetReader` with name "fewshot_literal_slots".

    # Parameters

    reader : `DatasetReader`
        A few-shot LF reader (`fewshot_lf`, `fewshot_jobs`, `fewshot_geo`, `fewshot_atis`).
    literal_pattern : `str`
        Regular expression, matched against whole atoms, of the atoms that are always slots.
    """

    def __init__(self, reader: DatasetReader, literal_pattern: str, **kwargs: Any) -> None:
        super().__init__(reader, **kwargs)
        try:
            literal = LiteralSlotAbstractor.around(self.wrapped_abstractor, literal_pattern)
        except ValueError as error:
            raise ConfigurationError(f"dataset_reader.literal_pattern: {error}") from error
        self.replace_abstractor(literal)
