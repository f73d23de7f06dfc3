"""
`allennlp serve`: a parser that keeps learning, served over HTTP and from a web page.

    allennlp serve runs/pretrain/geo-ours/model.tar.gz --state runs/geo-served
    # then open http://127.0.0.1:8000/ (parse, correct, teach, roll back)

The state directory keeps the examples, jobs and versions in SQLite and every version's archive
(`fewshot_parser.serving.store`); a new state starts from the pre-trained archive. The server parses
with the active version in its own process (or, with `--address`, on Ray Serve replicas of a Ray
cluster, `fewshot_parser.serving.replicas`); teachings run one at a time in a separate teaching
process (`fewshot_parser.serving.teacher`), each re-teaching the pre-trained archive with every
example so far (`fewshot_parser.serving.jobs`). The API is in `fewshot_parser.serving.app`.
"""

import argparse
import logging
import os
from typing import TYPE_CHECKING, Any, Optional

from allennlp.commands.subcommand import Subcommand

from fewshot_parser.commands.arguments import positive_int
from fewshot_parser.common.errors import UserError

if TYPE_CHECKING:
    from fastapi import FastAPI

logger = logging.getLogger(__name__)


@Subcommand.register("serve")
class Serve(Subcommand):
    """Serve a parser over HTTP: parse, teach predicate after predicate, correct, roll back."""

    def add_subparser(self, parser: argparse._SubParsersAction) -> argparse.ArgumentParser:
        description = (
            "Serve a pre-trained parser over HTTP with a web page: parse, teach it new predicates one "
            "after another and correct it, keeping every example and version in a state directory."
        )
        sub = parser.add_parser(self.name, description=description, help=description)
        sub.add_argument(
            "archive",
            help="the pre-trained archive, e.g. runs/pretrain/geo-ours/model.tar.gz "
            "(an existing state must have been made from the same one)",
        )
        sub.add_argument("--state", required=True, help="the state directory (created when new)")
        sub.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
        sub.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
        sub.add_argument(
            "--token", default=None, help="a token that teaching and activation require (default: $FEWSHOT_SERVE_TOKEN)"
        )
        sub.add_argument(
            "--threads",
            type=positive_int,
            default=1,
            help="torch threads of the server and of the teaching process (default 1)",
        )
        sub.add_argument(
            "--teach-overrides", default="", help="a JSON object merged into the teaching recipe, as teach -o"
        )
        sub.add_argument(
            "--address",
            default=None,
            help="parse with Ray Serve replicas on an existing Ray cluster ('auto', host:port); the "
            "state directory must be at the same path on every node; teaching stays here",
        )
        sub.add_argument("--replicas", type=positive_int, default=2, help="parsing replicas with --address (default 2)")
        sub.set_defaults(func=serve_from_args)
        return sub


def serve_from_args(args: argparse.Namespace) -> None:
    serve(
        args.archive,
        args.state,
        host=args.host,
        port=args.port,
        token=args.token if args.token is not None else os.environ.get("FEWSHOT_SERVE_TOKEN") or None,
        threads=args.threads,
        teach_overrides=args.teach_overrides,
        address=args.address,
        replicas=args.replicas,
    )


def build(
    archive: str,
    state: str,
    token: Optional[str] = None,
    threads: int = 1,
    teach_overrides: str = "",
    start_teacher: bool = True,
    address: Optional[str] = None,
    replicas: Optional[int] = None,
) -> "FastAPI":
    """
    The FastAPI application of `serve` (see the module docstring); its teaching process starts with it
    (unless not `start_teacher`). With `address` or `replicas`, parsing goes to Ray Serve replicas
    (`fewshot_parser.serving.replicas`; a Ray instance this process started is used as it is).
    """
    import torch

    from fewshot_parser.common.archives import check_archive
    from fewshot_parser.serving.app import create_app
    from fewshot_parser.serving.checks import ExampleChecker
    from fewshot_parser.serving.parser import Parser
    from fewshot_parser.serving.store import Store
    from fewshot_parser.serving.teacher import Teacher

    torch.set_num_threads(threads)
    if os.path.isdir(archive) and os.path.isfile(os.path.join(archive, "model.tar.gz")):
        archive = os.path.join(archive, "model.tar.gz")
    check_archive(archive, "the pre-trained archive to serve")
    store = Store(state)
    store.initialize(archive)
    checker = ExampleChecker(store.pretrained)
    parser: Any
    if address is not None or replicas is not None:
        from fewshot_parser.serving.replicas import RayParser

        parser = RayParser(store, address, replicas or 2, threads)
    else:
        parser = Parser(store)
    teacher = Teacher(store, overrides=teach_overrides, threads=threads) if start_teacher else None
    return create_app(store, parser, checker, teacher, token)


def serve(
    archive: str,
    state: str,
    host: str = "127.0.0.1",
    port: int = 8000,
    token: Optional[str] = None,
    threads: int = 1,
    teach_overrides: str = "",
    address: Optional[str] = None,
    replicas: int = 2,
) -> None:
    """Runs the server until it is stopped (Ctrl-C)."""
    try:
        import uvicorn
    except ImportError:
        raise UserError("serve needs fastapi and uvicorn: pip install fastapi uvicorn") from None
    app = build(
        archive,
        state,
        token=token,
        threads=threads,
        teach_overrides=teach_overrides,
        address=address,
        replicas=replicas if address is not None else None,
    )
    print(
        f"serve: {os.path.abspath(state)}, version {app.state.parser.version} answering; open http://{host}:{port}/",
        flush=True,
    )
    uvicorn.run(app, host=host, port=port, log_level="warning")
