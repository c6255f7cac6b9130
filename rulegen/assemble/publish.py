"""Build layer: publishing outputs atomically: a reader sees the previous build or the new one, never half of one.

A build folder is written in full into a temporary sibling (`.<id>.new-<pid>`), then swapped in: the old
folder is renamed aside (`.<id>.old-<pid>`), the new one renamed into place, the old one removed. A rename
cannot replace a non-empty folder, hence the three steps. A run killed part-way leaves only hidden
siblings behind, which the next run removes before it starts: those whose process is gone, or whose process
number now belongs to a process that started after they were made (a number reused, as in a container whose
runs all get the same few numbers). A single file is written to a temporary
sibling and renamed over its target.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

from rulegen.errors import OutputError
from rulegen.scratch import alive, process_start, started_after

_TEMPORARY = re.compile(r"^\.(?P<name>.+)\.(?:new|old)-(?P<pid>\d+)(?:-[A-Za-z0-9_]+)?$")


def _describe(exc: OSError) -> str:
    return exc.strerror or str(exc)


def clean_stale(parent: Path, name: str) -> list[Path]:
    """Remove the temporaries a killed run left beside `parent/name` (only ours, only for this name).

    A run killed between moving the previous build aside and moving the new one in leaves the previous
    build as `.<name>.old-<pid>` and no `<name>`: that folder is put back, not removed.
    """
    removed: list[Path] = []
    if not parent.is_dir():
        return removed
    target = parent / name
    for entry in sorted(parent.iterdir()):
        match = _TEMPORARY.match(entry.name)
        if match is None or match["name"] != name:
            continue
        pid = int(match["pid"])
        if pid != os.getpid() and _alive(pid) and not _started_after(pid, entry):
            continue  # another build of the same id is running right now; leave its work alone
        if ".old-" in entry.name and entry.is_dir() and not target.exists():
            os.rename(entry, target)  # the previous build, set aside by a run that died before the swap
            continue
        _remove(entry)
        removed.append(entry)
    return removed


@contextlib.contextmanager
def _locked(parent: Path) -> Iterator[None]:
    """Hold an exclusive lock on the output folder while its contents are swapped, so two builds of the
    same offering at once publish one after the other (the later one wins, complete), never interleaved."""
    descriptor = os.open(parent, os.O_RDONLY)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)  # closing releases the lock


_alive = alive
_process_start = process_start


def _started_after(pid: int, entry: Path) -> bool:
    """True when the live process `pid` began after `entry` was last changed (its number reused; see scratch)."""
    try:
        info = entry.lstat()
    except OSError:
        return False
    return started_after(_process_start(pid), info)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        try:
            path.unlink()
        except FileNotFoundError:
            pass


def prepare_parent(parent: Path) -> None:
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"the output folder {parent} cannot be created: {_describe(exc)}") from None
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OutputError(f"the output folder {parent} is not writable")


def publish_folder(target: Path, files: dict[str, bytes]) -> Path:
    """Write `files` (name → bytes) as the folder `target`, replacing what was there only once all are written."""
    target = Path(target)
    parent, name = target.parent, target.name
    prepare_parent(parent)
    with _locked(parent):
        clean_stale(parent, name)
    if target.exists() and not target.is_dir():
        raise OutputError(f"{target} exists and is not a folder; it was not replaced")
    staging = parent / f".{name}.new-{os.getpid()}"
    aside = parent / f".{name}.old-{os.getpid()}"
    try:
        _remove(staging)
        staging.mkdir()
        for file_name, data in files.items():
            if "/" in file_name or file_name.startswith("."):
                raise OutputError(f"refusing to write an output named {file_name!r}")
            with open(staging / file_name, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
        with _locked(parent):
            had_previous = target.exists()
            if had_previous:
                os.rename(target, aside)
            try:
                os.rename(staging, target)
            except BaseException:
                if had_previous and not target.exists():
                    os.rename(aside, target)  # put the previous build back, whatever stopped the swap
                raise
            _remove(aside)
    except OSError as exc:
        _remove(staging)
        raise OutputError(f"the build folder {target} cannot be written: {_describe(exc)}") from None
    except BaseException:
        _remove(staging)
        raise
    return target


def publish_file(target: Path, data: bytes) -> Path:
    """Write one file atomically: a temporary sibling, then a rename over `target`. A target that exists and is
    not a regular file (a folder, a FIFO, a device node, a link) is refused, never replaced."""
    from rulegen.safeio import UnsafeFile, write_replacing

    target = Path(target)
    parent = target.parent if str(target.parent) else Path(".")
    prepare_parent(parent)
    clean_stale(parent, target.name)
    try:
        write_replacing(target, data)
    except UnsafeFile as exc:
        raise OutputError(f"{target} {exc.reason}; give the name of a new or regular file") from None
    return target
