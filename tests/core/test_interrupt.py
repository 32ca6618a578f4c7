"""Ctrl-C stops a long command at once: exit status 130, one line, no worker left running,
nothing half-written. Real processes and real SIGINT; the only clock is a generous bound
on how long they may take to end (never an assertion on speed)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from yacht.cli.interrupt import _own_temp_files, run_interruptible

YACHT = str(Path(sys.executable).with_name("yacht"))
BOUND = 60.0  # seconds: far more than any of these may take to end once interrupted
#: seconds a command may take to do the CPU work a test waits for before it interrupts:
#: the CPU comes slowly to a process on a loaded machine (a suite run niced beside other
#: work gave one 4 CPU s in more than 60 s), and pytest's timeout (300 s) still stops a hang
READY = 240.0


def _stat(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _children(pid: int) -> list[int]:
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            st = _stat(int(d))
            if st is not None and int(st[1]) == pid:
                out.append(int(d))
    return out


def _cpu(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        st = _stat(pid)
        if st is not None:
            total += (int(st[11]) + int(st[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _running(pid: int) -> bool:
    st = _stat(pid)
    return st is not None and st[0] not in ("Z", "X")


def _ctrl_c_as_at_a_terminal() -> None:
    """In the child before it starts: Ctrl-C's default action. A suite started in the
    background (``cmd &`` in a script, nohup) has SIGINT ignored, and a child inherits
    that: a command rightly ignores Ctrl-C then, which is not what is tested here."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _interrupt(argv: list[str], busy: float, env: dict[str, str] | None = None,
               group: bool = False) -> tuple[subprocess.Popen[str], str, list[int]]:
    """Start ``yacht ARGV``, wait until it (with its children) has worked ``busy`` CPU
    seconds, send SIGINT (to its whole process group with ``group``, as a terminal does);
    returns the process, its stderr and the children it had."""
    if not Path("/proc/self/stat").exists():
        pytest.skip("needs /proc to see how far the process got")
    proc = subprocess.Popen([YACHT, *argv], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, env=env, start_new_session=group,
                            preexec_fn=_ctrl_c_as_at_a_terminal)
    try:
        deadline = time.monotonic() + READY
        while _cpu([proc.pid, *_children(proc.pid)]) < busy:
            assert proc.poll() is None, proc.communicate()[1]
            assert time.monotonic() < deadline, "the command never got busy"
            time.sleep(0.05)
        kids = _children(proc.pid)
        if group:
            os.killpg(proc.pid, signal.SIGINT)
        else:
            proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=BOUND)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc, err, kids


def _one_line(err: str) -> None:
    assert err == "yacht: interrupted\n", err


def test_simulate_expert_stops(tmp_path: Path) -> None:
    proc, err, _ = _interrupt(["simulate", "yahtzee", "--games", "100000000", "--seed", "1"],
                              busy=2.5)
    assert proc.returncode == 130
    _one_line(err)


def test_simulate_with_worker_processes_stops_them(tmp_path: Path) -> None:
    proc, err, kids = _interrupt(["simulate", "yatzy", "--player", "intermediate", "--games",
                                  "100000000", "--workers", "2"], busy=2.5, group=True)
    assert proc.returncode == 130
    _one_line(err)  # the workers say nothing: Ctrl-C is their parent's to answer
    assert kids
    deadline = time.monotonic() + BOUND
    while any(_running(k) for k in kids):
        assert time.monotonic() < deadline, [k for k in kids if _running(k)]
        time.sleep(0.05)


@pytest.mark.slow
def test_solve_of_a_big_table_stops_and_writes_nothing(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    env = {**os.environ, "YACHT_CACHE_DIR": str(cache)}
    proc, err, _ = _interrupt(["solve", "ancient-yacht-double"], busy=4.0, env=env)
    assert proc.returncode == 130
    _one_line(err)
    assert list(cache.iterdir()) == []


def test_selfplay_ends_with_its_file_whole_or_absent(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    proc = subprocess.Popen([YACHT, "selfplay", "ancient-yacht-10", "--players", "8",
                             "--out", str(out)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=_ctrl_c_as_at_a_terminal)
    # somewhere in its run, or after it: either way the same promise. (Its CPU time
    # says it is past the interpreter's start, where the installed script itself
    # imports modules and no program can answer Ctrl-C with one line yet; half a
    # second, as a fresh clone's first imports also compile them: at a quarter a loaded
    # fresh-clone run sent the signal during them, returncode -2.)
    deadline = time.monotonic() + READY
    while proc.poll() is None and _cpu([proc.pid]) < 0.5:
        assert time.monotonic() < deadline, "the command never got past its start"
        time.sleep(0.01)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=BOUND)
    assert proc.returncode in (0, 130) and "Traceback" not in err
    assert [p.name for p in tmp_path.iterdir()] in ([], ["game.json"])
    if out.exists():
        from yacht.parsing import read_record

        assert read_record(str(out)).final_state().is_terminal()


# --- the helper itself --------------------------------------------------------------------
def test_run_interruptible_returns_and_raises() -> None:
    assert run_interruptible(lambda stop: 6 * 7) == 42
    with pytest.raises(ZeroDivisionError):
        run_interruptible(lambda stop: 1 // 0)
    seen: list[bool] = []
    t = threading.Thread(target=lambda: seen.append(run_interruptible(
        lambda stop: threading.current_thread() is not threading.main_thread())))
    t.start()
    t.join()
    assert seen == [True]  # off the main thread: run right there


def test_own_temp_files_are_the_open_ones(tmp_path: Path) -> None:
    if not Path("/proc/self/fd").is_dir():
        pytest.skip("needs /proc/self/fd")
    mine = tmp_path / ".tmp-abc"
    other = tmp_path / ".tmp-closed"
    other.write_text("x")
    save = tmp_path / f".game.json.{os.getpid()}.tmp"
    with open(mine, "w"), open(save, "w"):
        found = set(_own_temp_files())
    assert mine in found and save in found and other not in found
