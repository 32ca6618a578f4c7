"""How long the terminal game takes to show its first screen (not a test: run it).

    .venv/bin/python tests/tui/measure_startup.py [--runs 5] [--pycache] [--src DIR]

Starts the installed ``yacht`` command in a real terminal (a detached session of a
tmux server of its own, 120x40) with an empty config and store, and polls
``tmux capture-pane`` every 10 ms until the first screen's text shows: the setup
screen for ``yacht``, the table for ``yacht play yatzy --players Ann``. Prints each
run and the median, in seconds, from starting the session to the text on screen.

``--pycache`` lets Python write its bytecode (into a temporary folder, warmed by one
run first), as an installed package has it; by default the environment decides
(``PYTHONDONTWRITEBYTECODE`` makes every start compile the game's own modules).
``--src DIR`` puts another source tree first on the path (to compare with an
older checkout). ``--importtime`` also prints the slowest imports of the start.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

YACHT = Path(sys.executable).parent / "yacht"
CASES = [
    ("setup screen: yacht", [], "Players (1-8)"),
    ("a game at once: yacht play yatzy --players Ann",
     ["play", "yatzy", "--players", "Ann"], "press r or Enter"),
]


#: a tmux server of its own (not the user's), kept up between the runs by one idle
#: session: a server that exits with its last session races the next one's start
SOCKET = f"yacht-measure-{os.getpid()}"


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", "-L", SOCKET, *args], capture_output=True, text=True,
                          check=False).stdout


def first_screen(args: list[str], text: str, env: dict[str, str], limit: float = 30.0) -> float:
    """Seconds from starting ``yacht ARGS`` in tmux until ``text`` is on its screen."""
    with tempfile.TemporaryDirectory() as tmp:
        session = f"yacht-start-{os.getpid()}-{Path(tmp).name}"
        settings = {**env, "YACHT_DB": f"{tmp}/db.sqlite3", "YACHT_CONFIG_DIR": f"{tmp}/cfg",
                    "TERM": "xterm-256color"}
        command = " ".join(["env", *(f"{k}={v}" for k, v in settings.items()), str(YACHT),
                            *args, "; sleep 30"])  # a failed start stays readable
        start = time.monotonic()
        tmux("new-session", "-d", "-s", session, "-x", "120", "-y", "40", command)
        screen = ""
        try:
            while time.monotonic() - start < limit:
                screen = tmux("capture-pane", "-t", session, "-p")
                if text in screen:
                    return time.monotonic() - start
                time.sleep(0.01)
            raise SystemExit(f"{text!r} did not appear within {limit} s; the screen:\n{screen}")
        finally:
            tmux("kill-session", "-t", session)


def import_times(env: dict[str, str], top: int = 15) -> str:
    """The slowest imports (cumulative, microseconds) of the game's start."""
    code = ("import yacht.cli; yacht.cli.make_parser(); import yacht.tui; "
            "import yacht.tui.screens.setup, yacht.tui.screens.game")
    out = subprocess.run([sys.executable, "-X", "importtime", "-c", code], env=env,
                         capture_output=True, text=True, check=False).stderr
    rows = []
    for line in out.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            rows.append((int(parts[1]), parts[2].rstrip()))
    rows.sort(reverse=True)
    return "\n".join(f"{us / 1e6:8.3f} s {name}" for us, name in rows[:top])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--pycache", action="store_true",
                        help="with a (warm) bytecode cache, as an installed package")
    parser.add_argument("--src", default=None, help="a source tree to put first on the path")
    parser.add_argument("--importtime", action="store_true")
    args = parser.parse_args()
    if shutil.which("tmux") is None or not YACHT.exists():
        print("needs tmux and the installed yacht command", file=sys.stderr)
        return 2
    env: dict[str, str] = {}
    cache = None
    if args.pycache:
        cache = tempfile.mkdtemp(prefix="yacht-pyc-")
        env.update(PYTHONDONTWRITEBYTECODE="", PYTHONPYCACHEPREFIX=cache)
    if args.src:
        env["PYTHONPATH"] = str(Path(args.src).resolve())
    tmux("new-session", "-d", "-s", "keeper", "-x", "20", "-y", "5", "sleep 3600")
    try:
        if args.importtime:
            print(import_times({**os.environ, **env}))
        for title, argv, text in CASES:
            if cache:
                first_screen(argv, text, env)  # fills the bytecode cache
            times = [first_screen(argv, text, env) for _ in range(args.runs)]
            print(f"{title}: median {statistics.median(times):.3f} s "
                  f"(runs: {', '.join(f'{t:.3f}' for t in times)})")
    finally:
        tmux("kill-server")
        if cache:
            shutil.rmtree(cache, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
