"""A private PostgreSQL cluster for the store tests: initdb + pg_ctl on a loopback port.

Used by conftest.py; also runnable by hand (``python tests/store/pgcluster.py``
prints a URL and stops the server on Enter).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

__all__ = ["PgCluster", "find_pg_bin"]


def find_pg_bin() -> Path | None:
    """The directory holding initdb and pg_ctl, or None when PostgreSQL is not installed."""
    candidates: list[str] = []
    found = shutil.which("initdb")
    if found:
        candidates.append(str(Path(found).resolve().parent))
    candidates.append("/usr/local/bin")
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                         key=lambda p: [int(x) for x in Path(p).parent.name.split(".")
                                        if x.isdigit()], reverse=True)
    for c in candidates:
        if (Path(c) / "initdb").is_file() and (Path(c) / "pg_ctl").is_file():
            return Path(c)
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PgCluster:
    """Start with :meth:`start`, stop with :meth:`stop` (always, also after failures)."""

    def __init__(self, bindir: Path, fsync: bool = False):
        self.bindir = bindir
        self.fsync = fsync  # off for tests (faster, nothing to keep); on for benchmarks
        # /tmp: short enough for the socket path, and reachable by the server's user
        base = "/tmp" if os.path.isdir("/tmp") and os.access("/tmp", os.W_OK) else None
        self.root = Path(tempfile.mkdtemp(prefix="yacht-pg-", dir=base))
        self.data = self.root / "data"
        self.sock = self.root / "sock"
        self.log = self.root / "server.log"
        self.port = 0
        self.user = "yacht"
        self._runas: list[str] = []
        self.started = False

    def _prepare_user(self) -> None:
        if os.geteuid() != 0:
            return
        for name in ("postgres", "nobody"):  # initdb refuses to run as root
            try:
                pw = pwd.getpwnam(name)
            except KeyError:
                continue
            runuser = shutil.which("runuser")
            self._runas = ([runuser, "-u", name, "--"] if runuser
                           else ["su", name, "-s", "/bin/sh", "-c"])
            os.chown(self.root, pw.pw_uid, pw.pw_gid)
            return
        raise RuntimeError("running as root and no unprivileged user for PostgreSQL")

    def _run(self, *args: str, timeout: float = 60) -> None:
        cmd = [str(self.bindir / args[0]), *args[1:]]
        if self._runas and self._runas[0] == "su":
            import shlex
            cmd = [*self._runas, " ".join(shlex.quote(c) for c in cmd)]
        else:
            cmd = [*self._runas, *cmd]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                           cwd=self.root)
        if p.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"{args[0]} failed ({p.returncode}): {p.stderr.strip()} {log}")

    def start(self) -> str:
        """initdb, start, create the database; returns the postgresql+psycopg URL."""
        self._prepare_user()
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", self.user,
                  "-E", "UTF8", "--locale=C", "--no-sync")
        (self.root / "sock").mkdir()
        if self._runas:
            st = self.root.stat()
            os.chown(self.sock, st.st_uid, st.st_gid)
        for _attempt in range(3):
            self.port = _free_port()
            opts = (f"-p {self.port} -k {self.sock} -c listen_addresses=127.0.0.1 "
                    + ("-c max_connections=200" if self.fsync else
                       "-c fsync=off -c full_page_writes=off -c max_connections=50"))
            try:
                self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", opts,
                          "-w", "-t", "60", "start")
                self.started = True
                break
            except RuntimeError:
                if "already in use" not in (self.log.read_text(errors="replace")
                                            if self.log.exists() else ""):
                    raise
                time.sleep(0.2)
        else:
            raise RuntimeError("could not find a free port for PostgreSQL")
        import psycopg

        with psycopg.connect(host="127.0.0.1", port=self.port, user=self.user,
                             dbname="postgres", autocommit=True) as con:
            con.execute("CREATE DATABASE yacht_test")
        return f"postgresql+psycopg://{self.user}@127.0.0.1:{self.port}/yacht_test"

    def restart(self) -> None:
        """Stop the server (every connection dropped) and start it again on its port."""
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-m", "fast",
                  "-w", "-t", "60", "restart")

    def stop(self) -> None:
        try:
            if self.started:
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
                self.started = False
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


if __name__ == "__main__":  # pragma: no cover - manual use
    bindir = find_pg_bin()
    if bindir is None:
        raise SystemExit("PostgreSQL binaries not found")
    c = PgCluster(bindir)
    try:
        print(c.start(), flush=True)
        input("Enter stops the server ")
    finally:
        c.stop()
