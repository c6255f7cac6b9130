"""A throwaway PostgreSQL server for the register tests: initdb and pg_ctl into a temporary folder, listening on a
free port on 127.0.0.1 only, stopped and removed afterwards.

The server binaries come from PATH or from Debian's /usr/lib/postgresql/<version>/bin (the `postgresql`
package puts them there, not on PATH). PostgreSQL refuses to run as root; when the tests run as root (as CI
does), initdb and the server run as the unprivileged `postgres` user the package creates (else `nobody`)
through runuser, and the temporary folder is handed to that user.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

REQUIRE_ENV = "RULEGEN_REQUIRE_POSTGRES"


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

    def _run(self, *arguments: str, timeout: float = 120) -> subprocess.CompletedProcess:
        command = [str(a) for a in arguments]
        if self.user is not None:
            runner = shutil.which("runuser") or shutil.which("setpriv")
            if runner is None:
                raise PostgresUnavailable("running as root without runuser or setpriv to drop to an unprivileged user")
            if runner.endswith("runuser"):
                command = [runner, "-u", self.user, "--", *command]
            else:
                entry = pwd.getpwnam(self.user)
                command = [runner, f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--clear-groups", *command]
        return subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                              env={**os.environ, "LC_ALL": "C", "TZ": "UTC"}, cwd=str(self.folder))

    def start(self) -> "PostgresServer":
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
            log = (self.folder / "server.log").read_text(errors="replace") if (self.folder / "server.log").exists() else ""
            raise PostgresUnavailable(f"pg_ctl start failed: {started.stderr.strip()} {log[-2000:]}")
        self.started = True
        return self

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

    def stop(self) -> None:
        try:
            if self.started:
                self._run(self.bin / "pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop", timeout=60)
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
