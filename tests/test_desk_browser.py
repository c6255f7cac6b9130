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

pytestmark = pytest.mark.pdf  # builds or verifies whole filings: the PDF tier, `pytest -m pdf` (README)

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
                      ["desk", "user", "add", "sam", "--role", "supervisor", "--db", db],
                      ["desk", "user", "add", "ada", "--role", "admin", "--db", db]):
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


def chromium(tmp_path: Path, browser: tuple[str, str], profile: str = "chromium-profile",
             downloads: Path | None = None):
    """Headless Debian Chromium under Selenium; files it downloads go to `downloads`."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    binary, chromedriver = browser
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     f"--user-data-dir={tmp_path / profile}", "--window-size=1280,900"):
        options.add_argument(argument)
    if downloads is not None:
        options.add_experimental_option("prefs", {"download.default_directory": str(downloads),
                                                  "download.prompt_for_download": False,
                                                  "plugins.always_open_pdf_externally": True})
    return webdriver.Chrome(options=options, service=Service(executable_path=chromedriver))


def log_in(driver, url: str, user: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(url + "/")
    assert driver.current_url.endswith("/login")
    driver.find_element(By.ID, "user").send_keys(user)
    driver.find_element(By.ID, "password").send_keys(PASSWORD)
    driver.find_element(By.ID, "login").click()
    WebDriverWait(driver, 20).until(expected_conditions.presence_of_element_located((By.ID, "files")))


FILING_FILES = ("rules.pdf", "manifest.json", "rules.html", "signage.pdf", "math-appendix.pdf")


def upload_in(driver, filing: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    driver.find_element(By.ID, "files").send_keys("\n".join(str(filing / name) for name in FILING_FILES))
    driver.find_element(By.ID, "upload").click()
    WebDriverWait(driver, 180).until(expected_conditions.presence_of_element_located((By.ID, "verdict")))


def test_a_supervisor_logs_in_uploads_sees_the_verdict_and_decides(server, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    url, filing, browser = server
    driver = chromium(tmp_path, browser)
    try:
        log_in(driver, url, "sam")

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
        WebDriverWait(driver, 60).until(expected_conditions.text_to_be_present_in_element((By.ID, "status"),
                                                                                          "accepted"))
        history = driver.find_element(By.ID, "events").text
        assert "uploaded" in history and "accepted" in history and "Approved as filed." in history
        cookie = driver.get_cookie("rulegen_desk")
        assert cookie is not None and cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    finally:
        driver.quit()


def test_a_return_writes_the_letter_the_supervisor_downloads_and_verify_again_is_a_button(server, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    url, filing, browser = server
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    driver = chromium(tmp_path, browser, downloads=downloads)
    try:
        log_in(driver, url, "sam")
        upload_in(driver, filing)
        assert driver.find_element(By.ID, "verdict").text == "VERIFIED"
        filing_page = driver.current_url

        driver.find_element(By.ID, "reverify").click()
        again = WebDriverWait(driver, 180).until(
            expected_conditions.presence_of_element_located((By.ID, "reverify-verdict")))
        assert again.text == "VERIFIED"
        assert "Every byte was built again here" in driver.find_element(By.ID, "reverify-checks").text
        assert "reverified" in driver.find_element(By.ID, "events").text

        driver.find_element(By.ID, "return").click()
        driver.find_element(By.ID, "decision-note").send_keys("The table sign shows the wrong antes.")
        driver.find_element(By.ID, "decide").click()
        WebDriverWait(driver, 60).until(expected_conditions.text_to_be_present_in_element((By.ID, "status"),
                                                                                          "returned"))
        assert driver.current_url.split("#")[0] == filing_page
        link = driver.find_element(By.CSS_SELECTOR, "#letters a")
        name = link.text
        assert name.startswith("letter-") and name.endswith("-returned.pdf")
        assert "letter" in driver.find_element(By.ID, "events").text
        link.click()
        target = downloads / name
        deadline = time.monotonic() + 60
        while not target.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert target.exists(), sorted(p.name for p in downloads.iterdir())
        assert target.read_bytes().startswith(b"%PDF-")
    finally:
        driver.quit()


def test_an_admin_adds_an_analyst_who_is_refused_what_is_not_theirs(server, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    url, filing, browser = server
    admin = chromium(tmp_path, browser, "admin-profile")
    try:
        log_in(admin, url, "ada")
        admin.find_element(By.ID, "users-link").click()
        WebDriverWait(admin, 20).until(expected_conditions.presence_of_element_located((By.ID, "add-user")))
        admin.find_element(By.ID, "new-name").send_keys("nia")
        admin.find_element(By.CSS_SELECTOR, "#new-role option[value='analyst']").click()
        admin.find_element(By.ID, "new-password").send_keys(PASSWORD)
        admin.find_element(By.ID, "new-password-again").send_keys(PASSWORD)
        admin.find_element(By.ID, "add-user").click()
        WebDriverWait(admin, 20).until(expected_conditions.text_to_be_present_in_element((By.ID, "users"), "nia"))
        assert "nia analyst active" in admin.find_element(By.ID, "users").text
        assert "user-added" in admin.find_element(By.ID, "user-events").text
    finally:
        admin.quit()

    analyst = chromium(tmp_path, browser, "analyst-profile")
    try:
        log_in(analyst, url, "nia")
        assert not analyst.find_elements(By.ID, "users-link")
        analyst.get(url + "/users")
        assert "only an admin manages the desk's users" in analyst.find_element(By.ID, "message").text
        analyst.get(url + "/")
        upload_in(analyst, filing)
        assert analyst.find_element(By.ID, "verdict").text == "VERIFIED"
        assert not analyst.find_elements(By.ID, "decide")  # no decision for an analyst
        assert analyst.find_elements(By.ID, "reverify")  # but verifying again is anyone's
    finally:
        analyst.quit()


def test_the_queue_is_paged_and_a_filter_holds_from_page_to_page(server, tmp_path):
    """With 130 filings recorded, the queue shows 50, then the next 50 by its link; a jurisdiction and a search
    chosen in the form hold on the pages that follow, and the way back leads to the page before."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    from rulegen.filing.register_store import open_register
    from tests import desk_seed

    url, _filing, browser = server
    engine = open_register(str(tmp_path / "desk.sqlite"))  # the served desk's database, written beside it
    try:
        rows = desk_seed.seed(engine, 130)
    finally:
        engine.dispose()

    def shown(driver) -> list[int]:
        return [int(a.text) for a in driver.find_elements(By.CSS_SELECTOR, "#queue tbody td:first-child a")]

    driver = chromium(tmp_path, browser)
    try:
        log_in(driver, url, "sam")
        assert shown(driver) == list(range(130, 80, -1))
        assert driver.find_element(By.ID, "pager-top").text.startswith("Filings 1–50 of 130, newest first.")
        driver.find_element(By.CSS_SELECTOR, "#pager-bottom a.older").click()
        WebDriverWait(driver, 20).until(expected_conditions.text_to_be_present_in_element(
            (By.ID, "pager-top"), "Filings 51–100 of 130"))
        assert shown(driver) == list(range(80, 30, -1))

        driver.find_element(By.CSS_SELECTOR, "select[name=jurisdiction] option[value='NJ']").click()
        driver.find_element(By.CSS_SELECTOR, "input[name=q]").send_keys("operator 2")
        driver.find_element(By.ID, "filter").click()
        wanted = [n + 1 for n, row in enumerate(rows) if row["jurisdiction"] == "NJ"
                  and row["operator"].startswith("Operator 2 ")][::-1]
        WebDriverWait(driver, 20).until(expected_conditions.text_to_be_present_in_element(
            (By.ID, "pager-top"), f"of {len(wanted)}, newest first"))
        assert shown(driver) == wanted  # the filter starts again from the newest
        assert "before=" not in driver.current_url

        driver.get(url + "/?jurisdiction=NJ&q=operator+2&limit=2")
        driver.find_element(By.CSS_SELECTOR, "#pager-top a.older").click()
        WebDriverWait(driver, 20).until(expected_conditions.text_to_be_present_in_element(
            (By.ID, "pager-top"), f"Filings 3–4 of {len(wanted)}"))
        assert shown(driver) == wanted[2:4]
        assert driver.find_element(By.CSS_SELECTOR, "input[name=q]").get_attribute("value") == "operator 2"
        driver.find_element(By.CSS_SELECTOR, "#pager-top a.newer").click()
        WebDriverWait(driver, 20).until(expected_conditions.text_to_be_present_in_element(
            (By.ID, "pager-top"), f"Filings 1–2 of {len(wanted)}"))
        assert shown(driver) == wanted[:2]
    finally:
        driver.quit()
