"""The table: commands from seats, saving every action, computer steps, pauses, pacing,
the fallback of a failing computer player, hints, finishing once, resuming."""

from __future__ import annotations

import random
from typing import Any

import pytest

from yacht.engine import Choose, GiveBack, Player, Roll, Score, TakeBack
from yacht.rules import all_variants, get
from yacht.session import HintUnavailable, SessionError
from yacht.session.commands import ComputerMove, GoOn, ScoreBox, Select, Toggle
from yacht.session.table import LOCAL, Event, Pacing, Refused, Seat, Table
from yacht.strategy import Decision


def ann_vs_cpu(store: Any, factory: Any, variant: str = "tommys-crag", **kw: Any) -> Table:
    return Table.new(get(variant), [Player("Ann"), Player("Cpu", "computer", "random")],
                     store=store, rng=random.Random(2), strategy_factory=factory,
                     speed="instant", **kw)


class Recorder:
    def __init__(self, table: Table) -> None:
        self.events: list[Event] = []
        table.subscribe(self.events.append)

    @property
    def kinds(self) -> list[str]:
        return [e.kind for e in self.events]


def test_every_action_is_saved_as_it_happens(store: Any, factory: Any) -> None:
    t = ann_vs_cpu(store, factory)
    s = t._game
    assert s.game_id is None and not store.games  # nothing played, nothing stored
    t.act(LOCAL, Roll())
    assert s.game_id in store.games and s.saved
    t.act(LOCAL, Toggle(0))
    t.act(LOCAL, Toggle(2))
    assert s.state.chosen == frozenset({0, 2})
    t.act(LOCAL, Toggle(0))
    assert store.games[s.game_id].record.actions == s.state.log
    # the stored roll holds its result, so the game replays without randomness
    assert isinstance(store.games[s.game_id].record.actions[0], Roll)
    assert store.games[s.game_id].record.actions[0].result == s.state.log[0].result


def test_refused_commands_change_nothing(store: Any, factory: Any) -> None:
    t = ann_vs_cpu(store, factory)
    rec = Recorder(t)
    for cmd, words in [(Toggle(0), "roll first"), (ScoreBox("crag"), "roll first"),
                       (GoOn(), "no pause"), (TakeBack(), "no scoring to take back")]:
        with pytest.raises(Refused, match=words):
            t.act(LOCAL, cmd)
    t.act(LOCAL, Roll())
    version, key = t.version, t._game.state.position_key()
    for cmd, words in [(Toggle(3), "no die 4"), (ScoreBox("nonsense"), "unknown box"),
                       (Roll(), "choose at least one die"), (GiveBack(), "none can be given"),
                       (Choose((0, 0)), "chosen twice"), (ComputerMove(), "not a computer")]:
        with pytest.raises(Refused, match=words):
            t.act(LOCAL, cmd)
    # a sequence is all or nothing: the good first half is not applied either
    with pytest.raises(Refused, match="no die 9"):
        t.act(LOCAL, Choose((0,)), Toggle(8))
    assert (t.version, t._game.state.position_key()) == (version, key)
    assert rec.kinds == ["rolled"]
    assert len(store.games[t._game.game_id].record.actions) == 1


def test_choices_all_singlets_none(store: Any, factory: Any) -> None:
    t = Table.new(get("yahtzee"), [Player("Ann")], store=store, strategy_factory=factory,
                  real_dice=True)
    st = t._game.state
    t.act(LOCAL, Roll((2, 2, 5, 6, 2)))
    t.act(LOCAL, Select("singlets"))
    assert st.chosen == frozenset({2, 3})
    t.act(LOCAL, Select("all"))
    assert st.chosen == frozenset(range(5))
    t.act(LOCAL, Select("none"))
    assert st.chosen == frozenset()
    version = t.version
    assert t.act(LOCAL, Select("none")) == []  # nothing chosen: nothing happens or is logged
    assert t.version == version and len(st.log) == 4
    t.act(LOCAL, Choose((2, 3)))
    t.act(LOCAL, Roll((5, 5)))  # 2 2 5 5 2: no singlets, and a roll left: refused
    with pytest.raises(Refused, match="No unmatched die"):
        t.act(LOCAL, Select("singlets"))


def test_give_back_take_back_and_the_next_player_pause(store: Any, factory: Any) -> None:
    t = ann_vs_cpu(store, factory, real_dice=True)
    rec = Recorder(t)
    s = t._game
    t.act(LOCAL, Roll((6, 6, 1)))
    t.act(LOCAL, Choose((0, 1)))
    assert t.snapshot(LOCAL)["can"]["give_back"]
    t.act(LOCAL, GiveBack())
    assert not s.state.chosen
    t.act(LOCAL, ScoreBox("ones"))
    assert s.last_score is not None and s.last_score.points == 1
    assert s.last_score.dice == (6, 6, 1)
    # a person scored and a computer is next: the table pauses (the result stays readable)
    assert t.view().pause == "next_player" and t.due() is None
    assert rec.kinds[-3:] == ["scored", "turn_passed", "paused"]
    t.act(LOCAL, TakeBack())
    assert s.state.dice == (6, 6, 1) and s.state.current == 0
    assert s.last_score is None and t.view().pause is None
    t.act(LOCAL, ScoreBox("crag"))
    assert s.state.totals(0).grand == 50
    with pytest.raises(Refused, match="leave the pause") as e:
        t.act(LOCAL, ComputerMove())
    assert e.value.code == "paused"
    t.act(LOCAL, GoOn())
    assert t.view().pause is None and t.due() is not None
    assert store.games[s.game_id].record.actions == s.state.log


def test_computer_steps_one_action_at_a_time(store: Any, factory: Any) -> None:
    t = ann_vs_cpu(store, factory)
    s = t._game
    rec = Recorder(t)
    t.act(LOCAL, Roll())
    t.act(LOCAL, ScoreBox(s.state.placements()[0].category), GoOn())
    assert s.is_computer_turn()
    seen = []
    while s.is_computer_turn():
        before = len(s.state.log)
        plan = t.think()
        assert plan is not None and len(s.state.log) == before  # thinking changes nothing
        assert t.step(plan)
        assert len(s.state.log) == before + 1
        seen.append(type(s.state.log[-1]))
    assert seen[0] is Roll and seen[-1] is Score
    assert all(k in (Roll, Choose, Score) for k in seen)
    # its final dice stay readable, and a computer's scoring cannot be taken back
    assert s.last_score is not None and s.last_score.player == 1
    assert not s.can_take_back() and t.view().pause is None
    assert t.think() is None  # a person is on turn
    assert "Cpu:" in " ".join(e.text for e in rec.events if e.kind == "scored")


def test_a_plan_for_an_older_version_is_dropped(store: Any, factory: Any) -> None:
    t = ann_vs_cpu(store, factory, real_dice=True)
    t.act(LOCAL, Roll((1, 2, 3)))
    t.act(LOCAL, ScoreBox("ones"), GoOn())
    plan = t.think()
    assert plan is not None
    t.act(LOCAL, TakeBack())  # the person took the score back meanwhile
    assert t.step(plan) == []
    assert t._game.state.current == 0


def test_stale_commands_and_seats(store: Any, factory: Any) -> None:
    rs = get("tommys-crag")
    t = Table.new(rs, [Player("Ann"), Player("Bob")], store=store, rng=random.Random(1),
                  seats=[Seat("ann", frozenset({0})), Seat("bob", frozenset({1})),
                         Seat("watch", frozenset())])
    with pytest.raises(Refused, match="Ann's turn") as e:
        t.act("bob", Roll())
    assert e.value.code == "not_your_turn"
    with pytest.raises(Refused) as e:
        t.act("nobody", Roll())
    assert e.value.code == "unknown_seat"
    with pytest.raises(Refused):
        t.act("watch", Roll())
    v = t.version
    t.act("ann", Roll(), version=v)
    with pytest.raises(Refused, match="moved on") as e:
        t.act("ann", Toggle(0), version=v)  # sent against the table before the roll
    assert e.value.code == "stale" and t.version == v + 1 and not t._game.state.chosen
    t.act("ann", ScoreBox(t._game.state.placements()[0].category), version=v + 1)
    assert t.view().pause is None  # two people: no pause between them
    with pytest.raises(Refused, match="only Ann can take back"):
        t.act("bob", TakeBack())
    snap = t.snapshot("bob")
    assert snap["seat"]["my_turn"] and snap["can"]["roll"] and not snap["can"]["take_back"]
    assert [p["mine"] for p in snap["players"]] == [False, True]
    assert t.snapshot("ann")["can"]["take_back"] and not t.snapshot("ann")["can"]["roll"]
    assert not any(t.snapshot("watch")["can"].values())


def test_pacing_is_data_and_the_demo_goes_on_by_itself(store: Any, factory: Any) -> None:
    now = [100.0]
    rs = get("tommys-crag")
    from yacht.session.game import Session

    session = Session(rs, [Player("A", "computer", "random"), Player("B", "computer", "random")],
                      store=store, rng=random.Random(4), strategy_factory=factory)
    t = Table(session, speed="normal", clock=lambda: now[0])
    assert Pacing("slow").step > Pacing("normal").step > Pacing("fast").step > 0
    due = t.due()
    assert due is not None and due.kind == "computer"
    assert due.at == pytest.approx(100.0 + Pacing("normal").step)
    scored = False
    while not session.is_over():
        due = t.due()
        assert due is not None
        now[0] = due.at
        before = session.state.current
        steps = len(session.state.log)
        t.run_due(until=lambda n=steps: len(session.state.log) > n)  # one step
        if isinstance(session.state.log[-1], Score) and session.state.current != before \
                and not session.is_over() and not scored:
            scored = True  # after a computer scored, the next computer waits twice as long
            nxt = t.due()
            assert nxt is not None
            assert nxt.at - now[0] == pytest.approx(Pacing("normal").between_computers)
    assert scored
    due = t.due()
    assert t.view().pause == "game_over" and due is not None and due.kind == "go_on"
    assert due.at - now[0] == pytest.approx(Pacing("normal").demo_end)
    t.set_speed("fast")
    assert t.due() is not None
    assert t.due().at - now[0] == pytest.approx(Pacing("fast").demo_end)  # type: ignore[union-attr]
    now[0] += 10
    assert t.run_due() == 1
    assert session.finished and store.games[session.game_id].finished
    assert t.due() is None


def test_finish_returns_the_new_entries_once(store: Any, factory: Any) -> None:
    t = Table.new(get("tommys-crag"), [Player("Ann")], store=store, rng=random.Random(1),
                  strategy_factory=factory)
    rec = Recorder(t)
    assert t.finish() == []  # not over: nothing happens
    s = t._game
    while not s.is_over():
        t.act(LOCAL, Roll())
        t.act(LOCAL, ScoreBox(s.state.placements()[-1].category))
    assert t.view().pause == "game_over" and "game_over" in rec.kinds
    assert not s.finished  # Oops is still possible until the player goes on
    t.act(LOCAL, GoOn())
    assert rec.kinds[-2:] == ["went_on", "finished"]
    entries = t.finish()
    assert [e.name for e in entries] == ["Ann"]
    assert entries[0].score == s.state.returns()[0]
    assert t.finish() == entries and rec.kinds.count("finished") == 1
    assert [e.name for e in t.top_ten()] == ["Ann"]


def test_a_finished_game_takes_nothing_back(store: Any, factory: Any) -> None:
    """Its results are recorded: take-back is not offered, and refused as the game's end
    (it used to be offered, and the store then refused it as "moved on")."""
    t = Table.new(get("tommys-crag"), [Player("Ann")], store=store, rng=random.Random(1),
                  strategy_factory=factory)
    s = t._game
    while not s.is_over():
        t.act(LOCAL, Roll())
        t.act(LOCAL, ScoreBox(s.state.placements()[-1].category))
    assert t.snapshot(LOCAL)["can"]["take_back"]  # the results' pause: Oops still possible
    t.act(LOCAL, GoOn())
    assert s.finished and s.state.can_take_back()  # (the engine alone would take it back)
    snap = t.snapshot(LOCAL)
    assert not snap["can"]["take_back"] and "Oops" not in snap["help"]
    version, log = t.version, list(s.state.log)
    with pytest.raises(Refused, match="the game is over") as e:
        t.act(LOCAL, TakeBack())
    assert e.value.code == "illegal"
    assert (t.version, s.state.log) == (version, log)
    assert store.games[s.game_id].record.actions == log


def test_resume_continues_where_it_stopped(store: Any, factory: Any) -> None:
    t = ann_vs_cpu(store, factory)
    s = t._game
    t.act(LOCAL, Roll())
    t.act(LOCAL, Choose((1,)), Roll())
    dice = s.state.dice
    t.act(LOCAL, ScoreBox(s.state.placements()[0].category), GoOn())
    t.run_due()
    assert not s.is_computer_turn()
    # the computer's final dice stay readable after a resume too
    mid = Table.resume(store, s.game_id or "", strategy_factory=factory)
    assert mid._game.last_score is not None and mid._game.last_score == s.last_score
    assert mid._game.last_score.player == 1
    t.act(LOCAL, Roll())
    back = Table.resume(store, s.game_id or "", rng=random.Random(9), strategy_factory=factory)
    assert back._game.state.position_key() == s.state.position_key()
    assert back._game.game_id == s.game_id
    assert back._game.last_score == s.last_score
    assert dice
    back.act(LOCAL, ScoreBox(back._game.state.placements()[0].category))
    assert store.games[s.game_id or ""].record.actions == back._game.state.log


def test_resume_of_a_missing_game_is_one_line(store: Any) -> None:
    with pytest.raises(SessionError, match="no game nope"):
        Table.resume(store, "nope")


def test_a_failing_store_does_not_lose_the_game(store: Any, factory: Any) -> None:
    t = ann_vs_cpu(store, factory)
    rec = Recorder(t)
    store.fail = True
    t.act(LOCAL, Roll())
    warning = next(e for e in rec.events if e.kind == "store_warning")
    assert "disk full" in warning.text
    assert len(t._game.state.dice) == 3  # the game goes on in memory
    assert not t.view().saved


def test_too_many_players_is_a_session_error(store: Any) -> None:
    with pytest.raises(SessionError, match="1-8 players"):
        Table.new(get("yahtzee"), [Player(str(i)) for i in range(9)], store=store)


def test_hint_ranks_moves_and_marks_the_player_assisted(store: Any, factory: Any) -> None:
    t = Table.new(get("tommys-crag"), [Player("Ann")], store=store, rng=random.Random(3),
                  strategy_factory=factory, real_dice=True)
    rec = Recorder(t)
    with pytest.raises(HintUnavailable, match="roll first"):
        t.hint(LOCAL)
    assert not t.view().assisted
    t.act(LOCAL, Roll((6, 6, 1)))
    moves = t.hint(LOCAL, 3)
    assert 1 <= len(moves) <= 3
    assert moves[0].loss == pytest.approx(0.0)
    assert moves[0].text == "Score Crag for 50" and moves[0].category == "crag"
    assert all(a.expected >= b.expected for a, b in zip(moves, moves[1:], strict=False))
    assert t.view().assisted and store.games[t._game.game_id].assisted == {0}
    assert rec.kinds.count("assisted") == 1
    t.hint(LOCAL)
    assert rec.kinds.count("assisted") == 1  # once per player


def test_hint_without_an_advisor_says_why(store: Any, factory: Any,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    real = importlib.import_module

    def no_advisor(name: str, *a: Any) -> Any:
        if name == "yacht.strategy.advisor":
            raise ImportError(name)
        return real(name, *a)

    monkeypatch.setattr(importlib, "import_module", no_advisor)
    t = Table.new(get("yatzy"), [Player("Ann")], store=store, rng=random.Random(3),
                  strategy_factory=factory)
    t.act(LOCAL, Roll())
    with pytest.raises(HintUnavailable, match="advisor is not available"):
        t.hint(LOCAL)
    assert not t.view().assisted


def test_unknown_level_plays_at_random_with_a_warning(store: Any) -> None:
    old = Player.from_json({"name": "X", "kind": "computer", "level": "grandmaster"})
    t = Table.new(get("tommys-crag"), [old], store=store,
                  rng=random.Random(1), speed="instant")
    rec = Recorder(t)
    while t._game.state.turns_taken(0) == 0:
        t.step(t.think())
    warnings = [e.text for e in rec.events if e.kind == "store_warning"]
    assert any("grandmaster" in w for w in warnings)


class Failing:
    level = "broken"

    def __init__(self, ruleset: Any, how: str) -> None:
        self.how = how

    def decide(self, state: Any) -> Decision:
        if self.how == "raise":
            raise RuntimeError("out of tables")
        return Decision(score=Score("no_such_box"))


@pytest.mark.parametrize("how", ["raise", "illegal"])
def test_a_failing_computer_player_moves_at_random(store: Any, how: str) -> None:
    t = Table.new(get("tommys-crag"), [Player("X", "computer", "expert")], store=store,
                  rng=random.Random(1), strategy_factory=lambda lv, rs: Failing(rs, how),
                  speed="instant")
    rec = Recorder(t)
    assert t.run_due() > 0
    assert t._game.is_over()  # the game still went to its end
    failed = [e for e in rec.events if e.kind == "computer_failed"]
    assert failed and ("out of tables" in failed[0].text or "illegal" in failed[0].text)
    assert store.games[t._game.game_id].finished


def test_a_broken_subscriber_does_not_break_the_table(store: Any, factory: Any) -> None:
    t = ann_vs_cpu(store, factory)

    def broken(event: Event) -> None:
        raise ValueError("a view crashed")

    t.subscribe(broken)
    rec = Recorder(t)
    t.act(LOCAL, Roll())
    assert rec.kinds == ["rolled"]
    unsubscribe = t.subscribe(rec.events.append)
    unsubscribe()
    t.act(LOCAL, Toggle(0))
    assert rec.kinds == ["rolled", "chosen"]


def test_no_store_plays_too() -> None:
    t = Table.new(get("yahtzee"), [Player("Ann")], rng=random.Random(1))
    t.act(LOCAL, Roll())
    t.act(LOCAL, ScoreBox(t._game.state.placements()[0].category))
    assert t.view().game_id is None and t.finish() == [] and t.top_ten() == []


@pytest.mark.parametrize("rs", all_variants(), ids=lambda r: r.id)
def test_every_variant_plays_to_the_end_at_the_table(rs: Any, store: Any, factory: Any) -> None:
    t = Table.new(rs, [Player("Ann"), Player("Cpu", "computer", "random")], store=store,
                  rng=random.Random(11), strategy_factory=factory, speed="instant")
    s = t._game
    pick = random.Random(3)
    while not t.view().finished:
        t.run_due()
        view = t.view()
        if view.pause is not None:
            t.act(LOCAL, GoOn())
            continue
        t.act(LOCAL, Roll())
        while not s.state.placements() or (s.state.may_reroll() and pick.random() < 0.3):
            t.act(LOCAL, Select("all"), Roll())
        pl = pick.choice(s.state.placements())
        t.act(LOCAL, Score(pl.category, pl.column))
    assert s.is_over() and s.finished
    assert store.games[s.game_id or ""].record.actions == s.state.log


def test_a_store_attached_later_gets_the_whole_game(store: Any, factory: Any) -> None:
    t = Table.new(get("tommys-crag"), [Player("Ann")], rng=random.Random(1),
                  strategy_factory=factory)
    s = t._game
    t.act(LOCAL, Roll())
    t.act(LOCAL, Choose((0,)))
    t.attach_store(store)
    assert store.games[s.game_id or ""].record.actions == s.state.log
    t.act(LOCAL, Roll())
    assert store.games[s.game_id or ""].record.actions == s.state.log
    gid = s.game_id
    t.attach_store(store)  # a second time changes nothing
    assert s.game_id == gid and len(store.games) == 1


def test_two_columns_say_which_column_is_open(store: Any, factory: Any) -> None:
    t = Table.new(get("ancient-yacht-double"), [Player("Ann")], store=store,
                  strategy_factory=factory, real_dice=True)
    t.act(LOCAL, Roll((1, 2, 3, 4, 6)))
    t.act(LOCAL, ScoreBox("choice", 1))
    t.act(LOCAL, Roll((1, 2, 3, 4, 6)))
    # (it said 'Choice is not open in column 2; it is in column 1': filled is the why)
    with pytest.raises(Refused, match=r"^Choice is filled already in column 2 \(16\); it is "
                                      "open in column 1$"):
        t.act(LOCAL, ScoreBox("choice", 1))
    t.act(LOCAL, ScoreBox("choice"))  # no column: the one that is open
    assert t._game.state.totals(0).grand == 16 * 2 + 16


def test_closed_tables_take_nothing(store: Any, factory: Any) -> None:
    t = ann_vs_cpu(store, factory)
    rec = Recorder(t)
    t.close()
    with pytest.raises(Refused) as e:
        t.act(LOCAL, Roll())
    assert e.value.code == "closed" and t.due() is None and rec.kinds == ["closed"]


def test_a_table_without_pauses_goes_on_and_finishes_at_once(store: Any, factory: Any) -> None:
    t = Table.new(get("tommys-crag"), [Player("Ann"), Player("Cpu", "computer", "random")],
                  store=store, rng=random.Random(3), strategy_factory=factory, pauses=False)
    rec = Recorder(t)
    s = t._game
    while not s.is_over():
        t.run_due()
        if s.is_over():
            break
        t.act(LOCAL, Roll())
        t.act(LOCAL, ScoreBox(s.state.placements()[0].category))
        assert t.view().pause is None
    assert s.finished and "next_player" not in str([e.data for e in rec.events])
    assert rec.kinds[-2:] == ["went_on", "finished"] or rec.kinds[-1] == "finished"


def test_a_strict_table_counts_an_action_only_once_saved(store: Any, factory: Any) -> None:
    t = Table.new(get("tommys-crag"), [Player("Ann")], store=store, rng=random.Random(1),
                  strategy_factory=factory, strict=True)
    rec = Recorder(t)
    store.fail = True
    with pytest.raises(Refused, match="could not be saved") as e:
        t.act(LOCAL, Roll())  # the very first action: the game is not even stored yet
    assert e.value.code == "store" and t._game.state.log == [] and t.version == 0
    store.fail = False
    t.act(LOCAL, Roll())
    t.act(LOCAL, Toggle(0))
    store.fail = True
    key = t._game.state.position_key()
    with pytest.raises(Refused, match="could not be saved"):
        t.act(LOCAL, Roll())
    assert t._game.state.position_key() == key and rec.kinds == ["rolled", "chosen"]
    store.fail = False
    t.act(LOCAL, Roll())
    assert store.games[t._game.game_id].record.actions == t._game.state.log
