"""Fixtures of the browser tests: the real server (``python -m yacht web``) in a
subprocess on a private database, and Debian's Chromium driven by Playwright.

Every test runs its browser inside ``asyncio.run`` (Playwright's async API: this
suite has no pytest-asyncio, and the sync API would clash with asyncio). Screenshots
go to ``screenshots/`` in the run's temporary folder (``YACHT_SCREENSHOTS`` to put
them elsewhere).
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"

if not Path(CHROMIUM).exists():  # .ci/run installs Debian's chromium
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)",
                allow_module_level=True)
pytest.importorskip("playwright.async_api", reason="playwright is in the test extra")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """``yacht web`` on 127.0.0.1 with a database of its own; it can be killed and
    started again on the same port and database."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.db = folder / "web.sqlite3"
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> None:
        self.starts += 1
        log = open(self.folder / f"server-{self.starts}.log", "wb")  # noqa: SIM115
        cmd = [sys.executable, "-m", "yacht", "web", "--host", "127.0.0.1",
               "--port", str(self.port), "--db", str(self.db), "--log-level", "warning"]
        self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT,
                                     env=dict(os.environ), start_new_session=True)
        log.close()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"yacht web stopped at start: {self.log_text()}")
            try:
                if self.get("/healthz")["ok"]:
                    return
            except (OSError, ValueError):
                pass
            time.sleep(0.1)
        raise AssertionError(f"yacht web did not answer in 60 s: {self.log_text()}")

    def log_text(self) -> str:
        return "\n".join(p.read_text(errors="replace")[-2000:]
                         for p in sorted(self.folder.glob("server-*.log")))

    def kill9(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)

    def url(self, path: str) -> str:
        return self.base + path

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url(path), timeout=10) as r:
            return json.loads(r.read())

    def post(self, path: str, body: Any) -> Any:
        req = urllib.request.Request(self.url(path), data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return json.loads(r.read())
        except urllib.error.HTTPError as e:
            raise AssertionError(f"POST {path}: {e.code} {e.read()!r}") from None

    def snapshot(self, table_id: str) -> dict[str, Any]:
        """The table as a watcher sees it: the server's truth."""
        table: dict[str, Any] = self.get(f"/api/tables/{table_id}")
        return table


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("web-server"))
    s.start()
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[Server]:
    """A server of the test's own (to kill and start again)."""
    s = Server(tmp_path)
    s.start()
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the screenshots of the main screens go (shared by the run's workers)."""
    chosen = os.environ.get("YACHT_SCREENSHOTS")
    if chosen:
        folder = Path(chosen)
    else:
        base = tmp_path_factory.getbasetemp()
        if os.environ.get("PYTEST_XDIST_WORKER"):
            base = base.parent
        folder = base / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


AXE_VERSION = "4"


@pytest.fixture(scope="session")
def axe_script() -> Path:
    """axe-core's script, installed from npm into a private folder when not there."""
    folder = Path(os.environ.get("YACHT_AXE_DIR", "/tmp/yacht-test-axe-core"))
    script = folder / "node_modules" / "axe-core" / "axe.min.js"
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "w") as lock:  # one worker installs, the other waits
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not script.exists():
            _install_axe(folder)
    if not script.exists():
        pytest.skip("axe-core could not be installed from npm")
    return script


def _install_axe(folder: Path) -> None:
    env = dict(os.environ, npm_config_cache=str(folder / ".npm"),
               npm_config_update_notifier="false")
    try:
        proc = subprocess.run(
            ["npm", "install", "--no-save", "--no-audit", "--no-fund", "--prefix",
             str(folder), f"axe-core@{AXE_VERSION}"],
            capture_output=True, text=True, timeout=300, env=env)
    except (OSError, subprocess.TimeoutExpired) as e:
        pytest.skip(f"axe-core could not be installed from npm: {e}")
    if proc.returncode != 0:
        pytest.skip(f"axe-core could not be installed from npm: {proc.stderr[-300:]}")
