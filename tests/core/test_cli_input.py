"""Bad and conflicting input on the command line: one line naming the problem and what is
accepted, exit status 2, nothing started, nothing overwritten (the audit of s18)."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from yacht.cli import main
from yacht.engine import Player, Roll
from yacht.rules import get
from yacht.session import ScoreBox
from yacht.session.table import LOCAL, Table
from yacht.store import open_store


def fail(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The one line of a refused command (exit 2), with nothing on the output."""
    try:
        code = main(list(argv))
    except SystemExit as e:  # argparse's own refusals
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    assert code == 2 and out == "", (code, out, err)
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0, capsys.readouterr().err
    return capsys.readouterr().out


# --- yacht web --------------------------------------------------------------------------

@pytest.fixture
def busy_port() -> Iterator[str]:
    """A port already taken: were the input taken (as it was before), no server starts."""
    import socket

    with socket.socket() as busy:
        busy.bind(("0.0.0.0", 0))
        busy.listen()
        yield str(busy.getsockname()[1])


@pytest.mark.parametrize("url", ["notaurl", "redis://host:abc", "redis://host:99999",
                                 "redis://host/zero", "unix://", ""])
def test_a_redis_url_that_is_not_one_is_refused_before_the_server_starts(
        url: str, capsys: pytest.CaptureFixture[str], tmp_path: Path, busy_port: str) -> None:
    err = fail(capsys, "web", "--redis", url, "--port", busy_port, "--db",
               str(tmp_path / "w.db"))
    assert err.startswith(f"yacht: error: --redis {url!r}")
    assert "redis://" in err or "e.g. unix:///" in err  # what is accepted


def test_a_bad_redis_url_in_the_environment_is_refused_too(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, busy_port: str) -> None:
    monkeypatch.setenv("YACHT_REDIS", "bogus")
    err = fail(capsys, "web", "--port", busy_port, "--db", str(tmp_path / "w.db"))
    assert "YACHT_REDIS 'bogus' is not a Redis URL (accepted: redis://HOST" in err
    # the worker processes' path (uvicorn calls from_environment in each) checks the same
    from yacht.parsing import InputError
    from yacht.web.news import make_news

    with pytest.raises(InputError, match="YACHT_REDIS 'bogus' is not a Redis URL"):
        make_news(None)
    with pytest.raises(InputError, match="the port is a number 1-65535"):
        make_news("redis://host:abc")
    assert make_news("redis://localhost:6379/0").shared  # a good one still makes news


@pytest.mark.parametrize("host", ["", "   "])
def test_an_empty_host_is_refused(host: str, capsys: pytest.CaptureFixture[str],
                                  tmp_path: Path, busy_port: str) -> None:
    """An empty host listened on every network and printed http://:PORT/."""
    err = fail(capsys, "web", "--host", host, "--port", busy_port, "--db",
               str(tmp_path / "w.db"))
    assert f"--host {host!r}: give an address to listen on (default 127.0.0.1" in err


# --- files written ----------------------------------------------------------------------

def test_no_command_overwrites_a_file(capsys: pytest.CaptureFixture[str],
                                      tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my precious notes")
    err = fail(capsys, "selfplay", "yahtzee", "--seed", "1", "--out", str(notes))
    assert "that file exists; give another name (a file is never overwritten)" in err
    err = fail(capsys, "export", "yatzy", "--situations", "2", "--out", str(notes))
    assert "that file exists" in err
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "nowhere.json")  # a link, even to nothing, is not replaced
    assert "that file exists" in fail(capsys, "selfplay", "yatzy", "--out", str(link))
    db = tmp_path / "g.db"
    with open_store(str(db)) as store:
        t = Table.new(get("yatzy"), [Player("Ann")], store=store)
        t.act(LOCAL, Roll())
        gid = t.view().game_id
    assert gid is not None
    err = fail(capsys, "resume", gid, "--export", str(notes), "--db", str(db))
    assert "--export" in err and "never overwritten" in err
    assert notes.read_text() == "my precious notes"
    assert not (tmp_path / "nowhere.json").exists()
    # a new name is written
    run(capsys, "selfplay", "yatzy", "--seed", "1", "--out", str(tmp_path / "new.json"))
    assert json.loads((tmp_path / "new.json").read_text())["variant"] == "yatzy"


def test_export_takes_its_format_from_the_file_name(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")  # (the parquet extra)
    run(capsys, "export", "yatzy", "--situations", "2", "--out", str(tmp_path / "a.parquet"))
    assert (tmp_path / "a.parquet").read_bytes()[:4] == b"PAR1"
    run(capsys, "export", "yatzy", "--situations", "2", "--out", str(tmp_path / "b.jsonl"))
    assert (tmp_path / "b.jsonl").read_text().startswith('{"variant"')
    run(capsys, "export", "yatzy", "--situations", "2", "--out", str(tmp_path / "c.data"),
        "--format", "parquet")  # a name that says nothing: --format decides
    assert (tmp_path / "c.data").read_bytes()[:4] == b"PAR1"
    err = fail(capsys, "export", "yatzy", "--situations", "2", "--out",
               str(tmp_path / "d.jsonl"), "--format", "parquet")
    assert "is a JSON Lines name, but --format is parquet" in err
    err = fail(capsys, "export", "yatzy", "--situations", "2", "--out",
               str(tmp_path / "e.parquet"), "--format", "jsonl")
    assert "is a Parquet name, but --format is jsonl" in err
    assert not (tmp_path / "d.jsonl").exists() and not (tmp_path / "e.parquet").exists()


# --- vague errors -------------------------------------------------------------------------

@pytest.mark.parametrize(("argv", "message"), [
    (["selfplay", "yatzy", "--players", "-1", "--out", "x.json"],
     "players -1 is out of range (accepted: 1-8)"),
    (["selfplay", "yatzy", "--players", "99999999999999999999", "--out", "x.json"],
     "players '99999999999999999999' is out of range (accepted: 1-8)"),
    (["simulate", "yatzy", "-n", "-1"], "games -1 is out of range (accepted: 1-"),
    (["score", "yatzy", "--", "-1,2,3,4,5"], "die value '-1' is not a face (accepted: 1-6)"),
    (["advise", "yahtzee", "13356 r-1"],
     "rolls left 'r-1': write r and the rolls left (accepted: r0-r2;"),
    (["advise", "yahtzee", "13356 rx"], "rolls left 'rx'"),
    (["advise", "yahtzee", "13356 r2 t-1"], "turns taken 't-1': write t and the turns"),
    (["play", "yatzy", "--plain", "--players", "Ann", "--target", "250"],
     "--target 250 is for a cpu:champion playing alone"),
    (["play", "yatzy", "--plain", "--players", "C=cpu:champion,Ann", "--target", "250"],
     "--target 250 is for a cpu:champion playing alone"),
])
def test_errors_name_what_is_wrong(argv: list[str], message: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    err = fail(capsys, *argv)
    assert message in err and "card item" not in err and "not a whole number" not in err


def test_a_column_the_game_has_not_is_named(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    ids = {}
    with open_store(str(db)) as store:
        for variant in ("ancient-yacht-double", "yatzy"):
            t = Table.new(get(variant), [Player("Ann")], store=store)
            t.act(LOCAL, Roll())
            ids[variant] = t.view().game_id
    for action in ("f 3", "f 0", "f -1", "score threes 3"):
        err = fail(capsys, "resume", ids["ancient-yacht-double"], "-a", action, "--db", str(db))
        assert "there is no column" in err and "(accepted: 1-2)" in err, err
    err = fail(capsys, "resume", ids["yatzy"], "-a", "score fours 2", "--db", str(db))
    assert "there is no column 2: Yatzy has one column (name the box alone)" in err
    err = fail(capsys, "resume", ids["yatzy"], "-a", "zz 3", "--db", str(db))
    assert "unknown action 'zz 3'" in err


# --- options that contradict each other -------------------------------------------------

def saved_games(db: Path) -> tuple[str, str]:
    """An unfinished Yahtzee game, and a finished Generala game (served at once)."""
    with open_store(str(db)) as store:
        t = Table.new(get("yahtzee"), [Player("Ann")], store=store, rng=random.Random(1))
        t.act(LOCAL, Roll())
        open_id = t.view().game_id
        t = Table.new(get("generala"), [Player("Pia"), Player("Quin")], store=store)
        t.real_dice = True
        t.act(LOCAL, Roll((5, 5, 5, 5, 5)))
        t.finish()
        done_id = t.view().game_id
    assert open_id is not None and done_id is not None
    with open_store(str(db)) as store:
        assert store.game_info(done_id).finished is not None
    return open_id, done_id


def test_play_resume_refuses_a_finished_game_and_another_variant(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "g.db"
    monkeypatch.setenv("YACHT_DB", str(db))
    open_id, done_id = saved_games(db)
    err = fail(capsys, "play", "--plain", "--resume", done_id[:6])
    assert err == f"yacht: error: game {done_id} is finished (see `yacht scores`)\n"
    err = fail(capsys, "play", "generala", "--plain", "--resume", open_id)
    assert f"game {open_id} is Yahtzee, not Generala: --resume goes on with the saved" in err
    err = fail(capsys, "play", "-o", "joker=free", "--plain", "--resume", open_id)
    assert "not Yahtzee - Joker rule: free" in err
    err = fail(capsys, "play", "--plain", "--resume", open_id, "--players", "Bob")
    assert "--players starts a new game" in err
    err = fail(capsys, "play", "--sound", "--no-sound")
    assert "argument --no-sound: not allowed with argument --sound" in err
    # the line game refuses a finished game itself too (its other callers)
    from yacht.plain import run_plain
    from yacht.session import Launch, SessionError

    with open_store(str(db)) as store, pytest.raises(SessionError, match="is finished"):
        run_plain(Launch(resume=done_id), io.StringIO("\n"), io.StringIO(), store=store)


def test_resume_refuses_options_it_would_ignore(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    open_id, done_id = saved_games(db)
    err = fail(capsys, "resume", open_id, "--show", "-a", "roll", "--db", str(db))
    assert "--show prints the game as it stands: give it without --action" in err
    err = fail(capsys, "resume", open_id, "--delete", "--finished", "--db", str(db))
    assert "--finished lists the finished games: give it without a game ID" in err
    with open_store(str(db)) as store:  # nothing was deleted
        assert store.game_info(open_id).finished is None
    assert open_id in run(capsys, "resume", "--db", str(db))


@pytest.mark.parametrize("blank", ["", "  ", "\t", "\u3000"])
def test_a_blank_game_id_is_said_to_be_blank(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        blank: str) -> None:
    monkeypatch.setenv("YACHT_DB", str(tmp_path / "g.db"))
    said = "empty" if not blank else "blank"
    for argv in (["play", "--plain", "--resume", blank], ["play", "--resume", blank],
                 ["resume", blank]):
        err = fail(capsys, *argv)
        # before: "'  ' is not a game id (...)", the id a blank between quotes
        assert err == (f"yacht: error: the game id is {said}: a game id is 1-12 hex digits, "
                       "or the start of one (e.g. 3f2a; `yacht resume` lists the games)\n")


@pytest.mark.parametrize("blank", ["", "  ", "\u3000"])
def test_a_blank_variant_game_or_file_is_said_to_be_blank(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        blank: str) -> None:
    """Before, "unknown variant '  '", "cannot read '  '" or "file '' is not a file name":
    a blank between quotes."""
    monkeypatch.setenv("YACHT_DB", str(tmp_path / "g.db"))
    monkeypatch.chdir(tmp_path)  # (no file of that name)
    said = "empty" if not blank else "blank"
    for argv in (["rules", blank], ["export", blank], ["solve", blank]):
        assert fail(capsys, *argv).startswith(f"yacht: error: the variant is {said} "
                                              "(accepted: ancient-yacht, ")
    for argv in (["analyse", blank], ["verify", blank], ["replay", blank]):
        assert fail(capsys, *argv).startswith(f"yacht: error: the game is {said}: give a "
                                              "saved game's id")


def test_a_file_with_a_blank_name_is_still_read(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
        ) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "  ").write_text("[]")
    # read, and refused for what it holds, not for its name
    assert "is blank" not in fail(capsys, "replay", "  ")


def test_resume_show_on_a_computers_turn_lists_what_a_person_may_do(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    with open_store(str(db)) as store:
        t = Table.new(get("yatzy"), [Player("Ann"), Player("Cpu", "computer", "beginner")],
                      store=store, rng=random.Random(2))
        t.act(LOCAL, Roll(), ScoreBox("chance"))
        gid = t.view().game_id
    assert gid is not None
    out = run(capsys, "resume", gid, "--show", "--db", str(db))
    assert out.rstrip().endswith("Actions: computer | take-back"), out
    out = run(capsys, "resume", gid, "-a", "computer", "--db", str(db))
    assert "On turn: Cpu (computer, beginner)" in out
    assert out.rstrip().endswith("Actions: computer"), out
