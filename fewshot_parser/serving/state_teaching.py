"""
`allennlp teach ARCHIVE support.txt --state DIR`: teaching predicate after predicate from the command
line, in a state directory a server (`allennlp serve ARCHIVE --state DIR`) may share. The support
file's examples are checked as the server checks a teach request, stored, and taught with every
example taught before as the state's next version, which becomes the active one.
"""

import os
import time
from typing import Callable, Optional

from fewshot_parser.common.archives import check_archive
from fewshot_parser.common.errors import UserError
from fewshot_parser.common.safe_io import read_lines
from fewshot_parser.serving import jobs
from fewshot_parser.serving.checks import ExampleChecker, RequestError
from fewshot_parser.serving.store import Store


def teach_state(
    archive: str,
    support: str,
    state: str,
    teach: jobs.TeachFunction,
    threads: Optional[int] = None,
    overrides: str = "",
    report: Callable[[str], None] = lambda text: print(f"teach: {text}"),
) -> int:
    """Adds `support`'s examples to the state `state` (made from the pre-trained `archive` when new) and
    teaches its next version; returns the version (see the module docstring)."""
    if os.path.isdir(archive) and os.path.isfile(os.path.join(archive, "model.tar.gz")):
        archive = os.path.join(archive, "model.tar.gz")
    check_archive(archive, "the pre-trained archive of the state")
    if not os.path.isfile(support):
        raise UserError(f"{support}: no such support file (one example per line: utterance<TAB>logical form)")
    store = Store(state)
    store.initialize(archive)
    examples = []
    for line in read_lines(support):
        if line.text is None:
            raise UserError(f"{support}:{line.number}: {line.error}")
        text = line.text.rstrip("\n")
        if not text.strip():
            continue
        utterance, tab, logical_form = text.partition("\t")
        if not tab or not utterance.strip() or not logical_form.strip():
            raise UserError(f"{support}:{line.number}: expected utterance<TAB>logical form")
        examples.append(
            (line.number, {"utterance": " ".join(utterance.split()), "logical_form": " ".join(logical_form.split())})
        )
    if not examples:
        raise UserError(f"{support}: no examples")
    version = store.version(store.active_version())
    taught = store.examples(ids=version.examples if version is not None else [])
    try:
        checked = ExampleChecker(store.pretrained).check([example for _, example in examples], taught)
    except RequestError as error:
        index = int(error.field.split("[")[1].split("]")[0]) if error.field and "[" in error.field else None
        reason = error.message.split(": ", 1)[-1]
        where = f"{support}:{examples[index][0]}" if index is not None else support
        raise UserError(f"{where}: {reason}") from None
    new = sorted({predicate for example in checked for predicate in example["predicates"]})
    job = store.add_job(checked)
    report(
        f"state {store.directory}: job {job}, {len(checked)} example(s); new predicate(s): "
        f"{', '.join(new) or 'none (corrections only)'}; building on version {store.active_version()}"
    )
    while True:  # this process runs the queue up to its job, unless a server's teaching process runs it first
        jobs.run_queued(store, teach, overrides=overrides, threads=threads, until=job)
        row = store.job(job) or {}
        if row.get("status") == "failed":
            raise UserError(f"teach: job {job} failed: {row.get('error')}")
        if row.get("status") == "done":
            report(f"version {row['version']} is active: {store.archive_of(row['version'])}")
            return int(row["version"])
        time.sleep(0.5)
