"""The line game when the very end of a game cannot be saved (the disk full at the last
scoring, or the store refusing to finish the game): it says the game stays unfinished and
that ``yacht resume ID`` enters the score later, never that all is well."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest

from yacht.engine import Player, Roll
from yacht.plain import PlainGame
from yacht.rules import get
from yacht.session import category_keys
from yacht.session.commands import ScoreBox
from yacht.session.table import LOCAL, Table
from yacht.store.errors import StoreError


def one_box_left(store: Any, factory: Any) -> tuple[Table, str]:
    """A solitaire Yatzy rolled on its last turn: the key of the box left."""
    t = Table.new(get("yatzy"), [Player("Ann")], store=store, rng=random.Random(1),
                  strategy_factory=factory)
    while True:
        if t.view().pause is not None:
            t.go_on()
        t.act(LOCAL, Roll())
        boxes = t.view().state.placements()
        if len({p.category for p in boxes}) == 1:
            return t, category_keys(t.ruleset)[boxes[0].category]
        t.act(LOCAL, ScoreBox(boxes[0].category))


def refuse_finish(*args: Any, **kw: Any) -> Any:
    raise StoreError("database or disk is full")


@pytest.mark.parametrize("down", ["finish", "all"])
def test_a_failed_final_save_leaves_the_game_unfinished(store: Any, factory: Any,
                                                        down: str) -> None:
    t, key = one_box_left(store, factory)
    gid = t.view().game_id
    assert gid is not None
    store.finish_game = refuse_finish
    if down == "all":
        store.fail = True  # the last scoring is not saved either
    out = io.StringIO()
    PlainGame(t, io.StringIO(f"{key}\n\n"), out).run()
    text = " ".join(out.getvalue().split())
    assert "Game over." in text
    assert "Warning: saving failed" in text
    assert "stays unfinished" in text
    assert (f"`yacht play --plain --resume {gid}` continues it, and the score is entered "
            "then") in text
    assert not store.games[gid].finished


def test_a_saved_end_says_nothing_of_the_kind(store: Any, factory: Any) -> None:
    t, key = one_box_left(store, factory)
    gid = t.view().game_id
    assert gid is not None
    out = io.StringIO()
    PlainGame(t, io.StringIO(f"{key}\n\n"), out).run()
    assert "Game over." in out.getvalue() and "unfinished" not in out.getvalue()
    assert store.games[gid].finished
