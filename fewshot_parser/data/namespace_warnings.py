"""
AllenNLP's advice on label namespaces, silenced for ours.

Every `LabelField` (and sequence, multi-label and adjacency field) over a namespace whose name does
not end in `labels` or `tags` logs, once per process and namespace, "Your label namespace was
'actions'. We recommend you use a namespace ending with 'labels' or 'tags', so we don't add UNK and
PAD tokens ...". Our namespaces (`our_namespaces`) are padded on purpose: renaming them, or listing
them as non-padded, would move every index of the saved vocabularies and archives, so the advice is
dropped for exactly them by a logging filter on those fields' loggers; the message for any other
namespace still shows.
"""

import logging
from typing import Tuple

from fewshot_parser.data.dataset_readers import coarse2fine
from fewshot_parser.data.dataset_readers.entity_values import ENTITY_VALUE_NAMESPACE
from fewshot_parser.logical_forms.namespaces import ACTION_NAMESPACE, ENTITY_TYPE_NAMESPACE, VARIABLE_NAMESPACE

FIELD_LOGGERS = tuple(
    f"allennlp.data.fields.{name}"
    for name in ("label_field", "sequence_label_field", "multilabel_field", "adjacency_field")
)
ADVICE = "Your label namespace was"


def our_namespaces() -> Tuple[str, ...]:
    """The label namespaces our readers fill."""
    return (
        ACTION_NAMESPACE,
        VARIABLE_NAMESPACE,
        ENTITY_TYPE_NAMESPACE,
        ENTITY_VALUE_NAMESPACE,
        coarse2fine.VARIABLE_NAMESPACE,
        coarse2fine.PREDICATE_NAMESPACE,
    )


class OurNamespaceAdvice(logging.Filter):
    """Drops AllenNLP's namespace advice for the namespaces given."""

    def __init__(self, namespaces: Tuple[str, ...]) -> None:
        super().__init__()
        self.namespaces = set(namespaces)

    def filter(self, record: logging.LogRecord) -> bool:
        return not (
            isinstance(record.msg, str)
            and record.msg.startswith(ADVICE)
            and isinstance(record.args, tuple)
            and record.args[:1]
            and record.args[0] in self.namespaces
        )


def silence_namespace_advice() -> None:
    """Adds the filter to each field logger (once)."""
    namespaces = our_namespaces()
    for name in FIELD_LOGGERS:
        field_logger = logging.getLogger(name)
        if not any(isinstance(f, OurNamespaceAdvice) for f in field_logger.filters):
            field_logger.addFilter(OurNamespaceAdvice(namespaces))
