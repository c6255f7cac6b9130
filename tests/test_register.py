"""`rulegen register`: filings verified and recorded with their flags, listed, shown, reported as HTML.

The same tests run against a SQLite file and a real PostgreSQL server they start (initdb and pg_ctl into a
temporary folder, on a free port of 127.0.0.1; see tests/pgserver.py). Without PostgreSQL's server binaries the
PostgreSQL half is skipped with the reason, unless RULEGEN_REQUIRE_POSTGRES is set (CI sets it), where it fails.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulegen.cli import app


from tests import filing_factory as factory  # noqa: E402

pytestmark = pytest.mark.pdf  # builds or verifies whole filings: the PDF tier, `pytest -m pdf` (README)

ID, OPERATOR = "filing-test-pa", "Test Pennsylvania Casino"


def variant(*, offering_id: str = ID, revision: int = 1, date: str = "2027-03-01", operator: str = OPERATOR,
            jurisdiction: str = "PA", five_card_maximum: int = 25) -> str:
    text = factory.OFFERING
    for old, new in ((f"id: {ID}", f"id: {offering_id}"), ("version: 3", f"version: {revision}"),
                     ("effective_date: 2027-03-01", f"effective_date: {date}"),
                     (f"name: {OPERATOR}", f"name: {operator}"), ("jurisdiction: PA", f"jurisdiction: {jurisdiction}"),
                     ("  maximum: 25\n", f"  maximum: {five_card_maximum}\n")):
        assert old in text, old
        text = text.replace(old, new)
    return text


@pytest.fixture(scope="module")
def pki(tmp_path_factory) -> dict:
    files = factory.make_trusted_pki(tmp_path_factory.mktemp("pki"), tmp_path_factory.mktemp("trusted"))
    files["second"] = factory.make_identity(tmp_path_factory.mktemp("second"), files, "Ana Lima",
                                            "Third <Casino> & Co", serial=50)
    return files


@pytest.fixture(autouse=True)
def _trusted(pki, monkeypatch, math_cache):
    """The test root is trusted (RULEGEN_TRUST); the session's math cache serves the diffs' mathematics. `register
    add` verifies in full, reproducing each filing with the renderer the build layer hands it: for these stand-in
    filings, the factory's own product stands in for the pipeline."""
    monkeypatch.setenv("RULEGEN_TRUST", str(pki["trust_folder"]))
    monkeypatch.setattr("rulegen.assemble.reproduce_filing_for_verify", factory.reproduce)


# `python -m rulegen`, with the factory's product standing in for the pipeline's renderer (as `_trusted` does here).
FACTORY_RULEGEN = ("import sys, rulegen.assemble, tests.filing_factory as f; "
                   "rulegen.assemble.reproduce_filing_for_verify = f.reproduce; "
                   "sys.argv[0] = 'rulegen'; from rulegen.cli import main; main()")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory, pki) -> dict[str, Path]:
    """Signed filings: three revisions of one offering (rev 4 after a gap, with an earlier date), another
    operator signed by the same certificate, another operator with its own signer, a New Jersey revision 5,
    an unsigned draft."""
    root = tmp_path_factory.mktemp("corpus")
    specs = {
        "a1": dict(revision=1, date="2027-03-01"),
        "a2": dict(revision=2, date="2027-04-01", five_card_maximum=50),
        "a4": dict(revision=4, date="2027-02-01"),
        "nj5": dict(revision=5, date="2027-06-01", jurisdiction="NJ"),
        "b1": dict(offering_id="other-casino-pa", operator="Other Casino"),
        "c1": dict(offering_id="third-casino-pa", operator="Third <Casino> & Co"),
    }
    made = {}
    for label, spec in specs.items():
        identity = pki["second"] if label == "c1" else None
        made[label] = factory.build(root / label / "filing", pki, text=variant(**spec), identity=identity).parent
    made["draft"] = factory.build(root / "draft" / "filing", None, final=False,
                                  text=variant(offering_id="draft-pa")).parent
    return made


@pytest.fixture
def db(register_db) -> str:
    return register_db  # SQLite, then PostgreSQL (tests/conftest.py)


def run(*arguments: str):
    return CliRunner().invoke(app, ["register", *arguments])


def listing(db: str) -> list[dict]:
    result = run("list", "--db", db, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def by_label(rows: list[dict], corpus: dict[str, Path]) -> dict[str, dict]:
    where = {str(path / "rules.pdf"): label for label, path in corpus.items()}
    return {where[row["path"]]: row for row in rows}


def kinds(row: dict) -> set[str]:
    return {flag["kind"] for flag in row["flags"]}


def test_add_records_each_filing_with_its_verdict_flags_and_changes(db, corpus, pki):
    result = run("add", str(corpus["a1"]), str(corpus["a2"]), "--db", db)
    assert result.exit_code == 0, result.output
    assert result.stdout.count("VERIFIED") == 2
    result = run("add", str(corpus["a4"]), str(corpus["b1"]), str(corpus["c1"]), str(corpus["draft"]), "--db", db,
                 "--format", "json")
    assert result.exit_code == 1, result.output
    payload = json.loads(result.stdout)
    assert payload["summary"]["recorded"] == 4 and payload["summary"]["exit_code"] == 1
    rows = by_label(listing(db), corpus)
    assert [rows[k]["entry"] for k in ("a1", "a2", "a4", "b1", "c1", "draft")] == [1, 2, 3, 4, 5, 6]
    assert {k: r["status"] for k, r in rows.items()} == {"a1": "verified", "a2": "verified", "a4": "verified",
                                                         "b1": "verified", "c1": "verified", "draft": "unsigned"}
    assert kinds(rows["a1"]) == kinds(rows["a2"]) == kinds(rows["c1"]) == set()
    assert kinds(rows["a4"]) == {"revision-gap", "effective-date"}
    gap = next(f for f in rows["a4"]["flags"] if f["kind"] == "revision-gap")["message"]
    assert "revision 4 follows revision 2" in gap and "3 not received" in gap
    assert "2027-02-01" in next(f for f in rows["a4"]["flags"] if f["kind"] == "effective-date")["message"]
    signer = [f["message"] for f in rows["b1"]["flags"] if f["kind"] == "signer-operator"]
    assert kinds(rows["b1"]) == {"signer-operator"} and len(signer) == 2
    assert f"is {OPERATOR}'s, not the operator's (Other Casino)" in signer[0]
    assert OPERATOR in signer[1] and "entry 1" in signer[1]
    assert rows["a2"]["previous_entry"] == 1 and rows["a4"]["previous_entry"] == 2
    a2 = rows["a2"]
    assert a2["offering_id"] == ID and a2["revision"] == 2 and a2["operator"] == OPERATOR
    assert a2["jurisdiction"] == "PA" and a2["effective_date"] == "2027-04-01" and a2["trust"] == "trusted"
    import hashlib

    assert a2["rules_sha256"] == hashlib.sha256((corpus["a2"] / "rules.pdf").read_bytes()).hexdigest()
    assert a2["manifest_sha256"] == hashlib.sha256((corpus["a2"] / "manifest.json").read_bytes()).hexdigest()
    assert len(a2["signer_fingerprint"]) == 64 and "Priya Raman" in a2["signer"]
    # signed without a timestamp authority: PAdES B-B, no timestamp, no revocation data to judge by
    assert (a2["pades_level"], a2["timestamp"], a2["revocation"]) == ("B-B", None, "not embedded")
    assert rows["draft"]["first_problem"].startswith("unsigned draft")
    assert rows["draft"]["pades_level"] is None and rows["draft"]["revocation"] is None
    [shown] = json.loads(run("show", f"{ID}@2", "--db", db, "--format", "json").stdout)
    texts = [c["text"] for s in shown["changes"]["sections"] for c in s["changes"]]
    assert "Five Card Bonus maximum: $25 → $50" in texts and "Submission revision: 3 → 2" not in texts
    assert shown["changes"]["math"] == [] and shown["changes"]["math_note"] == "no figure of the mathematics changed"
    assert {c["name"] for c in shown["checks"]} >= {"signature", "trust", "outputs", "manifest"}


def test_the_same_offering_and_revision_twice_is_refused(db, corpus):
    assert run("add", str(corpus["a1"]), "--db", db).exit_code == 0
    copy = corpus["a1"].parent.parent / "a1-again"
    if not copy.exists():
        shutil.copytree(corpus["a1"], copy)
    result = run("add", str(copy), "--db", db)
    assert result.exit_code == 1 and "REFUSED" in result.stdout and "entry 1" in result.stdout
    assert len(listing(db)) == 1


def test_a_draft_or_a_failed_filing_does_not_keep_the_genuine_filing_out(db, corpus, pki, tmp_path):
    """Squatting: an unsigned draft and a signed filing whose package fails, both of revision 1 of the offering,
    arrive first. Each is recorded with its verdict, holding nothing; the genuine revision 1 is then recorded as
    verified, and a copy of it after that is refused."""
    draft = factory.build(tmp_path / "squat-draft" / "filing", None, final=False, text=variant(revision=1))
    failing = factory.build(tmp_path / "squat-failing" / "filing", pki, text=variant(revision=1))
    (failing.parent / "signage.pdf").write_bytes(b"%PDF-1.7 another sign\n%%EOF\n")
    result = run("add", str(draft.parent), str(failing.parent), "--db", db)
    assert result.exit_code == 1 and "REFUSED" not in result.stdout, result.output
    result = run("add", str(corpus["a1"]), "--db", db)
    assert result.exit_code == 0 and "VERIFIED" in result.stdout, result.output
    rows = listing(db)
    assert [(r["offering_id"], r["revision"], r["status"]) for r in rows] == [
        (ID, 1, "unsigned"), (ID, 1, "failed"), (ID, 1, "verified")]
    assert kinds(rows[2]) == set()
    copy = tmp_path / "a1-again"
    shutil.copytree(corpus["a1"], copy)
    result = run("add", str(copy), "--db", db)
    assert result.exit_code == 1 and "REFUSED" in result.stdout and "verified, as entry 3" in result.stdout


def test_a_revision_signed_with_another_operators_certificate_is_flagged(db, corpus, pki, tmp_path):
    """Revision 2 of operator A's offering, signed with operator B's certificate (trusted, under the same root):
    recorded, flagged because the certificate is B's; a revision 3 that names B as the operator is flagged too."""
    assert run("add", str(corpus["a1"]), "--db", db).exit_code == 0
    by_b = factory.build(tmp_path / "by-b" / "filing", pki, text=variant(revision=2), identity=pki["second"])
    result = run("add", str(by_b.parent), "--db", db, "--format", "json")
    assert result.exit_code == 1, result.output
    [added] = json.loads(result.stdout)["results"]
    assert added["status"] == "verified" and added["entry"] == 2
    [flag] = [f["message"] for f in added["flags"] if f["kind"] == "signer-operator"]
    assert f"is Third <Casino> & Co's, not the operator's ({OPERATOR})" in flag
    taken = factory.build(tmp_path / "taken" / "filing", pki, text=variant(revision=3, date="2027-05-01",
                                                                        operator="Third <Casino> & Co"),
                          identity=pki["second"])
    result = run("add", str(taken.parent), "--db", db, "--format", "json")
    [added] = json.loads(result.stdout)["results"]
    # the operator changed, and the certificate signed the previous revision for another operator
    assert {f["kind"] for f in added["flags"]} == {"operator", "signer-operator"}
    assert any(f"revision 2 (entry 2) was {OPERATOR}'s; this revision names Third <Casino> & Co" in f["message"]
               for f in added["flags"])


def test_jurisdiction_of_the_register_and_a_change_of_jurisdiction(db, corpus):
    assert run("init", "--db", db, "--jurisdiction", "pa").exit_code == 0
    result = run("add", str(corpus["a2"]), str(corpus["nj5"]), "--db", db)
    assert result.exit_code == 1, result.output
    rows = by_label(listing(db), corpus)
    assert kinds(rows["nj5"]) >= {"jurisdiction", "register-jurisdiction", "revision-gap"}
    flag = next(f for f in rows["nj5"]["flags"] if f["kind"] == "register-jurisdiction")
    assert "holds PA filings" in flag["message"]


def test_an_earlier_revision_received_later_is_flagged(db, corpus):
    run("add", str(corpus["a2"]), "--db", db)
    run("add", str(corpus["a1"]), "--db", db)
    rows = by_label(listing(db), corpus)
    assert kinds(rows["a1"]) == {"out-of-order"} and rows["a1"]["previous_entry"] is None


def test_an_untrusted_signer_is_recorded_as_such(db, corpus, monkeypatch):
    monkeypatch.delenv("RULEGEN_TRUST")
    result = run("add", str(corpus["a1"]), "--db", db)
    assert result.exit_code == 1 and "SIGNER NOT TRUSTED" in result.stdout
    [row] = listing(db)
    assert row["status"] == "untrusted" and row["trust"] == "not trusted"


def test_list_show_and_the_html_report(db, corpus, tmp_path):
    run("add", str(corpus["a1"]), str(corpus["a4"]), str(corpus["c1"]), str(corpus["draft"]), "--db", db)
    table = run("list", "--db", db)
    assert table.exit_code == 0 and len(table.stdout.strip().splitlines()) == 5
    rows = list(csv.DictReader(io.StringIO(run("list", "--db", db, "--format", "csv").stdout)))
    assert [r["offering_id"] for r in rows] == [ID, ID, "third-casino-pa", "draft-pa"]
    assert rows[1]["flags"] == "revision-gap;effective-date" and rows[3]["status"] == "unsigned"
    shown = run("show", "2", "--db", db)
    assert shown.exit_code == 0 and "flag revision-gap" in shown.stdout and "ok    signature" in shown.stdout
    assert run("show", "99", "--db", db).exit_code == 1
    assert len(json.loads(run("show", ID, "--db", db, "--format", "json").stdout)) == 2
    out = tmp_path / "report" / "register.html"
    result = run("report", "--db", db, "--html", str(out))
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert page.count('<tr class="') == 4 and 'href="#entry-2"' in page and 'id="entry-2"' in page
    assert "Third &lt;Casino&gt; &amp; Co" in page and "Third <Casino>" not in page
    assert "gap in revisions" in page and "unsigned draft" in page and "4 filings:" in page


def test_two_adds_at_once_lose_nothing(db, corpus, tmp_path):
    """Two processes add at the same moment: every distinct filing is recorded once, the shared one once."""
    env = dict(os.environ)
    command = [sys.executable, "-c", FACTORY_RULEGEN, "register", "add", "--db", db, "--format", "json"]
    root = Path(__file__).resolve().parent.parent
    first = subprocess.Popen(command + [str(corpus[k]) for k in ("a1", "c1")], env=env, cwd=root,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    second = subprocess.Popen(command + [str(corpus[k]) for k in ("c1", "a2")], env=env, cwd=root,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    outputs = [process.communicate(timeout=300) for process in (first, second)]
    for stdout, stderr in outputs:
        assert "Traceback" not in stderr, stderr
        json.loads(stdout)
    rows = by_label(listing(db), corpus)
    assert sorted(rows) == ["a1", "a2", "c1"]
    results = [r for stdout, _ in outputs for r in json.loads(stdout)["results"]]
    shared = [r for r in results if r["path"] == str(corpus["c1"] / "rules.pdf")]
    assert sorted(r["status"] for r in shared) == ["refused", "verified"]


def test_the_register_schema_is_migrated_once_and_reopens(db):
    from sqlalchemy import inspect, text

    from rulegen.filing.register_store import open_register

    for _ in range(2):
        engine = open_register(db)
        with engine.connect() as connection:
            assert connection.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0004"
        assert {"filings", "flags", "register_settings", "rechecks"} <= set(inspect(engine).get_table_names())
        engine.dispose()


def test_a_register_of_the_first_schema_is_upgraded_and_keeps_its_filings(db):
    """A register made before the PAdES level was recorded opens, upgraded, with its filings (their level
    unknown, not "none")."""
    from alembic import command
    from sqlalchemy import create_engine, inspect, text

    from rulegen.filing.register_store import alembic_config, database_url, open_register

    engine = create_engine(database_url(db))
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0001")
        connection.execute(text("INSERT INTO filings (received_at, path, status, exit_code, errors, warnings, notes, "
                                "checks) VALUES (:when, 'old/rules.pdf', 'verified', 0, 0, 0, 0, '[]')"),
                           {"when": "2026-01-02 03:04:05+00:00"})
    assert "pades_level" not in {c["name"] for c in inspect(engine).get_columns("filings")}
    engine.dispose()
    open_register(db).dispose()
    [row] = listing(db)
    assert row["path"] == "old/rules.pdf" and row["status"] == "verified"
    assert (row["pades_level"], row["timestamp"], row["revocation"]) == (None, None, None)
    assert (row["current_status"], row["rechecked"]) == ("verified", None)  # never verified again


def test_an_unusable_register_exits_2(tmp_path):
    (tmp_path / "folder").mkdir()
    result = run("list", "--db", str(tmp_path / "folder"))
    assert result.exit_code == 2 and "folder" in result.stderr
    result = run("list", "--db", "postgresql://someone:secret@127.0.0.1:1/none")
    assert result.exit_code == 2 and "cannot be opened" in result.stderr and "secret" not in result.stderr
    result = run("list", "--db", str(tmp_path / "r.sqlite"), "--format", "xml")
    assert result.exit_code == 2


def test_the_default_register_lives_in_the_users_data_folder(monkeypatch, tmp_path):
    import platformdirs

    from rulegen.filing.register_store import database_url, default_location

    monkeypatch.delenv("RULEGEN_REGISTER_DB", raising=False)
    assert Path(default_location()) == Path(platformdirs.user_data_dir("rulegen")) / "register.sqlite"
    monkeypatch.setenv("RULEGEN_REGISTER_DB", str(tmp_path / "agency.sqlite"))
    assert default_location() == str(tmp_path / "agency.sqlite")
    assert database_url("postgres://u@h:5/d") == "postgresql+psycopg2://u@h:5/d"
    assert database_url(str(tmp_path / "x" / "r.sqlite")) == f"sqlite:///{tmp_path / 'x' / 'r.sqlite'}"


def test_add_verifies_in_full_and_records_the_offerings_identity(db, pki, tmp_path, monkeypatch):
    """A manifest claiming another identity, or a package the signed offering does not build, is recorded as
    failed, under the signed offering's identity; without the reproduction nothing would be verified."""
    def claim_revision_9(manifest):
        manifest["offering"]["version"] = 9

    def other_figures(manifest):
        manifest["figures"] = {"main_game.house_edge_per_ante": "1/1000"}

    claimed = factory.build(tmp_path / "claimed" / "filing", pki, text=variant(offering_id="claims-pa"),
                            edit=claim_revision_9).parent
    figures = factory.build(tmp_path / "figures" / "filing", pki, text=variant(offering_id="figures-pa"),
                            edit=other_figures).parent
    result = run("add", str(claimed), str(figures), "--db", db, "--format", "json")
    assert result.exit_code == 1, result.output
    rows = {row["offering_id"]: row for row in listing(db)}
    assert rows["claims-pa"]["revision"] == 1 and rows["claims-pa"]["status"] == "failed"
    assert "identity" in rows["claims-pa"]["first_problem"]
    assert rows["figures-pa"]["status"] == "failed" and "reproduce" in rows["figures-pa"]["first_problem"]


def test_a_filing_not_reproducible_here_is_recorded_so_and_the_page_says_why(db, corpus, tmp_path, monkeypatch):
    from rulegen.filing.rebuild import Reproducer

    elsewhere = Reproducer(factory.reproduce.render, lambda: {**factory.reproduce.versions(), "pango": "9.99.0"})
    monkeypatch.setattr("rulegen.assemble.reproduce_filing_for_verify", elsewhere)
    result = run("add", str(corpus["a1"]), "--db", db)
    assert result.exit_code == 1 and "CANNOT BE REPRODUCED HERE" in result.stdout, result.output
    [row] = listing(db)
    assert row["status"] == "unreproducible" and "Pango" in row["first_problem"]
    out = tmp_path / "register.html"
    assert run("report", "--html", str(out), "--db", db).exit_code == 0
    page = out.read_text(encoding="utf-8")
    assert "cannot be reproduced here" in page and "9.99.0" in page


def test_a_changes_section_that_is_not_the_diff_from_the_previous_revision_is_flagged(corpus, pki, tmp_path):
    """The changes section is the one part of a rendering the offering does not give (the build's --previous
    does), so the reproduction takes it from the manifest; the register holds the previous revision and checks it."""
    from rulegen.filing import changes_section
    from rulegen.filing.manifest import jsonable
    from rulegen.offering import parse_offering

    before = parse_offering(variant(revision=1, date="2027-03-01").encode(), "offering.yaml")
    text = variant(revision=2, date="2027-04-01", five_card_maximum=50)
    honest = jsonable(changes_section(before, parse_offering(text.encode(), "offering.yaml")))
    forged = {**honest, "count": 0, "groups": [], "summary": "No change to the rules since revision 1"}
    made = {}
    for label, section in (("honest", honest), ("forged", forged)):
        def with_changes(manifest, section=section):
            manifest["options"]["changes"] = section

        made[label] = factory.build(tmp_path / label / "filing", pki, text=text, edit=with_changes).parent
    for label in ("honest", "forged"):
        db = str(tmp_path / f"{label}.sqlite")
        assert run("add", str(corpus["a1"]), "--db", db).exit_code == 0
        result = run("add", str(made[label]), "--db", db, "--format", "json")
        [entry] = json.loads(result.stdout)["results"]
        flagged = {flag["kind"]: flag["message"] for flag in entry["flags"]}
        if label == "honest":
            assert entry["status"] == "verified", entry
            assert "changes-section" not in flagged and result.exit_code == 0, entry
        else:  # verify itself fails it against the register's revision 1, and the register flags it
            assert entry["status"] == "failed" and "changes" in entry["verdict"], entry
            assert result.exit_code == 1 and "not the diff from revision 1" in flagged["changes-section"]
            assert "groups" in flagged["changes-section"] and "summary" in flagged["changes-section"]
    # revision 2 with its changes section, in a register that does not hold revision 1: not verified
    result = run("add", str(made["honest"]), "--db", str(tmp_path / "empty.sqlite"), "--format", "json")
    [entry] = json.loads(result.stdout)["results"]
    assert entry["status"] == "failed" and "not reproduced here" in entry["verdict"], entry
