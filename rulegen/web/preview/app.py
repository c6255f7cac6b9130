"""The preview's Starlette app: one page that follows an offering file as it is saved.

A watcher (watchfiles) sees each save of the file, or of its logo, in its folder (an editor that saves by writing a
new file and renaming it over the old one is seen too); the refresh runs in a worker thread
(`rulegen.assemble.preview`), and every open page is sent the new content as a server-sent event, which its one
script (preview.js) puts in place without reloading. A save that does not build shows its findings, with the
documents of the last save that did, marked as such.

The app listens on 127.0.0.1 only and answers only requests addressed to it by that name (a page elsewhere cannot
reach it through DNS rebinding). Its page allows its own script alone; the documents are shown in iframes
sandboxed without scripts; untrusted text (the file's lines, the findings) is escaped by Jinja2.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as _dt
import json
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from rulegen.assemble import preview as previews
from rulegen.render.fetcher import ASSET_SCHEME, RefusedResource

TEMPLATES = Path(__file__).resolve().parent / "templates"
KEEP_ALIVE_SECONDS = 15
# watchfiles groups the events of one save (write, rename) for `DEBOUNCE_MS`, looking again every `STEP_MS`: a save
# is seen in well under a second (its default, 1.6 s, would take the whole budget of a refresh).
DEBOUNCE_MS = 150
STEP_MS = 30
PAGE_POLICY = ("default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src data:; font-src 'self'; "
               "frame-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


def asset_link(url: str) -> str:
    """A document's `rulegen-asset:fonts/X.ttf` as the page fetches it: `/asset/fonts/X.ttf` from this server."""
    return "/asset/" + url.removeprefix(ASSET_SCHEME + ":")


@dataclass
class PreviewState:
    """What the page shows now, and the last documents that built."""

    path: Path
    display: str
    generation: int = 0
    current: previews.Preview | None = None
    built: previews.PreviewDocuments | None = None
    built_at: str | None = None
    main: str = ""
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)

    def watched(self) -> set[str]:
        names = {self.path.name}
        if self.built is not None and self.built.logo:
            names.add(Path(self.built.logo).name)
        return names


def saved_time(path: Path) -> str:
    try:
        stamp = path.stat().st_mtime
    except OSError:
        return "(the file cannot be read)"
    return _dt.datetime.fromtimestamp(stamp).strftime("%H:%M:%S")


LOCAL_NAMES = ("127.0.0.1", "localhost")


def create_app(path: Path, display: str | None = None, hosts: Sequence[str] = LOCAL_NAMES) -> Starlette:
    pages = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=select_autoescape(default=True),
                        trim_blocks=True, lstrip_blocks=True)
    state = PreviewState(path=Path(path).absolute(), display=display or str(path))
    script = (TEMPLATES / "preview.js").read_bytes()
    busy = asyncio.Lock()

    async def refresh() -> None:
        async with busy:
            started = time.perf_counter()
            result = await run_in_threadpool(previews.preview, state.path, state.display, asset_link)
            if result.documents is not None:
                state.built, state.built_at = result.documents, saved_time(state.path)
            seconds = time.perf_counter() - started
            errors = sum(1 for f in result.findings if f.level == "error")
            async with state.changed:
                state.generation += 1
                state.current = result
                state.main = pages.get_template("_main.html").render(
                    preview=result, generation=state.generation, errors=errors, saved=saved_time(state.path),
                    seconds=seconds, documents=state.built, stale=result.documents is None,
                    built_at=state.built_at)
                state.changed.notify_all()

    async def follow(stop: asyncio.Event) -> None:
        """Refresh at each save, for as long as the server runs; a watcher that fails is started again."""
        from watchfiles import awatch

        folder = state.path.parent
        while not stop.is_set():
            try:
                async for _changes in awatch(folder, watch_filter=lambda _kind, name: Path(name).name in
                                             state.watched(), debounce=DEBOUNCE_MS, step=STEP_MS,
                                             stop_event=stop, recursive=False):
                    await refresh()
            except Exception:  # the folder vanished, the watcher's limits were reached: look again shortly
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(stop.wait(), 1)

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        await refresh()
        stop = asyncio.Event()
        watcher = asyncio.create_task(follow(stop))
        try:
            yield
        finally:
            stop.set()
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await watcher

    def secured(response: Response) -> Response:
        response.headers["Content-Security-Policy"] = PAGE_POLICY
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Cache-Control"] = "no-store"
        response.headers["Referrer-Policy"] = "no-referrer"
        return response

    async def page(_request: Request) -> Response:
        return secured(HTMLResponse(pages.get_template("page.html").render(
            path=state.display, generation=state.generation, main=Markup(state.main))))

    async def preview_script(_request: Request) -> Response:
        return secured(Response(script, media_type="text/javascript"))

    def event() -> str:
        return "event: refresh\ndata: " + json.dumps({"generation": state.generation, "main": state.main}) + "\n\n"

    async def events(request: Request) -> Response:
        async def stream() -> AsyncIterator[str]:
            yield "retry: 1000\n\n"
            seen = state.generation
            yield event()
            while not await request.is_disconnected():
                message = ": still following\n\n"
                async with state.changed:
                    with contextlib.suppress(asyncio.TimeoutError):
                        await asyncio.wait_for(state.changed.wait_for(lambda: state.generation != seen),
                                               KEEP_ALIVE_SECONDS)
                    if state.generation != seen:
                        seen = state.generation
                        message = event()
                yield message

        return secured(StreamingResponse(stream(), media_type="text/event-stream"))

    async def current(_request: Request) -> Response:
        """The findings of the last save, as `rulegen validate --format json` gives them, and the refresh number."""
        result = state.current
        return secured(JSONResponse({
            "generation": state.generation,
            "status": result.status if result else None,
            "findings": [f.to_json() for f in result.findings] if result else [],
            "seconds": result.seconds if result else {},
        }))

    async def asset(request: Request) -> Response:
        try:
            data, kind = await run_in_threadpool(previews.asset, request.path_params["name"])
        except RefusedResource as refusal:
            return secured(PlainTextResponse(refusal.reason, status_code=404))
        response = Response(data, media_type=kind)
        response.headers["Cache-Control"] = "max-age=3600"
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response

    async def healthz(_request: Request) -> Response:
        return PlainTextResponse("ok")

    app = Starlette(routes=[
        Route("/", page),
        Route("/preview.js", preview_script),
        Route("/events", events),
        Route("/state", current),
        Route("/asset/{name:path}", asset),
        Route("/healthz", healthz),
    ], middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=list(hosts))], lifespan=lifespan)
    app.state.preview = state
    app.state.refresh = refresh
    return app


__all__ = ["create_app", "asset_link", "PreviewState"]
