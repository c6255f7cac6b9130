"""A disk cache for math results, keyed by a hash of the paytables and the code version.

Folder: `RULEGEN_CACHE_DIR` when set, else platformdirs' user cache dir. Each entry is one JSON file holding
the payload and its SHA-256; it is written to a temporary file and moved into place with os.replace, so a
reader sees a whole entry or none. An entry that does not parse or whose checksum fails is ignored (and
recomputed by the caller), never trusted. An entry is read as every input file is (`safeio.read_regular`: opened
once without blocking, never through a link, a regular file of at most `MAX_ENTRY_BYTES`): a FIFO, a device,
a link or an oversized file planted in the folder is a miss, never a hang; the next store replaces it.

The cache is a speed-up, never a source of truth: anyone who can write the folder can write an entry and its
checksum. Inside `fresh()` nothing is read from it (and every in-process memo that may hold a value read from
it is forgotten first), so final builds and `verify --rebuild` print only figures computed in that run.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from rulegen import __version__
from rulegen.safeio import UnsafeFile, read_regular

MAX_ENTRY_BYTES = 16 * 1024 * 1024  # the largest entry (a main game's analysis) is under 100 kB


_fresh_depth = 0
_memos: list = []


def memoised(function):
    """`functools.cache`, forgotten on entering `fresh()` (for functions whose value may come from the disk)."""
    import functools

    cached = functools.cache(function)
    _memos.append(cached)
    return cached


@contextlib.contextmanager
def fresh() -> Iterator[None]:
    """Within: every figure is computed, none read from the disk cache (entries may still be written)."""
    global _fresh_depth
    if _fresh_depth == 0:
        for memo in _memos:
            memo.cache_clear()
    _fresh_depth += 1
    try:
        yield
    finally:
        _fresh_depth -= 1


def reading() -> bool:
    """True when entries may be read (outside `fresh()`)."""
    return _fresh_depth == 0


def cache_dir() -> Path:
    configured = os.environ.get("RULEGEN_CACHE_DIR")
    if configured:
        return Path(configured)
    import platformdirs

    return Path(platformdirs.user_cache_dir("rulegen"))


def key(*parts) -> str:
    text = json.dumps([__version__, *parts], sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _path(entry_key: str) -> Path:
    return cache_dir() / f"{entry_key}.json"


def _payload_text(payload) -> str:
    return json.dumps(payload, sort_keys=True, separators=(",", ":"))


def load(entry_key: str):
    if _fresh_depth:
        return None
    try:
        document = json.loads(read_regular(_path(entry_key), MAX_ENTRY_BYTES).decode("utf-8"))
        text = _payload_text(document["payload"])
        if document.get("key") != entry_key or document.get("sha256") != hashlib.sha256(text.encode()).hexdigest():
            return None
        return document["payload"]
    except (UnsafeFile, OSError, ValueError, KeyError, TypeError):  # UnicodeDecodeError is a ValueError
        return None


def store(entry_key: str, payload) -> bool:
    """Write an entry atomically; a cache that cannot be written is skipped (False), never an error."""
    text = _payload_text(payload)
    document = {"key": entry_key, "sha256": hashlib.sha256(text.encode()).hexdigest(), "payload": payload}
    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=folder)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                # the payload's own order is kept (a mapping's order can be what a document prints); the checksum
                # is over the sorted text, so it does not depend on that order
                json.dump(document, out, separators=(",", ":"))
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, _path(entry_key))
        except BaseException:
            try:
                os.unlink(temporary)
            except OSError:
                pass
            raise
        return True
    except OSError:
        return False
