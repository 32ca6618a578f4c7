"""The turn clock and the stand-ins of a table: when a person's time runs out (or they are
away) the computer plays their turn, marked in the record and on the card."""

from __future__ import annotations

import random
from typing import Any

import pytest

from yacht.engine import Player, Roll, Score, TakeBack
from yacht.rules import get
from yacht.session.clock import ClockState, TurnClock
from yacht.session.commands import GoOn, ScoreBox
from yacht.session.game import Session
from yacht.session.table import Refused, Seat, Table


class Time:
    """A wall clock and a monotonic one that move together, by hand."""

    def __init__(self) -> None:
        self.wall, self.mono = 1_000_000.0, 50.0

    def pass_(self, seconds: float) -> None:
        self.wall += seconds
        self.mono += seconds


def table(factory: Any, clock: dict[str, Any] | None, time: Time,
          players: list[Player] | None = None, store: Any = None, **kw: Any) -> Table:
    players = players or [Player("Ann"), Player("Bob")]
    meta = {"clock": clock} if clock is not None else {}
    session = Session(get("yatzy"), players, rng=random.Random(3), strategy_factory=factory,
                      meta=meta, store=store)
    seats = [Seat(f"s{i}", frozenset({i})) for i, p in enumerate(players) if not p.is_computer]
    return Table(session, speed="instant", seats=seats, wall=lambda: time.wall,
                 clock=lambda: time.mono, **kw)


def kinds(events: Any) -> list[str]:
    return [e.kind for e in events]


def test_the_clock_is_parsed_with_its_limits() -> None:
    assert TurnClock.parse("none", 0) is None
    assert TurnClock.parse("turn", 5) == TurnClock(5)
    assert TurnClock.parse("bank", 0, 3) == TurnClock(0, 180)
    for kind, seconds, minutes in (("turn", 4, 0), ("turn", 601, 0), ("bank", 10, 0),
                                   ("bank", 10, 61), ("sand", 10, 0)):
        with pytest.raises(ValueError):
            TurnClock.parse(kind, seconds, minutes)
    assert TurnClock.from_json({"per_turn": 2}) is None  # (kept wrong: no clock)


def test_a_bank_pays_what_a_turn_takes_beyond_its_seconds() -> None:
    s = ClockState(TurnClock(10, 60), [60.0, 60.0])
    s.follow((0, 0), 0.0)
    s.follow((1, 0), 5.0)  # within the turn's seconds: the bank is whole
    assert s.banks == [60.0, 60.0]
    s.follow((0, 1), 100.0)  # Bob took 95 s: 85 beyond, more than his bank
    assert s.banks == [60.0, 0.0]


def test_the_expert_plays_the_turn_whose_time_ran_out(factory: Any) -> None:
    time = Time()
    t = table(factory, {"per_turn": 10}, time)
    snap = t.snapshot("s0")
    assert snap["clock"]["player"] == 0 and snap["clock"]["left"] == 10_000
    assert snap["clock"]["deadline"] == round((time.wall + 10) * 1000)
    t.act("s0", Roll())
    time.pass_(9)
    assert t.run_due() == 0  # her time is not up: the table waits for her
    time.pass_(2)
    with pytest.raises(Refused) as refused:
        t.act("s0", Roll())
    assert refused.value.code == "computer_turn" and "time is up" in str(refused.value)
    assert not t.snapshot("s0")["can"]["roll"]
    seen: list[Any] = []
    t.subscribe(seen.append)
    t.run_due()
    assert kinds(seen)[0] == "clock" and "time is up" in seen[0].text
    scores = [a for a in t.record().actions if isinstance(a, Score)]
    assert len(scores) == 1 and scores[0].by == "clock"
    snap = t.snapshot("s1")
    assert snap["current"] == 1 and snap["assisted"]
    assert snap["cards"][0]["played_by"] == [{"category": scores[0].category, "column": 0,
                                              "by": "clock", "turn": 1}]
    assert snap["clock"]["player"] == 1 and not snap["clock"]["out"]
    with pytest.raises(Refused):  # (the computer's score is not hers to take back)
        t.act("s0", TakeBack())


def test_a_turn_played_in_time_is_not_touched(factory: Any) -> None:
    time = Time()
    t = table(factory, {"per_turn": 10}, time)
    t.act("s0", Roll())
    time.pass_(8)
    t.act("s0", ScoreBox("chance"))
    time.pass_(8)  # Bob's turn began when she scored: 2 s left
    assert t.run_due() == 0
    assert t.snapshot("s1")["clock"]["left"] == 2000
    assert all(getattr(a, "by", None) is None for a in t.record().actions)


def test_without_a_clock_nothing_is_due(factory: Any) -> None:
    time = Time()
    t = table(factory, None, time)
    assert t.snapshot("s0")["clock"] is None and t.due() is None
    time.pass_(10_000)
    assert t.due() is None


def test_a_pause_goes_on_by_itself_on_a_table_with_a_clock(factory: Any) -> None:
    """Before a computer the table waits for Go on; with a clock, not forever."""
    time = Time()
    t = table(factory, {"per_turn": 20}, time, [Player("Ann"), Player("Cpu", "computer", "random")])
    t.act("s0", Roll())
    t.act("s0", ScoreBox("chance"))
    assert t.view().pause == "next_player"
    time.pass_(19)
    assert t.run_due() == 0
    time.pass_(2)
    t.run_due(until=lambda: t.view().state.current == 0)
    assert t.view().pause is None and t.view().state.current == 0


def test_the_restarted_table_counts_to_the_stored_deadline(factory: Any, tmp_path: Any) -> None:
    from yacht.store import open_store

    time = Time()
    with open_store(str(tmp_path / "clock.sqlite3")) as db:
        t = table(factory, {"per_turn": 30}, time, store=db)
        gid = t.save()
        assert gid is not None
        t.act("s0", Roll())
        t.act("s0", ScoreBox("chance"))  # Bob's turn counts from now
        time.pass_(20)
        again = Table.resume(db, gid, strategy_factory=factory, speed="instant",
                             seats=[Seat("s0", frozenset({0})), Seat("s1", frozenset({1}))],
                             wall=lambda: time.wall)
        assert again.snapshot("s1")["clock"]["left"] == 10_000
        time.pass_(11)
        again.run_due()
        stored = db.load_record(gid).actions
        assert [a.by for a in stored if isinstance(a, Score)] == [None, "clock"]


def test_the_computer_stands_in_for_a_person_away_until_their_next_turn(factory: Any) -> None:
    time = Time()
    t = table(factory, None, time, [Player("Ann"), Player("Bob"), Player("Cy")])
    assert kinds(t.set_stand_ins([1])) == ["stand_in"]
    t.act("s0", Roll())
    t.act("s0", ScoreBox("chance"))
    t.run_due(until=lambda: t.view().state.dice != ())  # the computer rolls for Bob
    assert t.view().state.current == 1 and t.view().played_for
    with pytest.raises(Refused):
        t.act("s1", Roll())
    t.set_stand_ins([])  # Bob is back: the computer finishes the turn it began
    assert t.snapshot("s1")["stand_ins"] == [1]
    t.run_due(until=lambda: t.view().state.current != 1)
    assert t.snapshot("s1")["stand_ins"] == []
    scores = [a for a in t.record().actions if isinstance(a, Score)]
    assert scores[-1].by == "stand_in"
    t.act("s2", Roll())
    t.act("s2", ScoreBox("chance"))
    t.act("s0", Roll())
    t.act("s0", ScoreBox("sixes"))
    assert t.view().state.current == 1 and not t.view().played_for
    t.act("s1", Roll())  # his own turn again


def test_go_on_is_still_a_persons_command_with_a_clock(factory: Any) -> None:
    time = Time()
    t = table(factory, {"per_turn": 20}, time, [Player("Ann"), Player("Cpu", "computer", "random")])
    t.act("s0", Roll())
    t.act("s0", ScoreBox("chance"))
    assert kinds(t.act("s0", GoOn()))[0] == "went_on"
