"""The table's flow options for people sharing a screen (a Next player pause between
people, a roll at the start of each turn, a demo switched on during a game), what
the table says about a slow wait, and the words it uses."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest

from yacht.engine import Player, Roll, Score, State
from yacht.rules import get
from yacht.session.advice import Advice
from yacht.session.commands import GoOn, ScoreBox
from yacht.session.present import TERMINAL, help_line, result_text
from yacht.session.table import LOCAL, Event, Refused, Table
from yacht.strategy import RandomStrategy


def two_people(store: Any, factory: Any, **kw: Any) -> Table:
    """Two people rolling real dice (the tests say what they show)."""
    return Table.new(get("tommys-crag"), [Player("Ann"), Player("Bob")], store=store,
                     rng=random.Random(2), strategy_factory=factory, speed="instant",
                     real_dice=True, **kw)


def kinds(table: Table) -> list[str]:
    seen: list[str] = []
    table.subscribe(lambda e: seen.append(e.kind))
    return seen


def test_a_next_player_pause_between_two_people_on_request(store: Any, factory: Any) -> None:
    t = two_people(store, factory)
    t.act(LOCAL, Roll((6, 6, 1)), ScoreBox("crag"))
    assert t.view().pause is None  # the default keeps today's flow: Bob rolls at once
    t = two_people(store, factory, pause_between_people=True)
    t.act(LOCAL, Roll((6, 6, 1)), ScoreBox("crag"))
    view = t.view()
    assert view.pause == "next_player" and view.state.current == 1
    with pytest.raises(Refused) as refused:
        t.act(LOCAL, Roll())
    assert refused.value.code == "paused"
    assert "Enter or r: Bob's turn" in help_line(view, TERMINAL)
    t.act(LOCAL, GoOn())
    t.act(LOCAL, Roll((1, 2, 3)))
    # one person alone never waits for themself
    solo = Table.new(get("tommys-crag"), [Player("Ann")], store=store, speed="instant",
                     pause_between_people=True, real_dice=True)
    solo.act(LOCAL, Roll((6, 6, 1)), ScoreBox("crag"))
    assert solo.view().pause is None


def test_a_turn_can_start_with_a_roll_by_itself(store: Any, factory: Any) -> None:
    t = two_people(store, factory)
    assert t.due() is None  # by default a person rolls
    t = two_people(store, factory, auto_roll=True, pause_between_people=True)
    seen = kinds(t)
    assert t.due() is not None and t.due().kind == "roll"  # type: ignore[union-attr]
    assert t.run_due() == 1
    assert len(t.view().state.dice) == 3 and seen == ["rolled"]
    cat = t.view().state.placements()[0].category
    t.act(LOCAL, ScoreBox(cat))
    assert t.due() is None  # the pause first: Ann's score stays readable (and Oops)
    t.act(LOCAL, GoOn())
    t.run_due()
    view = t.view()
    assert view.state.current == 1 and len(view.state.dice) == 3  # Bob's first roll
    assert t.due() is None  # one roll only: then the person plays
    # a resumed game takes the option too
    again = Table.resume(store, t._game.game_id or "", speed="instant", auto_roll=True)
    assert again.due() is None  # Bob's dice are showing: nothing to roll


def test_demo_during_a_game_and_back(store: Any, factory: Any) -> None:
    t = two_people(store, factory, pause_between_people=True)
    t.act(LOCAL, Roll((6, 6, 1)), ScoreBox("crag"))
    assert t.view().pause == "next_player"
    seen = kinds(t)
    t.set_demo(True)
    view = t.view()
    assert view.demo and view.taken_over and view.computer_turn and view.pause is None
    assert "demo" in seen and "went_on" in seen  # the pause is left for the computer
    snap = t.snapshot(LOCAL)
    assert snap["demo"] and not snap["can"]["roll"]
    assert "F2" in help_line(view, TERMINAL)
    with pytest.raises(Refused) as refused:
        t.act(LOCAL, Roll())
    assert refused.value.code == "computer_turn"
    t.run_due(until=lambda: t.view().state.current == 0)  # the computer plays Bob's turn
    assert t._game.assisted_players == {1}  # the computer played for Bob: assisted
    assert t.view().pause is None
    t.set_demo(False)
    assert not t.view().computer_turn and t.due() is None
    t.act(LOCAL, Roll((1, 2, 3)))  # Ann plays again
    assert t.set_demo(False) == []  # already off: nothing happens


class Slow(RandomStrategy):
    """A computer player that thinks until it is let go."""

    def __init__(self, rs: Any, gate: threading.Event) -> None:
        super().__init__(rs, seed=1)
        self.gate = gate

    def decide(self, state: State) -> Any:
        assert self.gate.wait(30)
        return super().decide(state)


def test_a_slow_decision_says_what_is_happening(store: Any) -> None:
    gate = threading.Event()
    t = Table.new(get("tommys-crag"), [Player("Cpu", "computer", "random")], store=store,
                  rng=random.Random(1), strategy_factory=lambda lv, rs: Slow(rs, gate),
                  speed="instant")
    thinking = threading.Event()
    events: list[Event] = []

    def seen(e: Event) -> None:
        events.append(e)
        if e.kind == "computer_thinking":
            thinking.set()

    t.subscribe(seen)
    t.run_due(until=lambda: bool(t.view().state.dice))  # the roll needs no thinking
    worker = threading.Thread(target=lambda: t.step(t.think()))
    worker.start()
    assert thinking.wait(30)  # the decision takes long: the table says so...
    snap = t.snapshot(LOCAL, TERMINAL)
    assert snap["thinking"]["what"] == "Cpu is thinking"
    assert snap["help"].startswith("Cpu is thinking")
    gate.set()
    worker.join(30)
    assert t.view().thinking is None  # ... until it is done
    assert events[-1].kind in ("chosen", "scored", "turn_passed", "paused", "game_over")


def test_a_quick_decision_says_nothing(store: Any, factory: Any) -> None:
    t = Table.new(get("tommys-crag"), [Player("Cpu", "computer", "random")], store=store,
                  rng=random.Random(1), strategy_factory=factory, speed="instant")
    seen = kinds(t)
    t.run_due(until=lambda: t.view().state.turns_taken(0) == 2)
    assert "computer_thinking" not in seen


def test_a_slow_hint_says_what_is_happening(store: Any, factory: Any,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    import yacht.session.advice as advice

    gate = threading.Event()

    def slow_rank(state: State, limit: int = 5) -> list[Advice]:
        assert gate.wait(30)
        return [Advice("Score Crag for 50", 50.0, 0.0, category="crag")]

    monkeypatch.setattr(advice, "rank_moves", slow_rank)
    t = Table.new(get("tommys-crag"), [Player("Ann")], store=store, strategy_factory=factory,
                  real_dice=True)
    t.act(LOCAL, Roll((6, 6, 1)))
    thinking = threading.Event()

    def seen(e: Event) -> None:  # (a first hint may build the advisor's tables before)
        if e.kind == "computer_thinking" and e.data["what"] == "The advisor is working it out":
            thinking.set()

    t.subscribe(seen)
    result: list[Any] = []
    worker = threading.Thread(target=lambda: result.append(t.hint(LOCAL)))
    worker.start()
    assert thinking.wait(30)
    assert t.snapshot(LOCAL)["help"] == "The advisor is working it out…"
    gate.set()
    worker.join(30)
    assert result and t.view().thinking is None


def test_words_for_a_player_called_you(store: Any, factory: Any) -> None:
    t = Table.new(get("tommys-crag"), [Player("Bob"), Player("You")], store=store,
                  rng=random.Random(2), strategy_factory=factory, speed="instant",
                  pause_between_people=True, real_dice=True)
    t.act(LOCAL, Roll((6, 6, 1)), ScoreBox("crag"))
    line = help_line(t.view(), TERMINAL)
    assert "your turn" in line and "You's" not in line
    st = t.view().state.clone(rng=False)
    while not st.is_terminal():  # You roll crags, Bob does not
        st.apply(Roll((6, 6, 1) if st.current == 1 else (1, 1, 2)))
        st.apply(Score(st.placements()[0].category))
    assert result_text(st).startswith("You win with "), result_text(st)  # not "You wins"


def test_hints_say_which_values_to_keep_and_how_many_to_roll(store: Any) -> None:
    from yacht.session.advice import keep_text

    assert keep_text((3, 4, 5), 2, 5) == "Keep 3 4 5 and roll the other two"
    assert keep_text((), 10, 10) == "Roll all ten dice again"
    t = Table.new(get("tommys-crag"), [Player("Ann")], store=store, real_dice=True)
    t.act(LOCAL, Roll((1, 1, 5)))
    keeps = [m.text for m in t.hint(LOCAL, 10) if m.category is None]
    assert keeps and all(" die " not in k and " dice " not in k for k in keeps
                         if k.startswith("Keep")), keeps


def test_snapshot_rows_carry_the_original_board_names(store: Any) -> None:
    t = Table.new(get("tommys-yahtzee"), [Player("Ann")], store=store)
    rows = t.snapshot(LOCAL)["rows"]
    boxes = [r for r in rows if r["kind"] == "box"]
    assert [r["board"] for r in boxes] == list("123456789ABCD")
    assert [r["id"] for r in boxes][-2:] == ["chance", "yahtzee"]
    plain = Table.new(get("yatzy"), [Player("Ann")], store=store).snapshot(LOCAL)["rows"]
    assert all(r["board"] is None for r in plain)
