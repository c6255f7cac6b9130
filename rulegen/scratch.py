"""Scratch folders in the system's temporary folder that a killed run does not leave behind for long.

Verification writes the signed offering and its logo to a private folder to build them again there; a run killed
there (SIGKILL, a lost session) cannot remove it itself. Each such folder is named for the process that made it,
`rulegen-<purpose>-<pid>-<random>`, and every later run (`run_temporaries`, `scratch_folder`) first removes the ones
whose process is gone, or whose process number now belongs to a process that started after the folder was made (a
number reused): only this user's, only rulegen's, never one a running process may still be using.

Layer: beside safeio (uses nothing of ours). The build's own temporaries beside its output folder follow the same
rule (`rulegen.assemble.publish`), with the process functions here.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

_NAME = re.compile(r"^rulegen-(?P<purpose>[a-z]+)-(?P<pid>\d+)-[A-Za-z0-9_]+$")


@contextlib.contextmanager
def run_temporaries() -> Iterator[Path]:
    """Within: every temporary file this process makes, the libraries' too (WeasyPrint writes each document's fonts
    to a folder it removes only when the font configuration is collected, which a forked renderer that exits at
    once, or a killed run, never does), in one scratch folder of this run, `rulegen-run-<pid>-<random>`, removed at
    the end; a killed run's is removed by the next. The command line runs every command within it."""
    global _system_temporary
    clear_stale()
    owner = os.getpid()
    previous, _system_temporary = tempfile.tempdir, Path(tempfile.gettempdir())
    try:
        folder = Path(tempfile.mkdtemp(prefix=f"rulegen-run-{owner}-"))
    except OSError:  # no writable temporary folder: the command says so itself if it needs one
        _system_temporary = None
        yield _system_temporary_or_default()
        return
    tempfile.tempdir = str(folder)
    try:
        yield folder
    finally:
        if os.getpid() == owner:  # a forked worker leaving by this path leaves its parent's folder alone
            tempfile.tempdir, _system_temporary = previous, None
            shutil.rmtree(folder, ignore_errors=True)


_system_temporary: Path | None = None  # the system's temporary folder, while run_temporaries stands in for it


def _system_temporary_or_default() -> Path:
    return _system_temporary or Path(tempfile.gettempdir())


@contextlib.contextmanager
def scratch_folder(purpose: str) -> Iterator[Path]:
    """A private temporary folder (mode 0700) for `purpose` (lower-case letters), removed when the block ends; the
    leftovers of killed runs are removed first."""
    if not purpose.isalpha() or not purpose.islower():
        raise ValueError(f"a scratch folder's purpose is a lower-case word, not {purpose!r}")
    clear_stale()
    with tempfile.TemporaryDirectory(prefix=f"rulegen-{purpose}-{os.getpid()}-") as folder:
        yield Path(folder)


def clear_stale(root: Path | None = None) -> list[Path]:
    """Remove the scratch folders of runs that are gone from `root` (the temporary folder): the folders removed."""
    root = _system_temporary_or_default() if root is None else root
    removed: list[Path] = []
    try:
        entries = list(os.scandir(root))
    except OSError:
        return removed
    me = os.getuid() if hasattr(os, "getuid") else None
    for entry in entries:
        match = _NAME.match(entry.name)
        if match is None:
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not entry.is_dir(follow_symlinks=False) or (me is not None and info.st_uid != me):
            continue  # not a folder rulegen made for this user: left alone
        pid = int(match["pid"])
        if pid == os.getpid() or (alive(pid) and not started_after(process_start(pid), info)):
            continue  # this run's, or a running process's that may still use it
        shutil.rmtree(entry.path, ignore_errors=True)
        removed.append(Path(entry.path))
    return removed


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def process_start(pid: int) -> float | None:
    """When process `pid` started (seconds since the epoch), from /proc on Linux; None where that is not known."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        boot = next(int(line.split()[1]) for line in Path("/proc/stat").read_text().splitlines()
                    if line.startswith("btime "))
        return boot + int(fields[19]) / os.sysconf("SC_CLK_TCK")  # field 22, starttime, in clock ticks after boot
    except (OSError, IndexError, ValueError, StopIteration):
        return None


def started_after(started: float | None, info: os.stat_result) -> bool:
    """True when a live process that started at `started` began after the entry whose `info` this is was last
    changed: it reuses the number of the run that made the entry (killed since), and cannot be its owner, which made
    or moved it after it started."""
    if started is None:
        return False
    return started > max(info.st_mtime, info.st_ctime) + 2  # boot time is whole seconds: a margin for rounding
