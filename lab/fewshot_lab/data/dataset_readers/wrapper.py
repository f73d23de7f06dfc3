"""
The shape the lab's reader wrappers share: read with a few-shot LF reader after giving it another
`Abstractor` (and with it another transition system), and offer everything else of that reader.
"""

from typing import Any, Iterable, Optional, Tuple

from allennlp.common.checks import ConfigurationError
from allennlp.data import DatasetReader, Instance

from fewshot_parser.data.signature_check import is_data_file
from fewshot_parser.logical_forms.template import Abstractor
from fewshot_parser.logical_forms.transition_system import TransitionSystem


class AbstractorWrapper(DatasetReader):
    """
    A reader that reads with `reader`, a few-shot LF reader (`fewshot_lf` or a benchmark reader),
    whose abstractor a subclass replaces through `replace_abstractor` before the first read.
    """

    def __init__(self, reader: DatasetReader, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if not hasattr(reader, "use_abstractor"):
            raise ConfigurationError(
                "dataset_reader.reader must be a few-shot LF reader (fewshot_lf or a benchmark reader)"
            )
        self.reader = reader

    @property
    def wrapped_abstractor(self) -> Abstractor:
        return self.reader.abstractor  # type: ignore[attr-defined]

    def typed_training_file(self, needs: str) -> Tuple[str, str, str]:
        """`(formalism, entity_pattern, training file)` of a wrapped reader with typed, separate slots
        and a training data file as `idiom_source`; `needs` says what requires them, for the error."""
        abstractor = self.wrapped_abstractor
        formalism, entity_pattern = abstractor.formalism, abstractor.entity_pattern
        if not abstractor.typed_entities or abstractor.unify_slots:
            raise ConfigurationError(f"dataset_reader.reader: {needs} need typed_entities: true and unify_slots: false")
        source = self.reader.idiom_source  # type: ignore[attr-defined]
        if not is_data_file(source):
            raise ConfigurationError(
                f"dataset_reader.reader.idiom_source: must be the training data file, for {needs} (got {source!r})"
            )
        return formalism, entity_pattern, source

    def replace_abstractor(self, abstractor: Abstractor, system: Optional[TransitionSystem] = None) -> None:
        """Gives the wrapped reader `abstractor`, and `system` as its transition system (by default one it
        builds lazily from `abstractor`, learning the idioms from templates abstracted that way)."""
        self.reader.use_abstractor(abstractor, system)  # type: ignore[attr-defined]

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
