"""Target tables against an exact brute force through the engine, on small rulesets.

The brute force plays the engine itself (every chance outcome of
``State.chance_outcomes(exact=True)``, every legal ``Choose`` and ``Score``)
and maximises the chance of ending with at least T points, in exact fractions,
memoised by what the rules can look at plus the points so far. It shares no
code with the target kernels.
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from test_bruteforce import cat, face, reduced

from yacht.engine import Choose, Player, Roll, Score, State
from yacht.rules import ForcedFirstTurn, RepeatBox, Ruleset, UpperBonus, YahtzeeBonusJoker, get
from yacht.strategy.solver import UnsupportedRuleset
from yacht.strategy.solver import backend as be
from yacht.strategy.solver.target import (
    REACH_CAP,
    check_supported,
    estimate_cells,
    reach_table,
    reach_target,
    target_table,
    windows,
)


class BruteTarget:
    """The best chance of finishing with at least ``target`` points, through the engine.

    What is memoised is keyed by the points still needed, not by the points so far and
    the target: the rules look at the boxes (which are filled, the upper total, which
    special boxes hold points), never at the total, so a state ``k`` points short plays
    the same whatever the target. Brute forces of several targets of one ruleset may
    share their ``memo`` (``check`` does)."""

    def __init__(self, rs: Ruleset, target: int, memo: dict[Any, Fraction] | None = None):
        self.rs = rs
        self.target = target
        self.memo: dict[Any, Fraction] = {} if memo is None else memo
        self.special_boxes = sorted({rs.index(r.category) for r in rs.special  # type: ignore
                                     if hasattr(r, "category")})

    def key(self, s: State) -> Any:
        rs = self.rs
        cols = []
        for col in s.card(0).boxes:
            upper = sum(v or 0 for v, c in zip(col, rs.categories, strict=True)
                        if c.section == "upper")
            cols.append((tuple(v is not None for v in col), upper,
                         tuple((col[i] or 0) > 0 for i in self.special_boxes)))
        return (tuple(cols), self.target - s.returns()[0], s.turns_taken(0) == 0,
                tuple(sorted(s.dice)), s.rolls)

    def start(self, s: State | None = None) -> Fraction:
        return self.value(s or State(self.rs, [Player("cpu", "computer", "expert")]))

    def value(self, s: State) -> Fraction:
        if s.is_terminal():
            return Fraction(1 if s.returns()[0] >= self.target else 0)
        if s.turns_taken(0) > 0 and s.returns()[0] >= self.target:
            return Fraction(1)  # (no box scores below 0 after the first turn)
        k = self.key(s)
        if k in self.memo:
            return self.memo[k]
        if not s.dice:
            best = self.roll(s)
        else:
            best = Fraction(-1)
            for act in s.legal_actions():
                if isinstance(act, Score):
                    t = s.clone()
                    t.apply(act)
                    v = self.value(t)
                elif isinstance(act, Choose):
                    t = s.clone()
                    t.apply(act)
                    v = self.roll(t)
                else:
                    continue
                best = max(best, v)
        self.memo[k] = best
        return best

    def roll(self, s: State) -> Fraction:
        tot = Fraction(0)
        for outcome, p in s.chance_outcomes(exact=True):
            u = s.clone()
            u.apply(Roll(outcome))
            tot += p * self.value(u)
        return tot


def check(rs: Ruleset, targets: list[int]) -> list[Fraction]:
    out = []
    memo: dict[Any, Fraction] = {}
    for t in targets:
        exact = BruteTarget(rs, t, memo).start()
        got = target_table(rs, t, cache=False).start
        assert got == pytest.approx(float(exact), abs=1e-12), (t, float(exact), got)
        out.append(exact)
    return out


def test_face_and_sum_two_dice() -> None:
    got = check(reduced(2, (face(6), cat("chance", "sum"))), [1, 8, 15, 20, 24, 25])
    assert got[-1] == 0 and got[0] == 1          # beyond the most points: 0; 1 point: sure


@pytest.mark.slow
def test_of_a_kind_and_straights() -> None:
    check(reduced(2, (cat("k2", "of_a_kind", n=2, points="all"),
                      cat("st", "straight", runs=((1, 2), (3, 4), (5, 6)), points=20),
                      cat("chance", "sum"))), [20, 35, 45])


def test_three_rolls_one_box() -> None:
    exact = check(reduced(2, (cat("k2", "of_a_kind", n=2, points=10),), rolls=3), [10])
    assert exact == [Fraction(91, 216)]      # the chance of a pair in three tries


@pytest.mark.parametrize("comparison", [">=", ">"])
@pytest.mark.slow
def test_upper_bonus(comparison: str) -> None:
    rs = reduced(2, (face(1), face(2), cat("chance", "sum")),
                 bonus=UpperBonus(4, comparison, 10))  # type: ignore[arg-type]
    check(rs, [8, 20])


def _joker_rs(joker: str, bonus: str) -> Ruleset:
    rs = get("yahtzee", {"joker": joker, "bonus": bonus})
    cats = (face(1), cat("full_house", "pattern", counts=(1, 1), points=7),
            cat("yahtzee", "of_a_kind", n=2, points=50))
    return replace(rs, id="reduced-joker", dice=2, rolls=2, categories=cats,
                   upper_bonus=UpperBonus(3, ">=", 5), special=(YahtzeeBonusJoker(
                       joker_points=(("full_house", 25),)),))


@pytest.mark.parametrize("joker", ["free", "forced", "none"])
@pytest.mark.slow
def test_yahtzee_bonus_and_joker(joker: str) -> None:
    check(_joker_rs(joker, "on"), [50, 60, 100, 130])


@pytest.mark.slow
def test_repeat_box() -> None:
    cats = (face(2), cat("yahtzee", "of_a_kind", n=2, points=50), cat("chance", "sum"))
    rs = reduced(2, cats, special=(RepeatBox("yahtzee", 50),))
    # repeats: a card's points have no limit, the game goes on while the dice match
    check(rs, [10, 60, 110, 160])


@pytest.mark.slow
def test_forced_first_turn_with_negative_floor() -> None:
    rule = ForcedFirstTurn("yacht", 10, 2, 10, -10)  # 10, 10, 0, -10
    cats = (cat("yacht", "of_a_kind", n=3, points=10), cat("chance", "sum"))
    rs = reduced(3, cats, special=(rule,))
    check(rs, [-5, 1, 10, 20, 28])


def _forced_rs() -> Ruleset:
    rule = ForcedFirstTurn("yacht", 10, 2, 10, -10)  # 10, 10, 0, -10
    return reduced(3, (cat("yacht", "of_a_kind", n=3, points=10), cat("chance", "sum")),
                   special=(rule,))


def _repeat_rs() -> Ruleset:
    cats = (face(2), cat("yahtzee", "of_a_kind", n=2, points=50), cat("chance", "sum"))
    return reduced(2, cats, special=(RepeatBox("yahtzee", 50),))


@pytest.mark.parametrize(("make", "target"), [
    (_forced_rs, 10), pytest.param(_repeat_rs, 60, marks=pytest.mark.slow)],
    ids=["forced-first-turn", "repeat-box"])
def test_the_chance_at_every_turn_start_is_the_brute_forces(make: Any, target: int) -> None:
    """``chance(card, turn)`` from the card and the turns a game of the engine has taken
    (the forced first turn at turn 0; a repeat's turns more than the boxes filled) is
    the brute force's from that very state."""
    rs = make()
    tt = target_table(rs, target, cache=False)
    brute = BruteTarget(rs, target)
    rng = random.Random(5)
    seen: set[tuple[int, int]] = set()
    for game in range(20):
        s = State(rs, [Player("cpu", "computer", "expert")], rng=random.Random(game))
        while not s.is_terminal():
            if not s.dice:
                card, turn = s.card(0), s.turns_taken(0)
                assert tt.chance(card, turn) == pytest.approx(float(brute.value(s)),
                                                              abs=1e-12), (card, turn)
                seen.add((card.filled, turn))
                s.apply(Roll())
                continue
            act = rng.choice([a for a in s.legal_actions() if isinstance(a, Score | Choose)])
            s.apply(act)
            if isinstance(act, Choose):
                s.apply(Roll())
    assert (0, 0) in seen
    if make is _repeat_rs:
        assert any(turn > filled for filled, turn in seen)  # repeats were played


def test_a_turn_that_cannot_go_with_the_card_is_refused() -> None:
    """The turn was read only as "the forced first turn or not": any other turn was
    answered for whatever the table held, a situation no game has (the empty card at
    turn 1 as if the yacht were a normal box). Now such a turn is refused, naming the
    turns possible, and the forced first turn still gives its own (the brute force's)
    chance."""
    from yacht import YachtError
    from yacht.parsing import InputError, turns_possible

    rs = _forced_rs()
    tt = target_table(rs, 10, cache=False)
    new = rs.new_card()
    assert tt.chance(new, 0) == pytest.approx(float(BruteTarget(rs, 10).start()), abs=1e-12)
    assert tt.chance(new, 0) != pytest.approx(tt.state_chance(0, 0, 0))  # the turn matters
    one = new.with_box(0, rs.index("chance"), 5)
    assert tt.chance(one, 1) == tt.state_chance(*tt.spec.state_of(one), 5)
    for card, turn, accepted in [(new, 1, "0"), (new, -1, "0"), (one, 0, "1"), (one, 2, "1")]:
        with pytest.raises(InputError, match=rf"turn {turn} does not fit the card: .* "
                           rf"\(accepted: {accepted}\)"):
            tt.chance(card, turn)
    with pytest.raises(InputError, match="the turn must be a whole number"):
        tt.chance(new, 0.5)  # type: ignore[arg-type]
    with pytest.raises(InputError, match="the turn must be a whole number"):
        tt.chance(new, False)  # type: ignore[arg-type]
    assert tt.chance(new, np.int64(0)) == tt.chance(new, 0)
    with pytest.raises(YachtError, match="the card does not fit"):
        tt.chance(get("yatzy").new_card(), 0)
    # repeats: a card can be several turns in, and each of them is the same situation
    rr = _repeat_rs()
    rt = target_table(rr, 110, cache=False)
    card = rr.new_card().with_box(0, rr.index("yahtzee"), 100)   # a yahtzee and a repeat
    possible = turns_possible(rr, card)   # (100: a yahtzee and a repeat, or 0 and two)
    assert len(possible) > 1
    chances = {rt.chance(card, turn) for turn in possible}
    assert len(chances) == 1 and 0 < chances.pop() < 1
    with pytest.raises(InputError, match=rf"accepted: {possible.start}-{possible.stop - 1}"):
        rt.chance(card, possible.stop)


def test_chances_fall_as_targets_rise() -> None:
    rs = get("tommys-crag")
    chances = [target_table(rs, t).start for t in (100, 150, 200)]
    assert 1 > chances[0] > chances[1] > chances[2] > 0


def test_two_columns_are_not_supported() -> None:
    with pytest.raises(UnsupportedRuleset, match="one-column"):
        check_supported(get("ancient-yacht-double"))
    with pytest.raises(UnsupportedRuleset, match="one-column"):
        target_table(get("ancient-yacht-10-double"), 1000)


def test_window_sizes() -> None:
    # a target nobody reaches stores nothing, and neither does 0
    assert estimate_cells(get("tommys-crag"), 10_000) == 0
    assert estimate_cells(get("tommys-crag"), 0) == 0


@pytest.mark.parametrize("name, target", [("tommys-crag", 150), ("tommys-yacht", 170),
                                          ("tommys-yahtzee", 120)])
def test_float32_tables_agree_with_float64(name: str, target: int) -> None:
    """The C kernel in float32 (large tables) and in float64 give the same chances (its
    values against the reference: tests/strategy/test_reference.py)."""
    spec = check_supported(get(name))
    win = windows(spec, target)
    got = {}
    for dtype in (np.float64, np.float32):
        Q = np.zeros(win.cells, dtype=dtype)
        lo = 0 if name == "tommys-crag" else 11   # (the others: 11 boxes filled or more)
        for k in range(spec.nbox - 1, lo - 1, -1):
            a, b = (int(x) for x in win.layers[k])
            if b > a:
                be.current().target_layer(spec, win.sm[a:b], win.sa[a:b], win.A, win.off,
                                          win.wlo, win.wlen, Q, 2)
        got[dtype] = Q.astype(np.float64)
    assert np.abs(got[np.float64] - got[np.float32]).max() < 1e-5
    assert got[np.float64].max() > 0.5


@pytest.mark.parametrize("rs", [
    _joker_rs("forced", "on"),
    reduced(2, (face(1), face(2), cat("chance", "sum")), bonus=UpperBonus(4, ">=", 10)),
], ids=["joker-bonus", "upper-bonus"])
def test_reach_table_holds_every_target(rs: Ruleset) -> None:
    """The reach table's chance of making ``n`` more points is every target table's
    chance ``n`` points short, at every state and total those tables store - including
    totals no card of the state can hold for the reach table's own target."""
    rt = reach_table(rs, cache=False)
    top = rt.target
    assert top == reach_target(rs)
    seen = 0
    for target in range(1, top + 1):
        tt = target_table(rs, target, cache=False)
        w = tt.win
        for m, a in zip(w.sm.tolist(), w.sa.tolist(), strict=True):
            j = m * w.A + a
            for s in range(int(w.wlo[j]), int(w.wlo[j] + w.wlen[j])):
                need = target - s
                assert rt.state_chance(m, a, top - need) == pytest.approx(
                    tt.state_chance(m, a, s), abs=1e-12), (target, m, a, s)
                # the reach pmf's tail is the same chance
                assert rt.reach_pmf(m, a)[need:].sum() == pytest.approx(
                    tt.state_chance(m, a, s), abs=1e-12)
                seen += 1
    assert seen > 100
    # from the empty card: the pmf's tails are the chances of every target from the start
    pmf = rt.reach_pmf(0, 0)
    assert pmf.sum() == pytest.approx(1.0) and (pmf >= -1e-12).all()
    assert pmf[top:].sum() == pytest.approx(0.0, abs=1e-12)   # (one more than the most)


def test_reach_table_of_yatzy_reaches_every_total() -> None:
    # no Yahtzee bonus: every total is held (one more than the most points)
    assert reach_target(get("yatzy")) == 375
    assert reach_target(get("yahtzee")) == REACH_CAP


@pytest.mark.parametrize("target", [150.5, 150.0, "151", True, None])
def test_a_target_is_a_whole_number_everywhere(target: Any) -> None:
    """``target_table(rs, 150.5)`` answered for 150 points (``int()`` cut it down), and
    ``"151"`` was taken; every public place that takes a target now refuses them."""
    import random

    from yacht.strategy.advisor import AdviceError, hint, hint_card
    from yacht.strategy.champion import ChampionStrategy, rank_to_win
    from yacht.strategy.simulate import simulate
    from yacht.strategy.solver.target import is_ready

    rs = get("tommys-crag")
    s = State(rs, [Player("Ann")], rng=random.Random(1))
    s.apply(Roll((6, 6, 1)))
    calls = [lambda: target_table(rs, target), lambda: is_ready(rs, target),
             lambda: estimate_cells(rs, target),
             lambda: rank_to_win(s, target=target), lambda: ChampionStrategy(rs, target),
             lambda: simulate(rs, "champion", 2, 1, workers=1, target=target)]
    if target is not None:
        for call in calls:
            with pytest.raises(ValueError, match="^target must be a whole number, not ") as e:
                call()
            assert "\n" not in str(e.value)
        champion = ChampionStrategy(rs)
        with pytest.raises(ValueError, match="^target must be a whole number"):
            champion.target = target
        for advice in (lambda: hint(s, target=target),
                       lambda: hint_card(rs, rs.new_card(), 0, (6, 6, 1), 1, target=target)):
            with pytest.raises(AdviceError, match="^target must be a whole number"):
                advice()
    else:  # the default target, and an integer type as the int it is
        assert ChampionStrategy(rs, np.int64(151)).target == 151
        assert target_table(rs, np.int64(151)) is target_table(rs, 151)
        h = hint(s, target=np.int64(151), build=True)
        assert h.to_win is not None and h.to_win.target == 151
