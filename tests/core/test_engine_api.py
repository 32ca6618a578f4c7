"""The engine as a library: what an API user may hand it, and what it promises back
(QA s18, API review: actions' numbers, a refused action changing nothing, OpenSpiel's
terminal and chance states, players, JSON round trips, messages counting from 0 and
from 1). The rules' side: ``test_rules_api.py``."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yacht.engine import (
    Choose,
    GiveBack,
    IllegalAction,
    Player,
    Record,
    RecordError,
    Roll,
    Score,
    State,
    TakeBack,
    action_from_json,
    action_to_json,
    random_decision,
)
from yacht.rules import Counts, Ruleset, SpecialRule, TurnContext, get

# --- 1. an action's numbers are plain ints --------------------------------------------


@pytest.mark.parametrize("make", [
    lambda: Roll((1.5, 2, 3, 4, 5)), lambda: Roll((True, 2, 3, 4, 5)),
    lambda: Roll(("1", 2, 3, 4, 5)), lambda: Roll("12345"), lambda: Roll((1, 2, 3, 4, None)),
    lambda: Choose((0.5,)), lambda: Choose((True, 2)), lambda: Choose(0),
    lambda: Score("chance", 0.0), lambda: Score("chance", False), lambda: Score(3),
    lambda: Roll((1, 2, 3, 4, 5), entered=1),
])
def test_an_action_with_numbers_that_are_not_ints_cannot_be_made(make: Any) -> None:
    with pytest.raises(TypeError, match=r"must be|not an?|True or False"):
        make()


def test_integer_types_become_plain_ints_and_a_record_saves_and_loads() -> None:
    s = State(get("yahtzee"), [Player("Ann")], rng=random.Random(1))
    s.apply(Roll(tuple(np.array([1, 2, 3, 4, 5]))))
    s.apply(Choose([np.int64(0), np.int32(4)]))  # type: ignore[list-item]
    s.apply(Roll([6, 6]))  # type: ignore[arg-type]
    s.apply(Score("chance", np.int64(0)))  # type: ignore[arg-type]
    roll, choose, roll2, score = s.log
    assert roll == Roll((1, 2, 3, 4, 5)) and choose == Choose((0, 4)) and score.column == 0
    assert all(type(v) is int for a in (roll, roll2) for v in a.result or ())
    assert all(type(v) is int for v in choose.dice) and type(score.column) is int
    assert isinstance(roll2.result, tuple)
    back = Record.loads(Record.from_state(s).dumps())  # (numpy's int64 is no JSON)
    assert back.final_state() == s


def test_a_roll_of_floats_is_refused_before_the_state_changes() -> None:
    """It passed check() (1 <= 1.5 <= 6) and failed in the scoring after the dice and
    the log had changed: legal_actions() then failed too."""
    s = State(get("yahtzee"), [Player("Ann")], rng=random.Random(1))
    with pytest.raises(TypeError, match="1.5"):
        s.apply(Roll((1.5, 2, 3, 4, 5)))
    assert s.dice == () and s.log == [] and s.legal_actions() == [Roll()]


class BadDice:
    """A dice source that gives what no die shows."""

    def __init__(self, values: tuple[Any, ...]) -> None:
        self.values = values

    def draw(self, turn: int, roll: int, positions: Sequence[int], faces: int) -> Any:
        return self.values[:len(positions)]

    def copy(self) -> BadDice:
        return self


@pytest.mark.parametrize("values, error", [
    ((7, 1, 1, 1, 1), IllegalAction), ((1, 1, 1), IllegalAction), ((1.0,) * 5, TypeError),
])
def test_a_dice_source_giving_what_no_die_shows_changes_nothing(values: tuple[Any, ...],
                                                                error: type) -> None:
    s = State(get("yatzy"), [Player("Ann")], dice=BadDice(values))
    with pytest.raises(error):
        s.apply(Roll())
    assert s.dice == () and s.log == [] and s.rolls == 0


class Boom(SpecialRule):
    """A special rule that fails where the engine asks whether a roll ends the game."""

    name = "boom"

    def ends_game(self, rs: Ruleset, ctx: TurnContext, counts: Counts) -> bool:
        if counts[5] == 5:
            raise RuntimeError("boom")
        return False


def test_a_hook_failing_in_the_middle_of_a_roll_leaves_the_state_as_it_was() -> None:
    rs = dataclasses.replace(get("yatzy"), special=(Boom(),))
    s = State(rs, [Player("Ann")], rng=random.Random(1))
    s.apply(Roll((6, 6, 6, 6, 1)))
    s.apply(Choose((4,)))
    before = (s.position_key(), list(s.log), s.legal_actions())
    with pytest.raises(RuntimeError, match="boom"):
        s.apply(Roll((6,)))
    assert (s.position_key(), s.log, s.legal_actions()) == before


def _snapshot(s: State) -> tuple[Any, ...]:
    rng = getattr(s.dice_source, "rng", None)
    return (s.position_key(), list(s.log), s.dice_entered, s.legal_actions(),
            s.chance_outcomes(), s.placements(), s.returns(),
            rng.getstate() if rng is not None else None)


_ODD = st.one_of(st.floats(-2, 12), st.booleans(), st.none(),
                 st.sampled_from(["1", "chance", b"2"]), st.integers(0, 7).map(np.float64))
_VALUE = st.one_of(st.integers(-2, 12), st.integers(0, 7).map(np.int64), _ODD)


@st.composite
def _values(draw: st.DrawFn, n: int, low: int, high: int) -> Any:
    """Junk, or ``n`` good values with an odd one among them now and then."""
    if draw(st.booleans()):
        return draw(st.one_of(st.lists(_VALUE, max_size=11).map(tuple), _VALUE,
                              st.text(max_size=6)))
    good = draw(st.lists(st.integers(low, high), min_size=n, max_size=n))
    if good and draw(st.booleans()):
        good[draw(st.integers(0, n - 1))] = draw(st.one_of(
            _ODD, st.floats(low, high), st.integers(low, high).map(np.int64)))
    return tuple(good)


@st.composite
def _bad_action(draw: st.DrawFn, s: State) -> Any:
    """Something handed to apply: a junk action, a thing that is no action, or the
    making of an action that fails."""
    rs = s.ruleset
    kind = draw(st.sampled_from(["roll", "choose", "score", "give_back", "take_back",
                                 "other"]))
    try:
        if kind == "roll":
            return Roll(draw(st.one_of(st.none(), _values(len(s.to_roll()), 1, rs.faces))),
                        draw(st.sampled_from([False, True, 1, None])))
        if kind == "choose":
            return Choose(draw(_values(draw(st.integers(1, rs.dice)), 0, rs.dice - 1)))
        if kind == "score":
            box = draw(st.one_of(st.sampled_from([c.id for c in rs.categories]), _VALUE))
            return Score(box, draw(st.one_of(_VALUE, st.just(0))))
    except (TypeError, ValueError) as e:
        return e  # (refused when made: no state has seen it)
    if kind == "give_back":
        return GiveBack()
    if kind == "take_back":
        return TakeBack()
    return draw(st.sampled_from(["roll", None, Roll, {"type": "roll"}, 3]))


@given(st.sampled_from(["yatzy", "tommys-crag", "ancient-yacht-double", "generala"]),
       st.integers(0, 2**16), st.data())
@settings(max_examples=80, deadline=None)
def test_any_failing_apply_leaves_the_state_as_it_was(variant: str, seed: int,
                                                      data: st.DataObject) -> None:
    """... and one that works leaves a sound state: plain ints, a record that saves."""
    rs = get(variant)
    rng = random.Random(seed)
    s = State(rs, [Player("Ann"), Player("Cpu", "computer", "random")],
              rng=random.Random(seed + 1))
    for _ in range(data.draw(st.integers(0, 40))):  # somewhere in a game
        if s.is_terminal():
            break
        for a in random_decision(s, rng):
            s.apply(a)
    for _ in range(12):
        bad = data.draw(_bad_action(s))
        if isinstance(bad, Exception):
            continue
        before = _snapshot(s)
        try:
            s.apply(bad)
        except (IllegalAction, TypeError):
            assert _snapshot(s) == before, bad
        else:
            assert all(type(v) is int for v in (*s.dice, *s.chosen))
            _snapshot(s)
            Record.loads(Record.from_state(s).dumps())


# --- 2. terminal states and chance -----------------------------------------------------


def _finished(players: list[Player]) -> State:
    s = State(get("tommys-crag"), players, rng=random.Random(4))
    rng = random.Random(5)
    while not s.is_terminal():
        for a in random_decision(s, rng):
            s.apply(a)
    return s


def test_a_terminal_state_has_no_moves_and_no_chance_outcomes() -> None:
    s = _finished([Player("Ann")])
    assert s.is_terminal() and s.legal_actions() == [] and s.chance_outcomes() == []
    for action in (Roll(), Roll((1, 2, 3)), Choose((0,)), Score("chance"), GiveBack()):
        with pytest.raises(IllegalAction, match="the game is over"):
            s.check(action)


def test_the_final_scoring_of_a_person_may_still_be_taken_back_as_an_undo() -> None:
    """The table's pause at the game's end offers it (an Oops, not a move)."""
    s = _finished([Player("Ann")])
    assert s.can_take_back()
    s.check(TakeBack())
    s.apply(TakeBack())
    assert not s.is_terminal() and s.legal_actions()
    cpu = _finished([Player("Cpu", "computer", "random")])
    assert not cpu.can_take_back() and cpu.legal_actions() == []


def test_chance_outcomes_are_empty_exactly_when_no_roll_is_allowed() -> None:
    s = State(get("yahtzee"), [Player("A")], rng=random.Random(1))
    assert len(s.chance_outcomes()) == 252
    s.apply(Roll((1, 2, 3, 4, 5)))
    assert s.chance_outcomes() == [] and Roll() not in s.legal_actions()
    s.apply(Choose((0, 1)))
    assert len(s.chance_outcomes()) == 21
    s.apply(Roll((6, 6)))
    s.apply(Choose((0,)))
    s.apply(Roll((6,)))
    assert s.rolls_left == 0 and s.chance_outcomes() == []


@pytest.mark.parametrize("variant", ["yatzy", "generala", "maxi-yatzy", "kismet"])
def test_chance_outcomes_and_a_legal_roll_go_together(variant: str) -> None:
    s = State(get(variant), [Player("Ann"), Player("Bob")], rng=random.Random(2))
    rng = random.Random(3)
    while True:
        legal = s.legal_actions()
        assert bool(legal) != s.is_terminal()
        assert bool(s.chance_outcomes()) == (Roll() in legal)
        if s.is_terminal():
            break
        for a in random_decision(s, rng):
            s.apply(a)
            assert bool(s.chance_outcomes()) == (Roll() in s.legal_actions())


def test_states_are_equal_when_ruleset_players_position_and_log_are() -> None:
    s = State(get("yatzy"), [Player("Ann")], rng=random.Random(1))
    s.apply(Roll((6, 6, 6, 2, 3)))
    c = s.clone()
    assert c == s and c is not s and c == s.clone(rng=False)
    other = State(get("yatzy"), [Player("Ann")], rng=random.Random(99))
    other.apply(Roll((6, 6, 6, 2, 3)))
    assert other == s  # (the dice's source is no part of it)
    c.apply(Score("sixes"))
    assert c != s
    c.apply(TakeBack())
    assert c.position_key() == s.position_key() and c != s  # (another log)
    assert State(get("yatzy"), [Player("Bob")]) != State(get("yatzy"), [Player("Ann")])
    assert State(get("yahtzee", {"joker": "free"}), [Player("Ann")]) != \
        State(get("yahtzee"), [Player("Ann")])
    assert s != "a state"
    with pytest.raises(TypeError, match="unhashable"):
        hash(s)


# --- 3. players ---------------------------------------------------------------------------


@pytest.mark.parametrize("args, error, message", [
    ((5,), TypeError, "a player's name must be text, not 5"),
    (("Ann", "robot"), ValueError, "player kind 'robot' is not person or computer"),
    (("Ann", "computer", 3), TypeError, "a player's level must be text or None, not 3"),
])
def test_a_player_that_would_not_load_from_its_record_cannot_be_made(
        args: tuple[Any, ...], error: type, message: str) -> None:
    with pytest.raises(error) as e:
        Player(*args)
    assert str(e.value) == message


@pytest.mark.parametrize("args, message", [
    (("x" * 21,), "player name 'xxxxxxxxxxxxxxxxxxxxx' has 21 characters: a name has 1-20"),
    (("",), "player name '' has 0 characters: a name has 1-20"),
    (("Cpu", "computer", "grandmaster"), "computer level 'grandmaster' is not one of "
     "beginner, intermediate, expert, champion (or random)"),
])
def test_a_player_with_a_name_too_long_or_an_unknown_level_is_refused(
        args: tuple[Any, ...], message: str) -> None:
    """The Python API made a player of a 5000-character name, or of a level no computer
    plays (QA s20: the table then played it at random); now it is refused in one line,
    a yacht.YachtError that is a ValueError. A record's players still load as they were
    played (below)."""
    import yacht

    with pytest.raises(yacht.YachtError) as e:
        Player(*args)
    assert isinstance(e.value, ValueError) and str(e.value) == message
    assert Player("x" * 20).name == "x" * 20
    assert Player("Cpu", "computer", "random").level == "random"
    assert len(str(pytest.raises(ValueError, Player, "x" * 5000).value)) < 120


def test_a_record_s_player_is_checked_by_the_same_rules() -> None:
    with pytest.raises(ValueError, match="a player's level must be text or None, not 3"):
        Player.from_json({"name": "Ann", "kind": "computer", "level": 3})
    assert Player.from_json({"name": "Ann"}) == Player("Ann")


def test_every_player_a_state_takes_saves_in_a_record_that_loads() -> None:
    """Long names (saved before the 20-character limit) and levels this version does not
    have (played at random by a table, with a warning) are a record's to keep."""
    players = [Player.from_json({"name": "x" * 40}),
               Player.from_json({"name": "Cpu", "kind": "computer", "level": "grandmaster"})]
    s = State(get("tommys-crag"), players, rng=random.Random(1))
    s.apply(Roll((6, 6, 1)))
    s.apply(Score("crag"))
    assert Record.loads(Record.from_state(s).dumps()).final_state() == s
    with pytest.raises(TypeError, match="Player objects, not 'Ann'"):
        State(get("yatzy"), ["Ann"])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="Ruleset"):
        State("yatzy", [Player("Ann")])  # type: ignore[arg-type]


# --- 4. actions to JSON and back ---------------------------------------------------------


@pytest.mark.parametrize("action", [
    Roll(), Roll((1, 2, 3)), Roll((6, 6, 6, 6, 6), entered=True), Roll(None, entered=True),
    Choose(()), Choose((0, 4)), Score("chance"), Score("yacht", 1),
    Score("chance", 0, by="clock"), Score("ones", by="stand_in"), GiveBack(), TakeBack(),
])
def test_every_action_survives_json(action: Any) -> None:
    back = action_from_json(json.loads(json.dumps(action_to_json(action))))
    assert back == action and repr(back) == repr(action)


def test_a_record_s_roll_must_hold_its_dice() -> None:
    s = State(get("tommys-crag"), [Player("Ann")], rng=random.Random(1))
    s.apply(Roll((6, 6, 1)))
    obj = Record.from_state(s).to_json()
    del obj["actions"][0]["result"]
    with pytest.raises(RecordError, match=r"action 1 \(roll\) has no result"):
        Record.from_json(obj)
    with pytest.raises(RecordError, match="has no result"):
        Record("tommys-crag", {}, [Player("Ann")], [Roll()]).final_state()


# --- 5. messages for those counting from 0 and from 1 -------------------------------------


def test_a_die_that_is_not_there_is_named_both_ways() -> None:
    s = State(get("yahtzee"), [Player("A")], rng=random.Random(1))
    s.apply(Roll((1, 2, 3, 4, 5)))
    with pytest.raises(IllegalAction) as e:
        s.apply(Choose((5,)))
    assert str(e.value) == "there is no die 6 (position 5; dice 1-5 are positions 0-4)"
    with pytest.raises(IllegalAction) as e:
        s.apply(Choose((-1,)))
    assert str(e.value) == "there is no die at position -1 (dice 1-5 are positions 0-4)"


def test_a_column_that_is_not_there_is_named_both_ways() -> None:
    s = State(get("yahtzee"), [Player("A")], rng=random.Random(1))
    s.apply(Roll((1, 2, 3, 4, 5)))
    with pytest.raises(IllegalAction) as e:
        s.apply(Score("chance", 1))
    assert str(e.value) == "there is no column 2 (index 1; column 1 is index 0)"
    d = State(get("ancient-yacht-double"), [Player("A")], rng=random.Random(1))
    d.apply(Roll((1, 2, 3, 4, 5)))
    with pytest.raises(IllegalAction) as e:
        d.apply(Score("choice", 2))
    assert str(e.value) == "there is no column 3 (index 2; columns 1-2 are indexes 0-1)"
    with pytest.raises(IllegalAction) as e:
        d.apply(Score("choice", -1))
    assert str(e.value) == "there is no column at index -1 (columns 1-2 are indexes 0-1)"


# --- a player's index: 0 to the number of players - 1, never counted from the end ----

@pytest.mark.parametrize("read", ["card", "totals", "turns_taken"])
@pytest.mark.parametrize("index", [-1, -2, 2, 99])
def test_a_player_index_out_of_range_is_refused_naming_the_range(read: str,
                                                                 index: int) -> None:
    from yacht import YachtError
    from yacht.engine import PlayerIndexError

    s = State(get("yatzy"), [Player("Ann"), Player("Bob")], rng=random.Random(1))
    with pytest.raises(PlayerIndexError, match=f"no player {index}: this game's players "
                       "are 0-1") as got:
        getattr(s, read)(index)
    assert isinstance(got.value, IndexError) and isinstance(got.value, YachtError)


@pytest.mark.parametrize("index", [1.0, True, "1", None])
def test_a_player_index_that_is_no_whole_number_is_a_type_error(index: Any) -> None:
    s = State(get("yatzy"), [Player("Ann"), Player("Bob")], rng=random.Random(1))
    with pytest.raises(TypeError, match="a player is an index of the game's players"):
        s.totals(index)


def test_a_player_index_of_numpy_reads_the_same_player() -> None:
    s = State(get("yatzy"), [Player("Ann"), Player("Bob")], rng=random.Random(1))
    s.apply(Roll((6, 6, 6, 6, 6)))
    s.apply(Score("yatzy"))
    assert s.totals(np.int64(0)) == s.totals(0) and s.totals(0).grand == 50
    assert s.card(np.int32(1)) == s.card(1) and s.turns_taken(np.int8(0)) == 1
