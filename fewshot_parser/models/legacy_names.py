"""
The model names of the old decoding mixins, of the old `irnet_parser` subclass and of the old models of
the authors' behaviours (`proto_parser_authors_slots` and its kind), registered so that
archives and configs that name them still build: each builds `proto_parser` with the components the
name stood for (`fewshot_parser/common/legacy_model_names.py` has the translation). An archive's
weights load as they are; `proto_parser` moves the evidence statistics under its `missing_evidence`
scorer and IRNet's parameters under its `schema_encoding` action scorer.
"""

from typing import Any

from allennlp.common import Params
from allennlp.models import Model

from fewshot_parser.common.legacy_model_names import (
    AUTHORS_MODEL_NAMES,
    LEGACY_MODEL_NAMES,
    translate_authors_model,
    translate_irnet_parser,
    translate_legacy_config,
)
from fewshot_parser.models.proto_parser import ProtoParser  # noqa: F401 (registers "proto_parser")


class LegacyModelName:
    """
    What an old name is registered as: not a class, a builder whose `from_params` translates the
    config (`translate_legacy_config`) and builds the parser it names.
    """

    # What AllenNLP reads from a registered model class besides `from_params`: the parser's predictor.
    default_predictor = ProtoParser.default_predictor

    def __init__(self, name: str) -> None:
        self.name = name
        self.__doc__ = f"The old model name {name!r}, built as `translate_legacy_config` says (legacy_names.py)."

    def from_params(
        self, params: Params, constructor_to_call: Any = None, constructor_to_inspect: Any = None, **extras: Any
    ) -> Model:
        # `constructor_to_*` are what AllenNLP found on this builder: the parser's own are used instead.
        old = params.as_dict(quiet=True)
        if self.name == "irnet_parser":
            config = translate_irnet_parser(old)
        elif self.name in AUTHORS_MODEL_NAMES:
            config = translate_authors_model(self.name, old)
        else:
            config = translate_legacy_config(self.name, old)
        for key in list(params.keys()):  # consumed: the caller may check that nothing is left
            params.pop(key)
        return Model.from_params(params=Params(config), **extras)


for _name in ["irnet_parser", *AUTHORS_MODEL_NAMES] + LEGACY_MODEL_NAMES:
    Model.register(_name)(LegacyModelName(_name))  # type: ignore[arg-type]
