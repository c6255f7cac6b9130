"""Faults: an unwritable output, a full disk, a killed render, two builds at once. Each ends with a clear
message and leaves the previous build or a complete new one, never a mix and never temporary files."""

from __future__ import annotations

import errno
import hashlib
import json
import multiprocessing
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulegen.cli import app
from rulegen.errors import OutputError
from rulegen.assemble import publish
from rulegen.resources import samples_dir

pytestmark = pytest.mark.pdf  # builds or verifies whole filings: the PDF tier, `pytest -m pdf` (README)

PA_SAMPLE = samples_dir() / "pa-five-card-bonus.yaml"


def previous_build(folder: Path) -> dict[str, bytes]:
    folder.mkdir(parents=True)
    files = {"a.txt": b"previous a", "b.txt": b"previous b"}
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return files


def contents(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir()}


def leftovers(parent: Path) -> list[str]:
    return sorted(p.name for p in parent.iterdir() if p.name.startswith("."))


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_disk_full_mid_write_keeps_the_previous_build(tmp_path, monkeypatch):
    target = tmp_path / "offering-id"
    before = previous_build(target)
    calls = {"n": 0}
    real_fsync = os.fsync

    def full_disk(fd):
        calls["n"] += 1
        if calls["n"] == 2:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(publish.os, "fsync", full_disk)
    with pytest.raises(OutputError, match="No space left on device"):
        publish.publish_folder(target, {"a.txt": b"new a", "b.txt": b"new b", "c.txt": b"new c"})
    assert contents(target) == before
    assert leftovers(tmp_path) == []


def test_a_run_stopped_in_the_middle_of_the_swap_puts_the_previous_build_back(tmp_path, monkeypatch):
    target = tmp_path / "offering-id"
    before = previous_build(target)
    real_rename = os.rename
    calls = {"n": 0}

    def interrupted(source, destination):
        calls["n"] += 1
        if calls["n"] == 2:  # the previous build is aside, the new one not yet in
            raise KeyboardInterrupt
        real_rename(source, destination)

    monkeypatch.setattr(publish.os, "rename", interrupted)
    with pytest.raises(KeyboardInterrupt):
        publish.publish_folder(target, {"a.txt": b"new a"})
    monkeypatch.setattr(publish.os, "rename", real_rename)
    assert contents(target) == before
    assert leftovers(tmp_path) == []


def test_leftovers_of_a_killed_run_are_cleaned_and_a_set_aside_build_restored(tmp_path):
    pid = dead_pid()
    target = tmp_path / "offering-id"
    (tmp_path / f".offering-id.new-{pid}").mkdir()
    (tmp_path / f".offering-id.new-{pid}" / "rules.pdf").write_bytes(b"half")
    aside = tmp_path / f".offering-id.old-{pid}"
    aside.mkdir()
    (aside / "a.txt").write_bytes(b"previous a")
    publish.clean_stale(tmp_path, "offering-id")
    assert contents(target) == {"a.txt": b"previous a"}  # no build there: the set-aside one comes back
    assert leftovers(tmp_path) == []
    (tmp_path / f".offering-id.new-{pid}").mkdir()
    publish.publish_folder(target, {"a.txt": b"new a"})
    assert contents(target) == {"a.txt": b"new a"}
    assert leftovers(tmp_path) == []


def test_an_output_folder_that_cannot_be_created_is_a_clear_error(tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the output folder should go")
    with pytest.raises(OutputError, match="cannot be created"):
        publish.publish_folder(blocker / "offering-id", {"a.txt": b"x"})
    assert blocker.read_text().startswith("a file")


def _publish_many(target: str, tag: str, rounds: int) -> None:
    for index in range(rounds):
        body = f"{tag}-{index}".encode()
        publish.publish_folder(Path(target), {"a.txt": body, "b.txt": body, "c.txt": body})


def test_concurrent_publishes_leave_one_complete_build(tmp_path):
    target = tmp_path / "offering-id"
    context = multiprocessing.get_context("fork")
    workers = [context.Process(target=_publish_many, args=(str(target), tag, 25)) for tag in ("x", "y")]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
        assert worker.exitcode == 0
    files = contents(target)
    assert set(files) == {"a.txt", "b.txt", "c.txt"}
    assert len(set(files.values())) == 1  # all three from the same build: never a mix
    assert leftovers(tmp_path) == []


# --- whole builds -------------------------------------------------------------------------------------------------

def test_build_into_an_unwritable_place_exits_2_with_a_message(tmp_path, math_cache):
    blocker = tmp_path / "blocker"
    blocker.write_text("x")
    result = CliRunner().invoke(app, ["build", str(PA_SAMPLE), "--out", str(blocker / "out")])
    assert result.exit_code == 2
    assert "cannot be created" in result.stderr
    assert blocker.read_text() == "x"


@pytest.mark.parametrize("fault", ["output folder", "signing identity"])
def test_a_build_that_cannot_finish_stops_before_the_math(tmp_path, monkeypatch, fault):
    from rulegen.errors import InputError
    from rulegen import assemble as pipeline

    def no_math(*args, **kwargs):
        raise AssertionError(f"the math ran although the {fault} cannot be used")

    monkeypatch.setattr(pipeline, "math_results", no_math)
    blocker = tmp_path / "blocker"
    blocker.write_text("x")
    if fault == "output folder":
        options, expected, words = pipeline.BuildOptions(out_dir=blocker / "out"), OutputError, "cannot be created"
    else:
        identity = tmp_path / "identity.p12"
        identity.write_bytes(b"not a PKCS#12 file")
        options = pipeline.BuildOptions(out_dir=tmp_path / "out", sign=identity)
        expected, words = InputError, "will not open"
    with pytest.raises(expected, match=words):
        pipeline.build(PA_SAMPLE, options)
    assert blocker.read_text() == "x"
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_a_render_that_dies_leaves_the_previous_build(tmp_path, math_cache, monkeypatch, sample_build):
    import shutil

    from rulegen import assemble as pipeline

    out = tmp_path / "out"
    shared = sample_build(PA_SAMPLE)  # the run's build of the sample (tests/conftest.py), published here before
    shutil.copytree(shared, out / shared.name)
    before = contents(out / shared.name)

    def killed(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(pipeline, "render_appendix_pdf", killed)
    with pytest.raises(KeyboardInterrupt):
        pipeline.build(PA_SAMPLE, pipeline.BuildOptions(out_dir=out))
    assert contents(out / shared.name) == before
    assert leftovers(out) == []


def test_two_builds_of_one_offering_at_once(tmp_path, math_cache):
    out = tmp_path / "out"
    env = {**os.environ, "RULEGEN_CACHE_DIR": str(math_cache)}
    exe = Path(sys.executable).parent / "rulegen"
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "rulegen"]
    runs = [subprocess.Popen(command + ["build", str(PA_SAMPLE), "--out", str(out)], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    for run in runs:
        stdout, stderr = run.communicate(timeout=600)  # only catches a hang
        assert run.returncode == 0, stderr
        assert "Traceback" not in stdout + stderr
    [folder] = [p for p in out.iterdir() if not p.name.startswith(".")]
    assert leftovers(out) == []
    manifest = json.loads((folder / "manifest.json").read_text())
    text = json.dumps(manifest)
    for name in ("signage.pdf", "math-appendix.pdf", "rules.html"):
        assert hashlib.sha256((folder / name).read_bytes()).hexdigest() in text, name
