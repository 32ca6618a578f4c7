"""Score distributions of Generala (solver/dist_extended.py): served boxes, a box
needing another, and a first roll that ends the game at a table (``servida=win``),
against brute forces through the engine; and the chances of winning built on them."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

import yacht
from yacht.engine import Choose, Player, Roll, Score, State
from yacht.rules import Category, Ruleset, counts_of, get
from yacht.strategy.advisor import advise
from yacht.strategy.solver import solve
from yacht.strategy.solver.dist import (
    STEPS,
    available,
    distributions,
    end_chance,
    supported,
    table_win_chances,
)


def cat(id: str, scorer: str, section: str = "lower", **params: Any) -> Category:
    return Category(id, id.title(), section, scorer, tuple(params.items()))  # type: ignore[arg-type]


def small_generala(servida: str = "win", sixes: bool = True) -> Ruleset:
    """Generala's rules (a served extra, doble generala only while generala holds its
    points, a served generala that wins at a table) on three dice, two rolls and four
    boxes (three without ``sixes``): small enough to play out every game."""
    rs = get("generala", {"servida": servida})
    cats = (cat("sixes", "face", "upper", face=6),) if sixes else ()
    cats += (cat("full", "pattern", counts=(2, 1), points=30),
             cat("generala", "of_a_kind", n=3, points=50),
             cat("doble_generala", "of_a_kind", n=3, points=100))
    return replace(rs, id="reduced-generala", dice=3, rolls=2, categories=cats,
                   catalogue=cats)


def roll_outcomes(rs: Ruleset, s: State, ending: bool) -> list[tuple[Any, float]]:
    """The roll's outcomes from ``s`` and their chances; ``ending``: at a table game's
    first roll, those that would end it taken out (the others' chances scaled up)."""
    outcomes = list(s.chance_outcomes())
    if ending and s.rolls == 0:
        ctx = rs.context(s.card(0), s.turns_taken(0), 1, players=2)
        outcomes = [(o, p) for o, p in outcomes
                    if not rs.ends_game(ctx, counts_of(o, rs.faces))]
        total = sum(p for _, p in outcomes)
        outcomes = [(o, p / total) for o, p in outcomes]
    return outcomes


def to_come(rs: Ruleset, ending: bool) -> dict[int, float]:
    """The points one expert player scores in a whole game, every chance outcome played
    through the engine; ``ending``: a game at a table that runs to its end (a first roll
    that would end it taken out, the others' chances scaled up)."""
    sol = solve(rs)
    memo: dict[Any, dict[int, float]] = {}

    def spread(s: State) -> dict[int, float]:
        out: dict[int, float] = {}
        for outcome, p in roll_outcomes(rs, s, ending):
            t = s.clone()
            t.apply(Roll(outcome))
            for x, q in play(t).items():
                out[x] = out.get(x, 0.0) + p * q
        return out

    def play(s: State) -> dict[int, float]:
        if s.is_terminal():
            return {0: 1.0}
        key = (s.card(0).boxes, tuple(sorted(s.dice)), s.rolls)
        hit = memo.get(key)
        if hit is not None:
            return hit
        if not s.dice:
            out = spread(s)
        else:
            decision = advise(s, sol)[0].decision()
            t = s.clone()
            if decision.score is not None:
                here = s.returns()[0]
                t.apply(decision.score)
                gained = int(t.returns()[0] - here)
                out = {x + gained: q for x, q in play(t).items()}
            else:
                t.apply(Choose(decision.reroll))
                out = spread(t)
        memo[key] = out
        return out

    return play(State(rs, [Player("E", "computer", "expert")]))


@pytest.mark.parametrize("servida,table", [("win", False), ("win", True), ("points", True)])
def test_a_small_generala_matches_the_brute_force(servida: str, table: bool) -> None:
    rs = small_generala(servida)
    dd = distributions(rs, cache=False, table=table)
    ending = table and servida == "win"
    assert dd.ending == ending
    exact = to_come(rs, ending)
    lo, pmf = dd.final(rs.new_card(), 0)
    at, hi = min(min(exact), lo), max(max(exact) + 1, lo + len(pmf))
    want = np.zeros(hi - at)
    for x, p in exact.items():
        want[x - at] = p
    got = np.zeros(hi - at)
    got[lo - at:lo - at + len(pmf)] = pmf
    assert np.abs(np.cumsum(got) - np.cumsum(want)).max() <= 1.0 / STEPS
    # the served generala's 50 points come in only where a first roll can score it
    scored_served = sum(p for x, p in exact.items() if x >= 50)
    assert scored_served > 0.01


def test_the_chance_that_a_first_roll_ends_the_game() -> None:
    # three dice alike on the first roll: 6 in 216; five: 6 in 7,776
    assert end_chance(small_generala()) == pytest.approx(6 / 216)
    assert end_chance(get("generala")) == pytest.approx(6 / 7776)
    assert end_chance(get("generala", {"servida": "points"})) == 0.0
    assert end_chance(get("yahtzee")) == 0.0
    # the champion's turn tables know no served boxes: the distributions alone
    assert available(get("generala")) and not supported(get("generala"))


@pytest.mark.parametrize("left,first", [([2, 1], 1), ([1, 1, 1], 2), ([3, 2, 2], 1),
                                        ([0, 2], 0), ([2, 2], 0)])
def test_chances_with_a_roll_that_ends_the_game_against_every_way_turns_end(
        left: list[int], first: int) -> None:
    """``table_win_chances`` against the turns played out one by one: each turn to
    start, in seat order from ``first``, ends the game with the chance ``end`` (its
    player winning), and with no such turn the totals decide."""
    end = 0.2
    rng = np.random.default_rng(1)
    finals = []
    for _ in left:
        p = rng.random(4)
        finals.append((int(rng.integers(0, 3)), p / p.sum()))
    n = len(left)
    slots = []   # the turns still to start, in the order they come
    todo = list(left)
    i = first
    while any(todo):
        if todo[i]:
            slots.append(i)
            todo[i] -= 1
        i = (i + 1) % n
    from yacht.strategy.solver.dist import win_chances

    on_totals = win_chances(finals)
    want = [0.0] * n
    for ends in itertools.product([False, True], repeat=len(slots)):
        p = float(np.prod([end if e else 1 - end for e in ends]))
        if any(ends):
            want[slots[ends.index(True)]] += p
        else:
            want = [w + p * c for w, c in zip(want, on_totals, strict=True)]
    assert table_win_chances(finals, left, first, end) == pytest.approx(want, abs=1e-12)
    assert table_win_chances(finals, left, first, 0.0) == on_totals


def test_a_small_generala_table_matches_a_brute_force_of_two_players() -> None:
    """Two experts at the table, every chance outcome played through the engine (a
    served generala ends the game there): each one's chance of finishing first."""
    rs = small_generala(sixes=False)
    sol = solve(rs)
    memo: dict[Any, tuple[float, float]] = {}

    def play(s: State) -> tuple[float, float]:
        if s.is_terminal():
            won = s.winners()
            return (1.0 if 0 in won else 0.0, 1.0 if 1 in won else 0.0)
        key = (s.card(0).boxes, s.card(1).boxes, s.current, tuple(sorted(s.dice)), s.rolls)
        hit = memo.get(key)
        if hit is not None:
            return hit
        if not s.dice:
            res = rolled(s)
        else:
            decision = advise(s, sol)[0].decision()
            t = s.clone()
            t.apply(decision.score if decision.score is not None else Choose(decision.reroll))
            res = rolled(t) if decision.score is None else play(t)
        memo[key] = res
        return res

    def rolled(s: State) -> tuple[float, float]:
        """Every roll from ``s``, weighed by its chance."""
        out = [0.0, 0.0]
        for outcome, p in s.chance_outcomes():
            t = s.clone()
            t.apply(Roll(outcome))
            out = [o + p * g for o, g in zip(out, play(t), strict=True)]
        return out[0], out[1]

    game = State(rs, [Player("A", "computer", "expert"), Player("B", "computer", "expert")])
    want = play(game)
    y = yacht.solve(rs)
    got = y.win_chances(game)
    assert got == pytest.approx(list(want), abs=4.0 / STEPS)
    assert got[0] > got[1]   # the first to roll has the first chance of ending it
    # a turn under way: Ann's first roll made, Bob yet to start
    game.apply(Roll((2, 3, 6)))
    got = y.win_chances(game)
    assert got == pytest.approx(list(play(game)), abs=4.0 / STEPS)
    # the same from the situations, in seat order
    assert y.win_chances([y.situation(game), y.situation(None)]) == pytest.approx(got,
                                                                                   abs=1e-12)
    # Ann's turn scored: Bob starts next
    game.apply(Score("full"))
    assert y.win_chances(game) == pytest.approx(list(play(game)), abs=4.0 / STEPS)


def test_a_generala_analysis_has_exact_chances() -> None:
    """A 2-player Generala's analysis: exact chances (no games sampled) that count the
    served Generala's chance of ending it; alone, the chances of a total count it as
    points."""
    from yacht.engine import Record
    from yacht.strategy.analysis import analyse
    from yacht.strategy.base import make_player, play_turn

    rs = get("generala")
    rng = random.Random(5)
    s = State(rs, [Player("Ann", "computer", "expert"), Player("Bob", "computer", "beginner")],
              rng=rng)
    players = [make_player(rs, p.level) for p in s.players]
    for _ in range(6):
        play_turn(s, players[s.current])
    a = analyse(Record.from_state(s), win_games=2000)
    assert a.win is not None and a.win_exact and a.win_games == 0
    first = a.win[0].chances
    y = yacht.solve(rs)
    fresh = State(rs, [Player("Ann"), Player("Bob")])
    assert list(first) == pytest.approx(y.win_chances(fresh), abs=1e-12)
    # the first player's edge: the first chance of a served Generala
    assert first[0] > first[1] > 0.5   # (ties count for both)
    assert y.chances().mean == pytest.approx(y.solution.expected_score, abs=1e-3)


def test_the_champions_chance_of_a_box_is_the_exact_share_of_first_place() -> None:
    """Generala's champion works its turn out in numpy (the turn kernel knows no served
    boxes): scoring a box is worth the exact share of first place of the total it leads
    to, served points at the first roll, plus the chance that a first roll ends the
    game at once (its own turns: won; the opponent's: lost)."""
    from yacht.strategy.champion import rank_to_win
    from yacht.strategy.solver.dist import ending_terms, win_worth

    rs = get("generala")
    dd = distributions(rs, table=True)
    end = end_chance(rs)
    s = State(rs, [Player("Ann"), Player("Bob")], rng=random.Random(3))
    for dice in ((1, 2, 3, 4, 6), (2, 2, 5, 5, 5)):   # (Ann's full served: 35)
        s.apply(Roll((6, 6, 1, 2, 3)))                 # Ann's first turn: sixes
        s.apply(Score("sixes"))
        s.apply(Roll(dice))                            # Bob: the dice, at the first roll
        ann, bob = s.card(0), s.card(1)
        win = rank_to_win(s)
        assert win is not None and win.exact
        lo, worth = win_worth([dd.final(ann, 1)])
        at_once, runs = ending_terms([10, 10], 0, end)   # Ann starts next, then Bob
        scored = [o for o in win.options if o.ranked.kind == "score"]
        assert scored
        for o in scored:
            assert o.ranked.category is not None
            after = rs.place(bob, next(p for p in rs.placements(
                rs.context(bob, 1, 1, players=2), counts_of(dice, rs.faces))
                if p.category == o.ranked.category))
            flo, pmf = dd.final(after, 2)
            share = sum(p * (worth[min(x - lo, len(worth) - 1)] if x >= lo else 0.0)
                        for x, p in zip(range(flo, flo + len(pmf)), pmf, strict=True))
            assert o.chance == pytest.approx(at_once[1] + runs * share, abs=2e-4)
        full = next(o for o in scored if o.ranked.category == "full")
        assert full.ranked.points == (35 if dice == (2, 2, 5, 5, 5) else 0)
        s = State(rs, [Player("Ann"), Player("Bob")], rng=random.Random(3))


def test_the_champion_plays_a_whole_game_of_generala() -> None:
    """Every turn of the champion's is played to win (it played as the expert)."""
    from yacht.strategy.base import make_player, play_turn
    from yacht.strategy.champion import rank_to_win

    rs = get("generala")
    s = State(rs, [Player("C", "computer", "champion"), Player("E", "computer", "expert")],
              rng=random.Random(11))
    players = [make_player(rs, "champion"), make_player(rs, "expert")]
    ranked = 0
    while not s.is_terminal():
        if s.current == 0:
            s.apply(Roll())
            if s.is_terminal():
                break
            assert rank_to_win(s) is not None
            ranked += 1
        play_turn(s, players[s.current])
    assert ranked >= 5
    assert s.ended_by is not None or all(s.card(p).complete for p in (0, 1))
