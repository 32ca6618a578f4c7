"""Dice a player chose survive a quit or a kill in every way of marking them: a hold is
saved as the engine's choice of the other dice (a mark to roll again always was), so a
resumed game shows them as they were, and the saved log says which dice rolled again
(QA s18 TUI item 1)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from yacht.engine import Choose, Player, Record, Roll, TakeBack, verify
from yacht.rules import get
from yacht.session.commands import ScoreBox, Select, Toggle
from yacht.session.present import TERMINAL
from yacht.session.table import LOCAL, Refused, Table
from yacht.store import open_store


def holding(store: Any, variant: str = "yahtzee", people: int = 1, **kw: Any) -> Table:
    players = [Player("Ann"), Player("Bob"), Player("Cpu", "computer", "random")][:people]
    t = Table.new(get(variant), players, store=store, real_dice=True, **kw)
    t.set_prefs(LOCAL, dice_mark="hold")
    return t


def resumed(store: Any, t: Table, mark: str = "hold") -> Table:
    """The game as `yacht resume ID` opens it after a quit or a kill (this copy is just
    dropped, as a killed process is)."""
    game_id = t.game_id
    assert game_id is not None
    again = Table.resume(store, game_id, real_dice=True)
    again.set_prefs(LOCAL, dice_mark=mark)
    return again


def marks(t: Table) -> list[str]:
    return list(t.snapshot(LOCAL, TERMINAL)["marks"])


@pytest.fixture
def db(tmp_path: Path) -> Any:
    with open_store(str(tmp_path / "games.sqlite3")) as store:
        yield store


def test_held_dice_survive_a_kill_as_a_choice_of_the_others(db: Any) -> None:
    """yacht play yahtzee --players Ann; r 1 2 (HOLD HOLD); kill; yacht resume ID."""
    t = holding(db)
    t.act(LOCAL, Roll((6, 6, 1, 2, 3)))
    t.act(LOCAL, Toggle(0))
    t.act(LOCAL, Toggle(1))
    assert marks(t) == ["held", "held", "", "", ""]
    again = resumed(db, t)
    assert marks(again) == ["held", "held", "", "", ""]
    snap = again.snapshot(LOCAL, TERMINAL)
    assert snap["chosen"] == [2, 3, 4] and snap["to_roll"] == [2, 3, 4]
    # the record: the hold of dice 1 2 is a choice of the others, and the roll rolls them
    again.act(LOCAL, Roll((5, 5, 5)))
    assert again.view().state.dice == (6, 6, 5, 5, 5)
    record = db.load_record(again.game_id)
    # (then the holds kept for the next roll, saved the same way)
    assert record.actions[-3:] == [Choose((2, 3, 4)), Roll((5, 5, 5), entered=True),
                                   Choose((2, 3, 4))]
    assert Record.loads(record.dumps()).actions == record.actions
    assert db.load_state(again.game_id).dice == (6, 6, 5, 5, 5)


def test_the_holds_kept_for_the_next_roll_survive_too(db: Any) -> None:
    t = holding(db)
    t.act(LOCAL, Roll((6, 6, 1, 2, 3)))
    t.act(LOCAL, Toggle(0), Toggle(1))
    t.act(LOCAL, Roll((4, 4, 4)))
    assert marks(t) == ["held", "held", "", "", ""]  # (they stay for the turn's next roll)
    again = resumed(db, t)
    assert marks(again) == ["held", "held", "", "", ""]
    again.act(LOCAL, Roll((6, 6, 6)))
    assert again.view().state.dice == (6, 6, 6, 6, 6)


def test_every_die_held_survives_and_still_cannot_roll(db: Any) -> None:
    t = holding(db)
    t.act(LOCAL, Roll((6, 6, 6, 6, 6)))
    t.act(LOCAL, Select("all"))
    again = resumed(db, t)
    assert marks(again) == ["held"] * 5
    with pytest.raises(Refused, match="every die is held"):
        again.act(LOCAL, Roll())
    # released again (the choice of none gives way), saved too
    again.act(LOCAL, Select("none"))
    third = resumed(db, again)
    assert marks(third) == [""] * 5
    assert third.snapshot(LOCAL)["to_roll"] == [0, 1, 2, 3, 4]


def test_a_take_back_after_a_resume_gives_back_the_holds(db: Any) -> None:
    t = holding(db)
    t.act(LOCAL, Roll((6, 6, 6, 6, 6)))
    t.act(LOCAL, Select("all"))
    t.act(LOCAL, ScoreBox("sixes"))
    t.act(LOCAL, TakeBack())
    assert marks(resumed(db, t)) == ["held"] * 5


def test_dice_marked_to_roll_again_survive_as_they_did(db: Any) -> None:
    t = Table.new(get("ancient-yacht"), [Player("Ann")], store=db, real_dice=True)
    t.set_prefs(LOCAL, dice_mark="reroll")
    t.act(LOCAL, Roll((6, 6, 1, 2, 3)))
    t.act(LOCAL, Toggle(2), Toggle(3))
    again = resumed(db, t, mark="reroll")
    assert marks(again) == ["", "", "roll", "roll", ""]
    # and the same dice read in the other way
    again.set_prefs(LOCAL, dice_mark="hold")
    assert marks(again) == ["held", "held", "", "", "held"]


def test_a_finished_game_with_holds_verifies(db: Any) -> None:
    t = Table.new(get("yatzy"), [Player("Ann")], store=db, rng=random.Random(4))
    t.set_prefs(LOCAL, dice_mark="hold")
    while not t.view().over:
        st = t.view().state
        if st.dice and st.may_reroll() and st.rolls < 2:
            t.act(LOCAL, Toggle(0), Toggle(2))
            t.act(LOCAL, Roll())
            continue
        if not st.dice:
            t.act(LOCAL, Roll())
            continue
        t.act(LOCAL, ScoreBox(st.placements()[0].category))
    t.go_on()
    record = db.load_record(t.game_id)
    assert any(isinstance(a, Choose) for a in record.actions)
    verify(record)


def test_another_process_sees_the_holds() -> None:
    """A server's other process takes up the saved actions: the holds with them (every
    die held too)."""
    here = holding(None, "yatzy")
    there = Table.new(get("yatzy"), [Player("Ann")])
    there.set_prefs(LOCAL, dice_mark="hold")
    here.act(LOCAL, Roll((6, 6, 1, 2, 3)))
    here.act(LOCAL, Toggle(4))
    there.take_up([(0, here.actions_since(0))])
    assert marks(there) == ["", "", "", "", "held"]
    here.act(LOCAL, Select("all"))
    there.take_up([(0, here.actions_since(0))])
    assert marks(there) == ["held"] * 5


def test_the_computer_playing_a_persons_turn_decides_for_itself(factory: Any) -> None:
    """Dice the person held are no choice of the computer's: a demo switched on then
    decides the turn itself (then rolls what it chose)."""
    t = Table.new(get("yatzy"), [Player("Ann"), Player("Cpu", "computer", "random")],
                  real_dice=True, strategy_factory=factory, speed="instant")
    t.set_prefs(LOCAL, dice_mark="hold")
    t.act(LOCAL, Roll((6, 6, 1, 2, 3)))
    t.act(LOCAL, Toggle(0))
    t.set_demo(True)
    plan = t.think()
    assert plan is not None and plan.actions != (Roll(),)
    t.step(plan)
    if isinstance(plan.actions[0], Choose):
        follow = t.think()
        assert follow is not None and follow.actions == (Roll(),)
