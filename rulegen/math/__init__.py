"""The math layer: exact analysis, bonus tables, wheel returns, maximum win, Monte Carlo, and the result cache.

numba caches compiled kernels (`cache=True`) beside the module by default, which fails in a shared install
that the user cannot write to. Unless `NUMBA_CACHE_DIR` is set, the kernels go to the user's cache folder;
when no folder can be written, to a private temporary folder for this run only, said once on stderr.
"""

from __future__ import annotations

import os


def _numba_cache_dir() -> None:
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    import tempfile

    import platformdirs

    candidates = [os.path.join(platformdirs.user_cache_dir("rulegen"), "numba")]
    for folder in candidates:
        try:
            os.makedirs(folder, exist_ok=True)
            handle, probe = tempfile.mkstemp(prefix=".probe-", dir=folder)  # a new file: nothing planted is opened
            os.close(handle)
            os.unlink(probe)
        except OSError:
            continue
        os.environ["NUMBA_CACHE_DIR"] = folder
        return
    import atexit
    import shutil
    import sys

    folder = tempfile.mkdtemp(prefix="rulegen-numba-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    os.environ["NUMBA_CACHE_DIR"] = folder
    print(f"rulegen: note: no writable cache folder ({candidates[0]}); compiled kernels are kept for this run "
          "only, so each run compiles them again (set NUMBA_CACHE_DIR or XDG_CACHE_HOME to a writable folder)",
          file=sys.stderr)


_numba_cache_dir()
