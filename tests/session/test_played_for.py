"""Turns the computer played for a person are not the person's: a demo switched on during
a person's game (F2) marks its scores as the computer's (``Score.by``, as a stand-in's),
so the score cannot be taken back as the person's, the end line does not praise it, and
the analysis leaves those turns out of the person's figures. A game a served Generala
ended at once says what each player had, not "has made no decision yet" (QA s18 TUI
items 13 and 14)."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from yacht.engine import Player, Record, Roll, Score, State, TakeBack
from yacht.rules import get
from yacht.session.commands import ScoreBox
from yacht.session.comment import end_line, played_for
from yacht.session.present import TERMINAL
from yacht.session.review import analyse_game, heading
from yacht.session.table import LOCAL, Refused, Table
from yacht.strategy.analysis import analyse

RS = get("tommys-crag")


def demo_after(turns: int, factory: Any) -> Table:
    """Ann plays ``turns`` turns herself (the first box open each time), then switches
    the demo on: the computer plays the rest of her game."""
    t = Table.new(RS, [Player("Ann")], strategy_factory=factory, rng=random.Random(8),
                  speed="instant")
    for _ in range(turns):
        t.act(LOCAL, Roll())
        t.act(LOCAL, ScoreBox(t.view().state.placements()[0].category))
    t.set_demo(True)
    t.run_due(until=lambda: t.view().over)
    assert t.view().over
    return t


def test_the_demos_scores_are_the_computers(factory: Any) -> None:
    t = demo_after(2, factory)
    scores = [a for a in t.actions_since(0) if isinstance(a, Score)]
    assert [a.by for a in scores[:2]] == [None, None]
    assert {a.by for a in scores[2:]} == {"stand_in"}
    assert t.view().assisted  # (as before: the person is marked assisted)
    snap = t.snapshot(LOCAL, TERMINAL)
    assert len(snap["cards"][0]["played_by"]) == len(scores) - 2
    # the last score is the demo's: no Oops for it
    assert not snap["can"]["take_back"] and "take-back" not in snap["legal"]
    assert "Oops" not in snap["help"] and "takes back" not in snap["help"]
    with pytest.raises(Refused, match="the computer made"):
        t.act(LOCAL, TakeBack())


def test_the_end_line_does_not_praise_the_demos_game(factory: Any) -> None:
    t = demo_after(2, factory)
    st = t.view().state
    n = st.turns_taken(0)
    line = end_line(st, 0)
    assert line == f"The computer played {n - 2} of Ann's {n} turns, so the score is not judged."
    assert t.snapshot(LOCAL)["comments"] == [{"player": 0, "text": line}]


def test_the_analysis_leaves_out_the_turns_the_computer_played(factory: Any) -> None:
    t = demo_after(2, factory)
    record = t.record()
    raw = analyse(record, win_games=0)
    a = analyse_game(record, win_games=0)
    ann, before = a.players[0], raw.players[0]
    assert ann.computer_turns == tuple(range(3, len(before.expected)))
    assert {d.turn for d in a.decisions} <= {1, 2} and a.decisions
    assert ann.decisions == len(a.decisions) < before.decisions
    assert math.isclose(ann.loss, sum(d.loss for d in a.decisions))
    assert all(d.turn in (1, 2) for d in ann.costliest)
    assert math.isclose(ann.luck, before.luck)  # (what the computer lost is no luck of hers)
    n = len(before.expected) - 1
    said = heading(ann)
    assert said.startswith(f"The computer played {n - 2} of Ann's {n} turns (left out here). ")
    assert "has made no decision" not in said
    assert a.to_json()["players"][0]["decisions_text"] == ann.said
    # all of them: nothing of hers to analyse
    whole = demo_after(0, factory)
    p = analyse_game(whole.record(), win_games=0).players[0]
    assert heading(p) == f"The computer played all {n} of Ann's turns: none of the decisions " \
                         "are Ann's."


def test_a_game_played_by_the_person_reads_as_before(factory: Any) -> None:
    t = Table.new(RS, [Player("Ann")], rng=random.Random(8), speed="instant")
    while not t.view().over:
        t.act(LOCAL, Roll())
        t.act(LOCAL, ScoreBox(t.view().state.placements()[0].category))
    st = t.view().state
    assert played_for(st) == [[]] and "not judged" not in end_line(st, 0)
    record = t.record()
    a, raw = analyse_game(record, win_games=0), analyse(record, win_games=0)
    from yacht.strategy.analysis import costliest_heading

    assert heading(a.players[0]) == costliest_heading(raw.players[0])
    assert a.players[0].decisions == raw.players[0].decisions
    assert math.isclose(a.players[0].loss, raw.players[0].loss)


def served(first: list[tuple[int, ...]], players: int = 2) -> Record:
    """A Generala of ``players`` people: the rolls in ``first`` each scored in Sixes (one
    per turn, in order), then a served Generala."""
    st = State(get("generala"), [Player("Ann"), Player("Bob"), Player("Cy")][:players])
    for roll in first:
        st.apply(Roll(roll))
        st.apply(Score("sixes" if st.card(st.current).boxes[0][5] is None else "fives"))
    st.apply(Roll((4, 4, 4, 4, 4)))
    assert st.is_terminal() and st.ended_by is not None
    return Record.from_state(st)


def test_a_served_generala_says_what_each_player_had() -> None:
    a = analyse_game(served([]), win_games=0)  # Ann's first roll ended the game
    assert [heading(p) for p in a.players] == [
        "Ann won the game at once, before any decision.",
        "Bob had no turn: the game ended at once."]
    a = analyse_game(served([(1, 2, 3, 4, 6)]), win_games=0)  # Bob's first roll
    ann, bob = (heading(p) for p in a.players)
    assert ann.startswith("1 of Ann's 1 decision") or ann.startswith("Ann's one decision")
    assert bob == "Bob won the game at once, before any decision."
    a = analyse_game(served([(1, 2, 3, 4, 6)], players=3), win_games=0)
    assert heading(a.players[2]) == "Cy had no turn: the game ended at once."
