"""The desk's Starlette app: pages rendered on the server (forms, no JavaScript) and the JSON API under /api.

Security: sessions are random tokens in an HttpOnly, SameSite=Strict cookie (Secure under TLS) that expire;
every state change needs the session's CSRF token (a form's hidden `csrf` field, or the API's X-CSRF-Token
header); failed logins are limited per user name and per address; request bodies are bounded before they are
read; pages are Jinja2 with autoescaping, served with a Content-Security-Policy that allows no script; a filing's
files are only ever downloaded (attachment, nosniff), never shown in the desk's origin.
"""

from __future__ import annotations

import datetime as _dt
import hmac
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from jinja2 import Environment, FileSystemLoader, select_autoescape
from sqlalchemy.engine import Engine
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rulegen.filing.rebuild import Reproducer
from rulegen.web.desk import intake, queue, review, store
from rulegen.web.desk.words import PLAIN, STATUS_WORDS

COOKIE = "rulegen_desk"
LOGIN_COOKIE = "rulegen_desk_login"  # the login form's CSRF token (double submit), before there is a session
CSRF_HEADER = "x-csrf-token"
LOGIN_WINDOW = _dt.timedelta(minutes=15)
LOGIN_ATTEMPTS = 5  # failed logins per user name, or per address, within LOGIN_WINDOW; then 429
TEMPLATES = Path(__file__).resolve().parent / "templates"



@dataclass
class Desk:
    engine: Engine
    archive: Path
    # The renderer every upload is verified in full with (the build layer's `reproduce_filing_for_verify`): the
    # desk has no integrity-only mode, so it is not optional.
    reproduce: Reproducer
    roots: list[Any] = field(default_factory=list)
    limits: intake.Limits = field(default_factory=intake.Limits)
    session_lifetime: _dt.timedelta = _dt.timedelta(hours=8)
    # today's trust roots for a re-verification (`serve` reads its --trust and RULEGEN_TRUST again); else `roots`
    trust_loader: Callable[[], list[Any]] | None = None

    def roots_today(self) -> list[Any]:
        return self.trust_loader() if self.trust_loader is not None else list(self.roots)


class _TooLarge(Exception):
    pass


class BodyLimit:
    """Refuse a request body over `max_bytes` with 413: at once by its Content-Length, else as it streams in."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_bytes):
            await _plain(413, "the upload is larger than this desk takes")(scope, receive, send)
            return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise _TooLarge()
            return message

        await self.app(scope, limited, send)


def _plain(status: int, text: str) -> Response:
    return JSONResponse({"error": text}, status_code=status)


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [
                    (b"content-security-policy", b"default-src 'none'; style-src 'unsafe-inline'; "
                                                 b"form-action 'self'; frame-ancestors 'none'; base-uri 'none'"),
                    (b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY"),
                    (b"referrer-policy", b"no-referrer"), (b"cache-control", b"no-store")]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, with_headers)


def create_app(desk: Desk) -> ASGIApp:
    pages = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=select_autoescape(default=True))
    pages.globals.update(PLAIN=PLAIN, STATUS_WORDS=STATUS_WORDS, STATUSES=store.STATUSES)

    def address(request: Request) -> str | None:
        return request.client.host if request.client else None

    async def session_of(request: Request) -> store.Session | None:
        return await run_in_threadpool(store.find_session, desk.engine, request.cookies.get(COOKIE))

    def set_session_cookie(response: Response, request: Request, token: str) -> None:
        response.set_cookie(COOKIE, token, max_age=int(desk.session_lifetime.total_seconds()), httponly=True,
                            samesite="strict", secure=request.url.scheme == "https", path="/")

    def page(request: Request, name: str, code: int = 200, **context: Any) -> HTMLResponse:
        return HTMLResponse(pages.get_template(name).render(request=request, **context), status_code=code)

    async def login_allowed(name: str, where: str | None) -> bool:
        since = store.now() - LOGIN_WINDOW
        return await run_in_threadpool(store.failed_logins, desk.engine, name, where, since) < LOGIN_ATTEMPTS

    async def attempt_login(name: str, password: str, where: str | None) -> store.User | None | str:
        """The user, None (wrong name or password), or "limited" (too many failures)."""
        if not await login_allowed(name, where):
            return "limited"
        user = await run_in_threadpool(store.authenticate, desk.engine, name, password)
        await run_in_threadpool(store.record_event, desk.engine, action="login" if user else "login-failed",
                                user=user, user_name=name[:100], address=where)
        return user

    async def read_upload(request: Request, form_csrf: bool, session: store.Session) -> dict[str, bytes]:
        try:
            form = await request.form(max_files=desk.limits.max_files + 1, max_fields=20)
            if form_csrf and not session.csrf_matches(str(form.get("csrf") or "")):
                raise intake.UploadRefused("the form's CSRF token is missing or wrong; reload the page", 403)
            uploaded = []
            for item in form.getlist("files"):
                if isinstance(item, UploadFile):
                    if item.filename in (None, "") and (item.size or 0) == 0:
                        continue  # the form sent with no file chosen
                    uploaded.append((item.filename or "", await item.read()))
            await form.close()
        except _TooLarge:
            raise intake.UploadRefused("the upload is larger than this desk takes", 413) from None
        except HTTPException as exc:  # Starlette's multipart parser: too many files or fields, malformed
            raise intake.UploadRefused(f"the upload cannot be read: {exc.detail}", 400) from None
        if len(uploaded) > desk.limits.max_files:
            raise intake.UploadRefused(f"more than {desk.limits.max_files} files: not a filing", 413)
        return intake.expand(uploaded, desk.limits)

    async def take(request: Request, session: store.Session, found: dict[str, bytes]) -> tuple[int, intake.Received]:
        received = await run_in_threadpool(intake.receive, found, archive_folder=desk.archive, engine=desk.engine,
                                           roots=desk.roots, reproduce=desk.reproduce)
        filing_id = await run_in_threadpool(
            lambda: store.add_filing(desk.engine, user=session.user, address=address(request),
                                     verdict=received.verdict, report=received.report,
                                     register_entry=received.register_entry, stored=received.stored))
        return filing_id, received

    def download(filing_id: int, name: str, digest: str | None, *, pdf: bool = False) -> Response:
        if digest is None:
            return _plain(404, f"filing {filing_id} has no file {name!r}")
        return FileResponse(review.archived(desk.archive, digest),
                            media_type="application/pdf" if pdf else "application/octet-stream",
                            headers={"content-disposition": f"attachment; filename*=UTF-8''{quote(name)}"})

    async def reverify_filing(request: Request, session: store.Session, filing_id: int) -> str:
        return await run_in_threadpool(lambda: review.reverify(
            desk.engine, desk.archive, filing_id, user=session.user, address=address(request),
            roots=desk.roots_today, reproduce=desk.reproduce))

    # --- the JSON API -------------------------------------------------------------------------------------------

    Handler = Callable[[Request, store.Session], Awaitable[Response]]

    def api(handler: Handler, *, changes: bool = False, decides: bool = False,
            admin: bool = False) -> Callable[[Request], Any]:
        async def endpoint(request: Request) -> Response:
            session = await session_of(request)
            if session is None:
                return _plain(401, "log in first: POST /api/session")
            if changes and not session.csrf_matches(request.headers.get(CSRF_HEADER)):
                return _plain(403, "a change needs the session's X-CSRF-Token header")
            if decides and not session.user.decides:
                return _plain(403, "only a supervisor records a decision")
            if admin and session.user.role != "admin":
                return _plain(403, "only an admin manages the desk's users")
            try:
                return await handler(request, session)
            except intake.UploadRefused as exc:
                return _plain(exc.status, exc.message)
            except store.DeskError as exc:
                return _plain(409, str(exc))
            except LookupError:
                return _plain(404, "no such filing")
        return endpoint

    async def api_login(request: Request) -> Response:
        if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
            # a cross-site form can post text/plain that reads as JSON: only a script of the same origin (or a
            # client that is no browser) sends application/json without the browser asking first
            return _plain(415, 'give {"user": NAME, "password": PASSWORD} as application/json')
        try:
            body = await request.json()
            name, password = body["user"], body["password"]
            if not isinstance(name, str) or not isinstance(password, str):
                raise TypeError
        except (ValueError, KeyError, TypeError):
            return _plain(400, 'give {"user": NAME, "password": PASSWORD} as JSON')
        user = await attempt_login(name, password, address(request))
        if user == "limited":
            return JSONResponse({"error": "too many failed logins; wait 15 minutes"}, status_code=429,
                                headers={"retry-after": str(int(LOGIN_WINDOW.total_seconds()))})
        if not isinstance(user, store.User):
            return _plain(401, "wrong user name or password")
        token, csrf = await run_in_threadpool(store.open_session, desk.engine, user, address(request),
                                              desk.session_lifetime)
        response = JSONResponse({"csrf": csrf, "user": user.name, "role": user.role})
        set_session_cookie(response, request, token)
        return response

    async def api_logout(request: Request, session: store.Session) -> Response:
        await run_in_threadpool(store.close_session, desk.engine, session)
        response = JSONResponse({"ok": True})
        response.delete_cookie(COOKIE, path="/")
        return response

    async def api_filings(request: Request, session: store.Session) -> Response:
        try:
            query = queue.QueueQuery.from_params(request.query_params)
        except queue.BadQuery as exc:
            return _plain(400, str(exc))
        shown = await run_in_threadpool(queue.queue_page, desk.engine, query)
        links = shown.links("/api/filings")
        link_header = ", ".join(f'<{links[rel]}>; rel="{rel if rel != "previous" else "prev"}"'
                                for rel in ("first", "previous", "next") if links[rel] is not None)
        return JSONResponse({"filings": shown.filings, "total": shown.total, "limit": query.limit,
                             "first": links["first"], "previous": links["previous"], "next": links["next"]},
                            headers={"link": link_header})

    async def api_upload(request: Request, session: store.Session) -> Response:
        found = await read_upload(request, False, session)
        filing_id, received = await take(request, session, found)
        return JSONResponse({"id": filing_id, "verdict": received.verdict, "status": received.report["status"],
                             "verdict_text": received.report["verdict"], "checks": received.report["checks"],
                             "flags": received.report["flags"], "register_entry": received.register_entry},
                            status_code=201)

    def filing_id_of(request: Request) -> int:
        try:
            return int(request.path_params["filing"])
        except ValueError:
            raise LookupError(request.path_params["filing"]) from None

    async def api_filing(request: Request, session: store.Session) -> Response:
        entry = await run_in_threadpool(store.get_filing, desk.engine, filing_id_of(request))
        if entry is None:
            raise LookupError
        return JSONResponse(entry)

    async def api_events(request: Request, session: store.Session) -> Response:
        filing_id = filing_id_of(request)
        if await run_in_threadpool(store.get_filing, desk.engine, filing_id) is None:
            raise LookupError
        return JSONResponse({"events": await run_in_threadpool(store.filing_events, desk.engine, filing_id)})

    async def json_body(request: Request) -> dict[str, Any]:
        try:
            body = await request.json()
        except ValueError:
            raise store.DeskError("the body is not JSON") from None
        if not isinstance(body, dict):
            raise store.DeskError("the body is a JSON object")
        return body

    async def api_decision(request: Request, session: store.Session) -> Response:
        body = await json_body(request)
        filing_id = filing_id_of(request)
        await run_in_threadpool(lambda: review.decide(desk.engine, desk.archive, filing_id, user=session.user,
                                                      address=address(request), decision=str(body.get("decision")),
                                                      note=str(body.get("note") or "")))
        return JSONResponse(await run_in_threadpool(store.get_filing, desk.engine, filing_id))

    async def api_reverify(request: Request, session: store.Session) -> Response:
        filing_id = filing_id_of(request)
        await reverify_filing(request, session, filing_id)
        return JSONResponse(await run_in_threadpool(store.get_filing, desk.engine, filing_id))

    async def api_letter(request: Request, session: store.Session) -> Response:
        filing_id, name = filing_id_of(request), request.path_params["name"]
        return download(filing_id, name, await run_in_threadpool(store.letter_file, desk.engine, filing_id, name),
                        pdf=True)

    async def api_note(request: Request, session: store.Session) -> Response:
        body = await json_body(request)
        filing_id = filing_id_of(request)
        await run_in_threadpool(lambda: store.add_note(desk.engine, filing_id, user=session.user,
                                                       address=address(request), text=str(body.get("note") or "")))
        return JSONResponse({"ok": True}, status_code=201)

    async def api_assign(request: Request, session: store.Session) -> Response:
        filing_id = filing_id_of(request)
        await run_in_threadpool(lambda: store.assign(desk.engine, filing_id, user=session.user,
                                                     address=address(request)))
        return JSONResponse(await run_in_threadpool(store.get_filing, desk.engine, filing_id))

    async def api_file(request: Request, session: store.Session) -> Response:
        filing_id, name = filing_id_of(request), request.path_params["name"]
        return download(filing_id, name, await run_in_threadpool(store.filing_file, desk.engine, filing_id, name))

    def account_json(account: store.Account) -> dict[str, Any]:
        return {"name": account.name, "role": account.role, "active": account.active,
                "created_at": account.created_at}

    async def api_users(request: Request, session: store.Session) -> Response:
        accounts = await run_in_threadpool(store.list_users, desk.engine)
        changes = await run_in_threadpool(store.user_events, desk.engine)
        return JSONResponse({"users": [account_json(a) for a in accounts], "events": changes})

    async def api_user_add(request: Request, session: store.Session) -> Response:
        body = await json_body(request)
        fields = [body.get("name"), body.get("role"), body.get("password")]
        if not all(isinstance(value, str) for value in fields):
            return _plain(400, 'give {"name": NAME, "role": ROLE, "password": PASSWORD} as JSON')
        name, role, password = (str(value) for value in fields)
        if any(a.name == name.strip() for a in await run_in_threadpool(store.list_users, desk.engine)):
            return _plain(409, f"nobody was added: there is already a user {name.strip()!r}")
        try:
            await run_in_threadpool(lambda: store.add_user(desk.engine, name, role, password, by=session.user,
                                                           address=address(request)))
        except store.DeskError as exc:
            return _plain(400, f"nobody was added: {exc}")
        added = next(a for a in await run_in_threadpool(store.list_users, desk.engine) if a.name == name.strip())
        return JSONResponse(account_json(added), status_code=201)

    async def api_user_disable(request: Request, session: store.Session) -> Response:
        name = request.path_params["name"]
        if not any(a.name == name for a in await run_in_threadpool(store.list_users, desk.engine)):
            return _plain(404, f"there is no user {name!r}")
        await run_in_threadpool(lambda: store.disable_user(desk.engine, name, by=session.user,
                                                           address=address(request)))  # else 409, as DeskError
        disabled = next(a for a in await run_in_threadpool(store.list_users, desk.engine) if a.name == name)
        return JSONResponse(account_json(disabled))

    async def api_nothing(request: Request, session: store.Session) -> Response:
        return _plain(404, "no such API path")

    # --- the pages ----------------------------------------------------------------------------------------------

    def on_page(handler: Handler, *, changes: bool = False) -> Callable[[Request], Any]:
        async def endpoint(request: Request) -> Response:
            session = await session_of(request)
            if session is None:
                return RedirectResponse("/login", status_code=303)
            if changes:  # whatever the body's type: without the form's token, nothing changes
                try:
                    form = await request.form(max_files=0, max_fields=20)
                except HTTPException:
                    form = None
                if form is None or not session.csrf_matches(str(form.get("csrf") or "")):
                    return page(request, "error.html", 403, session=session,
                                message="The form's security token is missing or stale: go back and reload the page.")
            try:
                return await handler(request, session)
            except intake.UploadRefused as exc:
                return page(request, "error.html", exc.status, session=session, message=exc.message)
            except PermissionError as exc:
                return page(request, "error.html", 403, session=session, message=str(exc))
            except store.DeskError as exc:
                return page(request, "error.html", 409, session=session, message=str(exc))
            except LookupError:
                return page(request, "error.html", 404, session=session, message="There is no such filing.")
        return endpoint

    async def login_form(request: Request) -> Response:
        token = secrets.token_urlsafe(24)
        response = page(request, "login.html", login_csrf=token, message=None)
        response.set_cookie(LOGIN_COOKIE, token, httponly=True, samesite="strict",
                            secure=request.url.scheme == "https", path="/login", max_age=3600)
        return response

    async def login_post(request: Request) -> Response:
        form = await request.form(max_fields=10)
        cookie, given = request.cookies.get(LOGIN_COOKIE, ""), str(form.get("csrf") or "")
        if not cookie or not hmac.compare_digest(cookie.encode(), given.encode("utf-8", "replace")):
            return page(request, "login.html", 403, login_csrf=cookie or "",
                        message="The form's security token is missing or stale: reload the page.")
        user = await attempt_login(str(form.get("user") or ""), str(form.get("password") or ""), address(request))
        if user == "limited":
            return page(request, "login.html", 429, login_csrf=cookie,
                        message="Too many failed logins: wait 15 minutes.")
        if not isinstance(user, store.User):
            return page(request, "login.html", 401, login_csrf=cookie, message="Wrong user name or password.")
        token, _csrf = await run_in_threadpool(store.open_session, desk.engine, user, address(request),
                                               desk.session_lifetime)
        response = RedirectResponse("/", status_code=303)
        set_session_cookie(response, request, token)
        response.delete_cookie(LOGIN_COOKIE, path="/login")
        return response

    async def logout(request: Request, session: store.Session) -> Response:
        await run_in_threadpool(store.close_session, desk.engine, session)
        response = RedirectResponse("/login", status_code=303)
        response.delete_cookie(COOKIE, path="/")
        return response

    async def queue_page(request: Request, session: store.Session) -> Response:
        try:
            query = queue.QueueQuery.from_params(request.query_params)
        except queue.BadQuery as exc:
            return page(request, "error.html", 400, session=session, message=f"The queue cannot show that: {exc}.")
        shown = await run_in_threadpool(queue.queue_page, desk.engine, query)
        names = await run_in_threadpool(store.user_names, desk.engine)
        return page(request, "queue.html", session=session, shown=shown, query=query, links=shown.links("/"),
                    names=names)

    async def upload(request: Request, session: store.Session) -> Response:
        found = await read_upload(request, True, session)
        filing_id, _received = await take(request, session, found)
        return RedirectResponse(f"/filings/{filing_id}", status_code=303)

    async def filing_page(request: Request, session: store.Session) -> Response:
        filing_id = filing_id_of(request)
        entry = await run_in_threadpool(store.get_filing, desk.engine, filing_id)
        if entry is None:
            raise LookupError
        events = await run_in_threadpool(store.filing_events, desk.engine, filing_id)
        history = await run_in_threadpool(store.revisions, desk.engine, entry["offering_id"]) \
            if entry["offering_id"] else []
        diff = await run_in_threadpool(review.revision_diff, desk.engine, desk.archive, entry, history)
        return page(request, "filing.html", session=session, filing=entry, events=events, history=history,
                    diff=diff, notes=[e for e in events if e["action"] == "note"])

    async def form_of(request: Request) -> Any:
        return await request.form(max_fields=20)

    async def note_post(request: Request, session: store.Session) -> Response:
        filing_id, form = filing_id_of(request), await form_of(request)
        await run_in_threadpool(lambda: store.add_note(desk.engine, filing_id, user=session.user,
                                                       address=address(request), text=str(form.get("note") or "")))
        return RedirectResponse(f"/filings/{filing_id}", status_code=303)

    async def assign_post(request: Request, session: store.Session) -> Response:
        filing_id = filing_id_of(request)
        await run_in_threadpool(lambda: store.assign(desk.engine, filing_id, user=session.user,
                                                     address=address(request)))
        return RedirectResponse(f"/filings/{filing_id}", status_code=303)

    async def decision_post(request: Request, session: store.Session) -> Response:
        filing_id, form = filing_id_of(request), await form_of(request)
        await run_in_threadpool(lambda: review.decide(desk.engine, desk.archive, filing_id, user=session.user,
                                                      address=address(request), decision=str(form.get("decision")),
                                                      note=str(form.get("note") or "")))
        return RedirectResponse(f"/filings/{filing_id}", status_code=303)

    async def reverify_post(request: Request, session: store.Session) -> Response:
        filing_id = filing_id_of(request)
        await reverify_filing(request, session, filing_id)
        return RedirectResponse(f"/filings/{filing_id}#reverified", status_code=303)

    async def letter_get(request: Request, session: store.Session) -> Response:
        filing_id, name = filing_id_of(request), request.path_params["name"]
        return download(filing_id, name, await run_in_threadpool(store.letter_file, desk.engine, filing_id, name),
                        pdf=True)

    def admin_only(session: store.Session) -> None:
        if session.user.role != "admin":
            raise PermissionError("only an admin manages the desk's users")

    async def users_page(request: Request, session: store.Session, code: int = 200,
                         message: str | None = None) -> Response:
        admin_only(session)
        accounts = await run_in_threadpool(store.list_users, desk.engine)
        changes = await run_in_threadpool(store.user_events, desk.engine)
        return page(request, "users.html", code, session=session, accounts=accounts, changes=changes,
                    roles=store.ROLES, message=message)

    async def user_add_post(request: Request, session: store.Session) -> Response:
        admin_only(session)
        form = await form_of(request)
        name, role = str(form.get("name") or ""), str(form.get("role") or "")
        password, again = str(form.get("password") or ""), str(form.get("password_again") or "")
        if password != again:
            return await users_page(request, session, 400, "The two passwords differ: nobody was added.")
        try:
            await run_in_threadpool(lambda: store.add_user(desk.engine, name, role, password, by=session.user,
                                                           address=address(request)))
        except store.DeskError as exc:
            return await users_page(request, session, 400, f"Nobody was added: {exc}.")
        return RedirectResponse("/users", status_code=303)

    async def user_disable_post(request: Request, session: store.Session) -> Response:
        admin_only(session)
        name = str((await form_of(request)).get("name") or "")
        await run_in_threadpool(lambda: store.disable_user(desk.engine, name, by=session.user,
                                                           address=address(request)))
        return RedirectResponse("/users", status_code=303)

    async def file_get(request: Request, session: store.Session) -> Response:
        filing_id, name = filing_id_of(request), request.path_params["name"]
        return download(filing_id, name, await run_in_threadpool(store.filing_file, desk.engine, filing_id, name))

    async def healthz(request: Request) -> Response:
        return JSONResponse({"ok": True})

    routes = [
        Route("/api/session", api_login, methods=["POST"]),
        Route("/api/session", api(api_logout, changes=True), methods=["DELETE"]),
        Route("/api/filings", api(api_filings), methods=["GET"]),
        Route("/api/filings", api(api_upload, changes=True), methods=["POST"]),
        Route("/api/filings/{filing}", api(api_filing), methods=["GET"]),
        Route("/api/filings/{filing}/events", api(api_events), methods=["GET"]),
        Route("/api/filings/{filing}/decision", api(api_decision, changes=True, decides=True), methods=["POST"]),
        Route("/api/filings/{filing}/notes", api(api_note, changes=True), methods=["POST"]),
        Route("/api/filings/{filing}/assign", api(api_assign, changes=True), methods=["POST"]),
        Route("/api/filings/{filing}/files/{name}", api(api_file), methods=["GET"]),
        Route("/api/filings/{filing}/letters/{name}", api(api_letter), methods=["GET"]),
        Route("/api/filings/{filing}/reverify", api(api_reverify, changes=True), methods=["POST"]),
        Route("/api/users", api(api_users, admin=True), methods=["GET"]),
        Route("/api/users", api(api_user_add, changes=True, admin=True), methods=["POST"]),
        Route("/api/users/{name:path}/disable", api(api_user_disable, changes=True, admin=True), methods=["POST"]),
        Route("/api/{rest:path}", api(api_nothing), methods=["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]),
        Route("/healthz", healthz, methods=["GET"]),
        Route("/login", login_form, methods=["GET"]),
        Route("/login", login_post, methods=["POST"]),
        Route("/logout", on_page(logout, changes=True), methods=["POST"]),
        Route("/", on_page(queue_page), methods=["GET"]),
        Route("/filings", on_page(upload), methods=["POST"]),  # multipart: its CSRF field is read with the files
        Route("/filings/{filing}", on_page(filing_page), methods=["GET"]),
        Route("/filings/{filing}/notes", on_page(note_post, changes=True), methods=["POST"]),
        Route("/filings/{filing}/assign", on_page(assign_post, changes=True), methods=["POST"]),
        Route("/filings/{filing}/decision", on_page(decision_post, changes=True), methods=["POST"]),
        Route("/filings/{filing}/files/{name}", on_page(file_get), methods=["GET"]),
        Route("/filings/{filing}/letters/{name}", on_page(letter_get), methods=["GET"]),
        Route("/filings/{filing}/reverify", on_page(reverify_post, changes=True), methods=["POST"]),
        Route("/users", on_page(users_page), methods=["GET"]),
        Route("/users", on_page(user_add_post, changes=True), methods=["POST"]),
        Route("/users/disable", on_page(user_disable_post, changes=True), methods=["POST"]),
    ]
    app = Starlette(routes=routes)
    # Room for a form's other fields and the multipart framing beyond the files themselves.
    return SecurityHeaders(BodyLimit(app, desk.limits.max_bytes + 256 * 1024))
