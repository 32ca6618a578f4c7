"""A game saved in the Next player pause (a person scored, a computer is next, the score
may still be taken back) comes back in that pause: the computer does not play at once,
and the person may still take the score back (QA s18 TUI item 8)."""

from __future__ import annotations

import random
from typing import Any

from yacht.engine import Player, Roll, Score, TakeBack
from yacht.rules import get
from yacht.session.commands import ScoreBox
from yacht.session.table import LOCAL, Table


def scored(store: Any, factory: Any, players: list[Player] | None = None,
           **kw: Any) -> Table:
    """Ann rolled and scored Chance; the table waits in the Next player pause."""
    t = Table.new(get("yahtzee"), players or [Player("Ann"), Player("Cpu", "computer", "random")],
                  store=store, strategy_factory=factory, rng=random.Random(3), speed="instant",
                  **kw)
    t.act(LOCAL, Roll())
    t.act(LOCAL, ScoreBox("chance"))
    return t


def test_a_game_saved_in_the_pause_comes_back_in_it(store: Any, factory: Any) -> None:
    t = scored(store, factory)
    assert t.view().pause == "next_player"
    log = t.actions_since(0)
    again = Table.resume(store, t.game_id, strategy_factory=factory, speed="instant")
    assert again.view().pause == "next_player"
    assert again.run_due() == 0 and again.actions_since(0) == log  # the computer waits
    snap = again.snapshot(LOCAL)
    assert snap["pause"] == "next_player" and snap["can"]["take_back"]
    assert snap["last_score"]["category"] == "chance"
    again.act(LOCAL, TakeBack())  # the score can still be taken back
    assert again.view().pause is None and again.view().state.current == 0
    assert not again.view().computer_turn


def test_going_on_from_the_resumed_pause_lets_the_computer_play(store: Any,
                                                                factory: Any) -> None:
    t = scored(store, factory)
    again = Table.resume(store, t.game_id, strategy_factory=factory, speed="instant")
    again.go_on()
    again.run_due()
    st = again.view().state
    assert st.turns_taken(1) == 1 and st.current == 0


def test_a_table_without_pauses_goes_on_at_once(store: Any, factory: Any) -> None:
    """`yacht resume ID --action ...`: the command line shows no pause."""
    t = scored(store, factory)
    again = Table.resume(store, t.game_id, strategy_factory=factory, speed="instant",
                         pauses=False)
    assert again.view().pause is None and again.view().computer_turn


def test_no_pause_after_a_computers_score_or_the_computers_score_for_a_person(
        store: Any, factory: Any) -> None:
    t = scored(store, factory)
    t.go_on()
    t.run_due()  # the computer scored: Ann's turn
    again = Table.resume(store, t.game_id, strategy_factory=factory, speed="instant")
    assert again.view().pause is None and again.view().state.current == 0
    # a score the computer made for the person (away: a stand-in) is no person's to take
    # back: no pause either
    again.set_stand_ins([0])
    again.run_due(until=lambda: again.view().state.turns_taken(0) == 2)
    last = again.actions_since(0)[-1]
    assert isinstance(last, Score) and last.by == "stand_in"
    third = Table.resume(store, again.game_id, strategy_factory=factory, speed="instant")
    assert third.view().pause is None


def test_between_people_where_the_table_pauses_so(store: Any, factory: Any) -> None:
    people = [Player("Ann"), Player("Bob")]
    t = scored(store, factory, people, pause_between_people=True)
    assert t.view().pause == "next_player"
    again = Table.resume(store, t.game_id, pause_between_people=True)
    assert again.view().pause == "next_player"
    plain = Table.resume(store, t.game_id)  # (a table that does not pause between people)
    assert plain.view().pause is None


def test_another_process_s_roll_ends_a_pause_left_there(store: Any, factory: Any) -> None:
    """A copy loaded in the pause after it was left in another process: the computer's
    roll, taken up from there, ends it here too."""
    t = scored(store, factory)
    there = Table.resume(store, t.game_id, strategy_factory=factory, speed="instant")
    t.go_on()
    t.run_due(until=lambda: len(t.actions_since(0)) > 2)
    assert there.view().pause == "next_player"
    events = there.take_up([(0, t.actions_since(0))])
    assert "went_on" in [e.kind for e in events]
    assert there.view().pause is None and there.actions_since(0) == t.actions_since(0)
