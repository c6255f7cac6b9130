"""Benchmark: `rulegen preview`, the time from a save to the refreshed page, in a real browser.

Run: .venv/bin/python tests/benchmarks/bench_preview.py [--runs N] [--paytable-runs M]

The preview of the HOUSE sample is opened in headless Chromium (as tests/test_preview_browser.py does). A save is
the file written and renamed over the old one, as editors save; the page is refreshed when the new content has
loaded in the rules document's frame (the page records that moment itself, in body's data-shown-at, on the same
wall clock as the save). Two kinds of save are timed, each median reported:

- a change of words (the operator's name): validation and the HTML only, the math read from memory;
- a change of paytable: the Six Card Bonus and its paytable added to the offering, in a preview started without it
  (a fresh process, so the bonus's table, its return and the maximum win counting it are computed in that save,
  from the class counts the math cache holds; the main game's analysis is read from the cache). Each jurisdiction
  authorizes one main-game paytable, so no valid save changes the main game's. One preview is started for each
  such save.

On a shared machine the times depend on the load (printed beside them).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from rulegen.resources import samples_dir  # noqa: E402
from tests.preview_server import browser_paths, chromium, preview_server, save  # noqa: E402

NAME = "Lucky Lantern Card Room"
BONUS = ("six_card_bonus:\n  paytable: {royal_flush: 1000, straight_flush: 200, four_of_a_kind: 50, full_house: 20, "
         "flush: 15, straight: 10, three_of_a_kind: 5}\n\n")


def refreshed(driver, expected: str, timeout: float) -> float:
    """The page's wall-clock time (ms) at which the rules document holding `expected` finished loading."""
    # Checked in the page every 5 ms (the browser waits, not this process, which would load the machine).
    script = ("const expected = arguments[0], done = arguments[arguments.length - 1];"
              "const check = () => { const b = document.body, f = document.getElementById('rules-frame');"
              "const text = f && f.contentDocument && f.contentDocument.body ? f.contentDocument.body.innerText : '';"
              "if (b.dataset.shown === b.dataset.generation && text.includes(expected)) {"
              "clearInterval(timer); done(Number(b.dataset.shownAt)); } };"
              "const timer = setInterval(check, 5);")
    driver.set_script_timeout(timeout)
    return float(driver.execute_async_script(script, expected))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="saves of words timed (default 9)")
    parser.add_argument("--paytable-runs", type=int, default=2, help="saves of a new paytable timed (default 2)")
    arguments = parser.parse_args()
    paths = browser_paths()
    if paths is None:
        print("Chromium and chromedriver are needed (apt-get install chromium chromium-driver)", file=sys.stderr)
        return 2
    original = (samples_dir() / "house-six-card-bonus.yaml").read_text(encoding="utf-8")
    assert NAME in original and BONUS in original
    words: list[float] = []
    tables: list[float] = []
    with tempfile.TemporaryDirectory(prefix="rulegen-bench-preview-") as folder:
        root = Path(folder)
        offering = root / "offering.yaml"
        offering.write_text(original, encoding="utf-8")
        with preview_server(offering, root / "preview.log", startup_seconds=900) as url, \
                chromium(paths, root / "profile") as driver:
            driver.get(url + "/")
            refreshed(driver, NAME, 60)
            for run in range(arguments.runs):
                name = f"{NAME} {run + 1}"
                saved = save(offering, original.replace(NAME, name))
                words.append((refreshed(driver, name, 60) - saved) / 1000)
                time.sleep(0.3)
        for run in range(arguments.paytable_runs):
            offering.write_text(original.replace(BONUS, ""), encoding="utf-8")
            with preview_server(offering, root / f"preview-{run}.log", startup_seconds=900) as url, \
                    chromium(paths, root / f"profile-{run}") as driver:
                driver.get(url + "/")
                refreshed(driver, NAME, 60)
                saved = save(offering, original)
                tables.append((refreshed(driver, "1,000 to 1", 900) - saved) / 1000)
    load = os.getloadavg()
    print(f"save to refreshed page, change of words:    median {statistics.median(words):.3f} s "
          f"(min {min(words):.3f}, max {max(words):.3f}, {len(words)} saves)")
    print(f"save to refreshed page, change of paytable: median {statistics.median(tables):.3f} s "
          f"(min {min(tables):.3f}, max {max(tables):.3f}, {len(tables)} saves, the bonus's math computed in each)")
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
