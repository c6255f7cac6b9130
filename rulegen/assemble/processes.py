"""Build layer: run pieces of one build in parallel processes, each returning bytes.

The three PDFs of a build do not depend on each other until the manifest (which hashes the sign and the
appendix) is attached to rules.pdf, and WeasyPrint holds the interpreter for the whole of a rendering, so the
build renders the sign and the appendix in forked processes while it lays out rules.pdf itself: a `Batch`
starts one worker per core beside this one, and the workers and this process take the works from one queue, so
on a two-core machine a worker renders the appendix while rules.pdf is laid out here, and the sign is rendered by
whichever of the two is free first; no rendering takes a core from another. A forked
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


Answer = tuple[bool, object]  # (True, value) or (False, the exception)


def _answer(name: str, work: Callable[[], object]) -> Answer:
    """A work's value or its exception (an exception that does not pickle is sent as its text), so one failing
    work does not take another's value with it; an interrupt stops them all."""
    try:
        return True, work()
    except Exception as exc:  # noqa: BLE001 - each work's outcome is its own
        try:
            pickle.dumps(exc, protocol=pickle.HIGHEST_PROTOCOL)
            return False, exc
        except Exception as unpicklable:  # noqa: BLE001
            return False, OutputError(f"rendering {name} failed: {type(exc).__name__}: {exc} ({unpicklable})")


def _claim(queue: int) -> int | None:
    """The index of the next work no one has taken from the queue, or None when it is empty. A pipe's byte is
    read by exactly one process, so a work is claimed once."""
    try:
        token = os.read(queue, 1)
    except BlockingIOError:
        return None
    return token[0] if token else None


def _drain(queue: int, works: Sequence[tuple[str, Callable[[], object]]]) -> list[tuple[int, Answer]]:
    """A worker process: take works from the queue until it is empty."""
    answers = []
    while (index := _claim(queue)) is not None:
        answers.append((index, _answer(*works[index])))
    return answers


class Batch(Generic[T]):
    """Named works shared by at most `processes` forked workers (by default one per spare core) and this process.

    The works wait in a queue, in the order given; each worker takes the next one when it is free. This process
    may take those still waiting when it has time (`run_unclaimed`), so on two cores the build lays out rules.pdf
    and then renders the sign itself if the worker is still busy with the appendix. `result(name)` gives each
    work's value or raises its own exception, as a `Piece` does; without fork, works run when first asked for.
    """

    def __init__(self, works: Sequence[tuple[str, Callable[[], T]]], *, processes: int | None = None,
                 fork: bool | None = None):
        if len(works) > 255:
            raise ValueError("a batch holds at most 255 works")
        self._works: list[tuple[str, Callable[[], object]]] = list(works)
        self._index = {name: i for i, (name, _work) in enumerate(works)}
        self._answers: dict[int, Answer] = {}
        self._pieces: list[Piece[list[tuple[int, Answer]]]] = []
        self._queue: int | None = None
        if not (can_fork() if fork is None else fork) or not works:
            return
        count = max(1, min(len(works), processes if processes is not None else spare_cores()))
        reader, writer = os.pipe()
        os.write(writer, bytes(range(len(works))))
        os.close(writer)
        os.set_blocking(reader, False)
        self._queue = reader
        names = " or ".join(name for name, _work in works)
        self._pieces = [Piece(names, partial(_drain, reader, self._works), fork=True) for _ in range(count)]

    def run_unclaimed(self) -> None:
        """Run here, now, every work no worker has begun."""
        if self._queue is None:
            return
        while (index := _claim(self._queue)) is not None:
            self._answers[index] = _answer(*self._works[index])

    def result(self, name: str) -> T:
        index = self._index[name]
        if index not in self._answers:
            if self._queue is None:
                self._answers[index] = _answer(*self._works[index])
            else:
                self.run_unclaimed()
                while index not in self._answers and self._pieces:
                    self._answers.update(self._pieces.pop(0).result())
                if index not in self._answers:  # pragma: no cover - every work is claimed by someone
                    raise OutputError(f"rendering {name} gave no answer")
        ok, value = self._answers[index]
        if not ok:
            assert isinstance(value, BaseException)
            raise value
        return value  # type: ignore[return-value]

    def cancel(self) -> None:
        for piece in self._pieces:
            piece.cancel()
        self._pieces = []
        if self._queue is not None:
            os.close(self._queue)
            self._queue = None
