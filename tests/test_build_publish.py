"""Atomic publishing: a failed build leaves the previous one whole, and no temporaries behind."""

from __future__ import annotations

import os

import pytest

from rulegen.errors import OutputError
from rulegen.assemble.publish import clean_stale, publish_file, publish_folder


def listing(folder):
    return sorted(p.name for p in folder.iterdir())


def test_publish_replaces_the_previous_build(tmp_path):
    target = tmp_path / "out" / "offer"
    publish_folder(target, {"a.txt": b"one", "b.txt": b"two"})
    publish_folder(target, {"a.txt": b"three"})
    assert listing(target) == ["a.txt"]
    assert (target / "a.txt").read_bytes() == b"three"
    assert listing(tmp_path / "out") == ["offer"]


def test_a_failure_while_writing_keeps_the_previous_build(tmp_path, monkeypatch):
    target = tmp_path / "offer"
    publish_folder(target, {"a.txt": b"old"})

    class Exploding(dict):
        def items(self):
            yield "a.txt", b"new"
            raise OSError(28, "No space left on device")

    with pytest.raises(OutputError, match="No space left"):
        publish_folder(target, Exploding())
    assert (target / "a.txt").read_bytes() == b"old"
    assert listing(tmp_path) == ["offer"]


def test_a_killed_run_is_cleaned_up_at_the_next_start(tmp_path):
    target = tmp_path / "offer"
    dead_pid = 2 ** 22 + 12345  # beyond pid_max on common systems: no such process
    (tmp_path / f".offer.new-{dead_pid}").mkdir()
    (tmp_path / f".offer.new-{dead_pid}" / "rules.pdf").write_bytes(b"half")
    (tmp_path / f".offer.old-{dead_pid}").mkdir()
    (tmp_path / ".other.new-1").mkdir()  # another offering's: not ours to touch
    publish_folder(target, {"a.txt": b"x"})
    assert listing(tmp_path) == [".other.new-1", "offer"]


def test_a_live_run_is_left_alone(tmp_path):
    (tmp_path / f".offer.new-{os.getppid()}").mkdir()
    assert clean_stale(tmp_path, "offer") == []


def test_an_unwritable_output_is_an_output_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_bytes(b"")
    with pytest.raises(OutputError):
        publish_folder(blocker / "offer", {"a.txt": b"x"})
    with pytest.raises(OutputError, match="not a folder"):
        publish_folder(blocker, {"a.txt": b"x"})


def test_publish_file_is_atomic(tmp_path):
    target = tmp_path / "sign.pdf"
    publish_file(target, b"one")
    publish_file(target, b"two")
    assert target.read_bytes() == b"two"
    assert listing(tmp_path) == ["sign.pdf"]
    with pytest.raises(OutputError, match="is a folder"):
        publish_file(tmp_path, b"x")
