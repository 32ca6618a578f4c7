"""A game a served Generala ended at once (issue 25): the winner's card counts as it
stood and enters the top ten marked; the others' cards, cut short without a win, are
no score they made and stay out of it (they were listed with their 0s before). The
results of such games already in a store are marked when it is upgraded."""

from __future__ import annotations

import random

import pytest
from store_helpers import downgrade_to, play_into

from yacht.cli import main
from yacht.engine import Player, Roll, Score, State
from yacht.rules import get
from yacht.shapes import score_tables_json
from yacht.store import Store, open_store


def ended_at_once() -> State:
    """Ann scores a full (served: 35), Bob his ones, then Ann rolls a served Generala."""
    s = State(get("generala"), [Player("Ann"), Player("Bob")], rng=random.Random(1))
    s.apply(Roll((2, 2, 3, 3, 3)))
    s.apply(Score("full"))
    s.apply(Roll((1, 2, 4, 5, 6)))
    s.apply(Score("ones"))
    s.apply(Roll((4, 4, 4, 4, 4)))
    assert s.is_terminal() and s.ended_by == 0 and s.returns() == [35, 1]
    return s


def played_out(seed: int) -> State:
    """A two-person Generala played to full cards (no served Generala on the way)."""
    rng = random.Random(seed)
    s = State(get("generala"), [Player("Cy"), Player("Di")], rng=random.Random(seed))
    while not s.is_terminal():
        s.apply(Roll((1, 2, 2, 4, rng.choice((5, 6)))))  # never five of a kind
        first = s.placements()[0]
        s.apply(Score(first.category, first.column))
    assert s.ended_by is None
    return s


def finish(store: Store, state: State) -> list[tuple[str, int, bool]]:
    gid = play_into(store, state)
    return [(e.name, e.score, e.ended_early) for e in store.finish_game(gid, state)]


def test_the_winner_at_once_is_listed_marked_and_the_others_are_not(store: Store) -> None:
    rs = get("generala")
    assert finish(store, ended_at_once()) == [("Ann", 35, True)]  # Bob's 1 is no entry
    finish(store, played_out(3))
    top = store.top_ten(rs)
    assert [(e.name, e.ended_early) for e in top if e.name in ("Ann", "Bob")] == \
        [("Ann", True)]
    assert {e.name for e in top} == {"Ann", "Cy", "Di"}
    assert all(not e.ended_early for e in top if e.name != "Ann")
    # `yacht scores --json` and the browser's list: the mark, and the words after the line
    (table,) = score_tables_json(store, rs)
    entries = {e["name"]: e for e in table["entries"]}
    assert entries["Ann"]["ended_early"] is True and entries["Ann"]["note"] == "(won at once)"
    assert entries["Cy"]["note"] == "" and "Bob" not in entries
    # the statistics still count Bob's game, and its loss
    bob = next(r for r in store.stats("Bob"))
    assert bob.games == 1 and bob.wins == 0 and bob.multiplayer_games == 1


def test_yacht_scores_and_the_terminal_mark_the_winner_at_once(
        db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    from yacht.tui.screens.topten import top_ten_text

    store = open_store(db_url)
    try:
        finish(store, ended_at_once())
        finish(store, played_out(3))
        terminal = str(top_ten_text(store.top_ten(get("generala")))).splitlines()
    finally:
        store.close()
    assert main(["scores", "generala", "--db", db_url]) == 0
    command = capsys.readouterr().out.splitlines()
    for lines in (terminal, command):
        ann = [line for line in lines if "Ann" in line]
        assert len(ann) == 1 and ann[0].endswith("(won at once)"), lines
        assert not any("Bob" in line for line in lines), lines
        assert not any("won at once" in line for line in lines if "Ann" not in line)


def test_a_table_of_only_cut_short_cards_has_no_scores(store: Store) -> None:
    s = State(get("generala"), [Player("Ann", "computer", "expert"), Player("Bob")],
              rng=random.Random(2))
    s.apply(Roll((5, 5, 5, 5, 5)))  # the computer's served Generala ends it at once
    assert s.is_terminal() and s.ended_by == 0
    assert finish(store, s) == []
    assert store.top_ten(s.ruleset) == [] and store.score_tables() == []


def test_an_upgrade_marks_the_games_that_ended_at_once(db_url: str) -> None:
    store = open_store(db_url)
    try:
        finish(store, ended_at_once())
        finish(store, played_out(5))
    finally:
        store.close()
    # as the previous version left it: the column gone, Bob's 1 in the top ten
    assert downgrade_to(db_url, "yacht_0009",
                        "SELECT COUNT(*) FROM results WHERE name = 'Bob'") == [1]
    store = open_store(db_url)  # upgraded: the ended game's results marked
    try:
        top = store.top_ten(get("generala"))
        assert [e.name for e in top if e.ended_early] == ["Ann"]
        assert {e.name for e in top} == {"Ann", "Cy", "Di"}
    finally:
        store.close()


def test_the_kinds_of_game_are_said_in_words_in_lists_of_games_and_statistics(
        db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`yacht resume --finished` and the statistics' JSON (the browser's) name a kind of
    game as `yacht stats` does ("Generala"), not by its key with every option's value
    ("generala;servida=win;straight=plain;...", which broke the list's columns)."""
    from yacht.shapes import stats_json

    store = open_store(db_url)
    try:
        finish(store, ended_at_once())
        assert {r["title"] for r in stats_json(store)} == {"Generala"}
    finally:
        store.close()
    assert main(["resume", "--finished", "--db", db_url]) == 0
    out = capsys.readouterr().out
    assert "Generala" in out and "servida" not in out, out


def test_resume_shows_who_won_a_game_that_ended_at_once(
        db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`yacht resume ID` of a game a served Generala ended: the totals (Ann 35, Bob 1
    here; it may as well be Bob ahead) are not who won, so it says who did and how."""
    store = open_store(db_url)
    try:
        gid = play_into(store, ended_at_once())
    finally:
        store.close()
    assert main(["resume", gid, "--db", db_url]) == 0
    flat = " ".join(capsys.readouterr().out.split())
    assert "Finished: Ann 35, Bob 1 Ann won at once with a served Generala (five of a " \
           "kind on the first roll), before the cards were full." in flat


def test_the_list_of_finished_games_says_the_turn_a_game_ended_at_once(
        db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A game a served Generala ended in Ann's second turn was listed at 'turn 11/11'
    (QA s21), as if it had been played out."""
    store = open_store(db_url)
    try:
        ended, full = ended_at_once(), played_out(3)
        gid, out = play_into(store, ended), play_into(store, full)
        store.finish_game(gid, ended)
        store.finish_game(out, full)
        info = store.game_info(gid)
        assert (info.turn, info.turns) == (2, 11)
        assert store.game_info(out).turn == 11
    finally:
        store.close()
    assert main(["resume", "--finished", "--db", db_url]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith(gid))
    assert " 2/11 " in row
