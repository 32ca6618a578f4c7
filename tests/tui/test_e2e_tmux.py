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


def test_a_player_added_at_45x14_is_drawn_in_the_terminal(tmp_path: Path) -> None:
    """F3 at 45x14 gave the new player's name field the focus below the window; scrolled
    there, the terminal kept the form's old rows with the field drawn over one of them
    ('YahPlayer 3     on - +100 per extra'). The rows of the players are drawn (QA s25).
    COLUMNS and LINES of another size in the environment (as some shells export them)
    drew the window as 80x24: its top scrolled away, the key bar's second line cut."""
    session = f"yacht-add-{tmp_path.name}"[:50]
    cmd = (f"env HOME={tmp_path} YACHT_DB={tmp_path / 'db.sqlite3'} COLUMNS=80 LINES=24 "
           f"YACHT_CONFIG_DIR={tmp_path / 'cfg'} TERM=xterm-256color {YACHT}; sleep 30")
    tmux("new-session", "-d", "-s", session, "-x", "45", "-y", "14", cmd)
    try:
        screen = wait_for(session, "F6 Top ten")  # (the key bar's second line)
        assert "F3 + Player" in screen
        tmux("send-keys", "-t", session, "F3")
        screen = wait_for(session, "3. Player 3")
        assert "Players (1-8)" in screen and "2. Computer" in screen, screen
        tmux("send-keys", "-t", session, "-l", "Zed")
        wait_for(session, "3. Zed")  # (not 'YahZed': over the rows of before)
    finally:
        tmux("kill-session", "-t", session)
