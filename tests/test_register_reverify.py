"""`rulegen register reverify ID`: a recorded filing verified again, in full, with today's trust roots, and the
re-verification recorded beside the entry (its verdict on receipt stays), as the desk's button records one.

Against a SQLite file and a real PostgreSQL server, as tests/test_register.py.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from sqlalchemy import func, select
from typer.testing import CliRunner

from rulegen.cli import app
from rulegen.filing.register_store import open_register, rechecks
from tests import filing_factory as factory

pytestmark = pytest.mark.pdf  # builds or verifies whole filings: the PDF tier, `pytest -m pdf` (README)


@pytest.fixture(scope="module")
def pki(tmp_path_factory) -> dict:
    return factory.make_trusted_pki(tmp_path_factory.mktemp("pki"), tmp_path_factory.mktemp("trusted"))


@pytest.fixture(scope="module")
def originals(tmp_path_factory, pki) -> dict[str, Path]:
    """Two signed filings (two offerings) and a draft, as built; each test copies what it changes."""
    root = tmp_path_factory.mktemp("filings")
    other = factory.OFFERING.replace("id: filing-test-pa", "id: other-offering-pa")
    return {"a": factory.build(root / "a" / "filing", pki).parent,
            "b": factory.build(root / "b" / "filing", pki, text=other).parent}


@pytest.fixture
def filings(originals, tmp_path) -> dict[str, Path]:
    copies = {}
    for label, folder in originals.items():
        copies[label] = tmp_path / "received" / label
        shutil.copytree(folder, copies[label])
    return copies


@pytest.fixture(autouse=True)
def _no_trust_yet(monkeypatch, math_cache):
    """The agency trusts no root when the filings arrive (RULEGEN_TRUST unset); the factory's product stands in for
    the pipeline's renderer."""
    monkeypatch.delenv("RULEGEN_TRUST", raising=False)
    monkeypatch.setattr("rulegen.assemble.reproduce_filing_for_verify", factory.reproduce)


@pytest.fixture
def db(register_db) -> str:
    return register_db  # SQLite, then PostgreSQL (tests/conftest.py)


def run(*arguments: str):
    return CliRunner().invoke(app, ["register", *arguments])


def recorded(db: str) -> int:
    engine = open_register(db)
    try:
        with engine.connect() as connection:
            return int(connection.execute(select(func.count()).select_from(rechecks)).scalar() or 0)
    finally:
        engine.dispose()


def received_untrusted(db: str, filings: dict[str, Path]) -> None:
    result = run("add", str(filings["a"]), str(filings["b"]), "--db", db)
    assert result.exit_code == 1 and result.stdout.count("SIGNER NOT TRUSTED") == 2, result.output


def test_a_filing_received_untrusted_is_verified_with_todays_root_and_recorded(db, filings, pki):
    received_untrusted(db, filings)
    result = run("reverify", "1", "--db", db, "--trust", str(pki["ca"]), "--by", "Dana Whitfield")
    assert result.exit_code == 0, result.output
    assert "entry 1:" in result.stdout and "VERIFIED" in result.stdout
    assert "by Dana Whitfield with 1 trust root(s): verified (was untrusted; on receipt untrusted)" in result.stdout
    [entry] = json.loads(run("show", "1", "--db", db, "--format", "json").stdout)
    assert entry["status"] == "untrusted" and entry["current_status"] == "verified"
    assert entry["rechecked"]["by"] == "Dana Whitfield" and entry["rechecked"]["trust"] == "trusted"
    shown = run("show", "1", "--db", db).stdout
    assert "verified again:" in shown and "by Dana Whitfield, verified (trust trusted)" in shown
    rows = json.loads(run("list", "--db", db, "--format", "json").stdout)
    assert [r["current_status"] for r in rows] == ["verified", "untrusted"]  # entry 2 was not verified again
    # Without the root again (the agency withdrew it), the entry is untrusted again: the latest counts.
    again = run("reverify", "1", "--db", db, "--format", "json")
    assert again.exit_code == 1, again.output
    answer = json.loads(again.stdout)
    assert answer["status"] == "untrusted" and answer["was"] == "verified" and answer["received_status"] == "untrusted"
    assert answer["by"].startswith("command line") and answer["trust_roots"] == 0
    assert recorded(db) == 2


def test_a_changed_file_at_the_recorded_place_is_a_failed_reverification_recorded(db, filings, pki):
    received_untrusted(db, filings)
    target = filings["a"] / "rules.pdf"
    data = bytearray(target.read_bytes())
    data[len(data) // 3] ^= 0x01
    target.write_bytes(bytes(data))
    result = run("reverify", "1", "--db", db, "--trust", str(pki["ca"]), "--format", "json")
    assert result.exit_code == 1, result.output
    answer = json.loads(result.stdout)
    assert answer["status"] == "failed" and answer["verdict"].startswith("FAILED")
    assert answer["first_problem"].startswith(f"received: the file at {target} no longer holds the bytes received")
    assert answer["checks"][0]["name"] == "received" and answer["checks"][0]["status"] == "FAIL"
    [entry] = json.loads(run("show", "1", "--db", db, "--format", "json").stdout)
    assert entry["current_status"] == "failed" and entry["status"] == "untrusted"
    assert recorded(db) == 1


def test_a_moved_filing_is_found_with_from_and_another_filing_there_is_refused(db, filings, pki, tmp_path):
    received_untrusted(db, filings)
    moved = tmp_path / "moved"
    filings["a"].rename(moved)
    missing = run("reverify", "1", "--db", db, "--trust", str(pki["ca"]))
    assert missing.exit_code == 2 and "no longer exists" in missing.stderr and "--from PATH" in missing.stderr
    other = run("reverify", "1", "--db", db, "--trust", str(pki["ca"]), "--from", str(filings["b"]))
    assert other.exit_code == 2 and "is not the filing entry 1 recorded" in other.stderr, other.output
    assert "nothing recorded" in other.stderr
    assert recorded(db) == 0
    found = run("reverify", "1", "--db", db, "--trust", str(pki["ca"]), "--from", str(moved))
    assert found.exit_code == 0 and f"entry 1: {moved / 'rules.pdf'}: VERIFIED" in found.stdout, found.output
    assert recorded(db) == 1


def test_bad_input_changes_nothing(db, filings, tmp_path):
    received_untrusted(db, filings)
    no_entry = run("reverify", "7", "--db", db)
    assert no_entry.exit_code == 1 and "7: no such entry in the register" in no_entry.stderr
    not_a_certificate = tmp_path / "ca.pem"
    not_a_certificate.write_text("not a certificate\n")
    roots = run("reverify", "1", "--db", db, "--trust", str(not_a_certificate))
    assert roots.exit_code == 2 and "not a PEM or DER certificate file" in roots.stderr
    not_a_pdf = tmp_path / "elsewhere" / "rules.pdf"
    not_a_pdf.parent.mkdir()
    not_a_pdf.write_text("hello\n")
    unusable = run("reverify", "1", "--db", db, "--from", str(not_a_pdf))
    assert unusable.exit_code == 2 and "is not a PDF" in unusable.stderr and "nothing recorded" in unusable.stderr
    assert run("reverify", "1", "--db", db, "--format", "xml").exit_code == 2
    assert recorded(db) == 0


def test_an_entry_the_desk_received_is_sent_to_its_page_or_given_a_from(db, filings, pki):
    """A filing the desk received is recorded under the desk's name for it, which is no place on disk: reverifying it
    without --from says the desk verifies it again from its archive, and records nothing."""
    from sqlalchemy import update

    from rulegen.filing.register_reverify import DESK_PATH_PREFIX
    from rulegen.filing.register_store import filings as filings_table

    received_untrusted(db, filings)
    engine = open_register(db)
    try:
        with engine.begin() as connection:
            connection.execute(update(filings_table).where(filings_table.c.id == 1)
                               .values(path=f"{DESK_PATH_PREFIX}0123456789ab/rules.pdf"))
    finally:
        engine.dispose()
    desk = run("reverify", "1", "--db", db, "--trust", str(pki["ca"]))
    assert desk.exit_code == 2 and "came in through the desk" in desk.stderr and "--from PATH" in desk.stderr
    elsewhere = run("reverify", "2", "--db", db, "--trust", str(pki["ca"]))
    assert elsewhere.exit_code == 0, elsewhere.output  # entry 2 is still where it was received
    filings["b"].rename(filings["b"].with_name("moved"))
    moved = run("reverify", "2", "--db", db, "--trust", str(pki["ca"]))
    assert moved.exit_code == 2 and "came in through the desk" not in moved.stderr
    assert recorded(db) == 1
