"""
Load on `allennlp serve`, loopback only and bounded in requests and time: parse latency (p50, p95)
and throughput with 1 and 8 concurrent clients, without and with a teaching running, and the
seconds from a teach request to the new version answering.

    python benchmarks/serve_load.py --archive runs/pretrain/dev/draw_1/jobs-ours/model.tar.gz \\
        --support data/dev/draw_1/jobs/lemma_data/shuffle_0_shot_1/support.txt \\
        --utterances data/dev/draw_1/jobs/lemma_data/shuffle_0_shot_1/query.txt --label "jobs faithful" \\
        [--clients 1 8] [--requests 400] [--seconds 60] [--teachings 3] [--threads 1] [--out results/speed]

The server runs as `python -m fewshot_parser serve` on 127.0.0.1 (one torch thread per process:
the server and its teaching process), on a fresh state in a temporary directory, taught the
`--support` examples once before the first row, so that every row parses with a taught version
(a taught parser may decode more slowly than the pre-trained one). Each client sends
one utterance per request (`POST /api/parse`) over a kept-alive connection, one request after
another. Before each row with a teaching, the server has loaded its active version (a new version
is loaded in the server process, which briefly slows parsing; that moment is not in these rows).
With a teaching running, a helper thread keeps the server teaching (it queues the
`--support` examples whenever no job is queued or running), and only requests that start and end
inside a running job count; throughput is those requests over the seconds the jobs ran. A teach
request to live version is timed from `POST /api/teach` to the first parse answered by the job's
version (after the version active before it answers). Rows are kept per `--label` in
`<out>/serve.csv`; `<out>/serve.md` is rendered from it.
"""
import argparse
import csv
import http.client
import json
import os
import platform
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any, Dict, List, Optional, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIELDS = ["label", "kind", "clients", "teaching", "requests", "p50_ms", "p95_ms", "per_second", "seconds", "note",
          "commit", "machine"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Client:
    """One kept-alive loopback connection to the server."""

    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def call(self, method: str, path: str, body: Optional[Dict[str, Any]] = None) -> Tuple[int, Any]:
        data = None if body is None else json.dumps(body)
        self.connection.request(method, path, body=data, headers={"Content-Type": "application/json"})
        response = self.connection.getresponse()
        return response.status, json.loads(response.read())


def percentile(values: List[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, int(round(share * len(ordered) + 0.5)) - 1))]


def read_examples(path: str) -> List[Tuple[str, str]]:
    with open(path, encoding="utf-8") as handle:
        return [tuple(line.rstrip("\n").split("\t", 1)) for line in handle if "\t" in line]  # type: ignore[misc]


def load(port: int, utterances: List[str], clients: int, requests: int, seconds: float) -> List[Tuple[float, float]]:
    """(start, end) wall-clock times of parse requests from `clients` clients, at most `requests` or `seconds`."""
    done: List[Tuple[float, float]] = []
    lock = threading.Lock()
    sent = [0]
    deadline = time.time() + seconds

    def client(index: int) -> None:
        connection = Client(port)
        while True:
            with lock:
                if sent[0] >= requests or time.time() > deadline:
                    return
                sent[0] += 1
                number = sent[0]
            started = time.time()
            body = {"utterances": [utterances[number % len(utterances)]]}
            status, answer = connection.call("POST", "/api/parse", body)
            ended = time.time()
            assert status == 200, answer
            with lock:
                done.append((started, ended))

    threads = [threading.Thread(target=client, args=(index,)) for index in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return done


class KeepTeaching:
    """A thread that keeps a teaching job queued or running until stopped; the jobs' (start, end) times."""

    def __init__(self, port: int, examples: List[Dict[str, str]]) -> None:
        self.port, self.examples = port, examples
        self.stop = threading.Event()
        self.jobs: List[int] = []
        self.thread = threading.Thread(target=self.run)

    def run(self) -> None:
        client = Client(self.port)
        while not self.stop.is_set():
            health = client.call("GET", "/api/health")[1]
            if not health["queued"] and not health["running"]:
                status, answer = client.call("POST", "/api/teach", {"examples": self.examples})
                assert status == 202, answer
                self.jobs.append(answer["job"])
            self.stop.wait(0.2)


def job_spans(state: str, jobs: List[int]) -> List[Tuple[float, float]]:
    """The (started, finished) times of `jobs`, read from the state's database."""
    import sqlite3

    connection = sqlite3.connect(os.path.join(state, "serve.sqlite"))
    try:
        rows = connection.execute(f"SELECT started, COALESCE(finished, ?) FROM jobs WHERE id IN "
                                  f"({','.join('?' * len(jobs))}) AND started IS NOT NULL", [time.time()] + jobs)
        return [(float(a), float(b)) for a, b in rows]
    finally:
        connection.close()


def settle(port: int, probe: str, seconds: float = 300) -> None:
    """Waits until no job is queued or running and the active version answers (its loading is not measured)."""
    client = Client(port)
    deadline = time.time() + seconds
    while time.time() < deadline:
        health = client.call("GET", "/api/health")[1]
        version = client.call("POST", "/api/parse", {"utterances": [probe]})[1]["results"][0]["version"]
        if not health["queued"] and not health["running"] and version == health["active"]:
            return
        time.sleep(0.2)
    raise AssertionError("the server did not settle")


def row(label: str, clients: int, teaching: bool, latencies: List[float], seconds: float, note: str) -> Dict[str, Any]:
    return {"label": label, "kind": "parse", "clients": clients, "teaching": "yes" if teaching else "no",
            "requests": len(latencies), "p50_ms": f"{1000 * percentile(latencies, 0.5):.1f}",
            "p95_ms": f"{1000 * percentile(latencies, 0.95):.1f}",
            "per_second": f"{len(latencies) / seconds:.1f}" if seconds > 0 else "", "seconds": f"{seconds:.1f}",
            "note": note}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--archive", required=True, help="a pre-trained archive")
    parser.add_argument("--support", required=True, help="examples to teach, utterance<TAB>logical form per line")
    parser.add_argument("--utterances", required=True, help="utterances to parse (the first column of each line)")
    parser.add_argument("--label", required=True, help="the rows' label, e.g. 'jobs faithful'")
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 8])
    parser.add_argument("--requests", type=int, default=400, help="at most this many requests per row")
    parser.add_argument("--seconds", type=float, default=60.0, help="at most this long per row")
    parser.add_argument("--teachings", type=int, default=3, help="teach requests timed to the live new version")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--no-teach-first", dest="teach_first", action="store_false",
                        help="measure the first rows on the pre-trained archive (default: teach --support first)")
    parser.add_argument("--out", default=os.path.join(ROOT, "results", "speed"))
    args = parser.parse_args()

    support = [{"utterance": u, "logical_form": lf} for u, lf in read_examples(args.support)]
    with open(args.utterances, encoding="utf-8") as handle:
        utterances = [line.split("\t")[0].strip() for line in handle if line.strip()]
    work = tempfile.mkdtemp(prefix="serve_load_")
    state = os.path.join(work, "state")
    port = free_port()
    env = dict(os.environ, OMP_NUM_THREADS=str(args.threads), FEWSHOT_THREADS=str(args.threads),
               PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    log = open(os.path.join(work, "server.log"), "wb")
    server = subprocess.Popen([sys.executable, "-m", "fewshot_parser", "serve", args.archive, "--state", state,
                               "--port", str(port), "--threads", str(args.threads)], stdout=log,
                              stderr=subprocess.STDOUT, env=env)
    rows: List[Dict[str, Any]] = []
    try:
        deadline = time.time() + 300
        while True:
            assert server.poll() is None and time.time() < deadline, "the server did not start"
            try:
                if Client(port).call("GET", "/api/health")[1].get("teaching_process"):
                    break
            except OSError:
                pass
            time.sleep(0.5)
        if args.teach_first:  # every row then parses with a taught version, as a served parser does
            status, answer = Client(port).call("POST", "/api/teach", {"examples": support})
            assert status == 202, answer
            time.sleep(0.5)
            settle(port, utterances[0])
        load(port, utterances, 1, 20, 30)  # warm-up
        for clients in args.clients:
            done = load(port, utterances, clients, args.requests, args.seconds)
            wall = max(end for _, end in done) - min(start for start, _ in done)
            rows.append(row(args.label, clients, False, [end - start for start, end in done], wall, ""))
            print(rows[-1], flush=True)
        for clients in args.clients:
            settle(port, utterances[0])
            teacher = KeepTeaching(port, support)
            teacher.thread.start()
            deadline = time.time() + 120
            while not Client(port).call("GET", "/api/health")[1]["running"] and time.time() < deadline:
                time.sleep(0.05)  # the first teaching has started
            done = load(port, utterances, clients, args.requests, args.seconds)
            teacher.stop.set()
            teacher.thread.join()
            spans = job_spans(state, teacher.jobs)
            inside = [(s, e) for s, e in done if any(a <= s and e <= b for a, b in spans)]
            first, last = min(s for s, _ in done), max(e for _, e in done)
            covered = sum(max(0.0, min(b, last) - max(a, first)) for a, b in spans)
            rows.append(row(args.label, clients, True, [e - s for s, e in inside], covered,
                            f"{len(inside)} of {len(done)} requests inside {len(spans)} teaching(s)"))
            print(rows[-1], flush=True)
        settle(port, utterances[0])
        client = Client(port)
        probe = utterances[0]
        for teaching in range(args.teachings):
            active = client.call("GET", "/api/versions")[1]["active"]
            deadline = time.time() + 300
            while client.call("POST", "/api/parse", {"utterances": [probe]})[1]["results"][0]["version"] != active:
                assert time.time() < deadline, "the active version never answered"
                time.sleep(0.1)  # the previous version answers before this measurement starts
            started = time.time()
            status, answer = client.call("POST", "/api/teach", {"examples": support})
            assert status == 202, answer
            deadline = started + 600
            view: Dict[str, Any] = {}
            result: Dict[str, Any] = {}
            while time.time() < deadline:
                view = client.call("GET", f"/api/jobs/{answer['job']}")[1]
                assert view["status"] != "failed", view
                if view["status"] == "done":
                    result = client.call("POST", "/api/parse", {"utterances": [probe]})[1]["results"][0]
                    if result["version"] == view["version"]:
                        break
                time.sleep(0.1)
            seconds = time.time() - started
            rows.append({"label": args.label, "kind": "teach to live", "clients": "", "teaching": "", "requests": 1,
                         "p50_ms": "", "p95_ms": "", "per_second": "", "seconds": f"{seconds:.1f}",
                         "note": f"{len(support)} example(s); the job waited {view.get('waited')} s and ran "
                                 f"{view.get('seconds')} s; version {result.get('version')}"})
            print(rows[-1], flush=True)
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
        shutil.rmtree(work, ignore_errors=True)
    write(args.out, args.label, rows)


def write(out: str, label: str, rows: List[Dict[str, Any]]) -> None:
    """Replaces `label`'s rows in `<out>/serve.csv` and renders `<out>/serve.md` from it."""
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "serve.csv")
    kept = []
    if os.path.isfile(path):
        with open(path, newline="") as handle:
            kept = [r for r in csv.DictReader(handle) if r["label"] != label]
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    machine = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as handle:
            machine = next(line.split(":", 1)[1].strip() for line in handle if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    every = kept + [dict(r, commit=commit, machine=machine) for r in rows]
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=FIELDS)
        writer.writeheader()
        writer.writerows(every)
    with open(os.path.join(out, "serve.md"), "w") as handle:
        handle.write("# Serving: parse latency under load, and teach request to live version\n\n"
                     "Generated by `python benchmarks/serve_load.py` (its docstring has the method), loopback only, "
                     "one torch thread in the server and one in its teaching process; `serve.csv` has the commit "
                     "and CPU of each row. A shared 2-core machine: other processes ran beside some rows.\n\n")
        handle.write("| archive | clients | teaching running | requests | p50 (ms) | p95 (ms) | requests/s | note |\n"
                     "|---|---|---|---|---|---|---|---|\n")
        for r in every:
            if r["kind"] == "parse":
                handle.write(f"| {r['label']} | {r['clients']} | {r['teaching']} | {r['requests']} | {r['p50_ms']} | "
                             f"{r['p95_ms']} | {r['per_second']} | {r['note']} |\n")
        handle.write("\n| archive | teach request to the new version answering (s) | note |\n|---|---|---|\n")
        for r in every:
            if r["kind"] == "teach to live":
                handle.write(f"| {r['label']} | {r['seconds']} | {r['note']} |\n")


if __name__ == "__main__":
    main()
