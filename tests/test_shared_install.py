"""A shared install: the compiled kernels go to the user's cache folder, or a private one when none is writable."""

from __future__ import annotations

import os
import subprocess
import sys


def _run(env: dict) -> subprocess.CompletedProcess:
    code = "import os, rulegen.math; print(os.environ['NUMBA_CACHE_DIR'])"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)


def test_kernels_are_cached_in_the_users_cache_folder(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    result = _run(env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(tmp_path / "cache" / "rulegen" / "numba")
    assert result.stderr == ""


def test_no_writable_cache_folder_is_said_once_and_the_run_goes_on(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "rulegen").write_text("a file where the folder would be")  # cannot be made a folder, even by root
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(locked)
    result = _run(env)
    assert result.returncode == 0, result.stderr
    assert "rulegen-numba-" in result.stdout
    assert result.stderr.count("no writable cache folder") == 1
