"""
The HTTP API and page of `allennlp serve` (FastAPI). JSON in and out:

| request | answer |
|---|---|
| `POST /api/parse` `{"utterances": [...]}` | each: `logical_form`, `actions`, `score`, `answered_by`, `version` |
| `POST /api/teach` `{"examples": [{"utterance", "logical_form"}, ...]}` | 202, the queued job (token) |
| `GET /api/jobs/{id}` | queued, running (phase, epoch, seconds so far), done (the version) or failed (why) |
| `GET /api/predicates` | the known predicates, the taught ones with their examples and versions, corrections |
| `GET /api/versions`, `POST /api/versions/{n}/activate` | the versions; roll back or forward (token) |
| `GET /api/health` | the version answering, the teaching process, the queue |
| `GET /` | the page (`fewshot_parser/serving/page/`) |

A bad request is a 4xx `{"error": message, "field": where}` and changes nothing stored; with a token,
teaching and activation need `Authorization: Bearer TOKEN` (parsing does not).
"""

import contextlib
import hmac
import os
import time
from typing import Any, AsyncIterator, Dict, List, Optional

from fastapi import FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from fewshot_parser.serving import checks
from fewshot_parser.serving.checks import ExampleChecker, RequestError
from fewshot_parser.serving.parser import Parser
from fewshot_parser.serving.store import Store
from fewshot_parser.serving.teacher import Teacher

PAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "page")
TOKEN_VARIABLE = "FEWSHOT_SERVE_TOKEN"


def _number(text: str, what: str) -> int:
    if not text.isdigit() or len(text) > 12:
        raise RequestError(f"{what} must be a non-negative integer, got {text!r}", what, status=404)
    return int(text)


def create_app(
    store: Store,
    parser: Parser,
    checker: ExampleChecker,
    teacher: Optional[Teacher] = None,
    token: Optional[str] = None,
) -> FastAPI:
    """
    The application serving `store` with `parser`; `teacher`, the teaching process, starts and stops
    with the application (None: jobs run elsewhere, as in tests).
    """

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if teacher is not None:
            teacher.start()
        try:
            yield
        finally:
            if teacher is not None:
                teacher.stop()
            parser.stop()

    app = FastAPI(title="fewshot_parser", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan)
    app.state.store, app.state.parser, app.state.teacher = store, parser, teacher

    @app.exception_handler(RequestError)
    async def request_error(request: Request, error: RequestError) -> JSONResponse:
        return JSONResponse(error.body(), status_code=error.status)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": str(error.detail), "field": None}, status_code=error.status_code)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, error: Exception) -> JSONResponse:
        return JSONResponse(
            {"error": f"internal error ({type(error).__name__}); the server log has the details", "field": None},
            status_code=500,
        )

    def authorize(request: Request) -> None:
        if not token:
            return
        given = request.headers.get("authorization", "")
        given = given[len("Bearer ") :] if given.startswith("Bearer ") else request.headers.get("x-token", "")
        if not hmac.compare_digest(given.encode("utf-8"), token.encode("utf-8")):
            raise RequestError(
                "teaching and activation need the server's token (Authorization: Bearer TOKEN)", "token", status=401
            )

    async def body(request: Request) -> Dict[str, Any]:
        length = request.headers.get("content-length", "")
        if length.isdigit() and int(length) > checks.MAX_BODY_BYTES:
            raise RequestError(f"request body over {checks.MAX_BODY_BYTES} bytes", status=413)
        return checks.json_object(await request.body())

    @app.post("/api/parse")
    async def parse(request: Request) -> Dict[str, Any]:
        utterances = checks.utterances(await body(request))
        results = await run_in_threadpool(parser.parse, utterances)
        for index, result in enumerate(results):
            if "error" in result:
                raise RequestError(f"utterances[{index}]: {result['error']}", f"utterances[{index}]")
        return {"results": results}

    def pending_examples() -> List[Any]:
        version = store.version(store.active_version())
        taught = store.examples(ids=version.examples if version is not None else [])
        for job in store.jobs():
            if job["status"] in ("queued", "running"):
                taught += store.examples(job=job["id"])
        return taught

    @app.post("/api/teach", status_code=202)
    async def teach(request: Request) -> Dict[str, Any]:
        authorize(request)
        examples = checks.raw_examples(await body(request))
        checked = await run_in_threadpool(lambda: checker.check(examples, pending_examples()))
        job = store.add_job(checked)
        return {
            "job": job,
            "status": "queued",
            "examples": len(checked),
            "new_predicates": sorted({p for example in checked for p in example["predicates"]}),
            "corrections": sum(example["kind"] == "correction" for example in checked),
        }

    def job_view(row: Dict[str, Any]) -> Dict[str, Any]:
        end = row["finished"] or time.time()
        view = {
            "job": row["id"],
            "status": row["status"],
            "phase": row["phase"],
            "epoch": row["epoch"],
            "epochs": row["epochs"],
            "attempts": row["attempts"],
            "seconds": round(end - row["started"], 2) if row["started"] else None,
            "waited": round((row["started"] or time.time()) - row["created"], 2),
        }
        if row["status"] == "done":
            view["version"] = row["version"]
            view["live"] = parser.live(row["version"]) or parser.version > row["version"]  # or skipped for a later one
        if row["status"] == "failed":
            view["error"] = row["error"]
        view["examples"] = [
            {"utterance": e.utterance, "logical_form": e.logical_form, "kind": e.kind}
            for e in store.examples(job=row["id"])
        ]
        return view

    @app.get("/api/jobs/{job}")
    def job(job: str) -> Dict[str, Any]:
        row = store.job(_number(job, "job"))
        if row is None:
            raise RequestError(f"no job {job}", "job", status=404)
        return job_view(row)

    @app.get("/api/jobs")
    def jobs() -> Dict[str, Any]:
        return {"jobs": [job_view(row) for row in store.jobs()]}

    @app.get("/api/predicates")
    def predicates() -> Dict[str, Any]:
        versions = store.versions()
        first_version: Dict[int, int] = {}
        for version in versions:
            for example_id in version.examples:
                first_version.setdefault(example_id, version.number)
        status = {row["id"]: row["status"] for row in store.jobs()}
        taught: Dict[str, Dict[str, Any]] = {}
        corrections = []
        for example in store.examples():
            item = {
                "utterance": example.utterance,
                "logical_form": example.logical_form,
                "job": example.job,
                "job_status": status.get(example.job),
                "version": first_version.get(example.id),
            }
            if example.kind == "correction":
                corrections.append(item)
            for predicate in example.predicates:
                entry = taught.setdefault(predicate, {"predicate": predicate, "version": None, "examples": []})
                entry["examples"].append(item)
                if item["version"] is not None and (entry["version"] is None or item["version"] < entry["version"]):
                    entry["version"] = item["version"]
        return {
            "known": checker.known,
            "taught": sorted(taught.values(), key=lambda entry: entry["predicate"]),
            "corrections": corrections,
        }

    @app.get("/api/versions")
    def versions() -> Dict[str, Any]:
        active = store.active_version()
        return {
            "active": active,
            "answering": parser.version,
            "versions": [
                {
                    "version": v.number,
                    "created": v.created,
                    "job": v.job,
                    "examples": len(v.examples),
                    "predicates": v.predicates,
                    "seconds": v.seconds,
                    "active": v.number == active,
                }
                for v in store.versions()
            ],
        }

    @app.post("/api/versions/{number}/activate")
    async def activate(number: str, request: Request) -> Dict[str, Any]:
        authorize(request)
        version = _number(number, "version")
        try:
            store.activate(version)
        except KeyError:
            raise RequestError(f"no version {version}", "version", status=404) from None
        await run_in_threadpool(parser.use, version)
        return {"active": version, "answering": parser.version}

    @app.get("/api/health")
    def health() -> Dict[str, Any]:
        rows = store.jobs()
        return {
            "status": "ok",
            "answering": parser.version,
            "active": store.active_version(),
            "teaching_process": None if teacher is None else teacher.ready(),
            "teaching_pid": None if teacher is None or teacher.process is None else teacher.process.pid,
            "queued": sum(row["status"] == "queued" for row in rows),
            "running": sum(row["status"] == "running" for row in rows),
            "token_required": bool(token),
        }

    @app.get("/")
    def page() -> FileResponse:
        return FileResponse(os.path.join(PAGE, "index.html"), media_type="text/html")

    app.mount("/static", StaticFiles(directory=PAGE), name="static")
    return app
