"""The regulator's desk in a real browser: Debian's Chromium, driven by Selenium through the system chromedriver
(nothing is downloaded at run time), against `rulegen desk serve` started on a free port of 127.0.0.1 and always
stopped. A supervisor logs in, uploads a signed filing, sees its verdict, and decides it, with no JavaScript of
the desk's own (the pages are plain forms).

Without Chromium the test is skipped with the reason, unless RULEGEN_REQUIRE_BROWSER=1 (CI sets it), where it fails.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulegen.cli import app
from tests import filing_factory as factory

REQUIRE_ENV = "RULEGEN_REQUIRE_BROWSER"
PASSWORD = "a long enough password"
ROOT = Path(__file__).resolve().parent.parent
# `rulegen desk serve`, with the factory's product standing in for the pipeline's renderer (as in the register tests).
SERVE = ("import sys, rulegen.assemble, tests.filing_factory as f; "
         "rulegen.assemble.reproduce_filing_for_verify = f.reproduce; "
         "sys.argv[0] = 'rulegen'; from rulegen.cli import main; main()")


def _browser() -> tuple[str, str]:
    found = (shutil.which("chromium") or shutil.which("chromium-browser"), shutil.which("chromedriver"))
    if None in found:
        reason = "Chromium or chromedriver is not installed (apt-get install chromium chromium-driver)"
        if os.environ.get(REQUIRE_ENV) == "1":
            pytest.fail(f"{reason}, and {REQUIRE_ENV}=1", pytrace=False)
        pytest.skip(reason)
    return found  # type: ignore[return-value]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def server(tmp_path, monkeypatch):
    """The desk served by a child process in its own process group, killed whole at the end whatever happens."""
    browser = _browser()  # skips (or fails under RULEGEN_REQUIRE_BROWSER=1) before anything is started
    (tmp_path / "pki").mkdir()
    (tmp_path / "trusted").mkdir()
    pki = factory.make_trusted_pki(tmp_path / "pki", tmp_path / "trusted")
    db = str(tmp_path / "desk.sqlite")
    monkeypatch.setenv("RULEGEN_DESK_PASSWORD", PASSWORD)
    runner = CliRunner()
    for arguments in (["desk", "init", "--db", db],
                      ["desk", "user", "add", "sam", "--role", "supervisor", "--db", db]):
        result = runner.invoke(app, arguments)
        assert result.exit_code == 0, result.output
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-c", SERVE, "desk", "serve", "--db", db, "--archive", str(tmp_path / "archive"),
         "--port", str(port), "--trust", str(pki["ca"])],
        cwd=ROOT, env={k: v for k, v in os.environ.items() if k != "RULEGEN_TRUST"}, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=open(tmp_path / "server.log", "wb"))
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(url + "/healthz", timeout=2):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail("the desk did not start: " + (tmp_path / "server.log").read_text()[-2000:])
                time.sleep(0.2)
        yield url, factory.build(tmp_path / "filing", pki).parent, browser
    finally:
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=15)
        except ProcessLookupError:
            pass
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=15)


def test_a_supervisor_logs_in_uploads_sees_the_verdict_and_decides(server, tmp_path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    url, filing, (chromium, chromedriver) = server
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     f"--user-data-dir={tmp_path / 'chromium-profile'}"):
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=Service(executable_path=chromedriver))
    try:
        driver.get(url + "/")
        assert driver.current_url.endswith("/login")
        driver.find_element(By.ID, "user").send_keys("sam")
        driver.find_element(By.ID, "password").send_keys(PASSWORD)
        driver.find_element(By.ID, "login").click()
        WebDriverWait(driver, 20).until(expected_conditions.presence_of_element_located((By.ID, "files")))

        names = ("rules.pdf", "manifest.json", "rules.html", "signage.pdf", "math-appendix.pdf")
        driver.find_element(By.ID, "files").send_keys("\n".join(str(filing / name) for name in names))
        driver.find_element(By.ID, "upload").click()
        verdict = WebDriverWait(driver, 180).until(expected_conditions.presence_of_element_located((By.ID, "verdict")))
        assert verdict.text == "VERIFIED"
        assert driver.find_element(By.ID, "status").text == "received"
        assert "Every byte was built again here from the signed offering" in driver.find_element(By.ID, "checks").text

        driver.find_element(By.ID, "accept").click()
        driver.find_element(By.ID, "decision-note").send_keys("Approved as filed.")
        driver.find_element(By.ID, "decide").click()
        WebDriverWait(driver, 20).until(expected_conditions.text_to_be_present_in_element((By.ID, "status"),
                                                                                          "accepted"))
        history = driver.find_element(By.ID, "events").text
        assert "uploaded" in history and "accepted" in history and "Approved as filed." in history
        cookie = driver.get_cookie("rulegen_desk")
        assert cookie is not None and cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    finally:
        driver.quit()
