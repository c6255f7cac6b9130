"""Reading input files and writing output files without being tricked by the file system.

Layer: load (uses nothing of ours). Every file the product reads on a user's behalf comes through
`read_regular` or `read_inside`; every file it writes comes through `write_replacing`.

- A file is opened once, without following a symbolic link at the last step (`O_NOFOLLOW`) and without
  blocking (`O_NONBLOCK`, so a FIFO or a device cannot hang the open); the open handle is then checked to be
  a regular file (`fstat`), and at most `limit + 1` bytes are read from it. What was read from that handle is
  what the caller checks, renders, hashes and attaches: nothing is opened again by name, so swapping the
  file or a link between a check and a later use changes nothing.
- Inside an offering's folder (`read_inside`) every step of the relative path is opened relative to the one
  before it (`openat`), and none may be a symbolic link: a link anywhere on the way is refused, whether it
  points inside the folder or out.
- Hard links cannot be told from the file itself: a hard link in the offering's folder to a file elsewhere
  on the same file system is read as the file it is. That is the limit, stated in the README.
- Writing goes to a temporary file beside the target, then `os.replace`; an existing target that is not a
  regular file (a FIFO, a device node, a folder, a link) is refused, never replaced.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path, PurePosixPath

_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)


class UnsafeFile(OSError):
    """A file that will not be read or written; `reason` says why in plain words."""

    def __init__(self, path: str | os.PathLike, reason: str):
        super().__init__(f"{os.fsdecode(path)}: {reason}")
        self.path = os.fsdecode(path)
        self.reason = reason


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    return "not a regular file"


def _read_handle(fd: int, path: str | os.PathLike, limit: int) -> bytes:
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        raise UnsafeFile(path, f"is {_kind(info.st_mode)}, not a regular file")
    if info.st_size > limit:
        raise UnsafeFile(path, f"is {info.st_size:,} bytes; the most read is {limit:,}")
    chunks = []
    remaining = limit + 1
    while remaining > 0:
        chunk = os.read(fd, min(remaining, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        remaining -= len(chunk)
    data = b"".join(chunks)
    if len(data) > limit:
        raise UnsafeFile(path, f"is larger than {limit:,} bytes, the most read")
    return data


def _errno_reason(exc: OSError, path) -> UnsafeFile:
    import errno

    if exc.errno == errno.ELOOP or exc.errno == errno.EMLINK:
        return UnsafeFile(path, "is a symbolic link; name the file itself")
    if exc.errno == errno.ENOENT:
        return UnsafeFile(path, "no such file")
    if exc.errno == errno.EISDIR:
        return UnsafeFile(path, "is a folder, not a file")
    if exc.errno == errno.ENOTDIR:
        return UnsafeFile(path, "a part of the path is not a folder")
    return UnsafeFile(path, f"cannot be read: {exc.strerror or exc}")


def read_regular(path: str | os.PathLike, limit: int, *, follow_symlinks: bool = False) -> bytes:
    """The bytes of a regular file, read once through one handle; refuses specials and, unless
    `follow_symlinks` (for files a user names on the command line, such as a trust root that is a link into
    the system's certificates), links."""
    try:
        before = os.stat(path) if follow_symlinks else os.lstat(path)
    except OSError as exc:
        raise _errno_reason(exc, path) from None
    if stat.S_ISLNK(before.st_mode):
        raise UnsafeFile(path, "is a symbolic link; name the file itself")
    if not stat.S_ISREG(before.st_mode):
        raise UnsafeFile(path, f"is {_kind(before.st_mode)}, not a regular file")
    flags = _OPEN_FLAGS & ~getattr(os, "O_NOFOLLOW", 0) if follow_symlinks else _OPEN_FLAGS
    return _open_and_read(path, flags, path, limit)


def _open_and_read(name: str | os.PathLike, flags: int, shown: str | os.PathLike, limit: int,
                   dir_fd: int | None = None) -> bytes:
    """Open `name` once (relative to `dir_fd` when given) and read it through `_read_handle`."""
    try:
        fd = os.open(name, flags, dir_fd=dir_fd)
    except OSError as exc:
        raise _errno_reason(exc, shown) from None
    try:
        return _read_handle(fd, shown, limit)
    finally:
        os.close(fd)


def relative_parts(relative: str) -> tuple[str, ...]:
    """The steps of a relative path inside a folder, or UnsafeFile saying why it cannot name a file there.

    The same test serves validation and the renderer, so a path validate accepts is one a build can read.
    """
    if not relative or relative.strip() != relative:
        raise UnsafeFile(relative, "names no file" if not relative.strip() else "begins or ends with a space")
    if "://" in relative or relative.startswith(("//", "data:")):
        raise UnsafeFile(relative, "a file beside the offering file is named by its path, not a URL")
    if "\\" in relative:
        raise UnsafeFile(relative, "the path holds a backslash; use '/' between folder names")
    if ":" in relative:
        raise UnsafeFile(relative, "the path holds a ':' (a drive or a URL scheme), not a file name relative to the "
                                   "offering file")
    if "\x00" in relative:
        raise UnsafeFile(relative, "holds a NUL character")
    pure = PurePosixPath(relative)
    if pure.is_absolute():
        raise UnsafeFile(relative, "the path is relative to the offering file's folder, not absolute")
    parts = tuple(part for part in relative.split("/"))
    if any(part in ("", ".", "..") for part in parts):
        raise UnsafeFile(relative, "the path holds an empty, '.' or '..' step, which could lead outside the offering "
                                   "file's folder; name the file by its plain path inside it")
    return parts


def read_inside(folder: str | os.PathLike, relative: str, limit: int) -> bytes:
    """The bytes of `folder/relative`, each step opened from the one before with no symbolic link anywhere."""
    parts = relative_parts(relative)
    try:
        # the folder itself may be reached by a link
        dir_fd = os.open(folder, _DIR_FLAGS & ~getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        raise UnsafeFile(folder, f"the folder cannot be opened: {exc.strerror or exc}") from None
    try:
        for step in parts[:-1]:
            try:
                next_fd = os.open(step, _DIR_FLAGS, dir_fd=dir_fd)
            except OSError as exc:
                try:
                    if stat.S_ISLNK(os.stat(step, dir_fd=dir_fd, follow_symlinks=False).st_mode):
                        raise UnsafeFile(relative, f"passes through the symbolic link {step!r}; name the file "
                                                   "itself") from None
                except FileNotFoundError:
                    pass
                raise _errno_reason(exc, relative) from None
            os.close(dir_fd)
            dir_fd = next_fd
        try:
            info = os.stat(parts[-1], dir_fd=dir_fd, follow_symlinks=False)
        except OSError as exc:
            raise _errno_reason(exc, relative) from None
        if not stat.S_ISREG(info.st_mode):
            raise UnsafeFile(relative, f"is {_kind(info.st_mode)}, not a regular file")
        return _open_and_read(parts[-1], _OPEN_FLAGS, relative, limit, dir_fd=dir_fd)
    finally:
        os.close(dir_fd)


def check_writable_target(target: str | os.PathLike) -> None:
    """Refuse a target that exists and is not a regular file (a FIFO, a device, a folder, a link)."""
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise UnsafeFile(target, f"cannot be written: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        raise UnsafeFile(target, f"is {_kind(info.st_mode)}; only a regular file is replaced")


def write_replacing(target: str | os.PathLike, data: bytes) -> None:
    """Write `data` to a temporary file beside `target`, then rename it over the target in one step."""
    target = Path(target)
    check_writable_target(target)
    try:
        # `.<name>.new-<pid>-<random>`: the form the build's publishing recognises and clears after a killed run
        fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.new-{os.getpid()}-", dir=target.parent)
    except OSError as exc:
        raise UnsafeFile(target, f"cannot be written: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, target)
    except BaseException as exc:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        if isinstance(exc, OSError) and not isinstance(exc, UnsafeFile):
            raise UnsafeFile(target, f"cannot be written: {exc.strerror or exc}") from None
        raise
