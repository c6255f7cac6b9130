"""Make docs/desk-queue.png, the README's picture of the desk's queue: a desk served on 127.0.0.1 (stopped at the
end whatever happens), a few signed test filings uploaded through the JSON API (revisions of one offering, one
signed under an authority the desk does not trust, one whose manifest claims another revision), one accepted and
one taken for review, then the queue page as headless Chromium draws it.

    .venv/bin/python docs/desk_screenshot.py [OUT.png]
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from typer.testing import CliRunner  # noqa: E402

from rulegen.cli import app  # noqa: E402
from tests import filing_factory as factory  # noqa: E402
from tests.test_desk_browser import PASSWORD, SERVE, _free_port, chromium, log_in  # noqa: E402

FILES = ("rules.pdf", "manifest.json", "rules.html", "signage.pdf", "math-appendix.pdf")


def filings(folder: Path, pki: dict) -> list[Path]:
    other = factory.make_pki(folder / "other-pki")

    def claim_revision_9(manifest):
        manifest["offering"]["version"] = 9

    harbor = factory.OFFERING.replace("filing-test-pa", "harbor-point-ccp").replace(
        "Test Pennsylvania Casino", "Harbor Point Casino")
    return [
        factory.build(folder / "a", pki).parent,
        factory.build(folder / "b", pki, text=factory.OFFERING.replace("version: 3", "version: 4")).parent,
        factory.build(folder / "c", other, text=harbor).parent,
        factory.build(folder / "d", pki, edit=claim_revision_9,
                      text=factory.OFFERING.replace("filing-test-pa", "riverside-ccp")).parent,
        factory.build(folder / "e", pki, text=factory.OFFERING.replace("filing-test-pa", "lakeside-ccp")).parent,
    ]


def main(out: Path) -> None:
    import httpx

    from tests.test_desk_browser import _browser

    with tempfile.TemporaryDirectory(prefix="desk-screenshot-") as scratch:
        tmp = Path(scratch)
        for name in ("pki", "trusted", "other-pki"):
            (tmp / name).mkdir()
        pki = factory.make_trusted_pki(tmp / "pki", tmp / "trusted")
        made = filings(tmp, pki)
        db = str(tmp / "desk.sqlite")
        os.environ["RULEGEN_DESK_PASSWORD"] = PASSWORD
        for arguments in (["desk", "init", "--db", db], ["desk", "user", "add", "ana", "--role", "analyst", "--db", db],
                          ["desk", "user", "add", "sam", "--role", "supervisor", "--db", db]):
            result = CliRunner().invoke(app, arguments)
            assert result.exit_code == 0, result.output
        port = _free_port()
        server = subprocess.Popen(
            [sys.executable, "-c", SERVE, "desk", "serve", "--db", db, "--archive", str(tmp / "archive"),
             "--port", str(port), "--trust", str(pki["ca"])], cwd=ROOT, start_new_session=True,
            env={k: v for k, v in os.environ.items() if k != "RULEGEN_TRUST"})
        try:
            url = f"http://127.0.0.1:{port}"
            for _ in range(300):
                try:
                    httpx.get(url + "/healthz")
                    break
                except httpx.TransportError:
                    time.sleep(0.2)
            web = httpx.Client(base_url=url, timeout=300)
            csrf = web.post("/api/session", json={"user": "sam", "password": PASSWORD}).json()["csrf"]
            ids = []
            for folder in made:
                parts = [("files", (name, (folder / name).read_bytes(), "application/octet-stream")) for name in FILES]
                ids.append(web.post("/api/filings", files=parts, headers={"X-CSRF-Token": csrf}).json()["id"])
                if len(ids) == 1:  # revision 3 accepted before revision 4 arrives
                    web.post(f"/api/filings/{ids[0]}/decision", json={"decision": "accepted", "note": "As filed."},
                             headers={"X-CSRF-Token": csrf})
            web.post(f"/api/filings/{ids[1]}/assign", headers={"X-CSRF-Token": csrf})
            driver = chromium(tmp, _browser())
            try:
                driver.set_window_size(1280, 800)
                log_in(driver, url, "sam")
                driver.save_screenshot(str(out))
            finally:
                driver.quit()
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=15)
    print(f"wrote {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "desk-queue.png")
