"""Hostile filings: each attack on `verify`, `register add` and `diff` gets a clear verdict (a failed check, exit 1,
or exit 2), never a hang, a recursion error or a traceback. The attacks are built here from a genuine filing
(tests/hostile_pdf.py); each runs in a real process, with a timeout only there to catch a hang: the bound is the
product's own (how many name-tree nodes it reads, how deep it searches folders, how deep objects may nest)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulegen.filing import verify_filing
from tests import hostile_pdf
from tests.filing_factory import build, make_trusted_pki

pytestmark = pytest.mark.pdf  # builds or verifies whole filings: the PDF tier, `pytest -m pdf` (README)

HANG = 120  # seconds: far beyond any answer (each comes in about a second); only a hang reaches it


@pytest.fixture(scope="module")
def pki(tmp_path_factory) -> dict:
    return make_trusted_pki(tmp_path_factory.mktemp("pki"), tmp_path_factory.mktemp("trusted"))


@pytest.fixture(autouse=True)
def _trust_the_test_root(pki, monkeypatch):
    monkeypatch.setenv("RULEGEN_TRUST", str(pki["trust_folder"]))


@pytest.fixture(scope="module")
def signed_filing(tmp_path_factory, pki) -> Path:
    return build(tmp_path_factory.mktemp("signed") / "filing-test-pa", pki)


def rulegen(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "RULEGEN_REGISTER_DB": str((cwd or Path.cwd()) / "register.sqlite")}
    result = subprocess.run([sys.executable, "-m", "rulegen", *args], capture_output=True, text=True, timeout=HANG,
                            env=env, cwd=cwd)
    assert "Traceback" not in result.stdout + result.stderr
    assert "internal error" not in result.stderr
    assert "RecursionError" not in result.stdout + result.stderr
    return result


def failed(report) -> dict[str, str]:
    return {c.name: c.detail for c in report.checks if c.ok is False}


# --- 1. a package without its documents -----------------------------------------------------------------------------

def test_a_package_whose_manifest_lists_no_documents_is_not_whole(pki, tmp_path):
    """The filer drops the sign, the appendix and rules.html from the manifest's outputs and from the folder, and
    signs: the package is not "whole" for that, since every rulegen filing has those three documents."""
    def no_documents(manifest):
        manifest["outputs"] = {}

    path = build(tmp_path / "filing-test-pa", pki, edit=no_documents)
    for name in ("rules.html", "signage.pdf", "math-appendix.pdf"):
        (path.parent / name).unlink()
    report = verify_filing(path)
    assert report.exit_code == 1
    detail = failed(report)["outputs"]
    assert "the manifest does not list rules.html, signage.pdf, math-appendix.pdf" in detail


def test_a_package_whose_manifest_lists_only_the_sign_is_not_whole(pki, tmp_path):
    def sign_only(manifest):
        manifest["outputs"] = {"signage.pdf": manifest["outputs"]["signage.pdf"]}

    path = build(tmp_path / "filing-test-pa", pki, edit=sign_only)
    (path.parent / "rules.html").unlink()
    (path.parent / "math-appendix.pdf").unlink()
    report = verify_filing(path)
    assert "does not list rules.html, math-appendix.pdf" in failed(report)["outputs"]


# --- 2. loops, depth, nesting -----------------------------------------------------------------------------------

@pytest.mark.parametrize("attack, words", [
    (hostile_pdf.shared_name_tree, "reaches one of its nodes twice"),
    (hostile_pdf.looping_name_tree, "reaches one of its nodes twice"),
    (hostile_pdf.deeply_nested, "nested deeper than any PDF rulegen writes"),
])
def test_a_hostile_pdf_is_answered_by_verify_register_and_diff(signed_filing, tmp_path, attack, words):
    data = attack(signed_filing.read_bytes())
    assert len(data) < 64 * 1024  # a small file: the cost was in the walk, not the reading
    target = tmp_path / "rules.pdf"
    target.write_bytes(data)
    verified = rulegen("verify", "--integrity-only", "--format", "json", str(target), cwd=tmp_path)
    assert verified.returncode == 1, verified.stdout
    (report,) = json.loads(verified.stdout)["filings"]
    assert report["status"] == "failed"
    assert any(words in check["detail"] and check["status"] == "FAIL" for check in report["checks"]), report
    added = rulegen("register", "add", str(target), "--db", str(tmp_path / "register.sqlite"), cwd=tmp_path)
    assert added.returncode == 1 and "FAILED" in added.stdout, added.stdout + added.stderr
    compared = rulegen("diff", str(target), str(target), cwd=tmp_path)
    assert compared.returncode == 2
    assert words in compared.stderr


def test_a_manifest_nested_100000_deep_is_refused_in_plain_words():
    from rulegen.filing.manifest import ManifestError, read_manifest

    with pytest.raises(ManifestError, match="nested deeper than any manifest rulegen writes"):
        read_manifest(b"[" * 100_000 + b"]" * 100_000)


def test_the_name_tree_walk_reads_each_node_once(signed_filing):
    """The bound is the walk's own: a name tree of 15 levels of 50 branches each is refused at the first node met
    twice, having read a handful of nodes (not 50**15)."""
    from rulegen.filing.pdf import MAX_NAME_TREE_NODES, FilingFormatError, embedded_files, open_reader

    reader = open_reader(hostile_pdf.shared_name_tree(signed_filing.read_bytes()))
    calls = []
    original = type(reader).get_object

    def counting(self, *args, **kwargs):
        calls.append(1)
        return original(self, *args, **kwargs)

    type(reader).get_object = counting
    try:
        with pytest.raises(FilingFormatError, match="reaches one of its nodes twice"):
            embedded_files(reader)
    finally:
        type(reader).get_object = original
    assert len(calls) <= 4 * MAX_NAME_TREE_NODES


def test_a_folder_nested_1500_deep_is_one_finding_and_the_batch_goes_on(signed_filing, tmp_path, monkeypatch):
    import shutil

    monkeypatch.chdir(tmp_path)  # the working folder moves down the chain and back; pytest restores it after

    batch = tmp_path / "batch"
    shutil.copytree(signed_filing.parent, batch / "a-genuine")
    os.makedirs(batch / "deep")
    os.chdir(batch / "deep")  # build the chain by relative steps: its full path is longer than the system allows
    try:
        for _ in range(1500):
            os.mkdir("d")
            os.chdir("d")
        Path("rules.pdf").write_bytes(signed_filing.read_bytes())
    finally:
        os.chdir(tmp_path)
    try:
        result = rulegen("verify", "--integrity-only", "--format", "json", str(batch), cwd=tmp_path)
    finally:
        _remove_chain(batch / "deep", 1500)  # pytest's own clean-up recurses, and would stop at this depth
    genuine, deep = json.loads(result.stdout)["filings"]
    assert genuine["path"].endswith("a-genuine/rules.pdf") and genuine["status"] == "intact"
    assert deep["status"] == "unusable" and "nested more than 32 folders deep" in deep["verdict"]
    assert result.returncode == 2


def _remove_chain(top: Path, depth: int) -> None:
    os.chdir(top)
    try:
        for _ in range(depth):
            os.chdir("d")
        Path("rules.pdf").unlink()
        for _ in range(depth):
            os.chdir("..")
            os.rmdir("d")
    finally:
        os.chdir(top.parent)


# --- 3. memory ------------------------------------------------------------------------------------------------------

def _limit_memory() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (1536 << 20, 1536 << 20))


def test_an_attachment_that_inflates_a_thousandfold_is_refused_within_bounded_memory(signed_filing, tmp_path):
    """2 MiB of Flate data that decode to 2 GiB: verify, register add and diff stop decoding at the attachments'
    bound, in a process allowed 1.5 GiB of address space (without the bound the decoding alone would exceed it)."""
    target = tmp_path / "rules.pdf"
    target.write_bytes(hostile_pdf.inflating_attachment(signed_filing.read_bytes(), 2))
    command = [sys.executable, "-m", "rulegen"]
    env = {**os.environ, "RULEGEN_REGISTER_DB": str(tmp_path / "register.sqlite")}
    verified = subprocess.run([*command, "verify", "--integrity-only", "--format", "json", str(target)],
                              capture_output=True, text=True, timeout=HANG, env=env, preexec_fn=_limit_memory)
    assert verified.returncode == 1, verified.stderr
    (report,) = json.loads(verified.stdout)["filings"]
    assert any("'offering.yaml' holds more than 8 MiB" in check["detail"] for check in report["checks"]), report
    compared = subprocess.run([*command, "diff", str(target), str(target)], capture_output=True, text=True,
                              timeout=HANG, env=env, preexec_fn=_limit_memory)
    assert compared.returncode == 2 and "holds more than 8 MiB" in compared.stderr, compared.stderr
    for result in (verified, compared):
        assert "Traceback" not in result.stdout + result.stderr and "MemoryError" not in result.stdout + result.stderr


@pytest.mark.parametrize("compressed", [False, True])
def test_a_filing_declaring_more_objects_than_any_filing_is_refused_before_it_is_parsed(signed_filing, tmp_path,
                                                                                        compressed):
    """pyHanko holds every cross-reference entry in memory (3 million entries in a 57 MB file took 2 GB): the
    entries are counted in the bytes first. Compressed, 60,000 objects take a few hundred kilobytes."""
    data = hostile_pdf.many_objects(signed_filing.read_bytes(), compressed=compressed)
    target = tmp_path / "rules.pdf"
    target.write_bytes(data)
    report = verify_filing(target)
    assert report.status == "failed"
    assert "declares more than 50,000 objects" in failed(report)["pdf"]
    compared = rulegen("diff", str(target), str(target), cwd=tmp_path)
    assert compared.returncode == 2 and "declares more than 50,000 objects" in compared.stderr


def test_a_filing_over_the_size_limit_is_refused_before_it_is_read(signed_filing, tmp_path):
    from rulegen.filing.verify.common import MAX_FILING_BYTES

    target = tmp_path / "rules.pdf"
    with target.open("wb") as out:
        out.write(signed_filing.read_bytes())
        out.truncate(MAX_FILING_BYTES + 1)  # sparse: no disk spent
    result = rulegen("verify", "--integrity-only", str(target), cwd=tmp_path)
    assert result.returncode == 2
    assert "is larger than 64 MiB; it is not a filing rulegen built" in result.stdout + result.stderr


# --- 5. the changes section ------------------------------------------------------------------------------------------

def test_verify_alone_does_not_vouch_for_a_changes_section(pki, tmp_path, monkeypatch):
    """A forged "changes from revision 1" section (no change, where the five card maximum went from $25 to $50) is
    hashed and signed consistently: the signed offering cannot reproduce it, so verify fails it without revision 1,
    verifies the honest one with revision 1 (--previous), and fails the forged one against it."""
    from typer.testing import CliRunner

    from rulegen.cli import app
    from rulegen.filing import changes_section
    from rulegen.filing.manifest import jsonable
    from rulegen.offering import parse_offering
    from tests import filing_factory
    from tests.test_register import variant

    first = tmp_path / "revision-1.yaml"
    first.write_text(variant(revision=1, date="2027-03-01"))
    before = parse_offering(first.read_bytes(), "offering.yaml")
    text = variant(revision=2, date="2027-04-01", five_card_maximum=50)
    honest = jsonable(changes_section(before, parse_offering(text.encode(), "offering.yaml")))
    forged = {**honest, "count": 0, "groups": [], "summary": "No change to the rules since revision 1"}
    made = {}
    for label, section in (("honest", honest), ("forged", forged)):
        def with_changes(manifest, section=section):
            manifest["options"]["changes"] = section

        made[label] = build(tmp_path / label / "filing-test-pa", pki, text=text, edit=with_changes)
    previous = {("filing-test-pa", 1): before}

    def held(offering_id, revision):
        return previous.get((offering_id, revision))

    alone = verify_filing(made["honest"], reproduce=filing_factory.reproduce)
    assert alone.status == "failed" and "not reproduced here" in failed(alone)["changes"]
    assert verify_filing(made["honest"], reproduce=filing_factory.reproduce, previous=held).status == "verified"
    forged_report = verify_filing(made["forged"], reproduce=filing_factory.reproduce, previous=held)
    assert "not the diff from revision 1: it differs in count, groups, summary" in failed(forged_report)["changes"]
    # the command's --previous takes the offering file (or a filing) of revision 1
    monkeypatch.setattr("rulegen.assemble.reproduce_filing_for_verify", filing_factory.reproduce)
    result = CliRunner().invoke(app, ["verify", str(made["honest"]), "--previous", str(first)])
    assert result.exit_code == 0 and "VERIFIED" in result.stdout, result.output
    result = CliRunner().invoke(app, ["verify", str(made["forged"]), "--previous", str(first)])
    assert result.exit_code == 1 and "changes: " in result.stdout, result.output


# --- 6. the XMP metadata of the signing revision ---------------------------------------------------------------------

XMP_BEFORE = (b'<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF '
              b'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/" '
              b'xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:xmp="http://ns.adobe.com/xap/1.0/">'
              b'<rdf:Description rdf:about="" pdf:Producer="WeasyPrint 70.0" /><rdf:Description rdf:about=""><dc:title>'
              b'<rdf:Alt><rdf:li xml:lang="x-default">Criss Cross Poker rules</rdf:li></rdf:Alt></dc:title>'
              b'</rdf:Description><rdf:Description rdf:about=""><xmp:ModifyDate>2027-03-01</xmp:ModifyDate>'
              b'</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="r"?>')


@pytest.mark.parametrize("after, allowed", [
    # pyHanko's own rewrite: one description, attributes, its producer and the signing time
    (XMP_BEFORE.replace(b'pdf:Producer="WeasyPrint 70.0"', b'pdf:Producer="pyHanko 0.38.0"')
     .replace(b"<xmp:ModifyDate>2027-03-01<", b"<xmp:ModifyDate>2026-11-27T10:00:00+00:00<"), True),
    (XMP_BEFORE.replace(b">Criss Cross Poker rules<", b">Antes to $1,000<"), False),
    (XMP_BEFORE.replace(b"</rdf:RDF>", b'<rdf:Description rdf:about="" xmlns:pdfx="http://ns.adobe.com/pdfx/1.3/" '
                                       b'pdfx:Approved="yes" /></rdf:RDF>'), False),
    (XMP_BEFORE.replace(b"<dc:title>", b"<dc:description><rdf:Alt><rdf:li xml:lang=\"x-default\">Approved by the "
                                       b"Division</rdf:li></rdf:Alt></dc:description><dc:title>"), False),
    (b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]>' + XMP_BEFORE, False),
])
def test_the_signing_revision_may_change_only_the_metadata_signing_writes(after, allowed):
    from rulegen.filing.signing_revision import SIGNING_XMP_PROPERTIES, _UnreadableXmp, _xmp_properties

    before = _xmp_properties(XMP_BEFORE)
    try:
        changed = {name for name, _ in before ^ _xmp_properties(after)} - SIGNING_XMP_PROPERTIES
    except _UnreadableXmp:
        changed = {"unreadable"}
    assert (not changed) is allowed, changed
