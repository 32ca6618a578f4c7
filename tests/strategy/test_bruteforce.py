"""The solver against an independent brute force on reduced games.

The brute force plays the engine itself: every chance outcome of
``State.chance_outcomes(exact=True)``, every legal ``Choose`` and ``Score``,
values as exact fractions, memoised by (card, turns, sorted dice, rolls).
It shares no code with the solver's kernels. For a repeat box (a scoring
that leaves the card's boxes as they were) the value of a card is the fixed
point x = g(x) of its turn; the brute force finds it in exact arithmetic
(Newton's method on the convex, piecewise-linear g, whose slope is the
chance of ending the turn with a repeat).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from yacht.engine import Choose, Player, Roll, Score, State
from yacht.rules import (
    Category,
    ForcedFirstTurn,
    RepeatBox,
    Ruleset,
    SpecialRule,
    UpperBonus,
    YahtzeeBonusJoker,
    get,
)
from yacht.strategy.solver import UnsupportedRuleset, solve


def cat(id: str, scorer: str, section: str = "lower", **params: Any) -> Category:
    return Category(id, id.title(), section, scorer, tuple(params.items()))  # type: ignore[arg-type]


def face(f: int) -> Category:
    names = ["ones", "twos", "threes", "fours", "fives", "sixes"]
    return cat(names[f - 1], "face", "upper", face=f)


class BruteForce:
    """Exact expected final total under optimal solitaire play, through the engine.

    Values are the points still to come. They are memoised by what the rules
    can look at: which boxes are filled, each column's upper total, the value
    of the boxes that special rules read, the first-turn flag, the sorted dice
    and the rolls made.
    """

    def __init__(self, rs: Ruleset):
        self.rs = rs
        self.memo: dict[Any, tuple[Fraction, Fraction]] = {}
        self.fixed: dict[Any, Fraction] = {}
        self.x: Fraction | None = None
        self.loop_card: Any = None
        self.special_boxes = sorted({rs.index(r.category) for r in rs.special  # type: ignore
                                     if hasattr(r, "category")})

    def start(self) -> Fraction:
        s = State(self.rs, [Player("cpu", "computer", "expert")])
        return self.value(s)[0]

    def card_key(self, s: State) -> Any:
        rs = self.rs
        out = []
        for col in s.card(0).boxes:
            upper = sum(v or 0 for v, c in zip(col, rs.categories, strict=True)
                        if c.section == "upper")
            out.append((tuple(v is not None for v in col), upper,
                        tuple((col[i] or 0) > 0 for i in self.special_boxes)))
        return tuple(out)

    def key(self, s: State) -> Any:
        return (self.card_key(s), s.turns_taken(0) == 0, tuple(sorted(s.dice)), s.rolls)

    def value(self, s: State) -> tuple[Fraction, Fraction]:
        """(expected points still to come, chance the turn in progress ends in a repeat)."""
        if s.is_terminal():
            return Fraction(0), Fraction(0)
        if not s.dice and s.turns_taken(0) > 0 and self.has_repeat(s):
            if self.loop_card != self.card_key(s):
                return self.fixed_point(s), Fraction(0)
        k = self.key(s)
        if k in self.memo:
            return self.memo[k]
        here = s.returns()[0]
        best: tuple[Fraction, Fraction] | None = None
        if not s.dice:
            best = self.roll(s)
        for act in s.legal_actions():
            if isinstance(act, Score):
                t = s.clone()
                pl = next(p for p in t.placements()
                          if p.category == act.category and p.column == act.column)
                t.apply(act)
                gained = t.returns()[0] - here
                if pl.repeat:
                    assert self.x is not None
                    cand = (gained + self.x, Fraction(1))
                else:
                    v, d = self.value(t)
                    cand = (gained + v, d)
            elif isinstance(act, Choose):
                t = s.clone()
                t.apply(act)
                cand = self.roll(t)
            else:
                continue
            if best is None or cand[0] > best[0]:
                best = cand
        assert best is not None
        self.memo[k] = best
        return best

    def roll(self, s: State) -> tuple[Fraction, Fraction]:
        tot, der = Fraction(0), Fraction(0)
        for outcome, p in s.chance_outcomes(exact=True):
            u = s.clone()
            u.apply(Roll(outcome))
            v, d = self.value(u)
            tot += p * v
            der += p * d
        return tot, der

    def has_repeat(self, s: State) -> bool:
        return any(isinstance(r, RepeatBox) and not s.card(0).is_open(0, self.rs.index(
            r.category)) for r in self.rs.special)

    def fixed_point(self, s: State) -> Fraction:
        """Future points x of this card with x = g(x), by exact Newton steps."""
        ck = self.card_key(s)
        if ck in self.fixed:
            return self.fixed[ck]
        x = Fraction(0)
        saved = (self.x, self.loop_card, self.memo)
        for _ in range(50):
            self.x, self.loop_card, self.memo = x, ck, {}
            g, p = self.value(s)
            nx = x + (g - x) / (1 - p)
            if nx == x:
                break
            x = nx
        self.x, self.loop_card, self.memo = saved
        self.fixed[ck] = x
        return x


def check(rs: Ruleset) -> Fraction:
    exact = BruteForce(rs).start()
    got = solve(rs, cache=False).expected_score
    assert got == pytest.approx(float(exact), abs=1e-9), (float(exact), got)
    return exact


def reduced(dice: int, cats: tuple[Category, ...], rolls: int = 2,
            special: tuple[SpecialRule, ...] = (), bonus: UpperBonus | None = None,
            columns: tuple[int, ...] = (1,), base: str = "ancient-yacht") -> Ruleset:
    return replace(get(base), id="reduced", dice=dice, rolls=rolls, categories=cats,
                   special=special, upper_bonus=bonus, columns=columns)


def test_face_and_sum_two_dice() -> None:
    check(reduced(2, (face(6), cat("chance", "sum"))))


def test_of_a_kind_all_matched_fixed() -> None:
    check(reduced(3, (cat("k2", "of_a_kind", n=2, points="all"),
                      cat("k2m", "of_a_kind", n=2, points="matched"),
                      cat("k3", "of_a_kind", n=3, points=30))))


def test_pattern_and_straight() -> None:
    check(reduced(3, (cat("fh", "pattern", counts=(2, 1), points="all"),
                      cat("st", "straight", runs=((1, 2), (3, 4), (5, 6)), points=20),
                      cat("run3", "straight", runs=((2, 3, 4),), points=25))))


def test_double_straight_copies_and_two_pairs() -> None:
    # four dice, one roll per turn (keeps are covered by the smaller games)
    check(reduced(4, (cat("dbl", "straight", runs=((1, 2), (5, 6)), copies=2, points=40),
                      cat("two", "pairs", pairs=2), face(3)), rolls=1))


def test_pairs_and_total() -> None:
    check(reduced(3, (cat("pair", "pairs", pairs=1),
                      cat("t10", "total", total=10, pair=True, points=50))))


def test_three_rolls_one_category() -> None:
    exact = check(reduced(2, (cat("k2", "of_a_kind", n=2, points=10),), rolls=3))
    # a pair of any face: 1 - (5/6)^... by hand: chance of no pair after 3 tries
    # keeping one die each time is 1/6 + 5/6*(1/6 + 5/6*1/6) -> 91/216
    assert exact == Fraction(10 * 91, 216)


def test_one_die_one_roll() -> None:
    assert check(reduced(1, (cat("c", "sum"),), rolls=1)) == Fraction(7, 2)


@pytest.mark.parametrize("comparison", [">=", ">"])
def test_upper_bonus_both_comparisons(comparison: str) -> None:
    rs = reduced(2, (face(1), face(2), cat("chance", "sum")),
                 bonus=UpperBonus(4, comparison, 10))  # type: ignore[arg-type]
    check(rs)


def test_two_columns_with_multipliers() -> None:
    check(reduced(2, (face(5), cat("pair", "of_a_kind", n=2, points=20)), columns=(1, 2)))


def _joker_rs(joker: str, bonus: str, dice: int = 2) -> Ruleset:
    rs = get("yahtzee", {"joker": joker, "bonus": bonus})
    cats = (face(1), cat("full_house", "pattern", counts=(1, 1), points=7),
            cat("yahtzee", "of_a_kind", n=dice, points=50))
    return replace(rs, id="reduced-joker", dice=dice, rolls=2, categories=cats,
                   upper_bonus=UpperBonus(3, ">=", 5), special=(YahtzeeBonusJoker(
                       joker_points=(("full_house", 25),)),))


@pytest.mark.parametrize("joker", ["free", "forced", "none"])
@pytest.mark.parametrize("bonus", ["on", "off"])
def test_yahtzee_bonus_and_joker(joker: str, bonus: str) -> None:
    check(_joker_rs(joker, bonus))


def test_joker_modes_differ() -> None:
    vals = {j: solve(_joker_rs(j, "on"), cache=False).expected_score
            for j in ("free", "forced", "none")}
    assert vals["none"] < vals["forced"] - 0.01
    assert vals["none"] < vals["free"] - 0.01


def test_repeat_box_fixed_point() -> None:
    cats = (face(2), cat("yahtzee", "of_a_kind", n=2, points=50), cat("chance", "sum"))
    rs = reduced(2, cats, special=(RepeatBox("yahtzee", 50),),
                 bonus=UpperBonus(3, ">", 7))
    exact = check(rs)
    # repeats are worth something: more than the same game without them
    plain = solve(replace(rs, special=()), cache=False).expected_score
    assert float(exact) > plain + 1


def test_forced_first_turn_small_floor() -> None:
    rule = ForcedFirstTurn("yacht", 50, 1, 20, 10)  # rolls 1..3, 50/30/10, sunk at 10
    assert rule.last_roll == 3
    cats = (face(3), cat("yacht", "of_a_kind", n=2, points=50), cat("chance", "sum"))
    check(reduced(2, cats, special=(rule,)))


def test_forced_first_turn_negative_floor() -> None:
    rule = ForcedFirstTurn("yacht", 10, 2, 10, -10)  # 10, 10, 0, -10
    cats = (cat("yacht", "of_a_kind", n=3, points=10), cat("chance", "sum"))
    check(reduced(3, cats, special=(rule,)))


def test_unknown_special_rule_is_refused() -> None:
    class Mystery(SpecialRule):
        name = "mystery"

    with pytest.raises(UnsupportedRuleset, match="mystery"):
        solve(reduced(2, (face(1),), special=(Mystery(),)), cache=False)
