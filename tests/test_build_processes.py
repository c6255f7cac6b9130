"""The build's worker processes: a piece's value or its exception comes back whole, a dead worker is an error
with a name, and the documents are the same bytes whether rendered in parallel or one after the other."""

from __future__ import annotations

import os
import signal

import pytest

from rulegen.build.processes import Batch, Piece, can_fork
from rulegen.errors import ExitCode, InvalidOfferingError, OutputError
from rulegen.findings import Finding

pytestmark = pytest.mark.skipif(not can_fork(), reason="pieces run in forked processes on Linux only")


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


def test_a_batch_shares_a_process_and_keeps_each_works_value_and_error():
    def fails() -> bytes:
        raise OutputError("the sign failed")

    batch = Batch([("pid", lambda: os.getpid().to_bytes(8, "big")), ("fails", fails),
                   ("also", lambda: os.getpid().to_bytes(8, "big"))], processes=1, fork=True)
    with pytest.raises(OutputError, match="the sign failed"):
        batch.result("fails")
    pid = batch.result("pid")
    assert int.from_bytes(pid, "big") != os.getpid()
    assert batch.result("also") == pid  # one process ran both, one after the other


def test_a_batch_uses_one_process_per_spare_core_at_most():
    batch = Batch([(str(n), lambda: os.getpid().to_bytes(8, "big")) for n in range(3)], processes=2, fork=True)
    pids = {batch.result(str(n)) for n in range(3)}
    assert len(pids) == 2 and os.getpid().to_bytes(8, "big") not in pids


def test_parallel_and_one_process_builds_are_the_same_bytes(tmp_path, monkeypatch, math_cache):
    from rulegen import build
    from rulegen.resources import samples_dir

    sample = samples_dir() / "nj-bonus-spin.yaml"
    parallel = build.build(sample, build.BuildOptions(out_dir=tmp_path / "parallel"))
    monkeypatch.setenv("RULEGEN_PROCESSES", "1")
    single = build.build(sample, build.BuildOptions(out_dir=tmp_path / "single"))
    assert parallel.files == single.files
