"""A game open in two places: the second is told that the game went on elsewhere, is
offered to reload it, and never claims to save what it no longer can."""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

from yacht.engine import Player, Roll
from yacht.plain import PlainGame
from yacht.rules import get
from yacht.session.commands import ScoreBox, Toggle
from yacht.session.table import LOCAL, Event, Table
from yacht.store import open_store


def two_windows(store: Any, factory: Any) -> tuple[Table, Table]:
    first = Table.new(get("yatzy"), [Player("Ann")], store=store, rng=random.Random(1),
                      strategy_factory=factory, real_dice=True)
    first.act(LOCAL, Roll((1, 2, 3, 4, 5)))
    gid = first.view().game_id
    assert gid is not None
    return first, Table.resume(store, gid, rng=random.Random(2), strategy_factory=factory)


def test_the_other_window_is_told_once_and_saves_nothing_more(store: Any, factory: Any) -> None:
    a, b = two_windows(store, factory)
    seen: list[Event] = []
    b.subscribe(seen.append)
    assert b.check_store() == [] and b.view().saved  # nothing happened elsewhere yet
    a.act(LOCAL, ScoreBox("chance"))
    told = b.check_store()
    assert [e.kind for e in told] == ["elsewhere"] and "went on elsewhere" in told[0].text
    assert b.check_store() == []  # once
    assert not b.view().saved and b.snapshot(LOCAL)["elsewhere"]
    gid = a.view().game_id
    log = list(store.games[gid].record.actions)
    b.act(LOCAL, ScoreBox("sixes"))  # b plays on: in memory only
    assert store.games[gid].record.actions == log
    assert [e.kind for e in seen].count("elsewhere") == 1


def test_a_write_that_finds_the_game_moved_on_says_so(store: Any, factory: Any) -> None:
    a, b = two_windows(store, factory)
    a.act(LOCAL, ScoreBox("chance"))
    events = b.act(LOCAL, ScoreBox("sixes"))  # b did not look first: its save is refused
    assert "elsewhere" in [e.kind for e in events] and not b.view().saved
    assert b.view().warning is None  # said once, as "elsewhere", not as a store failure


def test_a_deleted_game_is_told_too(store: Any, factory: Any) -> None:
    a, b = two_windows(store, factory)
    a.abandon()
    assert "deleted elsewhere" in b.check_store()[0].text


def test_the_line_game_offers_to_reload(tmp_path: Path, factory: Any) -> None:
    with open_store(str(tmp_path / "g.sqlite3")) as store:
        a, b = two_windows(store, factory)
        a.act(LOCAL, Toggle(0), Roll((6,)))  # the first window plays on
        out = io.StringIO()
        PlainGame(b, io.StringIO("\nq\n"), out).run()
        text = out.getvalue()
        assert "went on elsewhere" in text and "Reloaded: Yatzy" in text
        assert "Roll 2 of 3. Dice: 6 2 3 4 5." in text  # the game as it is now
        assert "Game saved." in text  # the reloaded copy is saved again


def test_the_table_reloads_the_stored_game_and_saves_again(store: Any, factory: Any) -> None:
    """One way to reload for every interface (Table.reload): the copy that went astray
    takes up the stored game, tells its moves again, and is saved from then on."""
    a, b = two_windows(store, factory)
    seen: list[Event] = []
    b.subscribe(seen.append)
    a.act(LOCAL, ScoreBox("chance"))
    b.act(LOCAL, ScoreBox("sixes"))  # astray: in memory only
    gid = a.view().game_id
    assert gid is not None and not b.view().saved
    events = b.reload()
    assert [e.kind for e in events] == ["reloaded"] and seen[-1].kind == "reloaded"
    view = b.view()
    assert view.saved and view.elsewhere is None
    assert b.actions_since(0) == list(store.games[gid].record.actions)
    assert any("Chance" in line for line in view.news)  # its moves told again
    b.act(LOCAL, Roll())  # and saved again
    assert b.actions_since(0) == list(store.games[gid].record.actions)
    assert a.check_store()[0].kind == "elsewhere"  # now the other one is behind


def test_a_table_that_cannot_reload_says_why_in_one_line(store: Any, factory: Any) -> None:
    import pytest

    from yacht.session import SessionError

    a, b = two_windows(store, factory)
    a.abandon()
    with pytest.raises(SessionError) as e:
        b.reload()
    assert "\n" not in str(e.value) and "no game" in str(e.value)
    alone = Table.new(get("yatzy"), [Player("Ann")])
    with pytest.raises(SessionError, match="not saved"):
        alone.reload()


def test_a_warning_not_told_yet_is_taken_once(store: Any, factory: Any) -> None:
    t = Table.new(get("yatzy"), [Player("Ann")], store=store, strategy_factory=factory)
    t._game.warning = "saving failed: the disk is full"  # (before any view listened)
    assert t.view().warning == "saving failed: the disk is full"
    assert t.take_warning() == "saving failed: the disk is full"
    assert t.take_warning() is None and t.view().warning is None
