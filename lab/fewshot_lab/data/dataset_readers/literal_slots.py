"""
A reader wrapper that makes fixed literal atoms entity slots wherever they occur, as the authors'
code does (docs/reproduction.md row 4, note 3; `fewshot_lab.logical_forms.literal_slots`).
"""

from typing import Any, Iterable

from allennlp.common.checks import ConfigurationError
from allennlp.data import DatasetReader, Instance

from fewshot_lab.logical_forms.literal_slots import LiteralSlotAbstractor


@DatasetReader.register("fewshot_literal_slots")
class LiteralSlotsReader(DatasetReader):
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
        super().__init__(**kwargs)
        abstractor = getattr(reader, "_abstractor", None)
        if abstractor is None or not hasattr(reader, "transition_system"):
            raise ConfigurationError(
                "dataset_reader.reader must be a few-shot LF reader (fewshot_lf or a benchmark reader)"
            )
        try:
            literal = LiteralSlotAbstractor.around(abstractor, literal_pattern)
        except ValueError as error:
            raise ConfigurationError(f"dataset_reader.literal_pattern: {error}") from error
        # The wrapped reader builds its transition system (and learns idioms) lazily from its
        # abstractor, so replacing the abstractor before the first read changes both.
        reader._abstractor = literal  # type: ignore[attr-defined]
        reader._system = None  # type: ignore[attr-defined]
        self.reader = reader

    def _read(self, file_path: str) -> Iterable[Instance]:
        yield from self.reader.read(file_path)

    def text_to_instance(self, *inputs: Any, **kwargs: Any) -> Instance:  # type: ignore
        return self.reader.text_to_instance(*inputs, **kwargs)

    def apply_token_indexers(self, instance: Instance) -> None:
        self.reader.apply_token_indexers(instance)

    def __getattr__(self, name: str) -> Any:
        # What the wrapped reader offers (formalism, transition system) for models and predictors.
        if name == "reader":
            raise AttributeError(name)
        return getattr(self.reader, name)
