"""
The teaching process of `allennlp serve` (`fewshot_parser.serving.teacher` starts it):

    python -m fewshot_parser.commands.serve_worker STATE --parent PID [--threads 1] [--overrides JSON]

runs the state's queued teaching jobs one at a time (`fewshot_parser.serving.jobs`) until the
process `PID` (the server) ends; when the server is killed, this process ends with it. It runs at a
lowest CPU priority (`--nice`, default 19): on a machine with fewer free cores than processes, parse
requests come before training steps, and a teaching only takes longer.
"""

import argparse
import os
import sys
import threading
import time


def watch_parent(parent: int) -> None:
    """Ends this process as soon as `parent` is no longer its parent (the server ended or was killed)."""
    try:  # Linux: the kernel sends SIGKILL when the parent dies
        import ctypes
        import signal

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        pass
    if os.getppid() != parent:
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


def main(argv: list) -> None:
    parser = argparse.ArgumentParser(prog="python -m fewshot_parser.commands.serve_worker")
    parser.add_argument("state")
    parser.add_argument("--parent", type=int, required=True)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--overrides", default="")
    parser.add_argument(
        "--nice",
        type=int,
        default=19,
        help="lower this process's CPU priority by this much, so that parsing comes first",
    )
    args = parser.parse_args(argv)
    watch_parent(args.parent)
    if args.nice:
        os.nice(args.nice)

    # Running this module imported the package first, which registered the plugin's components.
    from fewshot_parser.commands.teach import teach
    from fewshot_parser.serving.jobs import work_forever
    from fewshot_parser.serving.store import Store

    store = Store(args.state)
    store.set_meta("teaching_process", str(os.getpid()))  # ready: the server's health says so
    print(f"teaching process {os.getpid()} for {args.state}", flush=True)
    work_forever(store, teach, overrides=args.overrides, threads=args.threads)


if __name__ == "__main__":
    main(sys.argv[1:])
