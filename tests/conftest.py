"""Fixtures shared by the test modules."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture(scope="session", autouse=True)
def math_cache(tmp_path_factory):
    """One math cache folder for the whole session, used by every test (autouse), so each paytable's exact
    analysis runs once per run (the parallel workers share it: an entry is written to a temporary file and
    moved into place, so a worker reads a whole entry or none); a test about the cache itself points RULEGEN_CACHE_DIR elsewhere.

    RULEGEN_TEST_CACHE_DIR names a folder to keep between runs while developing; CI leaves it unset, so each
    CI run computes every analysis once from nothing.
    """
    kept = os.environ.get("RULEGEN_TEST_CACHE_DIR")
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the run's own folder, above each worker's: the workers share one cache
    folder = Path(kept) if kept else base / "rulegen-math-cache"
    folder.mkdir(parents=True, exist_ok=True)
    previous = os.environ.get("RULEGEN_CACHE_DIR")
    os.environ["RULEGEN_CACHE_DIR"] = str(folder)
    yield folder
    if previous is None:
        os.environ.pop("RULEGEN_CACHE_DIR", None)
    else:
        os.environ["RULEGEN_CACHE_DIR"] = previous
