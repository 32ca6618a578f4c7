"""End to end: the installed `yacht` command in a real terminal (tmux), a whole game by keys."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from yacht.rules import get
from yacht.session import category_keys

YACHT = Path(sys.executable).parent / "yacht"
pytestmark = pytest.mark.skipif(shutil.which("tmux") is None or not YACHT.exists(),
                                reason="needs tmux and the installed yacht command")


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=False).stdout


def wait_for(session: str, text: str, limit: float = 30.0) -> str:
    end = time.monotonic() + limit
    screen = ""
    while time.monotonic() < end:
        screen = tmux("capture-pane", "-t", session, "-p")
        if text in screen:
            return screen
        time.sleep(0.1)
    raise AssertionError(f"{text!r} did not appear; the screen shows:\n{screen}")


def test_a_whole_game_in_tmux(tmp_path: Path) -> None:
    session = f"yacht-e2e-{tmp_path.name}"[:50]
    rc = tmp_path / "rc"
    cmd = (f"env YACHT_DB={tmp_path / 'db.sqlite3'} YACHT_CONFIG_DIR={tmp_path / 'cfg'} "
           f"TERM=xterm-256color {YACHT} play tommys-crag --players Ann --seed 7 --no-sound; "
           f"echo $? > {rc}; sleep 30")
    tmux("new-session", "-d", "-s", session, "-x", "80", "-y", "24", cmd)
    try:
        wait_for(session, "press r or Enter")
        keys = list(category_keys(get("tommys-crag")).values())
        for i, key in enumerate(keys):
            tmux("send-keys", "-t", session, "r")
            wait_for(session, "Choose dice to re-roll")
            tmux("send-keys", "-t", session, key)
            if i < len(keys) - 1:
                wait_for(session, "Ann: press r or Enter")
        screen = wait_for(session, "Game over")
        tmux("send-keys", "-t", session, "Enter")
        screen = wait_for(session, "Top ten (t)")
        assert "Ann scored" in screen and "expert's average" in screen
        tmux("send-keys", "-t", session, "t")  # the top ten: a page of its own
        screen = wait_for(session, "a new entry")
        assert "1*" in screen  # the new entry, highlighted
        tmux("send-keys", "-t", session, "Escape")
        wait_for(session, "Play again")
        tmux("send-keys", "-t", session, "q")
        end = time.monotonic() + 15
        while not rc.exists() and time.monotonic() < end:
            time.sleep(0.1)
        assert rc.read_text().strip() == "0"
    finally:
        tmux("kill-session", "-t", session)
