"""The session: playing, saving every action, computer steps, hint, finishing, resuming."""

from __future__ import annotations

import random
from typing import Any

import pytest

from yacht.engine import Choose, IllegalAction, Player, Roll, Score
from yacht.rules import all_variants, get
from yacht.session import HintUnavailable, Session, SessionError


def ann_vs_cpu(store: Any, factory: Any, variant: str = "tommys-crag") -> Session:
    return Session(get(variant), [Player("Ann"), Player("Cpu", "computer", "random")],
                   store=store, rng=random.Random(2), strategy_factory=factory)


def test_every_action_is_saved_as_it_happens(store: Any, factory: Any) -> None:
    s = ann_vs_cpu(store, factory)
    assert s.game_id is None and not store.games  # nothing played, nothing stored
    s.roll()
    assert s.game_id in store.games and s.saved
    s.toggle(0)
    s.toggle(2)
    assert s.state.chosen == frozenset({0, 2})
    s.toggle(0)
    assert store.games[s.game_id].record.actions == s.state.log
    # the stored roll holds its result, so the game replays without randomness
    assert isinstance(store.games[s.game_id].record.actions[0], Roll)
    assert store.games[s.game_id].record.actions[0].result == s.state.log[0].result


def test_illegal_actions_raise_and_change_nothing(store: Any, factory: Any) -> None:
    s = ann_vs_cpu(store, factory)
    with pytest.raises(IllegalAction, match="roll first"):
        s.toggle(0)
    with pytest.raises(IllegalAction, match="roll first"):
        s.score("crag")
    s.roll()
    with pytest.raises(IllegalAction, match="no die 4"):
        s.toggle(3)
    with pytest.raises(IllegalAction, match="unknown box"):
        s.score("nonsense")
    assert len(store.games[s.game_id].record.actions) == 1


def test_choices_all_singlets_none(store: Any, factory: Any) -> None:
    s = Session(get("yahtzee"), [Player("Ann")], store=store, strategy_factory=factory)
    s.apply(Roll((2, 2, 5, 6, 2)))
    s.choose_singlets()
    assert s.state.chosen == frozenset({2, 3})
    s.choose_all()
    assert s.state.chosen == frozenset(range(5))
    s.choose_none()
    assert s.state.chosen == frozenset()
    s.choose_none()  # nothing chosen: nothing happens, nothing is logged
    assert len(s.state.log) == 4


def test_give_back_and_take_back(store: Any, factory: Any) -> None:
    s = ann_vs_cpu(store, factory)
    s.apply(Roll((6, 6, 1)))
    s.choose([0, 1])
    assert s.can_give_back()
    s.give_back()
    assert not s.state.chosen
    s.score("ones")
    assert s.last_score is not None and s.last_score.points == 1
    assert s.last_score.dice == (6, 6, 1)
    assert s.is_computer_turn()
    s.take_back()
    assert s.state.dice == (6, 6, 1) and s.state.current == 0
    assert s.last_score is None
    s.score("crag")
    assert s.state.totals(0).grand == 50
    assert store.games[s.game_id].record.actions == s.state.log


def test_computer_steps_one_action_at_a_time(store: Any, factory: Any) -> None:
    s = ann_vs_cpu(store, factory)
    s.roll()
    s.score(s.state.placements()[0].category)
    assert s.is_computer_turn()
    seen = []
    while s.is_computer_turn():
        before = len(s.state.log)
        planned = s.computer_action()
        assert len(s.state.log) == before  # working out the move changes nothing
        a = s.next_computer_action()
        assert a is not None and len(s.state.log) == before + 1
        assert planned is not None
        seen.append(type(a))
    assert seen[0] is Roll and seen[-1] is Score
    assert all(t in (Roll, Choose, Score) for t in seen)
    # its final dice stay readable, and a computer's scoring cannot be taken back
    assert s.last_score is not None and s.last_score.player == 1
    assert not s.can_take_back()
    assert s.next_computer_action() is None  # a person is on turn


def test_demo_game_to_the_end_and_finish(store: Any, factory: Any) -> None:
    s = Session(get("tommys-crag"), [Player("A", "computer", "random"),
                                     Player("B", "computer", "random")],
                store=store, rng=random.Random(4), strategy_factory=factory)
    assert s.demo
    while not s.is_over():
        s.play_computer_turn()
    assert s.finish() == []  # computers never enter the top ten
    assert store.games[s.game_id].finished


def test_finish_returns_new_entries_once(store: Any, factory: Any) -> None:
    s = Session(get("tommys-crag"), [Player("Ann")], store=store, rng=random.Random(1),
                strategy_factory=factory)
    assert s.finish() == []  # not over: nothing happens
    while not s.is_over():
        s.roll()
        s.score(s.state.placements()[-1].category)
    entries = s.finish()
    assert [e.name for e in entries] == ["Ann"]
    assert entries[0].score == s.state.returns()[0]
    assert s.finish() == entries
    assert [e.name for e in s.top_ten()] == ["Ann"]


def test_resume_continues_where_it_stopped(store: Any, factory: Any) -> None:
    s = ann_vs_cpu(store, factory)
    s.roll()
    s.choose([1])
    s.roll()
    dice = s.state.dice
    s.score(s.state.placements()[0].category)
    while s.is_computer_turn():
        s.next_computer_action()
    # the computer's final dice stay readable after a resume too
    mid = Session.resume(store, s.game_id or "", strategy_factory=factory)
    assert mid.last_score is not None and mid.last_score == s.last_score
    assert mid.last_score.player == 1
    s.roll()
    back = Session.resume(store, s.game_id or "", rng=random.Random(9),
                          strategy_factory=factory)
    assert back.state.position_key() == s.state.position_key()
    assert back.game_id == s.game_id
    assert back.last_score == s.last_score
    assert dice
    back.score(back.state.placements()[0].category)  # and it goes on saving
    assert store.games[s.game_id or ""].record.actions == back.state.log


def test_resume_of_a_missing_game_is_one_line(store: Any) -> None:
    with pytest.raises(SessionError, match="no game nope"):
        Session.resume(store, "nope")


def test_a_failing_store_does_not_lose_the_game(store: Any, factory: Any) -> None:
    s = ann_vs_cpu(store, factory)
    store.fail = True
    s.roll()
    assert s.warning is not None and "disk full" in s.warning
    assert len(s.state.dice) == 3  # the game goes on in memory


def test_too_many_players_is_a_session_error(store: Any) -> None:
    with pytest.raises(SessionError, match="1-8 players"):
        Session(get("yahtzee"), [Player(str(i)) for i in range(9)], store=store)


def test_hint_ranks_moves_and_marks_the_game_assisted(store: Any, factory: Any) -> None:
    s = Session(get("tommys-crag"), [Player("Ann")], store=store, rng=random.Random(3),
                strategy_factory=factory)
    with pytest.raises(HintUnavailable, match="roll first"):
        s.hint()
    assert not s.assisted
    s.apply(Roll((6, 6, 1)))
    moves = s.hint(3)
    assert 1 <= len(moves) <= 3
    assert moves[0].loss == pytest.approx(0.0)
    assert moves[0].text == "Score Crag for 50" and moves[0].category == "crag"
    assert all(a.expected >= b.expected for a, b in zip(moves, moves[1:], strict=False))
    assert s.assisted and store.games[s.game_id].assisted == {0}


def test_hint_without_an_advisor_says_why(store: Any, factory: Any,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    real = importlib.import_module

    def no_advisor(name: str, *a: Any) -> Any:
        if name == "yacht.strategy.advisor":
            raise ImportError(name)
        return real(name, *a)

    monkeypatch.setattr(importlib, "import_module", no_advisor)
    s = Session(get("yatzy"), [Player("Ann")], store=store, rng=random.Random(3),
                strategy_factory=factory)
    s.roll()
    with pytest.raises(HintUnavailable, match="advisor is not available"):
        s.hint()
    assert not s.assisted


def test_unknown_level_plays_at_random_with_a_warning(store: Any) -> None:
    s = Session(get("tommys-crag"), [Player("X", "computer", "grandmaster")], store=store,
                rng=random.Random(1))
    s.play_computer_turn()
    assert s.state.turns_taken(0) == 1
    assert s.warning is not None and "grandmaster" in s.warning


def test_no_store_plays_too() -> None:
    s = Session(get("yahtzee"), [Player("Ann")], rng=random.Random(1))
    s.roll()
    s.score(s.state.placements()[0].category)
    assert s.game_id is None and s.finish() == [] and s.top_ten() == []


@pytest.mark.parametrize("rs", all_variants(), ids=lambda r: r.id)
def test_every_variant_plays_to_the_end_through_the_session(rs: Any, store: Any,
                                                            factory: Any) -> None:
    s = Session(rs, [Player("Ann"), Player("Cpu", "computer", "random")], store=store,
                rng=random.Random(11), strategy_factory=factory)
    pick = random.Random(3)
    while not s.is_over():
        if s.is_computer_turn():
            s.play_computer_turn()
            continue
        s.roll()
        while not s.state.placements() or (s.state.may_reroll() and pick.random() < 0.3):
            s.choose_all()
            s.roll()
        pl = pick.choice(s.state.placements())
        s.score(pl.category, pl.column)
    assert s.finish()
    assert store.games[s.game_id or ""].record.actions == s.state.log


def test_a_store_attached_later_gets_the_whole_game(store: Any, factory: Any) -> None:
    s = Session(get("tommys-crag"), [Player("Ann")], rng=random.Random(1),
                strategy_factory=factory)
    s.roll()
    s.choose([0])
    s.attach_store(store)
    assert store.games[s.game_id or ""].record.actions == s.state.log
    s.roll()
    assert store.games[s.game_id or ""].record.actions == s.state.log
    gid = s.game_id
    s.attach_store(store)  # a second time changes nothing
    assert s.game_id == gid and len(store.games) == 1


def test_two_columns_say_which_column_is_open(store: Any, factory: Any) -> None:
    s = Session(get("ancient-yacht-double"), [Player("Ann")], store=store,
                strategy_factory=factory)
    s.apply(Roll((1, 2, 3, 4, 6)))
    s.score("choice", 1)
    s.apply(Roll((1, 2, 3, 4, 6)))
    with pytest.raises(IllegalAction, match="Choice is not open in column 2; it is in column 1"):
        s.score("choice", 1)
    s.score("choice", 0)
    assert s.state.totals(0).grand == 16 * 2 + 16
