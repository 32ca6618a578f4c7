"""A save that fails once (the database busy or full for a moment) is made good by the
next one: the actions it left out are written then, in order. It never leaves a gap that
the next save would take for the game having gone on elsewhere (whose reload would drop
the moves played since), and nothing claims the game saved while the store lacks some
of it."""

from __future__ import annotations

import io
import random
from typing import Any

from yacht.engine import Player, Roll
from yacht.plain import PlainGame
from yacht.rules import get
from yacht.session.commands import ScoreBox, Toggle
from yacht.session.table import LOCAL, Table


def started(store: Any, factory: Any) -> Table:
    t = Table.new(get("yatzy"), [Player("Ann")], store=store, rng=random.Random(1),
                  strategy_factory=factory, real_dice=True)
    t.act(LOCAL, Roll((1, 2, 3, 4, 5)))
    return t


def test_the_next_save_writes_what_a_failed_one_left_out(store: Any, factory: Any) -> None:
    t = started(store, factory)
    gid = t.view().game_id
    assert gid is not None
    store.fail = True
    events = t.act(LOCAL, Toggle(0), Roll((6,)))  # not saved: the game goes on in memory
    assert "store_warning" in [e.kind for e in events]
    assert not t.view().saved  # the store lacks two of its actions
    store.fail = False
    t.act(LOCAL, ScoreBox("chance"))
    assert store.games[gid].record.actions == list(t.view().state.log)
    assert t.view().saved and t.view().elsewhere is None
    assert t.check_store() == []  # nobody else played it


def test_the_line_game_saves_the_rest_when_it_stops(store: Any, factory: Any) -> None:
    t = started(store, factory)
    gid = t.view().game_id
    assert gid is not None
    store.fail = True
    t.act(LOCAL, Toggle(0), Roll((6,)))
    store.fail = False  # the store is back before the player quits
    out = io.StringIO()
    PlainGame(t, io.StringIO("q\n"), out).run()
    assert "Game saved." in out.getvalue() and "elsewhere" not in out.getvalue()
    assert store.games[gid].record.actions == list(t.view().state.log)


def test_the_line_game_does_not_claim_a_save_it_could_not_make(store: Any,
                                                                  factory: Any) -> None:
    t = started(store, factory)
    gid = t.view().game_id
    assert gid is not None
    t.act(LOCAL, Toggle(0))
    store.fail = True  # and it stays down
    t.act(LOCAL, Roll((6,)))
    out = io.StringIO()
    PlainGame(t, io.StringIO("q\n"), out).run()
    text = out.getvalue()
    assert "Game saved." not in text and "Saving failed (see the warning above)" in text
    assert len(store.games[gid].record.actions) == 2


def test_a_finished_game_writes_what_was_left_out(store: Any, factory: Any) -> None:
    t = Table.new(get("yatzy"), [Player("Ann")], store=store, rng=random.Random(1),
                  strategy_factory=factory)
    t.act(LOCAL, Roll())
    gid = t.view().game_id
    assert gid is not None
    store.fail = True
    t.act(LOCAL, ScoreBox("chance"))
    store.fail = False
    while not t.view().state.is_terminal():
        if t.view().pause is not None:
            t.go_on()
        t.act(LOCAL, Roll())
        t.act(LOCAL, ScoreBox(t.view().state.placements()[0].category))
    t.go_on()  # (the game-over pause) the results
    assert store.games[gid].finished
    assert store.games[gid].record.actions == list(t.view().state.log)


def test_a_speed_that_cannot_be_saved_is_said_to_be_lost(store: Any, factory: Any) -> None:
    """The speed changed with + / - is kept with the game; a store that cannot keep it
    said nothing (the game resumed at the old one without a word)."""
    t = started(store, factory)
    gid = t.view().game_id
    assert gid is not None
    heard: list[Any] = []
    t.subscribe(heard.append)
    t.set_speed("fast")
    t.keep_speed()
    assert store.games[gid].record.meta["speed"] == "fast"
    assert "store_warning" not in [e.kind for e in heard]
    store.fail = True
    t.set_speed("slow")
    t.keep_speed()  # not kept: the game goes on at it here, and says so
    warned = [e.text for e in heard if e.kind == "store_warning"]
    assert warned == ["the speed slow was not saved with the game (disk full writing "
                      "/tmp/x.db): resumed, it goes on at the speed saved before"]
    assert t.view().speed == "slow" and store.games[gid].record.meta["speed"] == "fast"
