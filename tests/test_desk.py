"""The regulator's desk (rulegen/web/desk) through its HTTP API and pages, with Starlette's TestClient: a real signed
filing uploaded and verified in full (the factory's product standing in for the pipeline's renderer, as in the
register tests), and every refusal: no session, no CSRF token, an analyst deciding, an oversized or hostile
upload, too many failed logins, an expired session.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import os
import re
import zipfile
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from rulegen.filing.register_store import open_register
from rulegen.filing.verify import load_trust_roots
from rulegen.web.desk import store
from rulegen.web.desk.app import COOKIE, Desk, create_app
from rulegen.web.desk.intake import Limits
from tests import filing_factory as factory

pytestmark = pytest.mark.pdf  # builds or verifies whole filings: the PDF tier, `pytest -m pdf` (README)

PASSWORD = "a long enough password"
FILES = ("rules.pdf", "manifest.json", "rules.html", "signage.pdf", "math-appendix.pdf")


@pytest.fixture(scope="module")
def pki(tmp_path_factory) -> dict:
    return factory.make_trusted_pki(tmp_path_factory.mktemp("pki"), tmp_path_factory.mktemp("trusted"))


@pytest.fixture(scope="module")
def filings(tmp_path_factory, pki) -> dict[str, Path]:
    """A good filing, a later revision of it, one whose operator's name is markup, one signed by a certificate the
    desk does not trust, and one whose manifest claims another revision (it fails)."""
    root = tmp_path_factory.mktemp("filings")
    other = factory.make_identity(root, factory.make_pki(tmp_path_factory.mktemp("other")), "Mallory", "Elsewhere",
                                  serial=77)

    def claim_revision_9(manifest):
        manifest["offering"]["version"] = 9

    hostile = factory.OFFERING.replace("name: Test Pennsylvania Casino", 'name: "<script>alert(1)</script> & Co"')
    return {
        "good": factory.build(root / "good", pki).parent,
        "next": factory.build(root / "next", pki, text=factory.OFFERING.replace("version: 3", "version: 4")).parent,
        "markup": factory.build(root / "markup", pki, text=hostile.replace("filing-test-pa", "markup-pa")).parent,
        "untrusted": factory.build(root / "untrusted", pki, identity=other,
                                   text=factory.OFFERING.replace("filing-test-pa", "untrusted-pa")).parent,
        "failed": factory.build(root / "failed", pki, edit=claim_revision_9,
                                text=factory.OFFERING.replace("filing-test-pa", "failed-pa")).parent,
    }


def make_desk(tmp_path: Path, pki: dict, **options) -> Desk:
    engine = open_register(str(tmp_path / "desk.sqlite"))
    store.create_tables(engine)
    for name, role in (("ana", "analyst"), ("sam", "supervisor")):
        store.add_user(engine, name, role, PASSWORD)
    return Desk(engine=engine, archive=tmp_path / "archive", roots=load_trust_roots([pki["ca"]]),
                reproduce=factory.reproduce, **options)


@pytest.fixture
def desk(tmp_path, pki) -> Desk:
    made = make_desk(tmp_path, pki)
    yield made
    made.engine.dispose()


def client(desk: Desk) -> TestClient:
    return TestClient(create_app(desk), client=("192.0.2.10", 50000))


def login(web: TestClient, user: str) -> str:
    response = web.post("/api/session", json={"user": user, "password": PASSWORD})
    assert response.status_code == 200, response.text
    return response.json()["csrf"]


def upload_parts(folder: Path, names=FILES) -> list[tuple[str, tuple[str, bytes, str]]]:
    return [("files", (name, (folder / name).read_bytes(), "application/octet-stream")) for name in names]


def upload(web: TestClient, csrf: str, folder: Path):
    return web.post("/api/filings", files=upload_parts(folder), headers={"X-CSRF-Token": csrf})


def test_without_a_session_every_api_path_answers_401(desk):
    web = client(desk)
    for method, path in (("GET", "/api/filings"), ("POST", "/api/filings"), ("GET", "/api/filings/1"),
                         ("GET", "/api/filings/1/events"), ("POST", "/api/filings/1/decision"),
                         ("GET", "/api/filings/1/files/rules.pdf"), ("GET", "/api/nothing/here"),
                         ("DELETE", "/api/session"), ("PUT", "/api/filings"), ("OPTIONS", "/api/filings"),
                         ("PATCH", "/api/filings/1")):
        response = web.request(method, path)
        assert response.status_code == 401, (method, path, response.status_code)
    web.cookies.set(COOKIE, "forged-token")
    assert web.get("/api/filings").status_code == 401
    assert web.get("/", follow_redirects=False).headers["location"] == "/login"


def test_login_sets_a_protected_cookie_and_a_wrong_password_is_401(desk):
    web = client(desk)
    assert web.post("/api/session", json={"user": "ana", "password": "wrong"}).status_code == 401
    assert web.post("/api/session", json={"user": "nobody", "password": PASSWORD}).status_code == 401
    # a cross-site form posting text/plain that reads as JSON logs nobody in
    crafted = web.post("/api/session", content=f'{{"user": "ana", "password": "{PASSWORD}"}}',
                       headers={"content-type": "text/plain"})
    assert crafted.status_code == 415 and COOKIE not in crafted.cookies
    response = web.post("/api/session", json={"user": "ana", "password": PASSWORD})
    assert response.status_code == 200 and len(response.json()["csrf"]) >= 32
    cookie = response.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "max-age=" in cookie
    assert "secure" not in cookie  # plain HTTP on 127.0.0.1; under TLS the cookie is Secure
    assert web.get("/api/filings").json()["filings"] == []


def test_failed_logins_are_limited(desk):
    web = client(desk)
    for _ in range(5):
        assert web.post("/api/session", json={"user": "ana", "password": "wrong"}).status_code == 401
    limited = web.post("/api/session", json={"user": "ana", "password": PASSWORD})
    assert limited.status_code == 429 and limited.headers["retry-after"] == "900"


def test_a_session_expires(desk):
    import time_machine

    web = client(desk)
    login(web, "ana")
    assert web.get("/api/filings").status_code == 200
    with time_machine.travel(dt.datetime.now(dt.timezone.utc) + dt.timedelta(hours=9)):
        assert web.get("/api/filings").status_code == 401


def test_a_real_filing_is_verified_recorded_archived_and_decided(desk, filings):
    analyst, supervisor = client(desk), client(desk)
    csrf = login(analyst, "ana")
    response = upload(analyst, csrf, filings["good"])
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["verdict"] == "VERIFIED", body
    names = {check["name"] for check in body["checks"]}
    assert {"signature", "trust", "outputs", "reproduce"} <= names
    assert all(check["ok"] is not False for check in body["checks"])
    filing_id = body["id"]

    entry = analyst.get(f"/api/filings/{filing_id}").json()
    assert (entry["offering_id"], entry["revision"], entry["status"]) == ("filing-test-pa", 3, "received")
    assert entry["register_entry"] == 1 and {f["name"] for f in entry["files"]} == set(FILES)
    # the bytes are archived by SHA-256, read-only, and served back as they came
    rules = (filings["good"] / "rules.pdf").read_bytes()
    digest = hashlib.sha256(rules).hexdigest()
    archived = desk.archive / digest[:2] / digest
    assert archived.read_bytes() == rules and not archived.stat().st_mode & 0o222
    download = analyst.get(f"/api/filings/{filing_id}/files/rules.pdf")
    assert download.content == rules and download.headers["content-disposition"].startswith("attachment")
    assert analyst.get(f"/api/filings/{filing_id}/files/..%2Fdesk.sqlite").status_code == 404

    # the analyst takes it, notes it, and may not decide it
    assert analyst.post(f"/api/filings/{filing_id}/assign", headers={"X-CSRF-Token": csrf}).json()["status"] \
        == "in review"
    assert analyst.post(f"/api/filings/{filing_id}/notes", json={"note": "Paytable matches the approval."},
                        headers={"X-CSRF-Token": csrf}).status_code == 201
    refused = analyst.post(f"/api/filings/{filing_id}/decision", json={"decision": "accepted", "note": "ok"},
                           headers={"X-CSRF-Token": csrf})
    assert refused.status_code == 403

    boss = login(supervisor, "sam")
    assert supervisor.post(f"/api/filings/{filing_id}/decision", json={"decision": "accepted"}).status_code == 403
    decided = supervisor.post(f"/api/filings/{filing_id}/decision",
                              json={"decision": "accepted", "note": "Approved for 2027-03-01."},
                              headers={"X-CSRF-Token": boss})
    assert decided.status_code == 200 and decided.json()["status"] == "accepted"
    again = supervisor.post(f"/api/filings/{filing_id}/decision", json={"decision": "returned"},
                            headers={"X-CSRF-Token": boss})
    assert again.status_code == 409

    events = supervisor.get(f"/api/filings/{filing_id}/events").json()["events"]
    assert [(e["action"], e["user"]) for e in events] == [
        ("uploaded", "ana"), ("assigned", "ana"), ("note", "ana"), ("accepted", "sam"), ("letter", "sam")]
    assert all(e["address"] == "192.0.2.10" and e["at"] for e in events)
    assert events[-2]["detail"] == "Approved for 2027-03-01."
    # the decision wrote the letter to the operator: archived by its SHA-256, named by the event, downloadable
    [letter] = supervisor.get(f"/api/filings/{filing_id}").json()["letters"]
    assert letter["name"] == f"letter-{filing_id}-accepted.pdf" and letter["sha256"] in events[-1]["detail"]
    pdf = analyst.get(f"/api/filings/{filing_id}/letters/{letter['name']}")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF-")
    assert hashlib.sha256(pdf.content).hexdigest() == letter["sha256"] == hashlib.sha256(
        (desk.archive / letter["sha256"][:2] / letter["sha256"]).read_bytes()).hexdigest()
    assert analyst.get(f"/api/filings/{filing_id}/letters/rules.pdf").status_code == 404
    queue = supervisor.get("/api/filings", params={"status": "accepted"}).json()["filings"]
    assert [f["id"] for f in queue] == [filing_id] and queue[0]["assignee"] == "ana"

    # the next revision, accepted, supersedes it; the same revision again is recorded, flagged as a duplicate
    later = upload(analyst, csrf, filings["next"]).json()
    assert later["verdict"] == "VERIFIED"
    supervisor.post(f"/api/filings/{later['id']}/decision", json={"decision": "accepted"},
                    headers={"X-CSRF-Token": boss})
    assert supervisor.get(f"/api/filings/{filing_id}").json()["status"] == "superseded"
    duplicate = upload(analyst, csrf, filings["good"]).json()
    assert [f["kind"] for f in duplicate["flags"]] == ["duplicate"]
    assert analyst.get(f"/api/filings/{duplicate['id']}").json()["register_entry"] is None
    assert analyst.get("/api/filings").json()["filings"][0]["flag_kinds"] == ["duplicate"]
    assert "<td>duplicate</td>" in analyst.get("/").text


def test_untrusted_and_failed_filings_are_recorded_with_their_verdicts(desk, filings):
    web = client(desk)
    csrf = login(web, "ana")
    untrusted = upload(web, csrf, filings["untrusted"]).json()
    assert untrusted["verdict"] == "NOT TRUSTED"
    assert [c["name"] for c in untrusted["checks"] if c["ok"] is False] == ["trust"]
    failed = upload(web, csrf, filings["failed"]).json()
    assert failed["verdict"] == "FAILED" and any(c["name"] == "identity" and c["ok"] is False
                                                 for c in failed["checks"])
    no_pdf = web.post("/api/filings", files=upload_parts(filings["good"], ["manifest.json"]),
                      headers={"X-CSRF-Token": csrf})
    assert no_pdf.status_code == 201 and no_pdf.json()["verdict"] == "FAILED"
    listed = {f["id"]: f["verdict"] for f in web.get("/api/filings").json()["filings"]}
    assert sorted(listed.values()) == ["FAILED", "FAILED", "NOT TRUSTED"]


def test_a_state_change_without_the_csrf_token_is_403(desk, filings):
    web = client(desk)
    csrf = login(web, "ana")
    assert web.post("/api/filings", files=upload_parts(filings["good"])).status_code == 403
    assert web.post("/api/filings", files=upload_parts(filings["good"]),
                    headers={"X-CSRF-Token": "not-the-token"}).status_code == 403
    assert web.get("/api/filings").json()["filings"] == []
    filing_id = upload(web, csrf, filings["good"]).json()["id"]
    # the pages' forms: a note without the form's token changes nothing
    page = web.post(f"/filings/{filing_id}/notes", data={"note": "sneaky"})
    assert page.status_code == 403
    assert [e["action"] for e in web.get(f"/api/filings/{filing_id}/events").json()["events"]] == ["uploaded"]


def test_oversized_and_too_many_files_are_413(tmp_path, pki, filings):
    desk = make_desk(tmp_path, pki, limits=Limits(max_bytes=200_000, max_files=5))
    try:
        web = client(desk)
        csrf = login(web, "ana")
        big = web.post("/api/filings", files=[("files", ("rules.pdf", b"%PDF-" + b"0" * 600_000, "application/pdf"))],
                       headers={"X-CSRF-Token": csrf})
        assert big.status_code == 413
        many = [("files", (f"file{i}.txt", b"x", "text/plain")) for i in range(6)]
        assert web.post("/api/filings", files=many, headers={"X-CSRF-Token": csrf}).status_code == 413
        bomb = io.BytesIO()
        with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("rules.pdf", b"\0" * 5_000_000)  # compresses to a few KB
        response = web.post("/api/filings", files=[("files", ("filing.zip", bomb.getvalue(), "application/zip"))],
                            headers={"X-CSRF-Token": csrf})
        assert response.status_code == 413
        assert web.get("/api/filings").json()["filings"] == []
    finally:
        desk.engine.dispose()


@pytest.mark.parametrize("name", ["../rules.pdf", "..", ".hidden", "a/b.pdf", "a\\b.pdf", "rules.pdf\x00.txt",
                                  "<img src=x>.pdf", "r" * 300])
def test_hostile_file_names_are_refused(desk, name):
    web = client(desk)
    csrf = login(web, "ana")
    response = web.post("/api/filings", files=[("files", (name, b"%PDF-1.7\n", "application/pdf"))],
                        headers={"X-CSRF-Token": csrf})
    assert response.status_code == 400, (name, response.status_code, response.text)
    assert web.get("/api/filings").json()["filings"] == []
    assert not (desk.archive.exists() and any(desk.archive.rglob("*")))


@pytest.mark.parametrize("member", ["../../etc/evil.pdf", "/abs/rules.pdf", "a/b/rules.pdf", ".git/rules.pdf"])
def test_a_zip_with_hostile_paths_is_refused(desk, member):
    web = client(desk)
    csrf = login(web, "ana")
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as archive:
        archive.writestr(member, b"%PDF-1.7\n")
    response = web.post("/api/filings", files=[("files", ("filing.zip", data.getvalue(), "application/zip"))],
                        headers={"X-CSRF-Token": csrf})
    assert response.status_code == 400, (member, response.text)


def test_a_zipped_filing_folder_is_taken_and_the_page_escapes_what_the_filing_carries(desk, filings):
    web = client(desk)
    csrf = login(web, "ana")
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as archive:
        for name in FILES:
            archive.write(filings["markup"] / name, f"markup-filing/{name}")
    response = web.post("/api/filings", files=[("files", ("filing.zip", data.getvalue(), "application/zip"))],
                        headers={"X-CSRF-Token": csrf})
    assert response.status_code == 201 and response.json()["verdict"] == "VERIFIED", response.text
    page = web.get(f"/filings/{response.json()['id']}")
    assert page.status_code == 200
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co" in page.text and "<script>" not in page.text
    assert "script-src" not in page.headers["content-security-policy"]  # default-src 'none': no script at all
    queue = web.get("/")
    assert "&lt;script&gt;" in queue.text and "<script>" not in queue.text


def assert_events_are_append_only(engine) -> None:
    from sqlalchemy import delete, update
    from sqlalchemy.exc import DBAPIError

    for statement in (update(store.events).values(detail="rewritten"), delete(store.events)):
        with pytest.raises(DBAPIError, match="append-only"):
            with engine.begin() as connection:
                connection.execute(statement)


def test_the_database_refuses_to_change_an_event(desk):
    assert_events_are_append_only(desk.engine)


def test_under_tls_the_cookie_is_secure(desk):
    web = TestClient(create_app(desk), base_url="https://desk.example")
    response = web.post("/api/session", json={"user": "ana", "password": PASSWORD})
    assert "secure" in response.headers["set-cookie"].lower()


def test_desk_user_add_refuses_a_role_it_does_not_know_and_a_short_password(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from rulegen.cli import app

    db = str(tmp_path / "desk.sqlite")
    monkeypatch.setenv("RULEGEN_DESK_PASSWORD", PASSWORD)
    runner = CliRunner()
    assert runner.invoke(app, ["desk", "user", "add", "eve", "--role", "root", "--db", db]).exit_code == 2
    monkeypatch.setenv("RULEGEN_DESK_PASSWORD", "short")
    result = runner.invoke(app, ["desk", "user", "add", "eve", "--role", "analyst", "--db", db])
    assert result.exit_code == 2 and "12 characters" in result.stderr
    monkeypatch.delenv("RULEGEN_DESK_PASSWORD")
    asked = runner.invoke(app, ["desk", "user", "add", "eve", "--role", "analyst", "--db", db],
                          input=f"{PASSWORD}\n{PASSWORD}\n")
    assert asked.exit_code == 0 and "user eve added (analyst)" in asked.stdout


def test_the_desk_keeps_its_queue_and_events_in_postgresql(tmp_path, pki, filings, postgres):
    """An office's desk on PostgreSQL: the desk's tables beside the register's, a filing received and decided."""
    engine = open_register(postgres.create_database(f"desk_{os.getpid()}"))
    store.create_tables(engine)
    store.create_tables(engine)  # again: only what is missing is made
    for name, role in (("ana", "analyst"), ("sam", "supervisor")):
        store.add_user(engine, name, role, PASSWORD)
    desk = Desk(engine=engine, archive=tmp_path / "archive", roots=load_trust_roots([pki["ca"]]),
                reproduce=factory.reproduce)
    try:
        analyst, supervisor = client(desk), client(desk)
        body = upload(analyst, login(analyst, "ana"), filings["good"]).json()
        assert body["verdict"] == "VERIFIED"
        decided = supervisor.post(f"/api/filings/{body['id']}/decision", json={"decision": "returned", "note": "x"},
                                  headers={"X-CSRF-Token": login(supervisor, "sam")})
        assert decided.json()["status"] == "returned"
        events = supervisor.get(f"/api/filings/{body['id']}/events").json()["events"]
        assert [(e["action"], e["user"]) for e in events] == [("uploaded", "ana"), ("returned", "sam"),
                                                              ("letter", "sam")]
        assert_events_are_append_only(engine)

        # the queue's pages, search and date filter in PostgreSQL's SQL
        from tests import desk_seed

        desk_seed.seed(engine, 12)  # filings 2 to 13, received one a day from 2027-01-01
        ids, pages = _walk(analyst, {"limit": "5"})
        assert ids == list(range(13, 0, -1)) and [len(p["filings"]) for p in pages] == [5, 5, 3]
        assert _walk(analyst, {"q": "OPERATOR 3"})[0] == [12, 5]  # seeded 10 and 3
        assert _walk(analyst, {"q": "%"})[0] == []
        assert _walk(analyst, {"from": "2027-01-02", "to": "2027-01-03"})[0] == [4, 3]
    finally:
        engine.dispose()


def test_the_pages_log_in_upload_and_decide_without_javascript(desk, filings):
    web = client(desk)
    form = web.get("/login")
    token = re.search(r'name="csrf" value="([^"]+)"', form.text).group(1)
    assert web.post("/login", data={"user": "sam", "password": PASSWORD}).status_code == 403  # no form token
    assert web.post("/login", data={"user": "sam", "password": "wrong", "csrf": token}).status_code == 401
    queue = web.post("/login", data={"user": "sam", "password": PASSWORD, "csrf": token})
    assert queue.status_code == 200 and "Receive a filing" in queue.text
    csrf = re.search(r'name="csrf" value="([^"]+)"', queue.text).group(1)
    refused = web.post("/filings", files=upload_parts(filings["good"]))
    assert refused.status_code == 403
    shown = web.post("/filings", files=upload_parts(filings["good"]), data={"csrf": csrf})
    assert shown.status_code == 200 and 'id="verdict" class="VERIFIED"' in shown.text
    assert "Every byte was built again here from the signed offering" in shown.text
    assert '<ul id="findings"><li><strong>note</strong>' in shown.text  # the build's findings, as recorded
    filing_id = re.search(r"/filings/(\d+)$", str(shown.url)).group(1)
    decided = web.post(f"/filings/{filing_id}/decision",
                       data={"decision": "returned", "note": "Sign size wrong", "csrf": csrf})
    assert decided.status_code == 200 and '<strong id="status">returned</strong>' in decided.text
    assert "Sign size wrong" in decided.text


def test_an_analyst_deciding_through_the_page_is_refused_and_archived_bytes_are_never_rewritten(desk, filings):
    web = client(desk)
    csrf = login(web, "ana")
    filing_id = upload(web, csrf, filings["good"]).json()["id"]
    page = web.get(f"/filings/{filing_id}")
    assert 'id="decide"' not in page.text  # no decision form for an analyst
    refused = web.post(f"/filings/{filing_id}/decision", data={"decision": "accepted", "csrf": csrf})
    assert refused.status_code == 403 and "only a supervisor" in refused.text
    assert web.get(f"/api/filings/{filing_id}").json()["status"] == "received"

    from rulegen.web.desk.intake import archive

    rules = (filings["good"] / "rules.pdf").read_bytes()
    digest = hashlib.sha256(rules).hexdigest()
    before = (desk.archive / digest[:2] / digest).stat()
    assert archive(desk.archive, rules) == digest
    after = (desk.archive / digest[:2] / digest).stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert not [p for p in desk.archive.rglob(".incoming-*")]



# --- the queue, a page at a time ------------------------------------------------------------------------------------

def _walk(web: TestClient, params: dict | None = None) -> tuple[list[int], list[dict]]:
    """Every filing `GET /api/filings` lists, following its `next` links to the end."""
    answer = web.get("/api/filings", params=params)
    assert answer.status_code == 200, answer.text
    pages = [answer.json()]
    while pages[-1]["next"] is not None:
        pages.append(web.get(pages[-1]["next"]).json())
    return [f["id"] for page in pages for f in page["filings"]], pages


def test_the_queue_is_paged_and_its_filters_hold_on_every_page(desk):
    from tests import desk_seed

    rows = desk_seed.seed(desk.engine, 130)  # filings 1 to 130, received one a day from 2027-01-01
    web = client(desk)
    login(web, "ana")
    first = web.get("/api/filings").json()
    assert first["total"] == 130 and first["limit"] == 50 and first["previous"] is None
    assert [f["id"] for f in first["filings"]] == list(range(130, 80, -1))
    assert web.get("/api/filings").headers["link"] == ('</api/filings>; rel="first", '
                                                       '</api/filings?before=81>; rel="next"')
    ids, pages = _walk(web)
    assert ids == list(range(130, 0, -1)) and [len(p["filings"]) for p in pages] == [50, 50, 30]
    assert web.get(pages[1]["previous"]).json()["filings"] == first["filings"]
    assert web.get(pages[2]["previous"]).json()["filings"] == pages[1]["filings"]

    def matching(test) -> list[int]:
        return sorted((n + 1 for n, row in enumerate(rows) if test(row)), reverse=True)

    # a search (any case) and a filter together, two to a page: each page keeps both, the total is theirs
    wanted = matching(lambda r: r["jurisdiction"] == "NJ" and "operator 3" in r["operator"].lower())
    ids, pages = _walk(web, {"jurisdiction": "NJ", "q": "OPERATOR 3", "limit": "2"})
    assert wanted and ids == wanted and {p["total"] for p in pages} == {len(wanted)}
    assert all("jurisdiction=NJ" in p["next"] and "q=OPERATOR+3" in p["next"] and "limit=2" in p["next"]
               for p in pages[:-1])
    assert _walk(web, {"status": "accepted"})[0] == matching(lambda r: r["status"] == "accepted")
    assert _walk(web, {"q": "seeded-0003"})[0] == matching(lambda r: r["offering_id"] == "seeded-0003")
    assert _walk(web, {"from": "2027-01-11", "to": "2027-01-20"})[0] == list(range(20, 10, -1))
    assert _walk(web, {"q": "%"})[0] == []  # a search is words, not a pattern

    # a filing that arrives while the queue is paged neither repeats a row on the next page nor hides one
    top = web.get("/api/filings", params={"limit": "10"}).json()
    desk_seed.seed(desk.engine, 1)
    after = web.get(top["next"]).json()
    assert [f["id"] for f in after["filings"]] == list(range(120, 110, -1)) and after["total"] == 131


@pytest.mark.parametrize("params", [{"limit": "0"}, {"limit": "501"}, {"limit": "ten"}, {"before": "x"},
                                    {"status": "lost"}, {"from": "2027-02-30"}, {"before": "5", "after": "3"},
                                    {"q": "x" * 201}])
def test_a_queue_request_it_cannot_read_is_400_and_says_why(desk, params):
    web = client(desk)
    login(web, "ana")
    answer = web.get("/api/filings", params=params)
    assert answer.status_code == 400 and answer.json()["error"]
    page = web.get("/", params=params)
    assert page.status_code == 400 and "The queue cannot show that" in page.text


def test_the_queue_page_shows_one_page_with_links_that_keep_the_filters(desk):
    from tests import desk_seed

    desk_seed.seed(desk.engine, 130)
    web = client(desk)
    login(web, "ana")
    page = web.get("/")
    assert "Filings 1–50 of 130, newest first." in page.text
    assert len(re.findall(r'<td><a href="/filings/\d+">', page.text)) == 50
    assert '<a href="/?before=81" rel="next" class="older">' in page.text and 'rel="prev"' not in page.text
    filtered = web.get("/", params={"jurisdiction": "PA", "status": "received", "limit": "5"})
    # PA is every third filing from the first, received every fifth: one in fifteen, 9 of 130
    wanted = [n + 1 for n in range(130) if n % 15 == 0][::-1]
    assert len(wanted) == 9 and "Filings 1–5 of 9, newest first." in filtered.text
    older = re.search(r'<a href="([^"]+)" rel="next"', filtered.text)
    assert older and older.group(1) == f"/?status=received&amp;jurisdiction=PA&amp;limit=5&amp;before={wanted[4]}"
    second = web.get(older.group(1).replace("&amp;", "&"))
    assert "Filings 6–9 of 9, newest first." in second.text and 'rel="next"' not in second.text
    assert '<option value="PA" selected>' in second.text
    assert '<input type="hidden" name="limit" value="5">' in second.text
