"""The wide-tile kernels (table build, lockstep self-play, batch option values)
checked against the per-state kernels and the engine-driven advisor."""

from __future__ import annotations

import random

import numpy as np
import pytest

from yacht.engine import Player, State
from yacht.engine.randomplay import random_turn
from yacht.rules import get
from yacht.strategy.advisor import advise_card
from yacht.strategy.solver import fast_selfplay, solve
from yacht.strategy.solver.backend import current
from yacht.strategy.solver.batch import option_values, situation_values, supported
from yacht.strategy.solver.build import (
    _layers,
    _repeat_runner,
    build_plan,
    build_table,
    reachable_states,
)
from yacht.strategy.solver.selfplay import forced_args
from yacht.strategy.solver.spec import compile_ruleset

# one-column variants the wide kernels cover, with the rule features they exercise
WIDE = [
    ("tommys-crag", None),                       # 3 dice, 2 rolls, no bonus (one column per mask)
    ("yatzy", None),                             # upper bonus: totals batched, bonus window
    ("yahtzee", {"joker": "forced"}),            # bonus flag, forced joker
    ("yahtzee", {"joker": "free"}),
    ("yahtzee", {"joker": "none", "bonus": "off"}),
    ("ancient-yacht", None),
    ("ancient-yacht-10", {"rolls": "3"}),        # 10 dice: narrow tiles
]


def _reachable(spec: object) -> tuple[np.ndarray, np.ndarray]:
    return reachable_states(spec)  # type: ignore[arg-type]


@pytest.mark.parametrize("name, opts", [WIDE[0], WIDE[1], WIDE[2], WIDE[3],
                                        ("yahtzee", {"joker": "none"}), WIDE[6]],
                         ids=["crag", "yatzy", "yahtzee-forced", "yahtzee-free",
                              "yahtzee-none-bonus", "ten-3"])
def test_wide_build_equals_the_per_mask_kernel(name: str, opts: dict[str, str] | None) -> None:
    """Two independent kernels (wide tiles vs one mask at a time) give the same table."""
    spec = compile_ruleset(get(name, opts))
    wide_V, states, _ = build_table(spec, workers=2)
    final, run, _ = _repeat_runner(spec, build_plan(spec))
    order, bounds = _layers(spec.nbox)
    for k in range(spec.nbox - 1, -1, -1):
        run(order[bounds[k]:bounds[k + 1]], 2)
    ref = final()
    ms, ax = _reachable(spec)
    assert np.abs(wide_V[ms, ax] - ref[ms, ax]).max() < 1e-9
    assert states == len(ms)


@pytest.mark.parametrize("name, opts", WIDE, ids=lambda x: str(x))
def test_batch_option_values_match_the_advisor(name: str, opts: dict[str, str] | None) -> None:
    """Every keep and every allowed box gets the value the (engine-driven) advisor gives."""
    rs = get(name, opts)
    sol = solve(rs)
    assert supported(sol)
    spec = sol.spec
    t = spec.dice
    rng = np.random.default_rng(7)
    # real mid-game cards from random games (random play also fills the Yahtzee box
    # with 0 or 50, so the joker and bonus cases come up), with random dice on them
    situations = []
    for g in range(6):
        st = State(rs, [Player("A")], rng=random.Random(g))
        while not st.is_terminal():
            dice = tuple(int(x) for x in rng.integers(1, rs.faces + 1, rs.dice))
            if len(situations) % 4 == 0:  # a yacht: the joker/bonus rules
                dice = (dice[0],) * rs.dice
            rl = int(rng.integers(0, rs.rolls))
            situations.append((st.card(0), st.turns_taken(0), dice, rl))
            random_turn(st, random.Random(g * 100 + st.turns_taken(0)))
    situations = situations[::2][:60]
    ms, ax, ds, rls = [], [], [], []
    for card, _turn, dice, rl in situations:
        m, a = spec.state_of(card)
        ms.append(m)
        ax.append(a)
        ds.append(t.index_of(dice) - t.full_start)
        rls.append(rl)
    ov = option_values(sol, ms, ax, ds, rls)
    for i in range(0, len(ms), 7):  # one at a time gives the same numbers
        one = situation_values(sol, ms[i], ax[i], ds[i], rls[i])
        np.testing.assert_array_equal(one.keep_index[0], ov.keep_index[i])
        np.testing.assert_allclose(one.keep_value[0], ov.keep_value[i], rtol=0, atol=1e-9)
        np.testing.assert_allclose(one.box_value[0], ov.box_value[i], rtol=0, atol=1e-9)
    for i, (card, turn, dice, rl) in enumerate(situations):
        ranked = advise_card(rs, card, turn, dice, rl, sol)
        base = float(rs.totals(card).grand)
        boxes = {(r.column * spec.ncat + rs.index(r.category)): r.expected
                 for r in ranked if r.kind == "score"}
        allowed = {b for b in range(spec.nbox) if not np.isnan(ov.box_value[i, b])}
        assert allowed == set(boxes), (card, dice)
        for b, v in boxes.items():
            assert ov.box_value[i, b] + base == pytest.approx(v, abs=1e-9)
        keeps = {r.keep: r.expected for r in ranked if r.kind == "keep"}
        got = {t.dice_of(int(k)): float(ov.keep_value[i, j]) + base
               for j, k in enumerate(ov.keep_index[i]) if k >= 0 and rl > 0}
        assert set(got) == set(keeps)
        for k, v in keeps.items():
            assert got[k] == pytest.approx(v, abs=1e-9)


def test_batch_option_values_reject_bad_situations() -> None:
    sol = solve(get("tommys-crag"))
    full = (1 << sol.spec.nbox) - 1
    with pytest.raises(ValueError, match="out of range"):
        option_values(sol, [full], [0], [0], [0])
    with pytest.raises(ValueError, match="out of range"):
        option_values(sol, [0], [0], [0], [sol.spec.rolls])
    with pytest.raises(ValueError, match="out of range"):
        situation_values(sol, 0, 0, sol.spec.dice.nfull, 0)
    with pytest.raises(ValueError, match="same length"):
        option_values(sol, [0, 1], [0], [0], [0])
    assert not supported(solve(get("tommys-yahtzee")))
    with pytest.raises(ValueError, match="repeat box"):
        option_values(solve(get("tommys-yahtzee")), [0], [0], [0], [0])


@pytest.mark.parametrize("name, opts", [("tommys-crag", None), ("yahtzee", {"joker": "forced"}),
                                        ("tommys-yacht", None)], ids=["crag", "yahtzee", "yacht"])
def test_lockstep_selfplay_plays_the_same_games(name: str, opts: dict[str, str] | None) -> None:
    """Lockstep self-play (turn values from wide tiles) plays the same games as the
    one-game kernel (turn values from the per-state kernel), dice stream for dice stream."""
    sol = solve(get(name, opts))
    spec = sol.spec
    games = 300
    wide = fast_selfplay(sol, games, seed=11, workers=2)
    totals = np.zeros(games, dtype=np.int64)
    bonus = np.zeros(games, dtype=np.bool_)
    yachts = np.zeros(games, dtype=np.int64)
    forced, fkeep = forced_args(sol)
    current().play(spec, sol.V, games, 11, (0, 0, 0, -1, 0), forced, fkeep, totals, bonus,
                   yachts, False, 2)
    # the policies agree up to exact ties (which both may break either way)
    same = (wide.totals == totals).mean()
    assert same > 0.97
    assert abs(wide.mean - totals.mean()) < 1.0
    assert (wide.yachts == yachts).mean() > 0.97
