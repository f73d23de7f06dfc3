"""
`allennlp predict` with guarded output and per-line input errors, installed when fewshot_parser is
imported (`fewshot_parser.commands.cli_behaviour` replaces AllenNLP's `_PredictManager` by
`GuardedPredictManager`; `allennlp predict` looks it up when it runs, so
`allennlp predict ... --include-package fewshot_parser` gets it):

- the input file is checked before anything is written, and `--output-file F` is written to a
  temporary file beside F, renamed over F only when the run succeeded: a missing input, a crash or
  an input with no usable line leaves an existing F as it was;
- input lines are read as bytes and decoded one by one: a line that is not UTF-8, not JSON (for any
  predictor), or that the predictor rejects becomes an `{"error": ..., "line": N, "line_input": ...}`
  entry and the other lines are still predicted;
- stderr gets each bad line as `FILE:N: reason` and a summary, `predict: 3 parsed, 1 error (line 2)`;
  the command exits non-zero when no line could be parsed.
"""

import json
import os
import sys
from typing import Any, Iterator, List, Optional, Tuple

from allennlp.commands import predict as allennlp_predict
from allennlp.common.file_utils import open_compressed
from allennlp.common.util import JsonDict, lazy_groups_of

from fewshot_parser.common.errors import UserError
from fewshot_parser.common.safe_io import atomic_open, decode_line

# Bad lines shown on stderr one by one; the summary names them all.
SHOWN_ERRORS = 20

# (line number, input for the predictor or None, error or None, the line as text)
Item = Tuple[int, Optional[JsonDict], Optional[str], str]


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


class GuardedPredictManager(allennlp_predict._PredictManager):  # type: ignore[name-defined]
    """AllenNLP's `_PredictManager` with the guards described in the module docstring."""

    def __init__(self, predictor: Any, input_file: str, output_file: Optional[str], *args: Any, **kwargs: Any) -> None:
        super().__init__(predictor, input_file, None, *args, **kwargs)  # opens nothing
        self._output_path = output_file
        self.parsed = 0
        self.errors: List[Tuple[int, str]] = []

    def run(self) -> None:
        self._check_input()
        if self._output_path is None:
            self._run_and_check()
            return
        with atomic_open(self._output_path, "w") as handle:
            self._output_file = handle  # type: ignore[assignment]  # a text file, as AllenNLP's own
            try:
                self._run_and_check()
            finally:
                self._output_file = None

    def _check_input(self) -> None:
        path = self._input_file
        if path == "-" or "://" in path:
            return
        if not os.path.isfile(path):
            directory = " (it is a directory)" if os.path.isdir(path) else ""
            raise UserError(f"{path}: no such input file{directory}")

    def _run_and_check(self) -> None:
        if self._dataset_reader is not None:  # --use-dataset-reader: AllenNLP's own loop
            super().run()
            return
        self._run_json()
        self._report()

    def _items(self) -> Iterator[Item]:
        if self._input_file == "-":
            handle = sys.stdin.buffer
        else:
            handle = open_compressed(self._input_file, "rb", encoding=None)
        try:
            for number, raw in enumerate(handle, start=1):
                line = decode_line(raw)
                if line.text is None:
                    yield number, None, line.error, raw.decode("utf-8", "replace").rstrip("\r\n")
                    continue
                if not line.text.strip():
                    continue
                text = line.text.rstrip("\r\n")
                try:
                    loaded = self._predictor.load_line(line.text)
                except ValueError as error:  # predictors that do not report bad JSON themselves
                    yield number, None, f"not valid JSON: {error}", text
                    continue
                yield number, loaded, None, text
        finally:
            if handle is not sys.stdin.buffer:
                handle.close()

    def _run_json(self) -> None:
        index = 0
        for batch in lazy_groups_of(self._items(), self._batch_size):
            inputs = [item[1] for item in batch if item[2] is None and item[1] is not None]
            if len(inputs) == 1:
                outputs = iter([self._predictor.predict_json(inputs[0])])
            else:
                outputs = iter(self._predictor.predict_batch_json(inputs) if inputs else [])
            for number, loaded, error, text in batch:
                if error is not None:
                    result: JsonDict = {"error": error, "line_input": text}
                else:
                    result = next(outputs)
                if isinstance(result, dict) and "error" in result:
                    result = {
                        "error": result["error"],
                        "line": number,
                        **{k: v for k, v in result.items() if k not in ("error", "line")},
                    }
                    self.errors.append((number, str(result["error"])))
                else:
                    self.parsed += 1
                shown = json.dumps(loaded) if loaded is not None else text
                self._maybe_print_to_console_and_file(index, self._predictor.dump_line(result), shown)
                index += 1

    def _report(self) -> None:
        name = "<stdin>" if self._input_file == "-" else self._input_file
        for number, error in self.errors[:SHOWN_ERRORS]:
            sys.stderr.write(f"{name}:{number}: {error}\n")
        if len(self.errors) > SHOWN_ERRORS:
            sys.stderr.write(f"... and {len(self.errors) - SHOWN_ERRORS} more bad lines\n")
        lines = ", ".join(str(number) for number, _ in self.errors)
        where = f" ({'line' if len(self.errors) == 1 else 'lines'} {lines})" if self.errors else ""
        sys.stderr.write(f"predict: {self.parsed} parsed, {_plural(len(self.errors), 'error')}{where}\n")
        sys.stderr.flush()
        if self.parsed == 0:
            kept = f"; {self._output_path} was not written" if self._output_path else ""
            reason = "it has no input lines" if not self.errors else "every line is an error"
            raise UserError(f"{name}: no line could be parsed ({reason}){kept}")
