"""Nothing a command prints can act on the terminal: control and bidirectional characters arrive escaped."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from rulegen.terminal import printable, printable_line

DATA = Path(__file__).parent / "data"
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")


def test_printable_escapes_what_could_act_on_a_terminal():
    assert (printable("a\x1b[31mred\u202eevil\x00\x85\nnext\tcol")
            == "a\\u001b[31mred\\u202eevil\\u0000\\u0085\nnext\tcol")
    assert printable_line("two\nlines\t") == "two\\nlines\\t"
    assert printable("\ud800") == "\\ud800"
    assert printable("Café Ελλάδα ♠ — “quoted”") == "Café Ελλάδα ♠ — “quoted”"
    assert json.loads(f'"{printable(chr(0x85) + chr(0x202e))}"') == "\x85\u202e"  # still the same text in JSON


def _run(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rulegen", *arguments], capture_output=True, timeout=300)


def test_hostile_keys_file_names_and_values_reach_the_terminal_escaped(tmp_path):
    name = "offer\x1b[2J\u202egnp.yaml"
    text = (DATA / "correct_pa.yaml").read_text()
    hostile = text.replace("table:\n", 'table:\n  "posi\\e[31mtions\\u202e": 6\n', 1).replace(
        "name: Test Pennsylvania Casino", 'name: "Test \\u202eCasino\\x85"')
    (tmp_path / name).write_text(hostile)
    shutil.copy(DATA / "correct_pa.yaml", tmp_path / "old.yaml")
    runs = [
        _run("validate", str(tmp_path / name)),
        _run("validate", str(tmp_path / name), "--format", "json"),
        _run("diff", str(tmp_path / "old.yaml"), str(tmp_path / name)),
        _run("diff", str(tmp_path / "old.yaml"), str(tmp_path / name), "--format", "json"),
        _run("math", str(tmp_path / name)),
    ]
    for result in runs:
        for stream in (result.stdout, result.stderr):
            text = stream.decode("utf-8")
            assert not RAW.search(text), (result.args, RAW.findall(text))
            assert "Traceback" not in text
    assert b"\\u202e" in runs[0].stdout  # the key is shown, escaped
    json.loads(runs[1].stdout)  # escaped JSON is still JSON
    json.loads(runs[3].stdout)


def test_on_a_real_terminal_an_escape_sequence_is_shown_not_obeyed(tmp_path):
    """Off a terminal click strips ANSI sequences itself; on one, they reach rulegen's stream and are escaped."""
    import os
    import pty

    name = "offer\x1b[2J.yaml"
    shutil.copy(DATA / "correct_pa.yaml", tmp_path / name)
    leader, follower = pty.openpty()
    try:
        process = subprocess.Popen([sys.executable, "-m", "rulegen", "validate", str(tmp_path / name)],
                                   stdout=follower, stderr=follower, stdin=subprocess.DEVNULL)
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal closes when the process ends
                break
            if not chunk:
                break
            chunks.append(chunk)
        process.wait(timeout=120)
    finally:
        os.close(leader)
    text = b"".join(chunks).decode("utf-8")
    assert "offer\\u001b[2J.yaml" in text, text
    assert "\x1b" not in text
