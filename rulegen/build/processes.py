"""Build layer: run pieces of one build in parallel processes, each returning bytes.

The three PDFs of a build do not depend on each other until the manifest (which hashes the sign and the
appendix) is attached to rules.pdf, and WeasyPrint holds the interpreter for the whole of a rendering, so the
build renders the sign and the appendix in forked processes while it lays out rules.pdf itself: as many
processes as there are cores beside the one laying out rules.pdf (a `Batch`), so on a two-core machine the sign
and the appendix share one process, one after the other, and no rendering takes a core from another. A forked
process starts with everything this one has loaded (WeasyPrint, the offering, the math results), so nothing
is imported or computed twice, and it runs the same code on the same input: the bytes are the ones a
single process gives.

Where `fork` is not available or not safe (anything but Linux), or RULEGEN_PROCESSES=1, each piece runs in
this process when its result is asked for. A piece's exception is raised in this process as it was raised
there (RulegenErrors keep their exit code and findings); a process that dies without an answer is an
OutputError naming the piece.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
from collections.abc import Callable, Sequence
from functools import partial
from typing import Generic, TypeVar

from rulegen.errors import OutputError

T = TypeVar("T")
PROCESSES_ENV = "RULEGEN_PROCESSES"


def can_fork() -> bool:
    return sys.platform.startswith("linux") and hasattr(os, "fork") and os.environ.get(PROCESSES_ENV) != "1"


class Piece(Generic[T]):
    """One piece of work: started now in a forked process, or run in this one when its result is asked for."""

    def __init__(self, name: str, work: Callable[[], T], *, fork: bool | None = None):
        self.name = name
        self._work: Callable[[], T] | None = work
        self._pid: int | None = None
        self._reader: int | None = None
        if can_fork() if fork is None else fork:
            self._start()

    def _start(self) -> None:
        assert self._work is not None
        reader, writer = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the child: do the work, send back the answer, and leave without running any cleanup
            status = 0
            try:
                os.close(reader)
                try:
                    answer: tuple[bool, object] = (True, self._work())
                except BaseException as exc:  # noqa: BLE001 - every outcome goes back to the parent
                    answer = (False, exc)
                try:
                    data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
                except Exception as exc:  # an exception that does not pickle is sent as its text
                    data = pickle.dumps((False, OutputError(f"rendering {self.name} failed: "
                                                            f"{type(answer[1]).__name__}: {answer[1]} ({exc})")))
                with os.fdopen(writer, "wb") as out:
                    out.write(data)
            except BaseException:
                status = 1
            finally:
                os._exit(status)
        os.close(writer)
        self._pid, self._reader = pid, reader

    def result(self) -> T:
        """The piece's value, or its exception raised here."""
        if self._pid is None:
            work, self._work = self._work, None
            assert work is not None
            return work()
        assert self._reader is not None
        with os.fdopen(self._reader, "rb") as answer_pipe:
            self._reader = None
            data = answer_pipe.read()
        _pid, status = os.waitpid(self._pid, 0)
        self._pid = None
        if not data:
            how = f"signal {-os.waitstatus_to_exitcode(status)}" if os.WIFSIGNALED(status) else \
                f"exit status {os.waitstatus_to_exitcode(status)}"
            raise OutputError(f"rendering {self.name} stopped without an answer ({how})")
        ok, value = pickle.loads(data)
        if not ok:
            assert isinstance(value, BaseException)
            raise value
        return value  # type: ignore[no-any-return]

    def cancel(self) -> None:
        """Stop the piece if it is still running (the build failed elsewhere); its answer is dropped."""
        if self._pid is not None:
            try:
                os.kill(self._pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(self._pid, 0)
            self._pid = None
        if self._reader is not None:
            os.close(self._reader)
            self._reader = None
        self._work = None


def spare_cores() -> int:
    """The cores this process may use beside its own (at least one)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return max(1, cores - 1)


def _each(works: Sequence[tuple[str, Callable[[], T]]]) -> list[tuple[bool, object]]:
    """Run works one after the other; each answer is its value or its exception (an exception that does not
    pickle is sent as its text), so one failing work does not take another's value with it."""
    answers: list[tuple[bool, object]] = []
    for name, work in works:
        try:
            answers.append((True, work()))
        except Exception as exc:  # noqa: BLE001 - each work's outcome is its own; an interrupt stops them all
            try:
                pickle.dumps(exc, protocol=pickle.HIGHEST_PROTOCOL)
                answers.append((False, exc))
            except Exception as unpicklable:  # noqa: BLE001
                answers.append((False, OutputError(f"rendering {name} failed: {type(exc).__name__}: {exc} "
                                                   f"({unpicklable})")))
    return answers


class Batch(Generic[T]):
    """Named works started at once in at most `processes` forked processes (by default one per spare core);
    with fewer processes than works, a process runs its share one after the other. `result(name)` gives each
    work's value or raises its own exception, as a `Piece` does."""

    def __init__(self, works: Sequence[tuple[str, Callable[[], T]]], *, processes: int | None = None,
                 fork: bool | None = None):
        count = max(1, min(len(works), processes if processes is not None else spare_cores()))
        groups = [list(works[g::count]) for g in range(count)]
        self._where = {name: (g, k) for g, group in enumerate(groups) for k, (name, _work) in enumerate(group)}
        self._pieces = [Piece(" and ".join(name for name, _work in group), partial(_each, group), fork=fork)
                        for group in groups]
        self._answers: dict[int, list[tuple[bool, object]]] = {}

    def result(self, name: str) -> T:
        g, k = self._where[name]
        if g not in self._answers:
            self._answers[g] = self._pieces[g].result()
        ok, value = self._answers[g][k]
        if not ok:
            assert isinstance(value, BaseException)
            raise value
        return value  # type: ignore[return-value]

    def cancel(self) -> None:
        for piece in self._pieces:
            piece.cancel()
