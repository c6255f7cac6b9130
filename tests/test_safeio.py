"""Reading and writing through `rulegen.safeio`: regular files only, read once, no links, no specials."""

from __future__ import annotations

import os

import pytest

from rulegen.safeio import UnsafeFile, read_inside, read_regular, relative_parts, write_replacing


def test_a_regular_file_is_read_whole(tmp_path):
    (tmp_path / "a.txt").write_bytes(b"hello")
    assert read_regular(tmp_path / "a.txt", 10) == b"hello"


def test_a_file_over_the_limit_is_refused(tmp_path):
    (tmp_path / "a.txt").write_bytes(b"x" * 11)
    with pytest.raises(UnsafeFile, match="the most read is 10"):
        read_regular(tmp_path / "a.txt", 10)


@pytest.mark.parametrize("make, words", [
    (lambda p: os.mkfifo(p), "named pipe"),
    (lambda p: os.mkdir(p), "a folder"),
    (lambda p: os.symlink("/etc/hostname", p), "symbolic link"),
])
def test_specials_and_links_are_refused_without_blocking(tmp_path, make, words):
    target = tmp_path / "thing"
    make(target)
    with pytest.raises(UnsafeFile, match=words):
        read_regular(target, 100)
    with pytest.raises(UnsafeFile, match=words):
        read_inside(tmp_path, "thing", 100)


def test_a_device_is_refused():
    with pytest.raises(UnsafeFile, match="a device"):
        read_regular("/dev/zero", 100)


def test_inside_a_folder_every_step_is_opened_without_links(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "logo.png").write_bytes(b"png")
    assert read_inside(tmp_path, "sub/logo.png", 100) == b"png"
    os.symlink(tmp_path / "sub", tmp_path / "link")  # a link inside the folder, to a folder inside it
    with pytest.raises(UnsafeFile, match="symbolic link"):
        read_inside(tmp_path, "link/logo.png", 100)
    with pytest.raises(UnsafeFile, match="no such file"):
        read_inside(tmp_path, "sub/missing.png", 100)


@pytest.mark.parametrize("relative", ["sub/../logo.png", "a\\b.png", "c:logo.png", "/etc/passwd", "./logo.png",
                                      "http://example.org/x.png", "data:image/png;base64,AA", "", " logo.png",
                                      "sub//logo.png"])
def test_paths_that_cannot_name_a_file_inside_the_folder(relative):
    with pytest.raises(UnsafeFile):
        relative_parts(relative)


def test_a_swap_after_the_read_changes_nothing(tmp_path):
    """What was read is what the caller holds: replacing the file afterwards cannot reach it."""
    (tmp_path / "logo.png").write_bytes(b"original")
    data = read_inside(tmp_path, "logo.png", 100)
    os.unlink(tmp_path / "logo.png")
    os.symlink("/etc/hostname", tmp_path / "logo.png")
    assert data == b"original"
    with pytest.raises(UnsafeFile, match="symbolic link"):
        read_inside(tmp_path, "logo.png", 100)


def test_writing_replaces_a_regular_file_in_one_step(tmp_path):
    target = tmp_path / "out.pdf"
    target.write_bytes(b"old")
    write_replacing(target, b"new")
    assert target.read_bytes() == b"new"
    assert [p.name for p in tmp_path.iterdir()] == ["out.pdf"]


@pytest.mark.parametrize("make, words", [
    (lambda p: os.mkfifo(p), "named pipe"),
    (lambda p: os.symlink("/dev/null", p), "symbolic link"),
    (lambda p: os.mkdir(p), "a folder"),
])
def test_writing_never_replaces_a_special_file(tmp_path, make, words):
    target = tmp_path / "out.pdf"
    make(target)
    with pytest.raises(UnsafeFile, match=words):
        write_replacing(target, b"pdf")
    assert not target.is_file() or target.is_symlink()


@pytest.mark.parametrize("make", [lambda p: os.mkfifo(p), lambda p: os.symlink("/dev/null", p)])
def test_signage_never_replaces_a_special_file(tmp_path, make):
    from typer.testing import CliRunner

    from rulegen.cli import app
    from rulegen.resources import samples_dir

    target = tmp_path / "sign.pdf"
    make(target)
    sample = next(p for p in sorted(samples_dir().glob("*.yaml")) if p.name.startswith("pa-"))
    result = CliRunner().invoke(app, ["signage", str(sample), "-o", str(target)])
    assert result.exit_code == 2, result.output
    assert "only a regular file is replaced" in result.output
    assert not target.is_file() or target.is_symlink()
    assert os.path.exists("/dev/null") and not os.path.isfile("/dev/null")
