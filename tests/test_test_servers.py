"""The servers the tests start do not outlive a test run that is killed: PostgreSQL (tests/pgserver.py) is stopped
and its folder removed by its watchdog, and the timestamp authority (tests/tsaserver.py), a thread of the test
process, stops answering with it."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests import pgserver

REPOSITORY = Path(__file__).resolve().parent.parent

TINY = '''
import datetime as dt
import json
import os
import sys
import time

sys.path.insert(0, {repository!r})

from cryptography.hazmat.primitives.asymmetric import ec

from tests import filing_factory, pgserver, tsaserver


def test_start_the_servers_and_wait():
    server = pgserver.PostgresServer().start()
    now = dt.datetime.now(dt.timezone.utc)
    key = ec.generate_private_key(ec.SECP256R1())
    name = filing_factory._name("Kill Test Root")
    ca = filing_factory._certificate(name, name, key.public_key(), key, ca=True, start=now - dt.timedelta(days=1),
                                     end=now + dt.timedelta(days=1), serial=1)
    with tsaserver.TimestampAuthority(ca, key) as tsa:
        info = {{"postgres": server.pid(), "port": server.port, "folder": str(server.folder),
                 "watchdog": server.watchdog.pid, "tsa": tsa.server.server_address[1]}}
        with open({info!r} + ".part", "w") as out:
            json.dump(info, out)
        os.rename({info!r} + ".part", {info!r})
        time.sleep(600)  # killed long before
'''


def _running(pid: int) -> bool:
    """Whether the process runs (a zombie awaiting its reaping has stopped running)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return fields[0] != "Z"


def _answers(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(2)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def _until(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return condition()


def test_a_killed_test_run_leaves_no_server_running(tmp_path):
    try:
        pgserver.binaries()
    except pgserver.PostgresUnavailable as exc:
        if os.environ.get(pgserver.REQUIRE_ENV):
            pytest.fail(f"PostgreSQL is required ({pgserver.REQUIRE_ENV} is set): {exc}")
        pytest.skip(f"PostgreSQL server not available: {exc}")
    info = tmp_path / "servers.json"
    (tmp_path / "test_tiny.py").write_text(TINY.format(repository=str(REPOSITORY), info=str(info)))
    run = subprocess.Popen([sys.executable, "-m", "pytest", "test_tiny.py", "-q", "-p", "no:cacheprovider",
                            "-p", "no:xdist", "-p", "no:randomly", "--rootdir", str(tmp_path)],
                           cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        assert _until(lambda: info.exists() or run.poll() is not None, 180), "the servers did not start"
        assert info.exists(), run.communicate()[0].decode(errors="replace")
        servers = json.loads(info.read_text())
        assert _running(servers["postgres"]) and _answers(servers["port"]) and _answers(servers["tsa"])
        os.kill(run.pid, signal.SIGKILL)
        run.wait(timeout=30)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    assert _until(lambda: not _running(servers["postgres"]), 60), "PostgreSQL outlived the killed test run"
    assert not _answers(servers["port"]) and not _answers(servers["tsa"])
    assert _until(lambda: not Path(servers["folder"]).exists() and not _running(servers["watchdog"]), 30)
