"""`rulegen preview` started as a child process on a free port of 127.0.0.1, in its own process group, stopped
whole at the end whatever happens; and a headless Chromium (Debian's, through the system chromedriver) to open
it. Shared by the preview's browser test and its benchmark."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

REQUIRE_ENV = "RULEGEN_REQUIRE_BROWSER"


def browser_paths() -> tuple[str, str] | None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    return (chromium, driver) if chromium and driver else None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def preview_server(offering: Path, log: Path, *, startup_seconds: float = 120,
                   env: dict[str, str] | None = None) -> Iterator[str]:
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "rulegen", "preview", str(offering), "--port", str(port)],
                               start_new_session=True, stdout=subprocess.DEVNULL, stderr=open(log, "wb"),
                               env={**os.environ, **(env or {})})
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + startup_seconds
        while True:
            try:
                with urllib.request.urlopen(url + "/healthz", timeout=2):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the preview did not start: " + log.read_text()[-2000:]) from None
                time.sleep(0.2)
        yield url
    finally:
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=15)
        except ProcessLookupError:
            pass
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=15)


@contextlib.contextmanager
def chromium(paths: tuple[str, str], profile: Path) -> Iterator[object]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = paths[0]
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     f"--user-data-dir={profile}"):
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=Service(executable_path=paths[1]))
    try:
        yield driver
    finally:
        driver.quit()


def save(path: Path, text: str) -> float:
    """Save as an editor does (a new file renamed over the old one); the wall-clock time of the save, in ms."""
    temporary = path.with_name(path.name + ".saving")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)
    return time.time() * 1000
