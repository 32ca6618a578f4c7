"""Score distributions (solver/dist.py): against a brute force through the engine, the
solver's means, the self-play, and the chances of winning built on them."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from yacht.engine import Choose, Player, Roll, Score, State
from yacht.rules import Category, Ruleset, UpperBonus, YahtzeeBonusJoker, get
from yacht.strategy.advisor import advise
from yacht.strategy.solver import fast_selfplay, solve
from yacht.strategy.solver.dist import (
    STEPS,
    distributions,
    supported,
    win_chances,
    win_worth,
)

#: a cumulative chance is stored within half a step
CDF_TOL = 1.0 / STEPS


def cat(id: str, scorer: str, section: str = "lower", **params: Any) -> Category:
    return Category(id, id.title(), section, scorer, tuple(params.items()))  # type: ignore[arg-type]


def face(f: int) -> Category:
    return cat(["ones", "twos", "threes", "fours", "fives", "sixes"][f - 1], "face", "upper",
               face=f)


def small(kind: str) -> Ruleset:
    """Two dice, two rolls, three or four boxes: small enough to play out every game."""
    if kind in ("bonus", "steps"):
        cats = (face(1), face(6), cat("pair", "of_a_kind", n=2, points="all"),
                cat("chance", "sum"))
        # "steps": a bonus by steps as Kismet's (10 from 7, 16 from 10, paid at the end)
        bonus = UpperBonus(7, ">=", 10, ((10, 16),) if kind == "steps" else ())
        return replace(get("ancient-yacht"), id=f"reduced-{kind}", dice=2, rolls=2,
                       categories=cats, catalogue=cats, special=(), upper_bonus=bonus,
                       base_bonus=bonus, settings=())
    rs = get("yahtzee", {"joker": kind, "bonus": "on"})
    three = (face(1), cat("full_house", "pattern", counts=(1, 1), points=7),
             cat("yahtzee", "of_a_kind", n=2, points=50))
    return replace(rs, id="reduced-joker", dice=2, rolls=2, categories=three,
                   upper_bonus=UpperBonus(3, ">=", 5), special=(YahtzeeBonusJoker(
                       joker_points=(("full_house", 25),)),))


def brute_force(rs: Ruleset) -> dict[int, float]:
    """The final total's distribution when the expert (the advisor's first choice) plays
    every game out through the engine: every chance outcome, exactly."""
    return to_come(rs)(State(rs, [Player("E", "computer", "expert")]))


_TO_COME: dict[str, Any] = {}


def small_to_come(kind: str) -> Any:
    """:func:`to_come` of ``small(kind)``, one memo per kind for the tests of a process
    (the brute force of the game with an upper bonus takes 10-40 s)."""
    if kind not in _TO_COME:
        _TO_COME[kind] = to_come(small(kind))
    return _TO_COME[kind]


def to_come(rs: Ruleset) -> Any:
    """A function giving, for a game of one player, the distribution of the points still
    to come when the expert plays it out (every chance outcome; one memo for all)."""
    sol = solve(rs)
    memo: dict[Any, dict[int, float]] = {}

    def spread(s: State) -> dict[int, float]:
        out: dict[int, float] = {}
        here = s.returns()[0]
        for outcome, p in s.chance_outcomes():
            t = s.clone()
            t.apply(Roll(outcome))
            gained = t.returns()[0] - here
            for x, q in play(t).items():
                out[x + gained] = out.get(x + gained, 0.0) + p * q
        return out

    def play(s: State) -> dict[int, float]:
        """The points still to come from ``s``."""
        if s.is_terminal():
            return {0: 1.0}
        key = (s.card(0).boxes, tuple(sorted(s.dice)), s.rolls_left, s.turns_taken(0))
        hit = memo.get(key)
        if hit is not None:
            return hit
        here = s.returns()[0]
        if not s.dice:
            out = spread(s)
        else:
            decision = advise(s, sol)[0].decision()
            t = s.clone()
            if decision.score is not None:
                t.apply(decision.score)
                gained = t.returns()[0] - here
                out = {x + gained: q for x, q in play(t).items()}
            else:
                t.apply(Choose(decision.reroll))
                out = spread(t)
        memo[key] = out
        return out

    return play


def dense(lo: int, pmf: np.ndarray, at: int, hi: int) -> np.ndarray:
    out = np.zeros(hi - at)
    out[lo - at:lo - at + len(pmf)] = pmf
    return out


@pytest.mark.parametrize("kind", ["bonus", "steps", "forced", "free"])
@pytest.mark.slow
def test_small_games_match_the_brute_force(kind: str) -> None:
    rs = small(kind)
    exact = small_to_come(kind)(State(rs, [Player("E", "computer", "expert")]))
    dd = distributions(rs, cache=False)
    lo, pmf = dd.final(rs.new_card(), 0)
    at, hi = min(min(exact), lo), max(max(exact) + 1, lo + len(pmf))
    want = np.zeros(hi - at)
    for x, p in exact.items():
        want[x - at] = p
    got = dense(lo, pmf, at, hi)
    assert np.abs(np.cumsum(got) - np.cumsum(want)).max() <= CDF_TOL
    assert abs(float(np.dot(got, np.arange(at, hi))) - solve(rs).expected_score) < 1e-3


@pytest.mark.parametrize("variant", ["tommys-crag", "ancient-yacht", "tommys-yacht"])
def test_means_are_the_solvers_values(variant: str) -> None:
    rs = get(variant)
    dd = distributions(rs, cache=False)
    sol = dd.solution
    lo, pmf = dd.final(rs.new_card(), 0)
    assert abs(pmf.sum() - 1) < 1e-9
    assert abs(float(np.dot(pmf, np.arange(lo, lo + len(pmf)))) - sol.expected_score) < 0.01
    rng = np.random.default_rng(3)
    masks = rng.integers(0, 1 << dd.spec.nbox, size=40)
    for m in masks.tolist():
        assert abs(dd.mean(m, 0) - sol.future(m, 0)) < 0.01


def test_the_self_play_agrees_within_its_error() -> None:
    rs = get("tommys-crag")
    dd = distributions(rs, cache=False)
    games = 100_000
    totals = fast_selfplay(dd.solution, games, seed=11, workers=2).totals.astype(np.int64)
    lo, pmf = dd.final(rs.new_card(), 0)
    xs = np.arange(lo, lo + len(pmf))
    mean = float(np.dot(pmf, xs))
    sd = float(np.sqrt(np.dot(pmf, (xs - mean) ** 2)))
    assert abs(totals.mean() - mean) < 4 * sd / np.sqrt(games)
    cdf = np.cumsum(pmf)
    for q in (0.05, 0.25, 0.5, 0.75, 0.95):
        x = int(xs[np.searchsorted(cdf, q)])
        # the share of games at most x is within 4 standard errors of the exact chance
        p = float(cdf[x - lo])
        assert abs(float((totals <= x).mean()) - p) < 4 * np.sqrt(p * (1 - p) / games) + 1e-4


def test_a_full_card_and_a_card_in_play() -> None:
    rs = get("tommys-crag")
    dd = distributions(rs, cache=False)
    s = State(rs, [Player("E", "computer", "expert")], rng=random.Random(2))
    s.apply(Roll())
    s.apply(Score(s.placements()[0].category))
    lo, pmf = dd.final(s.card(0), 1)
    here = rs.totals(s.card(0)).grand
    assert lo >= here and abs(pmf.sum() - 1) < 1e-9


def test_unsupported_variants_say_so() -> None:
    assert not supported(get("ancient-yacht-double"))
    assert not supported(get("ancient-yacht-10-double"))
    assert supported(get("yahtzee"))


def test_win_chances_and_worth_of_distributions() -> None:
    a = (10, np.array([0.5, 0.0, 0.5]))     # 10 or 12
    b = (11, np.array([1.0]))
    assert win_chances([a, b]) == [0.5, 0.5]
    lo, w = win_worth([b])
    assert lo == 11 and w.tolist() == [0.5]
    # a tie for first shared by both
    assert win_chances([(5, np.ones(1)), (5, np.ones(1))]) == [1.0, 1.0]


def test_the_cache_is_mapped_and_a_damaged_file_is_rebuilt() -> None:
    from yacht.strategy.solver import cache as diskcache
    from yacht.strategy.solver.dist import clear_memory

    rs = get("tommys-crag")
    clear_memory()   # (built without the cache by the tests above)
    built = distributions(rs)
    want = built.final(rs.new_card(), 0)
    clear_memory()
    loaded = distributions(rs)
    assert not loaded.built and isinstance(loaded.C, np.memmap)
    got = loaded.final(rs.new_card(), 0)
    assert got[0] == want[0] and np.array_equal(got[1], want[1])
    path = diskcache.cache_path(rs.key, kind="dist")
    data = path.read_bytes()
    path.write_bytes(data[:-10])          # cut short: rebuilt
    clear_memory()
    again = distributions(rs)
    assert again.built and again.final(rs.new_card(), 0)[0] == want[0]


@pytest.mark.parametrize("kind", ["bonus", "steps", "forced", "free"])
def test_a_situations_chances_are_the_brute_forces_from_every_roll(kind: str) -> None:
    """``yacht.solve(...).chances``: from a turn's start and from inside a turn (the
    expert's choices followed through its rolls), the final total's distribution is the
    one every game played out through the engine gives."""
    import yacht

    rs = small(kind)
    y = yacht.solve(rs)
    rng = random.Random(7)
    brute = small_to_come(kind)
    checked = 0
    for game in range(6):
        s = State(rs, [Player("E", "computer", "expert")], rng=random.Random(game))
        while not s.is_terminal():
            here = s.returns()[0]
            want = {here + x: p for x, p in brute(s.clone()).items()}
            got = y.chances(s)
            lo, hi = min(min(want), got.lo), max(max(want), got.hi) + 1
            w = np.zeros(hi - lo)
            for x, p in want.items():
                w[x - lo] = p
            assert np.abs(np.cumsum(dense(got.lo, got.pmf, lo, hi)) - np.cumsum(w)).max() \
                <= 2 * CDF_TOL, (kind, y.situation(s).text())
            assert abs(got.mean - y.value(s)) < 0.01
            checked += 1
            # on: a roll, or the expert's choice, or near the end (where the brute force
            # of a card off the expert's paths is quick) at times another allowed move
            if s.chance_outcomes():
                s.apply(Roll())
            else:
                off = s.card(0).filled >= len(rs.categories) - 2 and rng.random() < 0.4
                o = rng.choice(y.options(s)) if off else y.best(s)
                for action in o.actions(s):
                    s.apply(action)
    assert checked > 20


def test_chances_against_the_simulation_and_the_chances_of_winning() -> None:
    """In a real variant: the exact figures agree with 100,000 simulated games from a
    turn in progress, and a game's chances of winning are the distributions'."""
    import yacht

    y = yacht.solve("tommys-crag")
    where = "336 r1 crag=50"
    c = y.chances(where)
    assert abs(sum(c.chances().values()) - 1) < 1e-9
    assert abs(c.mean - y.value(where)) < 0.01
    games = 100_000
    d = y.distribution(where, games=games, seed=5)
    assert abs(d.mean - c.mean) < 4 * c.std / np.sqrt(games)
    for q in (5, 25, 50, 75, 95):
        x = c.percentile(q)
        p = 1 - c.chance_at_least(x + 1)    # the chance of x or less
        assert abs(float((d.totals <= x).mean()) - p) < 4 * np.sqrt(p * (1 - p) / games) + 1e-4
    # two players: Ann on turn with these dice, Bob before his turn with 40 more points
    ann = y.situation(where)
    bob = y.situation("- crag=50,sixes=18,fives=15,threes=9")
    a, b = y.win_chances([ann, bob])
    ca, cb = c, y.chances(bob)
    # P(a > b) + P(a == b): the sum over the two exact distributions
    pa = sum(p * sum(q for t, q in cb.chances().items() if t <= x)
             for x, p in ca.chances().items())
    assert abs(a - pa) < 1e-9 and 0 < a < 0.5 < b < 1
    # a game of the engine: the player on turn from the dice, the other from the card
    game = State(y.ruleset, [Player("Ann"), Player("Bob")], rng=random.Random(3))
    game.apply(Roll((3, 3, 6)))
    assert y.win_chances(game) == pytest.approx(
        y.win_chances([y.situation(game), y.situation(None)]), abs=1e-12)


def test_chances_refused_where_there_are_no_distributions() -> None:
    import yacht
    from yacht.strategy.advisor import AdviceError

    # saved rolls (Maxi Yatzy's, on four of its boxes): no distributions
    maxi = get("maxi-yatzy")
    cats = tuple(c for c in maxi.categories if c.id in ("fives", "sixes", "chance",
                                                          "maxi_yatzy"))
    few = replace(maxi, id="four-maxi-yatzy", categories=cats, catalogue=cats,
                  upper_bonus=None, base_bonus=None)
    y = yacht.solve(few)
    with pytest.raises(AdviceError, match="no exact distributions.*simulates"):
        y.chances()
    with pytest.raises(AdviceError, match="one a player"):
        yacht.solve("tommys-crag").win_chances("336 r1")


def test_a_bonus_by_steps_has_exact_chances_of_winning_in_the_analysis(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Kismet's bonus by steps (paid at the end) now has distributions: a game's
    analysis gives exact chances, not 2,000 sampled games per card (and the champion,
    whose turn tables do not know the steps, still plays without them)."""
    from yacht.engine import Record, records
    from yacht.strategy.analysis import analyse
    from yacht.strategy.base import make_player, play_turn
    from yacht.strategy.solver.dist import available

    rs = small("steps")
    real = records.get
    monkeypatch.setattr(records, "get", lambda n, o=None: rs if n == rs.id else real(n, o))
    assert available(rs) and not supported(rs)
    s = State(rs, [Player("A", "computer", "expert"), Player("B", "computer", "expert")],
              rng=random.Random(4))
    players = [make_player(rs, "expert"), make_player(rs, "expert")]
    while not s.is_terminal():
        play_turn(s, players[s.current])
    a = analyse(Record.from_state(s))
    assert a.win is not None and a.win_exact and a.win_games == 0
    first = a.win[0].chances
    assert first[0] == pytest.approx(first[1]) and 0.5 < first[0] < 1   # ties count for both
    dd = distributions(rs)
    assert list(first) == pytest.approx(win_chances([dd.final(rs.new_card(), 0)] * 2))
