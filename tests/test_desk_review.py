"""The desk's review of a filing beyond the queue (rulegen/web/desk/review.py): the letter a decision writes to the
operator (the product's renderer, archived, downloadable, an event), re-verification with today's trust roots (a
button, recorded, the new verdict shown), the revision history and the diff with the mathematics (a failed
filing's changes marked untrusted), the current verdict after a re-verification, and user management in the
browser's forms and as JSON (admin only, CSRF, events)."""

from __future__ import annotations

import hashlib
import re

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from rulegen.cli import app
from rulegen.filing.register import entries, report_rows
from rulegen.filing.register_store import open_register
from rulegen.render.register_page import register_page
from rulegen.filing.verify import load_trust_roots
from rulegen.render.letter import Letter, letter_html, letter_pdf
from rulegen.web.desk import store
from rulegen.web.desk.app import Desk, create_app
from tests import filing_factory as factory
from tests.test_desk import PASSWORD, login, upload

pytestmark = pytest.mark.pdf  # builds or verifies whole filings: the PDF tier, `pytest -m pdf` (README)

MARKUP = '"<script>alert(1)</script> & Co"'


@pytest.fixture(scope="module")
def pki(tmp_path_factory) -> dict:
    return factory.make_trusted_pki(tmp_path_factory.mktemp("pki"), tmp_path_factory.mktemp("trusted"))


@pytest.fixture(scope="module")
def other_pki(tmp_path_factory) -> dict:
    """Another authority the desk does not trust at first."""
    return factory.make_pki(tmp_path_factory.mktemp("other-pki"))


@pytest.fixture(scope="module")
def filings(tmp_path_factory, pki, other_pki) -> dict:
    """Revisions 3 and 4 of one offering (4 adds the Five Card Bonus), a revision 5 whose sign is not the one it
    was built with (it fails), a filing signed under the authority the desk does not trust yet, and revision 4
    signed under that authority too."""
    root = tmp_path_factory.mktemp("review-filings")
    bonus = "five_card_bonus:\n  minimum: 1\n  maximum: 25\n  paytable: standard\n"
    assert bonus in factory.OFFERING
    four = factory.OFFERING.replace("version: 3", "version: 4")
    five = four.replace("version: 4", "version: 5").replace("maximum: 25", "maximum: 40")
    made = {"three": factory.build(root / "three", pki, text=factory.OFFERING.replace(bonus, "")).parent,
            "four": factory.build(root / "four", pki, text=four).parent,
            "five": factory.build(root / "five", pki, text=five).parent,
            "elsewhere": factory.build(root / "elsewhere", other_pki,
                                       text=factory.OFFERING.replace("filing-test-pa", "elsewhere-pa")).parent,
            "four_elsewhere": factory.build(root / "four-elsewhere", other_pki, text=four).parent}
    (made["five"] / "signage.pdf").write_bytes(b"%PDF-1.7 another sign\n%%EOF\n")
    return made


@pytest.fixture
def desk(tmp_path, pki):
    engine = open_register(str(tmp_path / "desk.sqlite"))
    store.create_tables(engine)
    for name, role in (("ana", "analyst"), ("sam", "supervisor"), ("ada", "admin")):
        store.add_user(engine, name, role, PASSWORD)
    trusted = [pki["ca"]]
    made = Desk(engine=engine, archive=tmp_path / "archive", roots=load_trust_roots(trusted),
                reproduce=factory.reproduce, trust_loader=lambda: load_trust_roots(trusted))
    made.trusted_paths = trusted  # the test adds a root "today"
    made.database = tmp_path / "desk.sqlite"
    yield made
    engine.dispose()


def client(desk: Desk) -> TestClient:
    return TestClient(create_app(desk), client=("192.0.2.20", 50000))


def form_token(page: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', page).group(1)


def test_a_letter_escapes_what_the_filing_carries_and_is_the_same_bytes_every_time(monkeypatch):
    letter = Letter(office="Pennsylvania Gaming Control Board, Bureau of Gaming Operations", reference="Desk filing 9",
                    date="2027-02-03", decision="returned", reasons="The sign is not the one built.\n<b>no</b> & more",
                    decided_by="sam", operator="<script>alert(1)</script> & Co", offering_id="filing-test-pa",
                    revision=3, jurisdiction="PA", effective_date="2027-03-01", received_on="2027-02-01",
                    rules_sha256="ab" * 32, verdict="FAILED", problems=("The package: signage.pdf <differs>",))
    html = letter_html(letter)
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co" in html and "<script>" not in html
    assert "&lt;b&gt;no&lt;/b&gt; &amp; more" in html and "signage.pdf &lt;differs&gt;" in html
    assert "Your filing is returned" in html and "February 3, 2027" in html
    pdf = letter_pdf(letter)
    assert pdf.startswith(b"%PDF-") and pdf == letter_pdf(letter)  # same letter, same bytes
    # the product's own fonts, read through its safe fetcher (which refuses anything else)
    import rulegen.render.letter as letter_module

    fetchers = []

    class Recording(letter_module.SafeFetcher):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            fetchers.append(self)

    monkeypatch.setattr(letter_module, "SafeFetcher", Recording)
    assert letter_pdf(letter) == pdf
    assert "rulegen-asset:fonts/DejaVuSerif.ttf" in fetchers[0].fetched
    other_day = letter_pdf(Letter(**{**letter.__dict__, "date": "2027-02-04"}))
    assert other_day != pdf
    with pytest.raises(ValueError):
        Letter(**{**letter.__dict__, "decision": "maybe"})


def test_a_decision_writes_the_letter_and_a_return_needs_reasons(desk, filings):
    web = client(desk)
    csrf = login(web, "sam")
    filing_id = upload(web, csrf, filings["three"]).json()["id"]
    bare = web.post(f"/api/filings/{filing_id}/decision", json={"decision": "returned", "note": "  "},
                    headers={"X-CSRF-Token": csrf})
    assert bare.status_code == 409 and "reasons" in bare.json()["error"]
    assert web.get(f"/api/filings/{filing_id}").json()["letters"] == []
    assert not any(desk.archive.rglob("*")) or len(list(desk.archive.rglob("*/*"))) == 5  # the filing's files only
    page = web.get(f"/filings/{filing_id}")
    decided = web.post(f"/filings/{filing_id}/decision", data={
        "decision": "returned", "note": "The Five Card Bonus sign is missing.", "csrf": form_token(page.text)})
    assert decided.status_code == 200 and '<strong id="status">returned</strong>' in decided.text
    [letter] = web.get(f"/api/filings/{filing_id}").json()["letters"]
    assert letter["decision"] == "returned" and f'href="/filings/{filing_id}/letters/{letter["name"]}"' in decided.text
    pdf = web.get(f"/filings/{filing_id}/letters/{letter['name']}")
    assert pdf.headers["content-type"] == "application/pdf" and "attachment" in pdf.headers["content-disposition"]
    assert hashlib.sha256(pdf.content).hexdigest() == letter["sha256"]
    events = web.get(f"/api/filings/{filing_id}/events").json()["events"]
    assert [e["action"] for e in events][-2:] == ["returned", "letter"]
    assert events[-1]["user"] == "sam" and events[-1]["address"] == "192.0.2.20"


def test_reverification_uses_todays_trust_roots_and_is_recorded(desk, filings, other_pki):
    web = client(desk)
    csrf = login(web, "ana")
    filing_id = upload(web, csrf, filings["elsewhere"]).json()["id"]
    assert web.get(f"/api/filings/{filing_id}").json()["verdict"] == "NOT TRUSTED"
    desk.trusted_paths.append(other_pki["ca"])  # the agency trusts that authority from today
    page = web.get(f"/filings/{filing_id}")
    assert 'id="reverify"' in page.text
    assert web.post(f"/filings/{filing_id}/reverify", data={}).status_code == 403  # no form token
    shown = web.post(f"/filings/{filing_id}/reverify", data={"csrf": form_token(page.text)})
    assert shown.status_code == 200
    assert '<strong id="reverify-verdict" class="VERIFIED">VERIFIED</strong>' in shown.text
    assert "(it was NOT TRUSTED when received)" in shown.text and "with today's 2 trust root(s)" in shown.text
    entry = web.get(f"/api/filings/{filing_id}").json()
    assert entry["verdict"] == "NOT TRUSTED"  # what was received stays as it was judged then
    assert [(v["verdict"], v["user"], v["trust_roots"]) for v in entry["reverifications"]] == [("VERIFIED", "ana", 2)]
    [event] = [e for e in web.get(f"/api/filings/{filing_id}/events").json()["events"] if e["action"] == "reverified"]
    assert event["user"] == "ana" and event["detail"].startswith("verdict VERIFIED (was NOT TRUSTED)")

    # an archived file changed on disk since it was received: the re-verification says so and fails
    rules = next(f for f in entry["files"] if f["name"] == "rules.pdf")
    stored = desk.archive / rules["sha256"][:2] / rules["sha256"]
    stored.chmod(0o644)
    stored.write_bytes(stored.read_bytes() + b"\n%tampered\n")
    again = web.post(f"/api/filings/{filing_id}/reverify", headers={"X-CSRF-Token": csrf}).json()
    latest = again["reverifications"][0]
    assert latest["verdict"] == "FAILED" and "rules.pdf" in latest["checks"][0]["detail"]


def test_the_filing_page_shows_the_revisions_and_the_diff_with_the_mathematics(desk, filings):
    web = client(desk)
    csrf = login(web, "ana")
    ids = {label: upload(web, csrf, filings[label]).json()["id"] for label in ("three", "four", "five")}
    assert web.get(f"/api/filings/{ids['five']}").json()["verdict"] == "FAILED"
    four = web.get(f"/filings/{ids['four']}").text
    for label in ("three", "four", "five"):
        assert f'/filings/{ids[label]}"' in four or f"{ids[label]} (this)" in four
    assert f'Against <a href="/filings/{ids["three"]}">filing {ids["three"]}</a> (revision 3)' in four
    assert "Five Card Bonus: now offered (minimum $1, maximum $25, paytable standard)" in four
    math = re.search(r'<ul id="diff-math">(.*?)</ul>', four, re.S).group(1)
    assert re.search(r"Five Card Bonus return to the player: not offered → \d+\.\d{4}%", math), math
    assert 'id="diff-untrusted"' not in four  # both revisions verified
    five = web.get(f"/filings/{ids['five']}").text
    assert "(revision 4)" in five and "Five Card Bonus maximum: $25 → $40" in five
    assert 'id="diff-untrusted"' in five and f"filing {ids['five']} (revision 5) is FAILED" in five
    three = web.get(f"/filings/{ids['three']}").text
    assert "No earlier revision of this offering was recorded." in three


def test_an_admin_adds_and_disables_users_in_the_browser_and_others_are_refused(desk):
    admin, analyst = client(desk), client(desk)
    login(analyst, "ana")
    refused = analyst.get("/users")
    assert refused.status_code == 403 and "only an admin" in refused.text
    assert 'id="users-link"' not in analyst.get("/").text
    token = form_token(analyst.get("/").text)
    added = analyst.post("/users", data={"name": "eve", "role": "admin", "password": PASSWORD,
                                         "password_again": PASSWORD, "csrf": token})
    assert added.status_code == 403 and "eve" not in [a.name for a in store.list_users(desk.engine)]

    login(admin, "ada")
    page = admin.get("/users")
    assert page.status_code == 200 and 'id="users-link"' in page.text
    new = {"name": "kim", "role": "supervisor", "password": PASSWORD, "password_again": PASSWORD}
    assert admin.post("/users", data=new).status_code == 403  # no form token
    differ = admin.post("/users", data={**new, "password_again": "something else entirely",
                                        "csrf": form_token(page.text)})
    assert differ.status_code == 400 and "differ" in differ.text
    short = admin.post("/users", data={**new, "password": "short", "password_again": "short",
                                       "csrf": form_token(page.text)})
    assert short.status_code == 400 and "12 characters" in short.text
    hostile = admin.post("/users", data={**new, "name": "<b>x</b>", "csrf": form_token(page.text)})
    assert hostile.status_code == 200 and "&lt;b&gt;x&lt;/b&gt;" in hostile.text and "<b>x</b>" not in hostile.text
    done = admin.post("/users", data={**new, "csrf": form_token(page.text)})
    assert done.status_code == 200 and "<td>kim</td><td>supervisor</td><td>active</td>" in done.text
    kim = client(desk)
    login(kim, "kim")
    assert kim.get("/api/filings").status_code == 200

    assert admin.post("/users/disable", data={"name": "ada", "csrf": form_token(page.text)}).status_code == 409
    assert admin.post("/users/disable", data={"name": "kim"}).status_code == 403  # no form token
    disabled = admin.post("/users/disable", data={"name": "kim", "csrf": form_token(page.text)})
    assert disabled.status_code == 200 and "<td>kim</td><td>supervisor</td><td>disabled</td>" in disabled.text
    assert kim.get("/api/filings").status_code == 401  # the session ended
    assert kim.post("/api/session", json={"user": "kim", "password": PASSWORD}).status_code == 401
    changes = [(e["action"], e["user"], e["detail"], e["address"]) for e in store.user_events(desk.engine)][:3]
    assert changes == [("user-disabled", "ada", "kim", "192.0.2.20"),
                       ("user-added", "ada", "kim, role supervisor", "192.0.2.20"),
                       ("user-added", "ada", "<b>x</b>, role supervisor", "192.0.2.20")]


def test_the_queue_shows_the_verdict_of_the_latest_verification_and_keeps_the_one_on_receipt(desk, filings, other_pki):
    """Revision 4 arrives signed under an authority the desk does not trust yet: NOT TRUSTED, and its diff against
    revision 3 untrusted. Once the agency trusts that authority, verifying it again makes it VERIFIED in the
    queue, on its page, in the revision history and for the diff's trust, while the verdict on receipt stays
    recorded beside it; a later re-verification that fails (a file changed in the archive) shows FAILED."""
    web = client(desk)
    csrf = login(web, "ana")
    three = upload(web, csrf, filings["three"]).json()["id"]
    four = upload(web, csrf, filings["four_elsewhere"]).json()
    assert four["verdict"] == "NOT TRUSTED"
    listed = {f["id"]: f for f in web.get("/api/filings").json()["filings"]}
    assert (listed[four["id"]]["current_verdict"], listed[four["id"]]["verified_again_at"]) == ("NOT TRUSTED", None)
    page = web.get(f"/filings/{four['id']}").text
    assert f"filing {four['id']} (revision 4) is NOT TRUSTED" in page and 'id="received-verdict"' not in page

    desk.trusted_paths.append(other_pki["ca"])
    again = web.post(f"/api/filings/{four['id']}/reverify", headers={"X-CSRF-Token": csrf}).json()
    assert (again["verdict"], again["current_verdict"]) == ("NOT TRUSTED", "VERIFIED")
    assert again["verified_again_at"] == again["reverifications"][0]["at"]
    listed = {f["id"]: f for f in web.get("/api/filings").json()["filings"]}
    assert (listed[four["id"]]["verdict"], listed[four["id"]]["current_verdict"]) == ("NOT TRUSTED", "VERIFIED")
    assert listed[three]["current_verdict"] == "VERIFIED" and listed[three]["verified_again_at"] is None
    row = re.search(rf'<a href="/filings/{four["id"]}">.*?</tr>', web.get("/").text, re.S).group(0)
    assert '<span class="VERIFIED">VERIFIED</span>' in row and "NOT TRUSTED when received" in row
    page = web.get(f"/filings/{four['id']}").text
    assert '<strong id="verdict" class="VERIFIED">VERIFIED</strong>' in page
    assert '<span id="received-verdict">NOT TRUSTED</span>' in page
    assert 'id="diff-untrusted"' not in page  # both revisions verified now
    history = re.search(r'<table id="revisions">(.*?)</table>', web.get(f"/filings/{three}").text, re.S).group(1)
    assert "(NOT TRUSTED when received)" in history
    # the register's entry too: its status on receipt kept, the current one the re-verification's
    entry = next(e for e in entries(desk.engine) if e["entry"] == again["register_entry"])
    assert (entry["status"], entry["trust"], entry["current_status"]) == ("untrusted", "not trusted", "verified")
    assert entry["rechecked"]["by"] == "desk user ana" and entry["rechecked"]["trust"] == "trusted"
    listed = CliRunner().invoke(app, ["register", "list", "--db", str(desk.database)])
    assert re.search(rf"^{again['register_entry']} .* verified \(received untrusted\)", listed.stdout, re.M), \
        listed.stdout
    page = register_page(report_rows(desk.engine))
    row = re.search(rf'<tr class="verified">\s*<td><a href="#entry-{again["register_entry"]}">.*?</tr>', page,
                    re.S)
    assert row and "verified again" in row.group(0) and "intact, signer not trusted when received" in row.group(0)

    rules = next(f for f in again["files"] if f["name"] == "rules.pdf")
    stored = desk.archive / rules["sha256"][:2] / rules["sha256"]
    stored.chmod(0o644)
    stored.write_bytes(stored.read_bytes() + b"\n%tampered\n")
    failed = web.post(f"/api/filings/{four['id']}/reverify", headers={"X-CSRF-Token": csrf}).json()
    assert (failed["verdict"], failed["current_verdict"]) == ("NOT TRUSTED", "FAILED")
    row = re.search(rf'<a href="/filings/{four["id"]}">.*?</tr>', web.get("/").text, re.S).group(0)
    assert '<span class="FAILED">FAILED</span>' in row
    assert f"filing {four['id']} (revision 4) is FAILED" in web.get(f"/filings/{four['id']}").text
    entry = next(e for e in entries(desk.engine) if e["entry"] == again["register_entry"])
    assert (entry["status"], entry["current_status"]) == ("untrusted", "failed")
    assert "rules.pdf" in entry["rechecked"]["first_problem"]
    events = [e for e in web.get(f"/api/filings/{four['id']}/events").json()["events"] if e["action"] == "reverified"]
    assert [e["detail"].split(",")[0] for e in events] == ["verdict VERIFIED (was NOT TRUSTED)",
                                                           "verdict FAILED (was VERIFIED)"]


def test_user_management_as_json_is_an_admins_and_mirrors_the_pages(desk):
    """`GET /api/users`, `POST /api/users`, `POST /api/users/{name}/disable`: 401 without a session, 403 for an
    analyst or a supervisor and for a change without the CSRF header, nothing changed by a refusal; an admin adds
    and disables a user, each an event, as on the /users page."""
    nobody = client(desk)
    new = {"name": "kim", "role": "supervisor", "password": PASSWORD}
    assert nobody.get("/api/users").status_code == 401
    assert nobody.post("/api/users", json=new).status_code == 401
    assert nobody.post("/api/users/ana/disable").status_code == 401
    for name in ("ana", "sam"):
        web = client(desk)
        csrf = login(web, name)
        assert web.get("/api/users").status_code == 403
        refused = web.post("/api/users", json=new, headers={"X-CSRF-Token": csrf})
        assert refused.status_code == 403 and refused.json()["error"] == "only an admin manages the desk's users"
        assert web.post("/api/users/ana/disable", headers={"X-CSRF-Token": csrf}).status_code == 403
    admin = client(desk)
    csrf = login(admin, "ada")
    assert admin.post("/api/users", json=new).status_code == 403  # no CSRF header
    assert admin.post("/api/users/ana/disable").status_code == 403
    assert [(a.name, a.active) for a in store.list_users(desk.engine)] == [("ada", True), ("ana", True),
                                                                          ("sam", True)]

    listed = admin.get("/api/users").json()
    assert [(u["name"], u["role"], u["active"]) for u in listed["users"]] == [
        ("ada", "admin", True), ("ana", "analyst", True), ("sam", "supervisor", True)]
    header = {"X-CSRF-Token": csrf}
    assert admin.post("/api/users", json={**new, "role": "owner"}, headers=header).status_code == 400
    assert admin.post("/api/users", json={**new, "password": "short"}, headers=header).status_code == 400
    assert admin.post("/api/users", json={"name": "kim"}, headers=header).status_code == 400
    assert admin.post("/api/users", json={**new, "name": "sam"}, headers=header).status_code == 409
    added = admin.post("/api/users", json=new, headers=header)
    assert added.status_code == 201 and added.json()["name"] == "kim" and added.json()["active"] is True
    kim = client(desk)
    login(kim, "kim")
    assert kim.get("/api/filings").status_code == 200

    assert admin.post("/api/users/nobody/disable", headers=header).status_code == 404
    assert admin.post("/api/users/ada/disable", headers=header).status_code == 409  # not one's own
    disabled = admin.post("/api/users/kim/disable", headers=header)
    assert disabled.status_code == 200 and disabled.json() == {**added.json(), "active": False}
    assert admin.post("/api/users/kim/disable", headers=header).status_code == 409  # already
    assert kim.get("/api/filings").status_code == 401  # the session ended
    events = admin.get("/api/users").json()["events"]
    assert [(e["action"], e["user"], e["detail"]) for e in events][:2] == [
        ("user-disabled", "ada", "kim"), ("user-added", "ada", "kim, role supervisor")]


def test_the_letter_is_written_by_the_agency_the_jurisdiction_names():
    """The letter's office is the jurisdiction's agency as its data names it, set as a heading (the house's
    "card room's management" begins with a capital); an unknown code falls back to the desk's own name."""
    from rulegen.jurisdiction import load_jurisdiction
    from rulegen.web.desk.review import DEFAULT_OFFICE, _office

    assert _office("PA") == load_jurisdiction("PA").cited("agency").value
    assert _office("HOUSE") == "Card room's management"
    assert _office("XX") == DEFAULT_OFFICE and _office(None) == DEFAULT_OFFICE
