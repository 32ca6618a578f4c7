"""Every command-line entry point, run in-process (``yacht.cli.main``) on arbitrary Unicode
text and bytes: a result (exit 0) or one error line (exit 2), never a traceback, and no
file changed that the command was not asked to write.

Each example runs in a fresh temporary folder holding a copy of a small database (two
finished games, one unfinished) and a game record; the folder's files are compared
before and after. Arguments that name a file to write are drawn without ``/`` (the
folder is the current directory) and free text never starts with ``-`` (so it cannot
become an abbreviated ``--out``); numbers that would start long work are made small.
Standard output is strict UTF-8, as on a terminal: text that cannot be shown fails.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yacht.cli import main
from yacht.engine import Player, Record, Roll, State, random_turn
from yacht.rules import get

#: examples per property (YACHT_FUZZ_EXAMPLES for a longer hunt)
FUZZ = settings(max_examples=int(os.environ.get("YACHT_FUZZ_EXAMPLES", "60")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

#: variants whose solver tables are quick to build or load
CHEAP = ["yatzy", "yahtzee", "crag", "tommys-crag", "sackson-yacht", "tommys-yahtzee"]


# --- the world each example runs in -----------------------------------------------------
@pytest.fixture(scope="module")
def template() -> Iterator[tuple[Path, dict[str, str]]]:
    """A database and a record, made once; each example works on a copy."""
    import random

    from yacht.store import open_store

    root = Path(tempfile.mkdtemp(prefix="yacht-fuzz-"))
    db = root / "games.db"
    ids: dict[str, str] = {}
    with open_store(str(db)) as store:
        for seed in range(2):
            s = State(get("yatzy"), [Player(f"P{seed}"), Player("Cpu", "computer", "random")],
                      rng=random.Random(seed))
            rng = random.Random(seed + 10)
            while not s.is_terminal():
                random_turn(s, rng)
            gid = store.start_game(Record.from_state(s))
            store.finish_game(gid, s)
            ids["finished"] = gid
        gid = store.start_game(Record("yatzy", {}, [Player("Ann"), Player("Bo")]))
        store.append_action(gid, 0, Roll((1, 2, 3, 4, 5)))
        ids["unfinished"] = gid
        rec = store.load_record(ids["finished"])
    rec.save(root / "game.json")
    try:
        yield root, ids
    finally:
        shutil.rmtree(root, ignore_errors=True)


def snapshot(folder: Path) -> dict[str, str]:
    out = {}
    for p in sorted(folder.rglob("*")):
        if p.is_file():
            out[str(p.relative_to(folder))] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def games_in(db: Path) -> list[tuple[str, int, bool]]:
    """What the database holds, read without writing: (id, actions, finished) per game."""
    from yacht.store import open_store

    with open_store(str(db), readonly=True) as s:
        return sorted((g.id, g.actions, g.finished is not None)
                      for g in s.unfinished_games() + s.finished_games())


@contextlib.contextmanager
def world(template: tuple[Path, dict[str, str]]) -> Iterator[Path]:
    """A fresh folder (the current directory) with copies of the database and the record;
    the environment points every yacht folder into it."""
    root, _ = template
    folder = Path(tempfile.mkdtemp(prefix="yacht-fuzz-"))
    shutil.copy(root / "games.db", folder / "games.db")
    shutil.copy(root / "game.json", folder / "game.json")
    old_env = {k: os.environ.get(k) for k in ("YACHT_DB", "YACHT_CONFIG_DIR")}
    old_cwd = os.getcwd()
    os.environ["YACHT_DB"] = str(folder / "games.db")
    os.environ["YACHT_CONFIG_DIR"] = str(folder / "config")
    os.chdir(folder)
    try:
        yield folder
    finally:
        os.chdir(old_cwd)
        for k, v in old_env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        shutil.rmtree(folder, ignore_errors=True)


def call(argv: list[str]) -> tuple[int, str, str]:
    """``main(argv)`` with a strict UTF-8 stdout (as a terminal), stderr as Python's own
    (backslashreplace) and an empty stdin that is not a terminal."""
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict")
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace")
    saved = sys.stdout, sys.stderr, sys.stdin
    sys.stdout, sys.stderr, sys.stdin = out, err, io.StringIO("")
    try:
        try:
            code = main(argv)
        except SystemExit as e:  # argparse: --help, --version, its own errors
            code = e.code if isinstance(e.code, int) else 2
    finally:
        sys.stdout, sys.stderr, sys.stdin = saved
    out.flush()
    err.flush()
    texts = [f.buffer.getvalue().decode("utf-8", "replace")  # type: ignore[attr-defined]
             for f in (out, err)]
    return code, texts[0], texts[1]


def check(argv: list[str], folder: Path, writes: Callable[[int], set[str]] | None = None,
          db_may_change: bool = False) -> tuple[int, str, str]:
    """Run ``argv``; exit 0, or exit 2 with one error line; only the files ``writes(code)``
    names (and the database when ``db_may_change``) may change."""
    before = snapshot(folder)
    games = games_in(folder / "games.db")
    code, out, err = call(argv)
    assert code in (0, 2), (argv, code, err)
    assert "Traceback" not in err, (argv, err)
    if code == 2:
        lines = err.splitlines()
        assert len(lines) == 1 and lines[0].startswith("yacht") and "error: " in lines[0], \
            (argv, err)
    after = snapshot(folder)
    allowed = writes(code) if writes else set()
    changed = {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}
    if db_may_change and code == 0:
        changed = {k for k in changed if not k.startswith("games.db")}
    elif db_may_change:  # refused: the game as it was (the file may be rewritten by SQLite)
        assert games_in(folder / "games.db") == games, argv
        changed = {k for k in changed if not k.startswith("games.db")}
    assert changed <= allowed, (argv, changed)
    return code, out, err


# --- what is typed ------------------------------------------------------------------------
def _free(text: str) -> str:
    """Free text never starts with - (it could become an abbreviated --out)."""
    return "x" + text if text.startswith("-") else text


FREE = st.one_of(st.text(max_size=30), st.binary(max_size=30).map(os.fsdecode)).map(_free)
NUMBERS = st.one_of(st.integers(-3, 10**20).map(str), st.sampled_from(["-0", "+1", "1_0"]),
                    st.text(alphabet="0123456789²①１٥ -", max_size=8))
NUM = st.one_of(NUMBERS, FREE)


def variant(cheap_only: bool = True) -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(CHEAP), FREE)


def options() -> st.SearchStrategy[list[str]]:
    item = st.one_of(st.sampled_from(["joker=free", "joker=none", "bonus=off", "Joker=FREE",
                                      "rolls=3", "joker", "=x", "joker=３"]), FREE)
    return st.lists(st.tuples(st.sampled_from(["-o", "--option"]), item), max_size=3).map(
        lambda pairs: [x for pair in pairs for x in pair])


def flags(*names: str) -> st.SearchStrategy[list[str]]:
    return st.lists(st.sampled_from(names), max_size=len(names), unique=True)


def out_name() -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(["out.json", "game.json", "", ".", "..", "new dir/x"]),
                     st.text(max_size=20).filter(lambda t: "/" not in t).map(_free))


def small(text: str, most: int) -> str:
    """A number that would start a long run becomes ``most``."""
    m = re.fullmatch(r"[ \t]*(-?[0-9]+)[ \t]*", text)
    return str(most) if m and int(m.group(1)) > most else text


def opt(flag: str, values: st.SearchStrategy[str]) -> st.SearchStrategy[list[str]]:
    return st.one_of(st.just([]), values.map(lambda v: [flag, v]))


# --- the commands -------------------------------------------------------------------------
@FUZZ
@given(st.data())
@pytest.mark.slow
def test_variants_rules_score(template: Any, data: st.DataObject) -> None:
    argv = data.draw(st.one_of(
        st.tuples(st.just(["score"]), variant().map(lambda v: [v]),
                  st.one_of(FREE, st.text(alphabet="123456,, ²①１٥\t", max_size=14)).map(
                      lambda d: [d]), options(), flags("--json")),
        st.tuples(st.just(["rules"]), variant().map(lambda v: [v]), options(),
                  flags("--json")),
        st.tuples(st.just(["variants"]), flags("--json"), st.just([]), st.just([]),
                  st.just([])),
    ).map(lambda parts: [x for part in parts for x in part]))
    with world(template) as folder:
        check(argv, folder)


@FUZZ
@given(st.one_of(st.binary(max_size=300), st.sampled_from([b"[" * 5000 + b"]" * 5000,
                                                           b"1" * 5000, b"{}", b"\xff"])),
       st.one_of(st.just("g2.json"), FREE), flags("--json"))
@pytest.mark.slow
def test_replay(template: Any, data: bytes, name: str, extra: list[str]) -> None:
    with world(template) as folder:
        (folder / "g2.json").write_bytes(data)
        check(["replay", name, *extra], folder)
        code, out, _ = check(["replay", "game.json", *extra], folder)
        assert code == 0 and out


@FUZZ
@given(variant(), out_name(), opt("--players", NUM), opt("--seed", NUM), options(),
       flags("--json"))
def test_selfplay(template: Any, var: str, out: str, players: list[str], seed: list[str],
                  opts: list[str], extra: list[str]) -> None:
    argv = ["selfplay", var, "--out", out, *players, *seed, *opts, *extra]
    with world(template) as folder:
        code, _, _ = check(argv, folder, writes=lambda code: {out} if code == 0 else set())
        if code == 0:
            from yacht.parsing import read_record

            assert read_record(out).final_state().is_terminal()


SITUATION = st.one_of(
    FREE,
    st.tuples(st.text(alphabet="123456,-²１", min_size=1, max_size=7),
              st.sampled_from(["r0", "r1", "r2", "r9", "R1", "r２", "t3", ""]),
              st.sampled_from(["", "ones=3", "ones=3,fours=12", "yahtzee=50,extra=100",
                               "extra=50", "ones=3,,fours=12", "chance=５"])
              ).map(" ".join))
CARD = st.one_of(st.sampled_from(["ones=3", "yahtzee=50,extra=100", "extra=50", "ones=3,",
                                  "col2:ones=3", "ones@1=3", "ones=-3"]), FREE)


@FUZZ
@given(st.data())
def test_advise(template: Any, data: st.DataObject) -> None:
    var = data.draw(variant())
    if data.draw(st.booleans()):
        argv = ["advise", var, data.draw(SITUATION)]
    else:
        argv = ["advise", var, "--dice", data.draw(st.one_of(FREE, st.sampled_from(
            ["12345", "1,2,3,4,5", "123", "66666"])))]
        argv += data.draw(opt("--card", CARD)) + data.draw(opt("--turn", NUM))
        argv += data.draw(opt("--rolls-left", NUM))
    argv += data.draw(opt("--top", NUM)) + data.draw(options()) + data.draw(flags("--json"))
    with world(template) as folder:
        check(argv, folder)


@FUZZ
@given(variant(), st.one_of(st.sampled_from(["expert", "random", "beginner", "Expert "]),
                            FREE), NUM, opt("--seed", NUM), opt("--workers", NUM), options(),
       flags("--json"))
def test_simulate(template: Any, var: str, level: str, games: str, seed: list[str],
                  workers: list[str], opts: list[str], extra: list[str]) -> None:
    fast = level.strip().lower() in ("expert", "random")
    workers = [workers[0], small(workers[1], 1)] if workers else []  # no process pools here
    argv = ["simulate", var, "--player", level, "--games", small(games, 40 if fast else 2),
            *seed, *workers, *opts, *extra]
    with world(template) as folder:
        check(argv, folder)


@FUZZ
@given(variant(), out_name(), NUM, opt("--seed", NUM),
       opt("--format", st.one_of(st.sampled_from(["jsonl", "parquet", "JSONL", "csv"]), FREE)),
       options(), flags("--json", "--to-come"))
def test_export(template: Any, var: str, out: str, situations: str, seed: list[str],
                fmt: list[str], opts: list[str], extra: list[str]) -> None:
    argv = ["export", var, "--out", out, "--situations", small(situations, 30), *seed, *fmt,
            *opts, *extra]
    with world(template) as folder:
        check(argv, folder, writes=lambda code: {out} if code == 0 else set())


@FUZZ
@given(variant(), opt("--workers", NUM), options(), flags("--json", "--quiet"))
def test_solve(template: Any, var: str, workers: list[str], opts: list[str],
               extra: list[str]) -> None:
    workers = [workers[0], small(workers[1], 2)] if workers else []
    with world(template) as folder:
        check(["solve", var, *workers, *opts, *extra], folder)


@FUZZ
@given(st.data())
def test_scores_and_stats(template: Any, data: st.DataObject) -> None:
    if data.draw(st.booleans()):
        argv = ["scores", *data.draw(st.one_of(st.just([]), variant().map(lambda v: [v])))]
        argv += data.draw(options()) + data.draw(flags("--assisted", "--json"))
    else:
        argv = ["stats", *data.draw(st.one_of(st.just([]), st.sampled_from(
            ["P0", "p1", "Cpu", "Ann\x1b[2J"]).map(lambda v: [v]), FREE.map(lambda v: [v])))]
        argv += data.draw(flags("--computers", "--json"))
    # reading never creates or changes a database, wherever --db points (no servers here)
    db = data.draw(st.one_of(st.just("games.db"), FREE.filter(lambda t: "://" not in t),
                             st.sampled_from(["", "none.db", "sqlite:///none.db", "/",
                                              "sqlite://", "x" * 300, "game.json"])))
    with world(template) as folder:
        check([*argv, "--db", db], folder)


ACTION = st.one_of(st.sampled_from(["roll", "roll 1,2,3,4,5", "choose 1,3", "choose 1,1",
                                    "choose ²", "13", "1,,3", "score chance", "c", "C",
                                    "score chance 2", "take-back", "give-back", "computer",
                                    "a", "s", ""]), FREE)


@FUZZ
@given(st.data())
@pytest.mark.slow
def test_resume(template: Any, data: st.DataObject) -> None:
    _, ids = template
    gid = data.draw(st.one_of(st.sampled_from([ids["unfinished"], ids["finished"],
                                               ids["unfinished"][:4].upper(), "0", "zz"]),
                              FREE))
    kind = data.draw(st.sampled_from(["list", "show", "json", "action", "delete", "export"]))
    argv = ["resume"] if kind == "list" else ["resume", gid]
    out = ""
    if kind == "list":
        argv += data.draw(flags("--finished", "--json"))
    elif kind in ("show", "json"):
        argv.append(f"--{kind}")
    elif kind == "action":
        argv += ["--action", data.draw(ACTION)] + data.draw(flags("--json"))
    elif kind == "delete":
        argv.append("--delete")
    else:
        out = data.draw(out_name())
        argv += ["--export", out]
    argv += ["--db", "games.db"]
    with world(template) as folder:
        code, _, _ = check(argv, folder,
                           writes=lambda code: {out} if out and code == 0 else set(),
                           db_may_change=kind in ("action", "delete"))
        if kind == "export" and code == 0:
            assert Path(out).is_file()


PLAYERS = st.one_of(st.sampled_from(["Ann", "Ann,Bob", "Ann,ann", "Ann,cpu:expert", "cpu,cpu",
                                     "Ann\x1b[2J", "Ann,,Bob", ",".join("abcdefghi"),
                                     "Max=cpu:beginner", "cpu:grandmaster"]), FREE)


@FUZZ
@given(st.one_of(st.just([]), st.sampled_from(["crag", "yatzy"]).map(lambda v: [v]),
                 FREE.map(lambda v: [v])),
       options(), opt("--players", PLAYERS), opt("--seed", NUM),
       opt("--speed", st.sampled_from(["instant", "fast", "warp"])),
       opt("--resume", st.one_of(st.sampled_from(["0", "zz", "abcdef"]), FREE)))
@pytest.mark.slow
def test_play_plain(template: Any, var: list[str], opts: list[str], players: list[str],
                    seed: list[str], speed: list[str], resume: list[str]) -> None:
    argv = ["play", *var, *opts, *players, *seed, *speed, *resume, "--plain"]
    with world(template) as folder:
        check(argv, folder, writes=lambda code: {"config/setup.json"}, db_may_change=True)


def test_help_and_version(template: Any) -> None:
    with world(template) as folder:
        for argv in (["--help"], ["--version"], ["advise", "--help"], []):
            code, out, _ = check(argv if argv else ["--help"], folder)
            assert code == 0 and out


def test_the_listed_cases(template: Any) -> None:
    """The inputs of issue 12, each one line and exit 2."""
    _, ids = template
    cases = [
        ["score", "yahtzee", "²2345"], ["score", "yahtzee", "１２３４５"],
        ["score", "yahtzee", "1,2,3,4,٥"], ["score", "yahtzee", "1,,2,3,4,5"],
        ["score", "yahtzee", "1,2,3,4,5,"], ["advise", "yahtzee", "--dice", "①2345"],
        ["advise", "yahtzee", "--dice", "12345", "--turn", "99"],
        ["advise", "yahtzee", "--dice", "12345", "--card", "extra=50"],
        ["rules", "yahtzee", "-o", "joker=free", "-o", "joker=none"],
        ["selfplay", "yahtzee", "--out", ""], ["replay", "deep.json"],
        ["resume", ids["unfinished"], "--action", "choose ²", "--db", "games.db"],
        ["play", "--players", "Ann,Ann", "--plain"],
        ["play", "--players", "Ann\x1b[2J", "--plain"],
    ]
    with world(template) as folder:
        (folder / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
        for argv in cases:
            code, _, err = check(argv, folder, db_may_change=True)
            assert code == 2, (argv, err)
        assert call(["resume", ids["unfinished"], "--action", "choose 1,3", "--db",
                     "games.db"])[0] == 0  # (the form that is accepted)
        code, _, err = check(["resume", ids["unfinished"], "--action", "choose 1,1", "--db",
                              "games.db"], folder, db_may_change=True)
        assert code == 2 and "named twice" in err
