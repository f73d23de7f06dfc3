"""
The parser a server answers with: the active version's `Predictor`, loaded once per version, and
the examples that version was taught, looked up first.

A taught example's utterance is answered with its LF (`answered_by` "correction" when it uses only
known predicates, "taught example" otherwise), so a correction holds from the moment its version is
live. Requests that arrive while the parser is busy are decoded together in one batch (`Batcher`),
which keeps latency low under concurrent clients at one torch thread. A new active version (a
teaching finished, or another process activated one) is loaded in the background while the previous
one keeps answering, then swapped in.
"""

import logging
import queue
import threading
import time
from concurrent.futures import Future
from typing import Any, Dict, List, NamedTuple, Optional, Tuple

from fewshot_parser.serving.store import Example, Store, normalize_utterance

logger = logging.getLogger(__name__)


class Loaded(NamedTuple):
    """A version ready to answer: its number, predictor and taught examples by utterance."""

    version: int
    predictor: Any
    taught: Dict[str, Example]


def load_version(store: Store, number: int) -> Loaded:
    from allennlp.predictors import Predictor

    predictor = Predictor.from_path(store.archive_of(number), "proto_parser", cuda_device=-1)
    version = store.version(number)
    taught: Dict[str, Example] = {}
    for example in store.examples(ids=version.examples if version is not None else []):
        taught[normalize_utterance(example.utterance)] = example  # oldest first, so the last one wins
    return Loaded(number, predictor, taught)


class Parser:
    """Parses with the store's active version (see the module docstring)."""

    def __init__(self, store: Store, poll: float = 0.25) -> None:
        self.store = store
        self._current = load_version(store, store.active_version())
        self._load_lock = threading.Lock()
        self._requests: "queue.Queue[Tuple[List[str], Future]]" = queue.Queue()
        self._stopped = threading.Event()
        self._poll = poll
        self.loaded_at: Dict[int, float] = {self._current.version: time.time()}
        threading.Thread(target=self._batches, name="parse-batches", daemon=True).start()
        threading.Thread(target=self._follow, name="follow-active-version", daemon=True).start()

    @property
    def version(self) -> int:
        return self._current.version

    def stop(self) -> None:
        self._stopped.set()

    def live(self, number: int) -> bool:
        """Whether version `number` has answered here (it is, or was, loaded)."""
        return number in self.loaded_at

    def use(self, number: int) -> None:
        """Loads version `number` (unless it is the one answering) and answers with it from now on."""
        with self._load_lock:
            if number != self._current.version:
                loaded = load_version(self.store, number)
                self._current = loaded
                self.loaded_at[number] = time.time()
                logger.info("now answering with version %d", number)

    def _follow(self) -> None:
        while not self._stopped.wait(self._poll):
            try:
                active = self.store.active_version()
                if active != self._current.version:
                    self.use(active)
            except Exception:  # noqa: BLE001 - a version that fails to load leaves the previous one answering
                logger.exception("could not load the active version")
                self._stopped.wait(5)

    def parse(self, utterances: List[str], timeout: float = 60.0) -> List[Dict[str, Any]]:
        """Parses `utterances` (checked, whitespace-normalized) with the version answering now."""
        future: Future = Future()
        self._requests.put((utterances, future))
        return future.result(timeout=timeout)

    def _batches(self) -> None:
        while True:
            first = self._requests.get()
            waiting = [first]
            while True:
                try:
                    waiting.append(self._requests.get_nowait())
                except queue.Empty:
                    break
            current = self._current
            try:
                answers = self._answer(current, [utterance for utterances, _ in waiting for utterance in utterances])
            except Exception as error:  # noqa: BLE001 - handed to the requests, which answer 500
                for _, future in waiting:
                    future.set_exception(error)
                continue
            start = 0
            for utterances, future in waiting:
                future.set_result(answers[start : start + len(utterances)])
                start += len(utterances)

    @staticmethod
    def _answer(current: Loaded, utterances: List[str]) -> List[Dict[str, Any]]:
        answers: List[Optional[Dict[str, Any]]] = []
        to_parse: List[int] = []
        for position, utterance in enumerate(utterances):
            example = current.taught.get(normalize_utterance(utterance))
            if example is None:
                answers.append(None)
                to_parse.append(position)
                continue
            answers.append(
                {
                    "utterance": utterance,
                    "logical_form": example.logical_form,
                    "actions": example.actions,
                    "score": None,
                    "answered_by": "correction" if example.kind == "correction" else "taught example",
                    "version": current.version,
                }
            )
        if to_parse:
            outputs = current.predictor.predict_batch_json([{"utterance": utterances[i]} for i in to_parse])
            for position, output in zip(to_parse, outputs):
                if "error" in output:
                    answers[position] = {
                        "utterance": utterances[position],
                        "error": output["error"],
                        "version": current.version,
                    }
                    continue
                default = "pre-trained" if current.version == 0 else "fine-tuned"
                answers[position] = {
                    "utterance": utterances[position],
                    "logical_form": output["logical_form"],
                    "actions": output["actions"],
                    "score": output["score"],
                    "answered_by": output.get("answered_by", default),
                    "version": current.version,
                }
        return [answer for answer in answers if answer is not None]
