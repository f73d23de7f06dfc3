import json
import math
from typing import Any, Dict, List

from allennlp.common.checks import ConfigurationError
from allennlp.common.util import JsonDict
from allennlp.data import Instance
from allennlp.predictors import Predictor


class InputError(ValueError):
    """A prediction input line that cannot be used (the message names the problem)."""


@Predictor.register("proto_parser")
class ProtoParserPredictor(Predictor):
    """
    Parses utterances into logical forms. Input, one JSON object per line:

        {"utterance": "how many river run through s0"}

    Output: `{"utterance", "logical_form", "actions", "score"}`, plus `n_best` (LFs with scores, best
    first) when the model decodes with a beam, and for a `fewshot_ensemble` `votes` (how many members
    predicted the LF) and `member_logical_forms` (each member's LF), and for a `fewshot_known_fallback`
    `answered_by` (`"fine-tuned"` or `"pre-trained"`, the parser whose answer it is). A bad line (not JSON, no
    `utterance`, not a string, empty) gives `{"error": "...", "line_input": ...}` for that line, and
    the other lines of the same `allennlp predict` run are still predicted.

    Registered as a `Predictor` with name "proto_parser".
    """

    def predict(self, utterance: str) -> JsonDict:
        return self.predict_json({"utterance": utterance})

    def load_line(self, line: str) -> JsonDict:
        try:
            value = json.loads(line)
        except json.JSONDecodeError as error:
            return {"_error": f"not valid JSON: {error}", "_line": line.rstrip("\n")}
        return value if isinstance(value, dict) else {"_error": "expected a JSON object", "_line": line.rstrip("\n")}

    def _json_to_instance(self, json_dict: JsonDict) -> Instance:
        if "_error" in json_dict:
            raise InputError(json_dict["_error"])
        if "utterance" not in json_dict:
            raise InputError("missing field 'utterance'")
        utterance = json_dict["utterance"]
        if not isinstance(utterance, str):
            raise InputError(f"field 'utterance' must be a string, got {type(utterance).__name__}")
        if not utterance.strip():
            raise InputError("field 'utterance' is empty")
        try:
            return self._dataset_reader.text_to_instance(utterance)  # type: ignore
        except ConfigurationError as error:
            raise InputError(str(error)) from error

    def predict_batch_json(self, inputs: List[JsonDict]) -> List[JsonDict]:
        instances: List[Instance] = []
        errors: Dict[int, str] = {}
        for position, json_dict in enumerate(inputs):
            try:
                instances.append(self._json_to_instance(json_dict))
            except InputError as error:
                errors[position] = str(error)
        outputs = iter(self.predict_batch_instance(instances) if instances else [])
        results = []
        for position, json_dict in enumerate(inputs):
            if position in errors:
                shown = json_dict.get("_line", json_dict) if isinstance(json_dict, dict) else json_dict
                results.append({"error": errors[position], "line_input": shown})
            else:
                results.append(self._readable(json_dict["utterance"], next(outputs)))
        return results

    def predict_json(self, inputs: JsonDict) -> JsonDict:
        return self.predict_batch_json([inputs])[0]

    @staticmethod
    def _readable(utterance: str, output: Dict[str, Any]) -> JsonDict:
        result = {
            "utterance": utterance,
            "logical_form": output["logical_form"],
            "actions": output["predicted_actions"],
            # A parser that found no LF (the faithful decoder stuck on an inapplicable action) scores
            # -inf, which JSON cannot hold: the line says null for both.
            "score": output["score"] if math.isfinite(output["score"]) else None,
        }
        for key in ("n_best", "votes", "member_logical_forms", "answered_by"):
            if key in output:
                result[key] = output[key]
        return result
