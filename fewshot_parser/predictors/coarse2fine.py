from typing import Any, Dict

from allennlp.common.util import JsonDict
from allennlp.predictors import Predictor

from fewshot_parser.predictors.proto_parser import ProtoParserPredictor


@Predictor.register("coarse2fine")
class Coarse2FinePredictor(ProtoParserPredictor):
    """
    The `proto_parser` predictor's input handling (one `{"utterance": ...}` per line, per-line
    errors) for the Coarse2Fine baseline; the output has the `logical_form` and its `sketch`.

    Registered as a `Predictor` with name "coarse2fine".
    """

    @staticmethod
    def _readable(utterance: str, output: Dict[str, Any]) -> JsonDict:
        return {"utterance": utterance, "logical_form": output["logical_form"], "sketch": output["sketch"]}
