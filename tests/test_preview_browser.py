"""`rulegen preview` in a real browser: Debian's Chromium through Selenium and the system chromedriver (nothing is
downloaded at run time), against the preview served on a free port of 127.0.0.1 and always stopped. The page is
opened, the offering edited and saved, and the page changes by itself, without a reload; a broken save shows its
finding at its line and field; a save that builds again replaces it.

Without Chromium the test is skipped with the reason, unless RULEGEN_REQUIRE_BROWSER=1 (CI sets it), where it fails.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from rulegen.resources import samples_dir
from tests.preview_server import REQUIRE_ENV, browser_paths, chromium, preview_server, save

pytestmark = pytest.mark.pdf  # builds or verifies whole filings: the PDF tier, `pytest -m pdf` (README)

TIMEOUT = 60  # seconds: a refresh takes well under one; the machine may be busy


def _browser() -> tuple[str, str]:
    found = browser_paths()
    if found is None:
        reason = "Chromium or chromedriver is not installed (apt-get install chromium chromium-driver)"
        if os.environ.get(REQUIRE_ENV) == "1":
            pytest.fail(f"{reason}, and {REQUIRE_ENV}=1", pytrace=False)
        pytest.skip(reason)
    return found


def test_the_page_follows_each_save_without_reloading(tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    paths = _browser()
    offering = tmp_path / "offering.yaml"
    original = (samples_dir() / "nj-bonus-spin.yaml").read_text(encoding="utf-8")
    offering.write_text(original, encoding="utf-8")
    with preview_server(offering, tmp_path / "preview.log") as url, chromium(paths, tmp_path / "profile") as driver:
        driver.get(url + "/")
        assert driver.find_element(By.ID, "status").text.startswith("Built")

        def frame_text(frame_id: str) -> str:
            """The frame's text; a frame the page replaces between finding and reading it is found again (the page
            swaps its documents in as each save is built, so a reader can meet the old one going)."""
            from selenium.common.exceptions import NoSuchFrameException, StaleElementReferenceException

            for attempt in range(20):
                try:
                    driver.switch_to.frame(driver.find_element(By.ID, frame_id))
                    try:
                        return driver.find_element(By.TAG_NAME, "body").text
                    finally:
                        driver.switch_to.default_content()
                except (StaleElementReferenceException, NoSuchFrameException):
                    if attempt == 19:
                        raise
                    time.sleep(0.1)
            raise AssertionError("unreachable")

        assert "Boardwalk Regent Casino Hotel" in frame_text("rules-frame")
        driver.execute_script("window.loadedOnce = 'this page, never reloaded';")

        # A change of words: the rules document and the sign show the new name, in the same page.
        save(offering, original.replace("Boardwalk Regent Casino Hotel", "Seaside Regent Casino"))
        WebDriverWait(driver, TIMEOUT).until(lambda d: "Seaside Regent Casino" in frame_text("rules-frame"))
        WebDriverWait(driver, TIMEOUT).until(lambda d: "Seaside Regent Casino" in frame_text("sign-frame"))
        assert "Boardwalk Regent" not in frame_text("rules-frame")
        assert driver.execute_script("return window.loadedOnce") == "this page, never reloaded"

        # A broken save: its finding at its line and field; the last documents stay, marked as such.
        broken = original.replace("ante: {minimum: 10, maximum: 500}", "ante: {minimum: 10, maximum: lots}")
        line = next(n for n, text in enumerate(broken.splitlines(), start=1) if "maximum: lots" in text)
        save(offering, broken)
        WebDriverWait(driver, TIMEOUT).until(lambda d: d.find_element(By.ID, "status").text.startswith("Not built"))
        rows = driver.find_elements(By.CSS_SELECTOR, "#findings tr.finding.error")
        assert rows, driver.find_element(By.ID, "findings").text
        assert any(row.get_attribute("data-line") == str(line) and row.get_attribute("data-field") ==
                   "limits.ante.maximum" for row in rows), [row.text for row in rows]
        assert "maximum: lots" in driver.find_element(By.ID, "findings").text  # the line itself is quoted
        assert driver.find_element(By.ID, "stale").is_displayed()
        assert driver.execute_script("return window.loadedOnce") == "this page, never reloaded"

        # Not YAML at all: the server lives on and says where.
        save(offering, original + "\nlimits: [\n")
        WebDriverWait(driver, TIMEOUT).until(lambda d: "YAML" in d.find_element(By.ID, "findings").text)
        shown = driver.find_element(By.ID, "findings").text  # with the hint `rulegen validate` gives
        assert "the file ends inside the [ opened at line" in shown and "end it with ]" in shown, shown

        # Mended: built again, no finding left of the broken saves.
        save(offering, original)
        WebDriverWait(driver, TIMEOUT).until(lambda d: d.find_element(By.ID, "status").text.startswith("Built"))
        assert "Boardwalk Regent Casino Hotel" in frame_text("rules-frame")
        assert not driver.find_elements(By.CSS_SELECTOR, "#findings tr.finding.error")
        assert driver.execute_script("return window.loadedOnce") == "this page, never reloaded"
        logs = driver.get_log("browser") if hasattr(driver, "get_log") else []
        assert not [entry for entry in logs if entry.get("level") == "SEVERE"], logs  # no CSP refusal, no error
    assert "Traceback" not in Path(tmp_path / "preview.log").read_text()
