"""`yacht scores`, `yacht resume`, `yacht stats` (in-process, through yacht.cli.main)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from store_helpers import play_into, random_game

from yacht.cli import main
from yacht.engine import Player, Record, Roll, Score, State
from yacht.rules import get
from yacht.store import Store, open_store


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0, capsys.readouterr().err
    out, err = capsys.readouterr()
    assert err == ""
    return out


def fail(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 2
    out, err = capsys.readouterr()
    assert err.startswith("yacht: error: ") and err.count("\n") == 1, err
    return err


def finish_some(store: Store) -> None:
    for seed, name in enumerate(["Ann", "Bob", "Ann"]):
        st = random_game(get("yatzy"), [Player(name)], seed)
        store.finish_game(play_into(store, st), st)
    st = random_game(get("ancient-yacht-10", {"rolls": "3"}), [Player("Cy")], 9)
    store.finish_game(play_into(store, st), st)


# --- scores -------------------------------------------------------------------------
def test_scores(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert "No high scores yet." in run(capsys, "scores", "--db", db_url)
    with open_store(db_url) as s:
        finish_some(s)
        top = s.top_ten(get("yatzy"))
    out = run(capsys, "scores", "yatzy", "--db", db_url)
    lines = [ln for ln in out.splitlines() if ln.strip()[:2].strip().rstrip(".").isdigit()]
    assert len(lines) == 3 and lines[0].split()[1] == top[0].name
    assert str(top[0].score) in lines[0]
    data = json.loads(run(capsys, "scores", "yatzy", "--json", "--db", db_url))
    assert data["key"] == "yatzy" and data["assisted"] is False
    assert [(e["rank"], e["name"], e["score"]) for e in data["entries"]] == [
        (e.rank, e.name, e.score) for e in top]
    ten3 = json.loads(run(capsys, "scores", "ancient-yacht-10", "-o", "rolls=3", "--json",
                          "--db", db_url))
    assert [e["name"] for e in ten3["entries"]] == ["Cy"]
    ten5 = json.loads(run(capsys, "scores", "ancient-yacht-10", "--json", "--db", db_url))
    assert ten5["entries"] == []
    every = json.loads(run(capsys, "scores", "--json", "--db", db_url))
    assert sorted(t["key"] for t in every) == sorted(["yatzy", "ancient-yacht-10;rolls=3"])
    assert json.loads(run(capsys, "scores", "--assisted", "--json", "--db", db_url)) == []


def test_scores_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "s.db")
    assert "nosuch" in fail(capsys, "scores", "nosuch", "--db", db)
    assert "rolls" in fail(capsys, "scores", "ancient-yacht-10", "-o", "rolls=7", "--db", db)
    fail(capsys, "scores", "-o", "rolls=3", "--db", db)
    fail(capsys, "scores", "yatzy", "-o", "junk", "--db", db)


def test_a_home_folder_that_is_not_here(capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """``~name`` of no user here (or ``~`` without a home): one line, no traceback (the
    CLI fuzz test found it)."""
    assert "no such user's home folder" in fail(capsys, "scores", "--db", "~nobody-x/g.db")
    monkeypatch.delenv("HOME", raising=False)
    monkeypatch.setattr("pwd.getpwuid", lambda uid: (_ for _ in ()).throw(KeyError(uid)))
    assert "home folder" in fail(capsys, "stats", "--db", "~/g.db")


def test_yacht_db_environment_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "env.db"
    monkeypatch.setenv("YACHT_DB", str(db))
    with open_store(str(db)) as s:
        finish_some(s)
    assert "Ann" in run(capsys, "scores", "yatzy")
    assert "Ann" in run(capsys, "stats")


# --- resume -------------------------------------------------------------------------
def on_turn(data: dict[str, Any]) -> str:
    """The name of the player on turn in `yacht resume --json`."""
    table = data["table"]
    return str(table["players"][table["current"]]["name"])


def test_resume_lists_shows_and_plays(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert "No unfinished games." in run(capsys, "resume", "--db", db_url)
    assert json.loads(run(capsys, "resume", "--json", "--db", db_url)) == []
    with open_store(db_url) as s:
        gid = s.start_game(Record("yatzy", {}, [Player("Ann"), Player("Bob")]))
    out = run(capsys, "resume", "--db", db_url)
    assert gid in out and "Yatzy" in out and "1/15" in out and "Ann, Bob" in out
    listed = json.loads(run(capsys, "resume", "--json", "--db", db_url))
    assert [g["id"] for g in listed] == [gid] and listed[0]["turn"] == 1

    shown = run(capsys, "resume", gid[:6], "--db", db_url)
    assert "On turn: Ann" in shown and "Dice: not rolled yet" in shown
    assert "Rolls left: 3" in shown and "Actions: roll" in shown

    out = run(capsys, "resume", gid, "--action", "roll 6,6,6,2,3", "--db", db_url)
    assert "Applied: roll 6,6,6,2,3" in out and "Dice: 6 6 6 2 3" in out
    assert "score sixes (18)" in out and "Rolls left: 2" in out
    run(capsys, "resume", gid, "-a", "choose 4,5", "--db", db_url)
    data = json.loads(run(capsys, "resume", gid, "-a", "give-back", "--json", "--db", db_url))
    assert data["applied"] == ["give-back"] and data["table"]["chosen"] == []
    run(capsys, "resume", gid, "-a", "score Sixes", "--db", db_url)
    data = json.loads(run(capsys, "resume", gid, "--json", "--db", db_url))
    table = data["table"]
    assert on_turn(data) == "Bob" and [p["total"] for p in table["players"]] == [18, 0]
    assert "take-back" in table["legal"] and table["can"]["take_back"]
    run(capsys, "resume", gid, "-a", "take-back", "--db", db_url)
    data = json.loads(run(capsys, "resume", gid, "--json", "--db", db_url))
    assert on_turn(data) == "Ann" and data["table"]["dice"] == [6, 6, 6, 2, 3]
    with open_store(db_url) as s:
        assert len(s.load_record(gid).actions) == 5


def test_resume_bad_input_saves_nothing(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "r.db")
    with open_store(db) as s:
        gid = s.start_game(Record("yatzy", {}, [Player("Ann")]))
    for action, words in [("dance", "unknown action"), ("score chance", "not allowed now"),
                          ("choose 1", "not allowed now"), ("roll 1,2", "needs 5 values"),
                          ("roll 1,2,3,4,9", "needs 5 values"), ("computer", "not a computer"),
                          ("score", "needs a box")]:
        assert words in fail(capsys, "resume", gid, "-a", action, "--db", db)
    run(capsys, "resume", gid, "-a", "roll", "--db", db)
    assert "no box" in fail(capsys, "resume", gid, "-a", "score nothing", "--db", db)
    assert "positions 1-5" in fail(capsys, "resume", gid, "-a", "choose 7", "--db", db)
    assert "no game" in fail(capsys, "resume", "abcdef", "--db", db)
    assert "not a game id" in fail(capsys, "resume", "zz!", "--db", db)
    fail(capsys, "resume", "--action", "roll", "--db", db)
    fail(capsys, "resume", gid, "--delete", "--export", "x", "--db", db)
    with open_store(db) as s:
        assert len(s.load_record(gid).actions) == 1


@pytest.mark.slow
def test_resume_to_the_end_enters_the_high_scores(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "e.db")
    with open_store(db) as s:
        state = State(get("tommys-crag"), [Player("Ann"), Player("Cpu", "computer", "random")])
        gid = s.start_game(Record.from_state(state))
    data = json.loads(run(capsys, "resume", gid, "--json", "--db", db))
    for _ in range(300):
        table = data["table"]
        if on_turn(data) == "Cpu":
            action = "computer"
        elif not table["dice"]:
            action = "roll"
        else:
            action = next(a for a in table["legal"] if a.startswith("score"))
            action = action.rsplit(" (", 1)[0]
        if data["game"]["turn"] == data["game"]["turns"] and on_turn(data) == "Cpu" \
                and table["dice"]:
            break  # the last decision: play it in text to see the messages
        data = json.loads(run(capsys, "resume", gid, "-a", action, "--json", "--db", db))
        assert data["game"]["finished"] is None and data["high_scores"] == []
    out = run(capsys, "resume", gid, "-a", "computer", "--db", db)
    while "Finished" not in out:  # the computer may roll again before it scores
        out = run(capsys, "resume", gid, "-a", "computer", "--db", db)
    assert "New high score: #1 Ann" in out
    assert "Finished: Ann" in out
    assert "No unfinished games." in run(capsys, "resume", "--db", db)
    assert gid in run(capsys, "resume", "--finished", "--db", db)
    assert "is finished" in fail(capsys, "resume", gid, "-a", "roll", "--db", db)
    # the finished game keeps its record for `yacht replay`
    rec_file = tmp_path / "game.json"
    run(capsys, "resume", gid, "--export", str(rec_file), "--db", db)
    replay = json.loads(run(capsys, "replay", str(rec_file), "--json"))
    assert replay["finished"] is True
    assert "never overwritten" in fail(capsys, "resume", gid, "--export", str(rec_file),
                                       "--db", db)


def test_resume_delete(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "d.db")
    with open_store(db) as s:
        gid = s.start_game(Record("yatzy", {}, [Player("Ann")]))
    assert json.loads(run(capsys, "resume", gid, "--delete", "--json", "--db", db)) == {
        "deleted": gid}
    assert "No unfinished games." in run(capsys, "resume", "--db", db)


# --- stats --------------------------------------------------------------------------
def test_stats(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert "No finished games." in run(capsys, "stats", "--db", db_url)
    with open_store(db_url) as s:
        finish_some(s)
        st = State(get("yatzy"), [Player("Dee"), Player("Cpu", "computer", "random")])
        while not st.is_terminal():
            st.apply(Roll((6, 6, 6, 6, 6)))
            st.apply(Score(st.placements()[0].category))
        gid = play_into(s, st)
        s.record_decision_loss(gid, 3.0, player=0)
        s.finish_game(gid, st)
    out = run(capsys, "stats", "--db", db_url)
    # no loss column: nothing measures every decision yet (game analysis will)
    assert "loss" not in out and "n/a" not in out and "3.00" not in out
    rows = json.loads(run(capsys, "stats", "ann", "--json", "--db", db_url))
    assert [(r["name"], r["key"], r["games"]) for r in rows] == [("Ann", "yatzy", 2)]
    assert "average_loss" not in rows[0]
    dee = json.loads(run(capsys, "stats", "Dee", "--json", "--db", db_url))[0]
    assert dee["yachts"] == 15 and dee["wins"] in (0, 1)
    assert dee["multiplayer_games"] == 1
    names = {r["name"] for r in json.loads(run(capsys, "stats", "--computers", "--json",
                                               "--db", db_url))}
    assert names == {"Ann", "Bob", "Cy", "Dee", "Cpu"}
    assert "No finished games for Zed." in run(capsys, "stats", "Zed", "--db", db_url)
    with open_store(db_url) as s:   # a computer named as a person: another player
        st = State(get("yatzy"), [Player("Dee", "computer", "random")])
        while not st.is_terminal():
            st.apply(Roll((1, 2, 3, 4, 6)))
            st.apply(Score(st.placements()[0].category))
        s.finish_game(play_into(s, st), st)
    lines = run(capsys, "stats", "dee", "--computers", "--db", db_url).splitlines()
    dees = [line.split() for line in lines if "Dee" in line]
    assert [row[:2] for row in dees] == [["Dee", "1"], ["Dee", "(computer)"]]
    assert dees[1][2] == "1"   # its one game, apart from the person's


def test_help_lists_the_store_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for cmd in ("scores", "resume", "stats"):
        assert cmd in out


@pytest.mark.parametrize("columns", [36, 80, 200])
def test_stats_names_the_variant_and_its_options_in_words_at_any_width(
        db_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        columns: int) -> None:
    long = "Maximiliane Musterfr"  # 20 characters, the longest name there is
    with open_store(db_url) as s:
        for seed, (rs, name) in enumerate([
                (get("yahtzee", {"joker": "free", "bonus": "off"}), long),
                (get("yahtzee"), "Ann"), (get("ancient-yacht-10", {"rolls": "3"}), "Ann")]):
            st = random_game(rs, [Player(name)], seed)
            s.finish_game(play_into(s, st), st)
    monkeypatch.setenv("COLUMNS", str(columns))
    out = run(capsys, "stats", "--db", db_url)
    assert "joker=" not in out and "rolls=" not in out  # no ruleset keys, cut or whole
    assert all(len(line) <= columns for line in out.splitlines()), out
    flat = " ".join(out.split())
    assert "Yahtzee - Joker rule: free" in flat and "Yahtzee bonus: off" in flat, out
    assert "Ancient Yacht Challenge - Rolls per turn: 3" in flat, out
    assert long in out  # a name is never cut
    # the usual options go without saying: a table of plain Yahtzee
    assert any(line.strip() == "Yahtzee" for line in out.splitlines()), out
