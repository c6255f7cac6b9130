"""A throwaway PostgreSQL server for the register tests: initdb and pg_ctl into a temporary folder, listening on a
free port on 127.0.0.1 only, stopped and removed afterwards.

The server binaries come from PATH or from Debian's /usr/lib/postgresql/<version>/bin (the `postgresql`
package puts them there, not on PATH). PostgreSQL refuses to run as root; when the tests run as root (as CI
does), initdb and the server run as the unprivileged `postgres` user the package creates (else `nobody`)
through runuser, and the temporary folder is handed to that user.

The server outlives nothing: `start` also starts a watchdog, a small process in its own session holding the read
end of a pipe only this process writes to. When this process ends in any way (SIGKILL included) the pipe closes,
or the watchdog sees its parent change, and it stops the server (`pg_ctl stop -m immediate`) and removes the
folder. `stop`, also registered with atexit, does the same in order and dismisses the watchdog.
"""

from __future__ import annotations

import atexit
import glob
import json
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

REQUIRE_ENV = "RULEGEN_REQUIRE_POSTGRES"

# The watchdog (run as `python -c WATCHDOG PARENT_PID JSON`): waits until its standard input closes or says
# "done", or its parent is no longer PARENT_PID; unless told "done", runs the stop command, then removes the folder.
WATCHDOG = """
import json, os, select, shutil, subprocess, sys
parent, job = int(sys.argv[1]), json.loads(sys.argv[2])
told = b""
while os.getppid() == parent:
    ready, _, _ = select.select([0], [], [], 0.5)
    if ready:
        chunk = os.read(0, 64)
        if not chunk:
            break
        told += chunk
        if b"done" in told:
            sys.exit(0)
if os.path.exists(job["pid_file"]):
    subprocess.run(job["stop"], cwd=job["folder"], stdin=subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
shutil.rmtree(job["folder"], ignore_errors=True)
"""


class PostgresUnavailable(RuntimeError):
    pass


def binaries() -> Path:
    """The folder holding initdb and pg_ctl."""
    candidates = []
    found = shutil.which("initdb")
    if found:
        candidates.append(Path(found).resolve().parent)
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name)
                      if Path(p).parent.name.isdigit() else 0, reverse=True)
    candidates += [Path(p) for p in versions]
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file() and (folder / "postgres").is_file():
            return folder
    raise PostgresUnavailable("no PostgreSQL server binaries (initdb, pg_ctl, postgres) on PATH or in "
                              "/usr/lib/postgresql/*/bin; install the distribution's postgresql package")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _unprivileged_user() -> str:
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            continue
    raise PostgresUnavailable("running as root, and neither a postgres nor a nobody user exists to run the server")


class PostgresServer:
    def __init__(self) -> None:
        self.bin = binaries()
        self.user = _unprivileged_user() if os.geteuid() == 0 else None
        # As root, the folder must be reachable by the server's user: /tmp rather than a TMPDIR under /root.
        self.folder = Path(tempfile.mkdtemp(prefix="rulegen-pg-", dir="/tmp" if self.user and Path("/tmp").is_dir()
                                            else None))
        self.data = self.folder / "data"
        self.port = _free_port()
        self.started = False
        self.watchdog: subprocess.Popen[bytes] | None = None
        self.owner = os.getpid()  # a process forked from this one (a build's renderer) never stops the server

    def _command(self, *arguments: object) -> list[str]:
        command = [str(a) for a in arguments]
        if self.user is None:
            return command
        runner = shutil.which("runuser") or shutil.which("setpriv")
        if runner is None:
            raise PostgresUnavailable("running as root without runuser or setpriv to drop to an unprivileged user")
        if runner.endswith("runuser"):
            return [runner, "-u", self.user, "--", *command]
        entry = pwd.getpwnam(self.user)
        return [runner, f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--clear-groups", *command]

    def _env(self) -> dict[str, str]:
        return {**os.environ, "LC_ALL": "C", "TZ": "UTC"}

    def _run(self, *arguments: object, timeout: float = 120) -> subprocess.CompletedProcess:
        # Its own session: a signal meant for the test run's process group reaches the server only through the
        # test run's own teardown or the watchdog.
        return subprocess.run(self._command(*arguments), capture_output=True, text=True, timeout=timeout,
                              env=self._env(), cwd=str(self.folder), start_new_session=True)

    def _stop_command(self) -> list[str]:
        return self._command(self.bin / "pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")

    def _start_watchdog(self) -> None:
        job = {"stop": self._stop_command(), "folder": str(self.folder), "pid_file": str(self.data / "postmaster.pid")}
        self.watchdog = subprocess.Popen([sys.executable, "-c", WATCHDOG, str(os.getpid()), json.dumps(job)],
                                         stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                         env=self._env(), cwd="/", start_new_session=True)

    def start(self) -> "PostgresServer":
        atexit.register(self.stop)
        try:
            self._start_watchdog()  # before initdb: a run killed while the server starts still leaves nothing
            self._start()
        except BaseException:
            self.stop()
            raise
        return self

    def _start(self) -> None:
        if self.user is not None:
            entry = pwd.getpwnam(self.user)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
        made = self._run(self.bin / "initdb", "-D", self.data, "-U", "rulegen", "--auth=trust", "-E", "UTF8",
                         "--no-sync", "--locale=C")
        if made.returncode:
            raise PostgresUnavailable(f"initdb failed: {made.stderr.strip() or made.stdout.strip()}")
        options = (f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.folder} -c fsync=off "
                   "-c synchronous_commit=off -c full_page_writes=off -c max_connections=40")
        started = self._run(self.bin / "pg_ctl", "-D", self.data, "-l", self.folder / "server.log", "-w", "-t", "60",
                            "-o", options, "start")
        if started.returncode:
            log_file = self.folder / "server.log"
            log = log_file.read_text(errors="replace") if log_file.exists() else ""
            raise PostgresUnavailable(f"pg_ctl start failed: {started.stderr.strip()} {log[-2000:]}")
        self.started = True

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://rulegen@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        import psycopg2

        connection = psycopg2.connect(host="127.0.0.1", port=self.port, user="rulegen", dbname="postgres")
        try:
            connection.autocommit = True
            with connection.cursor() as cursor:
                cursor.execute(f'CREATE DATABASE "{name}"')
        finally:
            connection.close()
        return self.url(name)

    def pid(self) -> int | None:
        """The server's process id (postmaster.pid's first line), while it runs."""
        try:
            return int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, IndexError, ValueError):
            return None

    def stop(self) -> None:
        """Stops the server and removes its folder; a second call does nothing."""
        if os.getpid() != self.owner:
            return
        atexit.unregister(self.stop)
        try:
            self.started = False
            if (self.data / "postmaster.pid").exists():  # also a server whose start failed half-way
                self._run(self.bin / "pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop", timeout=60)
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
            watchdog, self.watchdog = self.watchdog, None
            if watchdog is not None and watchdog.stdin is not None:
                try:
                    watchdog.stdin.write(b"done")
                    watchdog.stdin.close()
                except OSError:
                    pass
                try:
                    watchdog.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    watchdog.kill()
