"""
A reader wrapper that names the value of every entity slot, for slot fillers that classify entities
over a vocabulary of values (as the authors' code does: docs/reproduction.md rows 16 and 36) instead
of copying an utterance position.
"""

from typing import Any, Iterable, List

from allennlp.data import DatasetReader, Instance
from allennlp.data.fields import LabelField, ListField

# Namespace of entity values: padded, so that a value never seen in training or support data (a query
# entity, say) is indexed as unknown instead of failing, and can never be predicted.
ENTITY_VALUE_NAMESPACE = "entity_values"


@DatasetReader.register("fewshot_entity_values")
class EntityValuesReader(DatasetReader):
    """
    Reads with `reader` (a `fewshot_*` reader, or `fewshot_augmented` around one) and adds to every
    instance with a logical form the field `entity_values` (`ListField[LabelField]`, namespace
    `entity_values`): one entry per slot, in the order of the slot fields, holding the entity's
    value for entity slots and -1 for variable slots. Instances without a logical form are unchanged.

    The vocabulary of values then comes from the data it is built from: the training set in
    pre-training, extended with the support set at fine-tuning.

    Registered as a `DatasetReader` with name "fewshot_entity_values".

    # Parameters

    reader : `DatasetReader`
        The reader whose instances get the field.
    """

    def __init__(self, reader: DatasetReader, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.reader = reader

    def _read(self, file_path: str) -> Iterable[Instance]:
        for instance in self.reader.read(file_path):
            yield self.with_values(instance)

    def text_to_instance(self, *inputs: Any, **kwargs: Any) -> Instance:  # type: ignore
        return self.with_values(self.reader.text_to_instance(*inputs, **kwargs))

    def apply_token_indexers(self, instance: Instance) -> None:
        self.reader.apply_token_indexers(instance)

    @staticmethod
    def with_values(instance: Instance) -> Instance:
        """`instance` with its `entity_values` field (when it has slot fields)."""
        if "slot_is_variable" not in instance.fields:
            return instance
        metadata = instance["metadata"].metadata  # type: ignore
        values: List[str] = [value for step in metadata["slot_values"] for value in step]
        kinds = instance["slot_is_variable"].array.tolist()  # type: ignore
        slot_step = instance["slot_step"].array.tolist()  # type: ignore
        labels = []
        for position, (step, is_variable) in enumerate(zip(slot_step, kinds)):
            if step < 0 or is_variable:  # padding entry of an example without slots, or a variable slot
                labels.append(LabelField(-1, skip_indexing=True))
            else:
                labels.append(LabelField(values[position], label_namespace=ENTITY_VALUE_NAMESPACE))
        instance.add_field("entity_values", ListField(labels))
        return instance

    def __getattr__(self, name: str) -> Any:
        # What the wrapped reader offers (its transition system, formalism helpers) for models and predictors.
        if name == "reader":
            raise AttributeError(name)
        return getattr(self.reader, name)
