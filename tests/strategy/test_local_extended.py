"""Generala's chance tables from a card (solver/local_extended.py): the champion plans
its last turns on them (the turn kernel's tables know no served boxes). Checked
against the solver (a worth that is the points: the expert's expected score) and
against a brute force through the engine (any worth: every keep and box tried)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from test_dist_generala import roll_outcomes, small_generala

from yacht.engine import Choose, Player, Roll, Score, State
from yacht.rules import Ruleset, get
from yacht.strategy.advisor import parse_card
from yacht.strategy.solver import solve
from yacht.strategy.solver.local_extended import plan_rows
from yacht.strategy.solver.spec import compiled


def best_worth(rs: Ruleset, s: State, worth: Any, ending: bool) -> float:
    """The best expected ``worth(final total)`` of the one player of ``s``, every keep
    and box tried at every roll through the engine; ``ending``: a table game's first
    roll that would end it taken out (the others' chances scaled up)."""
    memo: dict[Any, float] = {}
    after: dict[Any, float] = {}

    def rolled(s: State) -> float:
        kept = tuple(sorted(d for i, d in enumerate(s.dice) if i not in s.chosen))
        key = (s.card(0).boxes, kept, s.rolls)
        if key not in after:
            after[key] = roll(s)
        return after[key]

    def roll(s: State) -> float:
        out = 0.0
        for outcome, p in roll_outcomes(rs, s, ending):
            t = s.clone()
            t.apply(Roll(outcome))
            out += p * play(t)
        return out

    def play(s: State) -> float:
        if s.is_terminal():
            return float(worth(s.returns()[0]))
        key = (s.card(0).boxes, tuple(sorted(s.dice)), s.rolls)
        if key not in memo:
            if not s.dice:
                memo[key] = rolled(s)
            else:
                best = -1.0
                for action in s.legal_actions():
                    t = s.clone()
                    t.apply(action)
                    best = max(best, rolled(t) if isinstance(action, Choose) else play(t))
                memo[key] = best
        return memo[key]

    return play(s)


def steps(lo: int, worth: np.ndarray) -> Any:
    return lambda x: 0.0 if x < lo else 1.0 if x >= lo + len(worth) else worth[x - lo]


#: the turns played before (each: its rolls, the box): sixes; a Generala made at the
#: second roll (doble generala then scores); generala crossed out (doble cannot)
SETUPS = {
    "sixes": [[(6, 6, 1)], "sixes"],
    "generala": [[(1, 2, 3), (0, 1, 2), (4, 4, 4)], "generala"],
    "no generala": [[(1, 2, 3)], "generala"],
}


def _at(rs: Ruleset, name: str) -> State:
    s = State(rs, [Player("Ann")], rng=random.Random(1))
    steps = SETUPS[name]
    for rolls, box in zip(steps[::2], steps[1::2], strict=True):
        s.apply(Roll(rolls[0]))
        for i in range(1, len(rolls), 2):
            s.apply(Choose(rolls[i]))
            s.apply(Roll(tuple(rolls[i + 1])))
        s.apply(Score(box))
    return s


@pytest.mark.parametrize("setup,ending", [("sixes", True), ("generala", False),
                                           ("no generala", True)])
def test_a_small_generala_plan_is_the_brute_forces_best(setup: str, ending: bool) -> None:
    rs = small_generala()
    spec = compiled(rs)
    s = _at(rs, setup)
    card, points = s.card(0), s.returns()[0]
    # a worth that rewards reaching far more than an expected score would
    lo = points + 20
    worth = np.array([0.1, 0.1, 0.2] + [0.3] * 20 + [0.6] * 40 + [0.8] * 50)
    want = best_worth(rs, s, steps(lo, worth), ending)
    rows = plan_rows(spec, card, points, worth, ending, lo=lo)
    m, a = spec.state_of(card)
    assert rows.value(m, a) == pytest.approx(want, abs=1e-12)
    assert 0.05 < want < 0.95  # (a worth neither always nor never reached)


def test_the_plan_with_the_points_as_worth_is_the_experts_expected_score() -> None:
    rs = get("generala")
    spec = compiled(rs)
    sol = solve(rs)
    for text in ("ones=0,twos=0,threes=0,fours=0,fives=0",
                 "ones=3,twos=4,threes=9,fours=0,fives=0,generala=50",
                 "ones=3,twos=4,threes=9,fours=0,fives=0,generala=0"):
        card = parse_card(rs, text)
        rows = plan_rows(spec, card, 0, np.arange(1000.0), ending=False)
        m, a = spec.state_of(card)
        assert rows.value(m, a) == pytest.approx(float(sol.V[m, a]), abs=1e-9)


def test_generalas_champion_plans_its_last_turns() -> None:
    """With five boxes open or fewer the champion plans the rest of its game to win (it
    looked one turn ahead, the expert's play after it, all game long): each move's
    chance is at least the one-turn look-ahead's, and some move gains."""
    from yacht.strategy.champion import rank_situation
    from yacht.strategy.solver.dist import distributions

    rs = get("generala")
    distributions(rs, table=True)   # (the suite builds nothing behind a game)
    ann = parse_card(rs, "ones=3,twos=6,threes=9,fours=12,fives=0,sixes=18")
    bob = parse_card(rs, "ones=2,twos=8,threes=6,fours=16,fives=20,sixes=24")
    args = (rs, ann, 6, (6, 6, 6, 2, 3), 2, [(bob, 6)])
    one = rank_situation(*args, plan=0)
    planned = rank_situation(*args)
    assert one is not None and planned is not None
    assert "planned to win" in planned.how and "this turn played to win" in one.how
    assert planned.how.endswith("the chance of a served Generala, which ends the game, "
                                "counted")
    before = {o.ranked.decision(): o.chance for o in one.options}
    after = {o.ranked.decision(): o.chance for o in planned.options}
    assert before.keys() == after.keys()
    assert all(after[k] >= before[k] - 1e-9 for k in before)
    assert max(after[k] - before[k] for k in before) > 1e-3
    # the opponent finished, the champion's last two boxes: exact, and said so
    done = parse_card(rs, "ones=2,twos=8,threes=6,fours=16,fives=20,sixes=24,escalera=20,"
                          "full=30,poker=40,generala=50,doble_generala=0")
    mine = parse_card(rs, "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,escalera=20,"
                          "full=30,poker=0")
    last = rank_situation(rs, mine, 9, (5, 5, 5, 1, 2), 2, [(done, 11)])
    assert last is not None and last.exact
    assert last.how.startswith("exact: the opponents have finished;")
