"""
Checks of what a client sends, before anything is stored or parsed: each problem is a
`RequestError` naming the field (`utterances[2]`, `examples[0].logical_form`) and what is wrong.

Examples to teach are read with the LF reader of the pre-trained archive's teaching recipe, after the
examples already taught, so an LF that does not parse, or uses a known predicate (or one taught
before) with another arity, is refused as `teach` would refuse it, with the example's index.
"""

import atexit
import json
import os
import re
import shutil
import tempfile
from typing import Any, Dict, List, Optional, Sequence, Set

from allennlp.common.checks import ConfigurationError

from fewshot_parser.serving.store import Example

MAX_UTTERANCES = 64  # per parse request
MAX_EXAMPLES = 50  # per teach request
MAX_UTTERANCE_CHARS = 500
MAX_LOGICAL_FORM_CHARS = 2000
MAX_BODY_BYTES = 1 << 20


class RequestError(ValueError):
    """A bad request: `status` (4xx), the `field` it concerns (or None) and the message."""

    def __init__(self, message: str, field: Optional[str] = None, status: int = 422) -> None:
        super().__init__(message)
        self.message, self.field, self.status = message, field, status

    def body(self) -> Dict[str, Any]:
        return {"error": self.message, "field": self.field}


def json_object(raw: bytes) -> Dict[str, Any]:
    """The request body as a JSON object."""
    if len(raw) > MAX_BODY_BYTES:
        raise RequestError(f"request body over {MAX_BODY_BYTES} bytes", status=413)
    try:
        value = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise RequestError(f"malformed JSON: {error}", status=400) from None
    if not isinstance(value, dict):
        raise RequestError(f"expected a JSON object, got {_kind(value)}", status=400)
    return value


def _kind(value: Any) -> str:
    names = {
        dict: "an object",
        list: "an array",
        str: "a string",
        bool: "a boolean",
        type(None): "null",
        int: "a number",
        float: "a number",
    }
    return names.get(type(value), type(value).__name__)


def _list(body: Dict[str, Any], field: str, limit: int) -> List[Any]:
    extra = sorted(set(body) - {field})
    if extra:
        raise RequestError(f"unknown field '{extra[0]}' (expected only '{field}')", extra[0])
    if field not in body:
        raise RequestError(f"missing field '{field}'", field)
    value = body[field]
    if not isinstance(value, list):
        raise RequestError(f"'{field}' must be an array, got {_kind(value)}", field)
    if not value:
        raise RequestError(f"'{field}' is empty", field)
    if len(value) > limit:
        raise RequestError(f"too many {field}: {len(value)} (at most {limit} per request)", field, status=413)
    return value


def _text(value: Any, field: str, limit: int, one_line: bool) -> str:
    if not isinstance(value, str):
        raise RequestError(f"{field} must be a string, got {_kind(value)}", field)
    if not value.strip():
        raise RequestError(f"{field} is empty", field)
    if len(value) > limit:
        raise RequestError(f"{field} is over-long: {len(value)} characters (at most {limit})", field)
    if one_line and any(character in value for character in "\t\n\r"):
        raise RequestError(f"{field} holds a tab or line break", field)
    return " ".join(value.split())


def utterances(body: Dict[str, Any]) -> List[str]:
    """The utterances of a parse request, `{"utterances": [...]}`."""
    values = _list(body, "utterances", MAX_UTTERANCES)
    return [_text(value, f"utterances[{index}]", MAX_UTTERANCE_CHARS, False) for index, value in enumerate(values)]


def raw_examples(body: Dict[str, Any]) -> List[Dict[str, str]]:
    """The examples of a teach request, `{"examples": [{"utterance", "logical_form"}, ...]}`, checked for form."""
    values = _list(body, "examples", MAX_EXAMPLES)
    examples = []
    for index, value in enumerate(values):
        where = f"examples[{index}]"
        if not isinstance(value, dict):
            raise RequestError(f"{where} must be an object with utterance and logical_form, got {_kind(value)}", where)
        extra = sorted(set(value) - {"utterance", "logical_form"})
        if extra:
            raise RequestError(f"{where}: unknown field '{extra[0]}'", f"{where}.{extra[0]}")
        for key in ("utterance", "logical_form"):
            if key not in value:
                raise RequestError(f"{where}: missing field '{key}'", f"{where}.{key}")
        examples.append(
            {
                "utterance": _text(value["utterance"], f"{where}.utterance", MAX_UTTERANCE_CHARS, True),
                "logical_form": _text(value["logical_form"], f"{where}.logical_form", MAX_LOGICAL_FORM_CHARS, True),
            }
        )
    return examples


def known_predicates(archive: str) -> List[str]:
    """The predicates of the actions in an archive's action vocabulary."""
    from fewshot_parser.common.archives import read_members
    from fewshot_parser.training.teaching_recipe import predicates_of

    data = read_members(archive, ["vocabulary/actions.txt"]).get("vocabulary/actions.txt", b"")
    return predicates_of(data.decode("utf-8").splitlines())


def arity_uses(actions: Sequence[str]) -> Dict[str, Set[int]]:
    """The arities with which the actions' templates apply each predicate they produce."""
    from fewshot_parser.logical_forms.actions import Action

    uses: Dict[str, Set[int]] = {}
    for text in actions:
        action = Action.from_string(text)
        names = set(action.predicates)
        stack = [action.pattern] if action.pattern is not None else []
        while stack:
            node = stack.pop()
            if node.children and node.label in names:
                uses.setdefault(node.label, set()).add(len(node.children))
            stack.extend(node.children)
    return uses


class ExampleChecker:
    """Checks examples to teach against the pre-trained `archive`'s LF reader and predicates."""

    def __init__(self, archive: str) -> None:
        from fewshot_parser.common.errors import UserError
        from fewshot_parser.training import teaching_recipe

        recipes = teaching_recipe.read_recipes(archive)
        if recipes is None:
            raise UserError(
                f"{archive}: the archive carries no teaching recipe (it was pre-trained before archives "
                "stored one); add it with lab/scripts/add_teaching_recipe.py, or pre-train it again"
            )
        files = teaching_recipe.unpack_files(recipes, tempfile.mkdtemp(prefix="fewshot_serve_files_"))
        atexit.register(shutil.rmtree, files, True)
        recipe, _ = teaching_recipe.choose_recipe(recipes, 1, archive)
        config = teaching_recipe.fill_recipe(recipe, files, "support.txt", None)
        self.reader = json.loads(json.dumps(teaching_recipe.innermost_reader(config["dataset_reader"])))
        self.files = files
        self.known = known_predicates(archive)

    def check(
        self,
        examples: Sequence[Dict[str, str]],
        taught: Sequence[Example],
        field: str = "examples",
    ) -> List[Dict[str, Any]]:
        """
        `examples` with their `actions`, new `predicates` and `kind` ("new" or "correction"), read
        after the `taught` examples; a line the reader refuses is a `RequestError` naming its index.
        """
        from allennlp.common import Params
        from allennlp.data import DatasetReader

        from fewshot_parser.logical_forms.actions import Action

        directory = tempfile.mkdtemp(prefix="fewshot_serve_check_")
        path = os.path.join(directory, "examples.txt")
        lines = [(example.utterance, example.logical_form) for example in taught]
        lines += [(example["utterance"], example["logical_form"]) for example in examples]
        try:
            with open(path, "w", encoding="utf-8") as handle:
                handle.writelines(f"{utterance}\t{logical_form}\n" for utterance, logical_form in lines)
            reader = DatasetReader.from_params(Params(json.loads(json.dumps(self.reader))))
            try:
                instances = list(reader.read(path))
            except ConfigurationError as error:
                message = str(getattr(error, "message", error))
                message = message.replace(os.path.join(self.files, "training.txt"), "the pre-training data")
                raise self._refusal(message, path, len(taught), field) from None
        finally:
            shutil.rmtree(directory, ignore_errors=True)
        if len(instances) != len(lines):  # pragma: no cover - the readers read every line or refuse it
            raise RequestError(f"{field}: the reader read {len(instances)} of {len(lines)} examples", field)
        known = set(self.known)
        first_use: Dict[str, Any] = {}  # a taught predicate -> (its arities, the utterance that taught them)
        for utterance, instance in zip([line[0] for line in lines[: len(taught)]], instances):
            metadata = instance["metadata"].metadata  # type: ignore[attr-defined]
            for name, arities in arity_uses(metadata.get("actions", [])).items():
                if name not in known:
                    first_use.setdefault(name, (arities, utterance))
        checked = []
        for index, (example, instance) in enumerate(zip(examples, instances[len(taught) :])):
            actions = list(instance["metadata"].metadata.get("actions", []))  # type: ignore[attr-defined]
            for name, arities in arity_uses(actions).items():
                if name in known:
                    continue
                expected, where = first_use.setdefault(name, (arities, example["utterance"]))
                if not arities <= expected:
                    raise RequestError(
                        f"{field}[{index}].logical_form: predicate {name} takes "
                        f"{' or '.join(map(str, sorted(expected)))} argument(s) (as taught in "
                        f"'{where}'), got {' and '.join(map(str, sorted(arities - expected)))}",
                        f"{field}[{index}].logical_form",
                    )
            predicates = sorted({p for action in actions for p in Action.from_string(action).predicates} - known)
            checked.append(
                {**example, "actions": actions, "predicates": predicates, "kind": "new" if predicates else "correction"}
            )
        return checked

    @staticmethod
    def _refusal(message: str, path: str, earlier: int, field: str) -> RequestError:
        found = re.match(re.escape(path) + r":(\d+): (.*)$", message, re.DOTALL)
        if found is None:
            return RequestError(f"{field}: {' '.join(message.replace(path, 'the examples').split())}", field)
        line, reason = int(found.group(1)), " ".join(found.group(2).split())
        if line <= earlier:  # pragma: no cover - taught examples passed this check when they were taught
            return RequestError(f"{field}: a taught example no longer reads ({reason})", field)
        where = f"{field}[{line - earlier - 1}]"
        return RequestError(f"{where}.logical_form: {reason}", f"{where}.logical_form")
