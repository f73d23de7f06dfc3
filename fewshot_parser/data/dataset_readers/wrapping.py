"""
A reader that wraps another and hands everything but `_read` to it: instances for prediction,
token indexers, and any attribute the wrapped reader offers (transition system, formalism helpers)
to models, predictors and callbacks that reach it through the loader.
"""

from typing import Any

from allennlp.data import DatasetReader, Instance


class WrappingReader(DatasetReader):
    """Delegates to `self.reader`; subclasses set it and write `_read`. Not registered."""

    reader: DatasetReader

    def text_to_instance(self, *inputs: Any, **kwargs: Any) -> Instance:  # type: ignore
        return self.reader.text_to_instance(*inputs, **kwargs)

    def apply_token_indexers(self, instance: Instance) -> None:
        self.reader.apply_token_indexers(instance)

    def __getattr__(self, name: str) -> Any:
        if name == "reader":  # not set yet: no recursion through __getattr__
            raise AttributeError(name)
        return getattr(self.reader, name)
