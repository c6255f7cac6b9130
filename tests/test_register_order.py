"""Several filings added in one call are each verified on their own: the order they come in changes no verdict."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_register import FACTORY_RULEGEN, _trusted, corpus, pki  # noqa: F401 (fixtures)

pytestmark = pytest.mark.pdf  # builds or verifies whole filings: the PDF tier, `pytest -m pdf` (README)


def test_a_filing_verifies_after_another_in_the_same_process(corpus, tmp_path):  # noqa: F811
    db = str(tmp_path / "register.sqlite")
    root = Path(__file__).resolve().parent.parent
    command = [sys.executable, "-c", FACTORY_RULEGEN, "register", "add", "--db", db, "--format", "json",
               str(corpus["a1"]), str(corpus["c1"])]
    done = subprocess.run(command, env=dict(os.environ), cwd=root, capture_output=True, text=True, timeout=300)
    results = json.loads(done.stdout)["results"]
    assert [r["status"] for r in results] == ["verified", "verified"], done.stdout
