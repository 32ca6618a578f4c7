"""Two copies of one table (two server processes) kept in step through the store: the
actions of one are taken up by the other, a race for one move has one winner, and the
loser takes up the stored game."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from yacht.engine import Choose, Player, Roll
from yacht.rules import get
from yacht.session.commands import GoOn, ScoreBox, Toggle
from yacht.session.table import LOCAL, Event, Refused, Table
from yacht.store import open_store


@pytest.fixture
def db(tmp_path: Path) -> Any:
    with open_store(str(tmp_path / "two.sqlite3")) as store:
        yield store


def copies(db: Any, factory: Any, players: list[Player]) -> tuple[Table, Table]:
    a = Table.new(get("tommys-crag"), players, store=db, rng=random.Random(1),
                  strategy_factory=factory, strict=True, speed="instant", real_dice=True)
    gid = a.save()
    assert gid is not None
    return a, Table.resume(db, gid, strategy_factory=factory, strict=True, speed="instant")


def test_the_other_copy_takes_up_each_action(db: Any, factory: Any) -> None:
    a, b = copies(db, factory, [Player("Ann"), Player("Cpu", "computer", "random")])
    seen: list[Event] = []
    b.subscribe(seen.append)
    a.act(LOCAL, Roll((6, 6, 1)))
    a.act(LOCAL, Toggle(2))
    assert [e.kind for e in b.sync()] == ["rolled", "chosen"]
    assert b._game.state.log == a._game.state.log and b.sync() == []
    a.act(LOCAL, ScoreBox("crag"))  # a person scored, a computer is next: both pause
    b.sync()
    assert a.view().pause == b.view().pause == "next_player"
    a.act(LOCAL, GoOn())
    assert [e.kind for e in b.remote_go_on("next_player")] == ["went_on"]
    assert b.due() is not None  # b may now drive the computer
    b.run_due()
    assert [e.kind for e in a.sync()][:1] == ["rolled"]
    assert a._game.state.position_key() == b._game.state.position_key()
    scored = [e.text for e in seen if e.kind == "scored"]
    assert scored[0] == "Ann: Crag for 50" and scored[1].startswith("Cpu: ")


def test_a_race_for_one_move_has_one_winner(db: Any, factory: Any) -> None:
    a, b = copies(db, factory, [Player("Ann")])
    a.act(LOCAL, Roll((2, 2, 3)))
    b.sync()
    a.act(LOCAL, ScoreBox("twos"))  # both copies think the dice still show
    with pytest.raises(Refused) as lost:
        b.act(LOCAL, ScoreBox("threes"))
    assert lost.value.code == "stale"
    # the loser took up the stored game: the winner's move, not its own
    assert b._game.state.log == a._game.state.log
    assert b._game.state.totals(0).grand == 4
    assert db.load_record(a.view().game_id).actions == a._game.state.log


def test_a_copy_that_went_astray_is_reloaded(db: Any, factory: Any) -> None:
    a, b = copies(db, factory, [Player("Ann")])
    a.act(LOCAL, Roll((2, 2, 3)))
    b._game.apply_saved(Roll((5, 5, 5)))  # as if b had played on without saving
    b._game.apply_saved(Choose((0,)))
    kinds = [e.kind for e in b.sync()]
    assert kinds == ["reloaded"] and b._game.state.log == a._game.state.log
