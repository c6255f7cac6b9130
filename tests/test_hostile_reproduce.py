"""The dishonest filer with a trusted certificate, at the register and the desk, and runs killed part-way.

A package whose sign is not the one its signed offering gives, hashed into a manifest and signed with the trusted
test identity, is intact to an integrity check; `rulegen verify`, `register add` and the desk all verify in full,
so each fails it, and none of them can be handed no renderer. A build or a verification killed with SIGKILL part
way leaves nothing the next run does not clear.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulegen.cli import app
from tests import filing_factory as factory

pytestmark = pytest.mark.pdf  # builds or verifies whole filings: the PDF tier, `pytest -m pdf` (README)

DATA = Path(__file__).parent / "data"
FORGED_SIGN = b"%PDF-1.7 a sign showing $1,000 antes and a $75,000 limit\n%%EOF\n"


@pytest.fixture(scope="module")
def pki(tmp_path_factory) -> dict:
    return factory.make_trusted_pki(tmp_path_factory.mktemp("pki"), tmp_path_factory.mktemp("trusted"))


@pytest.fixture(autouse=True)
def _trusted(pki, monkeypatch):
    monkeypatch.setenv("RULEGEN_TRUST", str(pki["trust_folder"]))


def forged_sign_filing(folder: Path, pki: dict) -> Path:
    """A factory filing whose sign beside it is another, hashed into the manifest the trusted identity signed: every
    hash and the signature agree, only a reproduction tells."""
    from rulegen.filing.manifest import sha256

    def other_sign(manifest):
        manifest["outputs"]["signage.pdf"] = {"sha256": sha256(FORGED_SIGN), "bytes": len(FORGED_SIGN)}

    rules = factory.build(folder, pki, edit=other_sign)
    (folder / "signage.pdf").write_bytes(FORGED_SIGN)
    return rules


def test_a_forged_sign_is_intact_to_integrity_but_fails_verify_register_add_and_the_desk(pki, tmp_path,
                                                                                         monkeypatch):
    from rulegen.filing import verify_filing
    from rulegen.filing.register_store import open_register
    from rulegen.filing.verify import load_trust_roots
    from rulegen.web.desk import store
    from rulegen.web.desk.app import Desk, create_app
    from starlette.testclient import TestClient

    rules = forged_sign_filing(tmp_path / "forged", pki)
    assert verify_filing(rules).status == "intact"  # signed, trusted, hashes consistent
    full = verify_filing(rules, reproduce=factory.reproduce)
    assert full.status == "failed" and "VERIFIED" not in full.verdict, full.verdict
    assert "signage.pdf (differs" in next(c.detail for c in full.checks if c.name == "reproduce")

    # register add: the command hands in the build layer's renderer (the factory's stands in for it here)
    monkeypatch.setattr("rulegen.assemble.reproduce_filing_for_verify", factory.reproduce)
    db = str(tmp_path / "register.sqlite")
    result = CliRunner().invoke(app, ["register", "add", str(rules.parent), "--db", db, "--format", "json"])
    assert result.exit_code == 1, result.output
    [entry] = json.loads(result.stdout)["results"]
    assert entry["status"] == "failed" and "signage.pdf" in entry["verdict"], entry
    # failed, it holds no slot: the genuine filing of the same offering and revision is then recorded verified
    genuine = factory.build(tmp_path / "genuine", pki)
    result = CliRunner().invoke(app, ["register", "add", str(genuine.parent), "--db", db, "--format", "json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["results"][0]["status"] == "verified", result.output

    # the desk
    engine = open_register(str(tmp_path / "desk.sqlite"))
    try:
        store.create_tables(engine)
        store.add_user(engine, "ana", "analyst", "a long enough password")
        desk = Desk(engine=engine, archive=tmp_path / "archive", roots=load_trust_roots([pki["ca"]]),
                    reproduce=factory.reproduce)
        web = TestClient(create_app(desk), client=("192.0.2.30", 50000))
        csrf = web.post("/api/session", json={"user": "ana", "password": "a long enough password"}).json()["csrf"]
        parts = [("files", (name, (rules.parent / name).read_bytes(), "application/octet-stream"))
                 for name in ("rules.pdf", "manifest.json", "rules.html", "signage.pdf", "math-appendix.pdf")]
        response = web.post("/api/filings", files=parts, headers={"X-CSRF-Token": csrf})
        assert response.status_code == 201, response.text
        body = response.json()
        assert body["verdict"] == "FAILED", body["verdict"]
        [check] = [c for c in body["checks"] if c["name"] == "reproduce"]
        assert check["ok"] is False and "signage.pdf" in check["detail"]
    finally:
        engine.dispose()


def test_the_register_and_the_desk_cannot_be_given_no_renderer(tmp_path, monkeypatch):
    """Full verification is not a default that can be left out: without a renderer they do not start, and the
    commands hand in the build layer's."""
    from rulegen.filing.register import add_filings
    from rulegen.filing.register_store import open_register
    from rulegen.web.desk.app import Desk

    engine = open_register(str(tmp_path / "r.sqlite"))
    try:
        with pytest.raises(TypeError, match="reproduce"):
            add_filings(engine, [tmp_path])  # type: ignore[call-arg]
        with pytest.raises(TypeError, match="reproduce"):
            Desk(engine=engine, archive=tmp_path / "archive")  # type: ignore[call-arg]
    finally:
        engine.dispose()

    import uvicorn

    from rulegen.assemble import reproduce_filing_for_verify

    served = []
    monkeypatch.setattr(uvicorn, "run", lambda application, **options: served.append(application))
    monkeypatch.setattr("rulegen.web.desk.app.create_app", lambda desk: desk)
    result = CliRunner().invoke(app, ["desk", "serve", "--db", str(tmp_path / "d.sqlite"),
                                      "--archive", str(tmp_path / "archive")])
    assert result.exit_code == 0, result.output
    assert [desk.reproduce for desk in served] == [reproduce_filing_for_verify]


# --- killed runs -----------------------------------------------------------------------------------------------------

def _rulegen() -> list[str]:
    exe = Path(sys.executable).parent / "rulegen"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "rulegen"]


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(n) for n in text.split()]


def _wait_for(condition, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {seconds:g} s")
        time.sleep(0.02)


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads a process's children from /proc (Linux)")
def test_a_build_killed_mid_render_leaves_nothing_the_next_build_does_not_clear(tmp_path, math_cache):
    out = tmp_path / "out"
    env = {**os.environ, "TMPDIR": str(tmp_path / "tmp")}
    (tmp_path / "tmp").mkdir()
    build = subprocess.Popen(_rulegen() + ["build", str(DATA / "correct_pa.yaml"), "--out", str(out)], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        # The build forks its renderers once the offering is validated and its math done: it is rendering then.
        _wait_for(lambda: _children(build.pid) or build.poll() is not None, 300, "the rendering")
        assert build.poll() is None, build.stderr.read() if build.stderr else ""
        workers = _children(build.pid)
        build.send_signal(signal.SIGKILL)
        build.wait(timeout=30)
    finally:
        if build.poll() is None:
            build.kill()
            build.wait()
    # its renderers follow it: nothing is left running, however far they were
    _wait_for(lambda: not any(Path(f"/proc/{pid}").exists() and "Z" not in _state(pid) for pid in workers), 60,
              "the end of the killed build's renderers")
    leftovers = sorted(p.name for p in out.iterdir()) if out.exists() else []
    assert all(name.startswith(".") for name in leftovers), leftovers  # never a half-written build folder

    # killed while publishing: a real SIGKILL right after the new folder is written, before it is swapped in
    kill_in_publish = ("import os, signal, sys, rulegen.assemble.publish as p; real = p._locked; calls = [];\n"
                       "def locked(parent):\n"
                       "    calls.append(parent)\n"
                       "    if len(calls) == 2: os.kill(os.getpid(), signal.SIGKILL)\n"
                       "    return real(parent)\n"
                       "p._locked = locked; sys.argv[0] = 'rulegen'; from rulegen.cli import main; main()")
    killed = subprocess.run([sys.executable, "-c", kill_in_publish, "build", str(DATA / "correct_pa.yaml"), "--out",
                             str(out)], env=env, capture_output=True, timeout=600)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    staged = [p.name for p in out.iterdir() if ".new-" in p.name]
    assert staged, sorted(p.name for p in out.iterdir())  # the half-published build, left by the kill

    again = subprocess.run(_rulegen() + ["build", str(DATA / "correct_pa.yaml"), "--out", str(out)], env=env,
                           capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    [folder] = list(out.iterdir())
    assert not folder.name.startswith(".") and (folder / "rules.pdf").is_file()
    assert list((tmp_path / "tmp").iterdir()) == []


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "gone"


def test_a_verification_killed_while_it_builds_again_leaves_nothing_the_next_command_does_not_clear(pki, tmp_path,
                                                                                                  math_cache):
    """Verification writes the signed offering to a scratch folder to build it again; SIGKILL there leaves the
    folder, and the next run of any command removes it (a running verification's folder is left alone)."""
    rules = factory.build(tmp_path / "filing", pki)
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {**os.environ, "TMPDIR": str(scratch), "RULEGEN_TRUST": str(pki["trust_folder"])}
    verify = subprocess.Popen(_rulegen() + ["verify", str(rules)], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        # killed once the reproduction has written the signed offering into its folder (the folder alone is made a
        # moment before: a kill in between leaves an empty folder, which the next command clears just the same)
        _wait_for(lambda: any((p / "offering.yaml").is_file() for p in scratch.rglob("rulegen-reproduce-*"))
                  or verify.poll() is not None, 300, "the reproduction")
        assert verify.poll() is None
        verify.send_signal(signal.SIGKILL)
        verify.wait(timeout=30)
    finally:
        if verify.poll() is None:
            verify.kill()
            verify.wait()
    [left] = [p for p in scratch.rglob("rulegen-reproduce-*")]
    assert (left / "offering.yaml").is_file()  # the signed offering, as the killed run wrote it

    # a running process's scratch folder, and another program's, are left alone
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        (scratch / f"rulegen-reproduce-{live.pid}-abc123").mkdir()
        (scratch / "rulegen-notes").mkdir()
        result = subprocess.run(_rulegen() + ["schema", "--path"], env=env, capture_output=True, timeout=120)
        assert result.returncode == 0, result.stderr
        assert sorted(p.name for p in scratch.iterdir()) == sorted([f"rulegen-reproduce-{live.pid}-abc123",
                                                                    "rulegen-notes"])
    finally:
        live.kill()
        live.wait()


def test_a_new_line_or_escape_in_a_signed_offerings_names_cannot_forge_a_line_of_output(pki, tmp_path, monkeypatch):
    """The operator's name and the offering id are read from the signed offering and printed: a new line, a carriage
    return or an ANSI escape in them is shown escaped, on the filing's own line."""
    forged = "Test Casino\\nFORGED: VERIFIED: signed by the regulator\\r\\e[2K"
    text = factory.OFFERING.replace("name: Test Pennsylvania Casino", f'name: "{forged}"')
    rules = factory.build(tmp_path / "names", pki, text=text)
    monkeypatch.setattr("rulegen.assemble.reproduce_filing_for_verify", factory.reproduce)
    db = str(tmp_path / "r.sqlite")
    for arguments in (["verify", str(rules), "--details"], ["register", "add", str(rules), "--db", db],
                      ["register", "list", "--db", db], ["register", "show", "1", "--db", db]):
        result = CliRunner().invoke(app, arguments)
        assert result.exit_code in (0, 1), (arguments, result.output)
        lines = result.output.splitlines()
        assert not any(line.lstrip().startswith("FORGED") for line in lines), (arguments, lines)
        assert "\x1b" not in result.output and "\r" not in result.output, arguments
        assert "FORGED" in result.output and "\\nFORGED" in result.output, (arguments, result.output)


def test_the_render_time_bound_holds_for_a_reproduction_in_a_request_thread(monkeypatch):
    """The desk verifies in a request's thread, where no timer signal reaches: the reproduction is run in a forked
    process there, so a rendering that takes too long is stopped as it is on the command line."""
    import threading

    from rulegen.assemble import reproduce_filing_for_verify
    from rulegen.errors import RenderError

    from functools import partial

    from rulegen.assemble.processes import Batch

    monkeypatch.setenv("RULEGEN_RENDER_SECONDS", "0.001")
    # every document rendered in the reproduction's own thread (the build would fork the sign and the appendix,
    # whose processes are bounded anyway): what is tested is the bound on that thread's renderings
    monkeypatch.setattr("rulegen.assemble.Batch", partial(Batch, fork=False))
    outcome: list[BaseException | object] = []

    def request() -> None:
        try:
            outcome.append(reproduce_filing_for_verify(source=factory.OFFERING.encode(), name="offering.yaml",
                                                       logo=None, options={"final": True}, signer=None))
        except BaseException as exc:  # noqa: BLE001 - the test reads what the thread met
            outcome.append(exc)

    thread = threading.Thread(target=request)
    thread.start()
    thread.join(600)  # only catches a hang
    assert not thread.is_alive()
    [answer] = outcome
    assert isinstance(answer, RenderError) and "took longer than 0.001 s" in answer.message, answer


def test_a_signed_filing_carrying_a_logo_that_would_render_for_ever_fails_at_validation(pki, tmp_path):
    """A filer signs a package whose attached logo is a mask bomb (sixteen million shapes from 3 kB), which
    rendered for minutes before: full verification validates the signed offering before building it, and the
    logo is refused there, in milliseconds, so nothing is rendered."""
    from rulegen.assemble import reproduce_filing_for_verify
    from rulegen.filing import verify_filing
    from tests.test_hostile_inputs import _nested

    bomb = _nested("mask", "mask").encode()
    text = factory.OFFERING.replace("    licence: Certificate holder 1234\n",
                                    "    licence: Certificate holder 1234\n    logo: logo.svg\n")
    with pytest.MonkeyPatch.context() as patch:  # the filer's own tools attach the logo rulegen would refuse
        patch.setattr("rulegen.filing.manifest.logo_of", lambda offering: ("logo.svg", bomb))
        rules = factory.build(tmp_path / "bomb", pki, text=text)
    assert json.loads((rules.parent / "manifest.json").read_bytes())["logo"]["file"] == "logo.svg"
    report = verify_filing(rules, reproduce=reproduce_filing_for_verify)
    assert report.status == "failed" and "VERIFIED" not in report.verdict, report.verdict
    detail = next(c.detail for c in report.checks if c.name == "reproduce")
    assert "does not validate here" in detail and "more than 20,000 elements" in detail, detail


def test_a_reproduction_in_a_request_thread_gives_the_builds_bytes(tmp_path):
    """In a request's thread the documents are rendered in a forked process (the mathematics before the fork, here,
    where its parallel kernels have already run): the files are the build's, byte for byte."""
    import threading

    import rulegen.assemble as pipeline
    from rulegen.assemble import reproduce_filing_for_verify

    built = pipeline.build(DATA / "correct_pa.yaml", pipeline.BuildOptions(out_dir=tmp_path / "out"))
    options = json.loads(built.files["manifest.json"])["options"]
    outcome: list[object] = []

    def request() -> None:
        try:
            outcome.append(reproduce_filing_for_verify(source=(DATA / "correct_pa.yaml").read_bytes(),
                                                       name="correct_pa.yaml", logo=None, options=options,
                                                       signer=None))
        except BaseException as exc:  # noqa: BLE001 - the test reads what the thread met
            outcome.append(exc)

    thread = threading.Thread(target=request)
    thread.start()
    thread.join(600)  # only catches a hang
    [fresh] = outcome
    assert isinstance(fresh, dict), fresh
    assert {name: fresh[name] == built.files[name] for name in built.files} == {name: True for name in built.files}
