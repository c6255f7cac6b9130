"""The editor experience, for real: yaml-language-server over stdio on a starter that `rulegen init` wrote.

The server comes from the npm registry (`.ci/run` installs it into `.ci/node`); `YAML_LANGUAGE_SERVER` may name
another copy. Where no server is installed the tests are skipped, except in CI, where they fail.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulegen.cli import app

REPO = Path(__file__).resolve().parent.parent


def _server() -> list[str] | None:
    named = os.environ.get("YAML_LANGUAGE_SERVER")
    candidates = [named] if named else []
    candidates += [str(REPO / ".ci" / "node" / "node_modules" / ".bin" / "yaml-language-server"),
                   shutil.which("yaml-language-server") or ""]
    for candidate in candidates:
        if candidate and Path(candidate).is_file():
            return [candidate, "--stdio"]
    return None


SERVER = _server()
if SERVER is None and os.environ.get("CI"):
    pytest.fail("yaml-language-server is not installed: .ci/run installs it into .ci/node", pytrace=False)
pytestmark = pytest.mark.skipif(SERVER is None, reason="yaml-language-server is not installed (see .ci/run)")


class Client:
    """A minimal LSP client: Content-Length framed JSON-RPC over the server's stdin and stdout."""

    def __init__(self, command: list[str], root: Path):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL)
        self.messages: queue.Queue = queue.Queue()
        self.diagnostics: dict[str, list] = {}
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()
        self.request("initialize", {
            "processId": os.getpid(), "rootUri": root.as_uri(), "capabilities": {
                "textDocument": {"completion": {"completionItem": {"snippetSupport": False}},
                                 "hover": {"contentFormat": ["markdown", "plaintext"]},
                                 "publishDiagnostics": {}},
                "workspace": {"configuration": True}}})
        self.notify("initialized", {})
        self.notify("workspace/didChangeConfiguration", {"settings": self._settings()})

    @staticmethod
    def _settings() -> dict:
        return {"yaml": {"validate": True, "hover": True, "completion": True, "schemaStore": {"enable": False},
                         "schemas": {}}}

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            header = b""
            while not header.endswith(b"\r\n\r\n"):
                byte = stream.read(1)
                if not byte:
                    return
                header += byte
            length = int(next(line.split(b":")[1] for line in header.split(b"\r\n")
                              if line.lower().startswith(b"content-length")))
            self.messages.put(json.loads(stream.read(length)))

    def _send(self, message: dict) -> None:
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def notify(self, method: str, params: dict) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: dict, timeout: float = 30):
        self.next_id += 1
        wanted = self.next_id
        self._send({"jsonrpc": "2.0", "id": wanted, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            message = self._take(deadline)
            if message is not None and message.get("id") == wanted and "method" not in message:
                return message.get("result")
        raise TimeoutError(f"no answer to {method}")

    def _take(self, deadline: float):
        try:
            message = self.messages.get(timeout=max(0.01, deadline - time.monotonic()))
        except queue.Empty:
            return None
        method = message.get("method")
        if method == "textDocument/publishDiagnostics":
            self.diagnostics[message["params"]["uri"]] = message["params"]["diagnostics"]
        elif method == "workspace/configuration":
            items = message["params"]["items"]
            self._send({"jsonrpc": "2.0", "id": message["id"],
                        "result": [self._settings().get((i.get("section") or "").split(".")[0], None)
                                   for i in items]})
        elif "id" in message and method:  # any other request from the server: answer it empty
            self._send({"jsonrpc": "2.0", "id": message["id"], "result": None})
        return message

    def wait_for_diagnostics(self, uri: str, timeout: float = 30) -> list:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.diagnostics.get(uri):
                return self.diagnostics[uri]
            self._take(deadline)
        return self.diagnostics.get(uri, [])

    def open(self, path: Path, text: str) -> str:
        uri = path.as_uri()
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1,
                                                              "text": text}})
        return uri

    def close(self) -> None:
        try:
            self.request("shutdown", {}, timeout=5)
            self.notify("exit", {})
        except (TimeoutError, BrokenPipeError, OSError):
            pass
        self.process.kill()
        self.process.wait(timeout=10)


@pytest.fixture
def client(tmp_path):
    connection = Client(SERVER, tmp_path)
    yield connection
    connection.close()


def _starter(code: str, wagers: str = "") -> str:
    result = CliRunner().invoke(app, ["init", "-j", code, "--with", wagers])
    assert result.exit_code == 0, result.output
    return result.stdout


def _position(text: str, needle: str, offset: int = 0) -> dict:
    index = text.index(needle) + offset
    line = text.count("\n", 0, index)
    return {"line": line, "character": index - (text.rfind("\n", 0, index) + 1)}


def _labels(result) -> set[str]:
    items = result.get("items", []) if isinstance(result, dict) else (result or [])
    return {item["label"] for item in items}


@pytest.mark.parametrize("code, authorized, forbidden", [
    ("NJ", {"bonus_spin"}, {"six_card_bonus"}),  # the NJ starter already carries the 5 Card Bonus it requires
    ("PA", {"five_card_bonus"}, {"six_card_bonus", "bonus_spin"}),
    ("MD", {"five_card_bonus", "bonus_spin"}, {"six_card_bonus"}),
    ("HOUSE", {"five_card_bonus", "six_card_bonus"}, {"bonus_spin"}),
])
def test_top_level_completion_offers_only_what_the_jurisdiction_authorizes(client, tmp_path, code, authorized,
                                                                           forbidden):
    text = _starter(code) + "\n"
    uri = client.open(tmp_path / f"{code}.yaml", text)
    lines = text.count("\n")
    labels = _labels(client.request("textDocument/completion", {
        "textDocument": {"uri": uri}, "position": {"line": lines, "character": 0}}))
    assert authorized <= labels, labels
    assert not forbidden & labels, labels


@pytest.mark.parametrize("code", ["HOUSE", "MD", "NJ", "PA"])
def test_enum_values_complete_in_every_jurisdiction(client, tmp_path, code):
    text = _starter(code)
    dealing = next(line for line in text.splitlines() if line.startswith("  dealing: "))
    text = text.replace(dealing, "  dealing: ")
    uri = client.open(tmp_path / f"{code}.yaml", text)
    labels = _labels(client.request("textDocument/completion", {
        "textDocument": {"uri": uri}, "position": _position(text, "  dealing: ", len("  dealing: "))}))
    assert {"manual-shoe", "hand", "automated-shoe"} <= labels, labels


def test_hover_gives_the_clause(client, tmp_path):
    text = _starter("NJ", "bonus-spin")
    uri = client.open(tmp_path / "nj.yaml", text)
    hover = client.request("textDocument/hover", {
        "textDocument": {"uri": uri}, "position": _position(text, "  hardware_approval:", 4)})
    contents = json.dumps(hover)
    assert "N.J.A.C. 13:69E-1.13Z(e)" in contents, contents


def test_a_wrong_value_is_a_diagnostic(client, tmp_path):
    text = _starter("NJ").replace("  positions: 6", "  positions: 7")
    uri = client.open(tmp_path / "nj.yaml", text)
    diagnostics = client.wait_for_diagnostics(uri)
    line = _position(text, "  positions: 7")["line"]
    assert any(d["range"]["start"]["line"] == line for d in diagnostics), diagnostics
