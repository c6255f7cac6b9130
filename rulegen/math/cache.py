"""A disk cache for math results, keyed by a hash of the paytables and the code version.

Folder: `RULEGEN_CACHE_DIR` when set, else platformdirs' user cache dir. Each entry is one JSON file holding
the payload and its SHA-256; it is written to a temporary file and moved into place with os.replace, so a
reader sees a whole entry or none. An entry that does not parse or whose checksum fails is ignored (and
recomputed by the caller), never trusted.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

from rulegen import __version__


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
    try:
        document = json.loads(_path(entry_key).read_text(encoding="utf-8"))
        text = _payload_text(document["payload"])
        if document.get("key") != entry_key or document.get("sha256") != hashlib.sha256(text.encode()).hexdigest():
            return None
        return document["payload"]
    except (OSError, ValueError, KeyError, TypeError):
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
                json.dump(document, out, sort_keys=True, separators=(",", ":"))
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
