"""The build's worker processes: a piece's value or its exception comes back whole, a dead worker is an error
with a name, and the documents are the same bytes whether rendered in parallel or one after the other."""

from __future__ import annotations

import os
import signal

import pytest

from rulegen.assemble.processes import Batch, Piece, can_fork
from rulegen.errors import ExitCode, InvalidOfferingError, OutputError
from rulegen.findings import Finding

pytestmark = [pytest.mark.skipif(not can_fork(), reason="pieces run in forked processes on Linux only"),
              pytest.mark.pdf]  # builds or verifies whole filings: the PDF tier, `pytest -m pdf` (README)


def test_a_piece_returns_its_value_from_another_process():
    piece = Piece("pid", lambda: os.getpid().to_bytes(8, "big") * 100_000, fork=True)  # more than a pipe holds
    value = piece.result()
    assert len(value) == 800_000
    assert int.from_bytes(value[:8], "big") != os.getpid()


def test_an_error_comes_back_with_its_exit_code_and_findings():
    finding = Finding("offer.yaml", 3, 5, "error", "the ante is negative", "58 Pa. Code § 674a.2")

    def fails() -> bytes:
        raise InvalidOfferingError("offer.yaml: 1 error", [finding])

    with pytest.raises(InvalidOfferingError) as raised:
        Piece("fails", fails, fork=True).result()
    assert raised.value.exit_code == ExitCode.INVALID
    assert raised.value.findings == [finding]
    assert raised.value.message == "offer.yaml: 1 error"


def test_an_interrupt_in_a_piece_interrupts_the_build():
    def interrupted() -> bytes:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        Piece("interrupted", interrupted, fork=True).result()


def test_a_worker_that_dies_is_an_error_naming_the_piece():
    def dies() -> bytes:
        os.kill(os.getpid(), signal.SIGKILL)
        return b""

    with pytest.raises(OutputError, match=r"rendering signage.pdf stopped without an answer \(signal 9\)"):
        Piece("signage.pdf", dies, fork=True).result()


def test_a_cancelled_piece_leaves_no_process_behind():
    piece = Piece("sleeps", lambda: signal.pause() or b"", fork=True)
    pid = piece._pid
    piece.cancel()
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)


def test_without_fork_the_piece_runs_when_asked():
    calls = []
    piece = Piece("here", lambda: calls.append(os.getpid()) or b"x", fork=False)
    assert calls == []
    assert piece.result() == b"x"
    assert calls == [os.getpid()]


def test_a_batch_keeps_each_works_value_and_error():
    def fails() -> bytes:
        raise OutputError("the sign failed")

    batch = Batch([("pid", lambda: os.getpid().to_bytes(8, "big")), ("fails", fails),
                   ("also", lambda: os.getpid().to_bytes(8, "big"))], processes=1, fork=True)
    with pytest.raises(OutputError, match="the sign failed"):
        batch.result("fails")
    # each work's own value, whether the worker ran it or this process took it from the queue
    assert len(batch.result("pid")) == len(batch.result("also")) == 8
    batch.cancel()


def test_this_process_takes_the_works_a_busy_worker_has_not_begun():
    started_r, started_w = os.pipe()
    gate_r, gate_w = os.pipe()

    def first() -> bytes:  # in the worker: say so, then wait at the gate
        os.write(started_w, b"s")
        os.read(gate_r, 1)
        return os.getpid().to_bytes(8, "big")

    batch = Batch([("first", first), ("second", lambda: os.getpid().to_bytes(8, "big"))], processes=1, fork=True)
    try:
        assert os.read(started_r, 1) == b"s"  # the worker holds the first work
        batch.run_unclaimed()  # so the second is run here
        assert int.from_bytes(batch.result("second"), "big") == os.getpid()
        os.write(gate_w, b"g")
        assert int.from_bytes(batch.result("first"), "big") != os.getpid()
    finally:
        batch.cancel()
        for fd in (started_r, started_w, gate_r, gate_w):
            os.close(fd)


def test_a_batch_uses_one_process_per_spare_core_at_most_and_each_work_runs_once():
    runs_r, runs_w = os.pipe()

    def work(n: int) -> bytes:
        os.write(runs_w, bytes([n]))
        return os.getpid().to_bytes(8, "big")

    batch = Batch([(str(n), lambda n=n: work(n)) for n in range(6)], processes=2, fork=True)
    pids = {batch.result(str(n)) for n in range(6)}
    batch.cancel()
    os.close(runs_w)
    ran = b""
    while chunk := os.read(runs_r, 64):
        ran += chunk
    os.close(runs_r)
    assert sorted(ran) == list(range(6))
    workers = pids - {os.getpid().to_bytes(8, "big")}  # what the workers had not begun ran here
    assert len(workers) <= 2


def test_without_fork_a_batch_runs_each_work_when_asked():
    calls: list[str] = []
    batch = Batch([("a", lambda: calls.append("a") or b"a"), ("b", lambda: calls.append("b") or b"b")], fork=False)
    batch.run_unclaimed()
    assert calls == []
    assert batch.result("b") == b"b" and calls == ["b"]


def test_parallel_and_one_process_builds_are_the_same_bytes(tmp_path, monkeypatch, sample_build):
    """The run's shared build of the sample (tests/conftest.py) renders its PDFs in parallel processes, as a build
    does by default; the same offering built all in this process gives the same bytes."""
    from rulegen import assemble
    from rulegen.resources import samples_dir

    sample = samples_dir() / "nj-bonus-spin.yaml"
    parallel = sample_build(sample)
    monkeypatch.setenv("RULEGEN_PROCESSES", "1")
    single = assemble.build(sample, assemble.BuildOptions(out_dir=tmp_path / "single"))
    assert sorted(single.files) == sorted(p.name for p in parallel.iterdir())
    assert single.files == {name: (parallel / name).read_bytes() for name in single.files}
