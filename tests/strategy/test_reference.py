"""The C kernels against the plain reference of the same recurrences (solver/reference.py):
every variant the kernels play, cut to a tiny ruleset (two dice, two rolls, three or four
boxes, its special rules kept), solved whole both ways; and random situations of the real
variants, turn by turn."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest

from yacht.rules import Ruleset, UpperBonus, get
from yacht.rules.hooks import YahtzeeBonusJoker
from yacht.strategy.solver import reference as ref
from yacht.strategy.solver import solve
from yacht.strategy.solver.backend import current, native_module
from yacht.strategy.solver.batch import situation_values
from yacht.strategy.solver.build import reachable_states
from yacht.strategy.solver.dist import STEPS, build
from yacht.strategy.solver.tables import kernel_tables, wide_ok

#: every variant (and option) the kernels play, as (id, options)
KERNEL_VARIANTS = [
    ("ancient-yacht", None), ("ancient-yacht-double", None), ("ancient-yacht-10", None),
    ("windows-yacht", None), ("yatsee", None), ("yatcy", None), ("tommys-yahtzee", None),
    ("tommys-yacht", None), ("tommys-crag", None), ("yahtzee", {"joker": "forced"}),
    ("yahtzee", {"joker": "free"}), ("yahtzee", {"joker": "forced", "bonus": "off"}),
    ("yatzy", None), ("sackson-yacht", None)]


def _ids(x: Any) -> str:
    return str(x) if x else ""


def tiny(rs: Ruleset, dice: int = 2) -> Ruleset:
    """``rs`` cut down: the ones and twos, the boxes its special rules name, one other
    box (at most four), ``dice`` dice, two rolls, an upper bonus within reach."""
    named = {getattr(s, "category", None) for s in rs.special}
    keep = [c for c in rs.categories
            if c.id in named or dict(c.params).get("face") in (1, 2)]
    for c in rs.categories:
        if len(keep) >= 4:
            break
        if c not in keep and c.section == "lower":
            keep.append(c)
    cats = []
    for c in rs.categories:     # (in card order; "n of a kind" at most all the dice)
        if c in keep:
            params = tuple((k, min(v, dice) if k == "n" else v) for k, v in c.params)
            cats.append(dataclasses.replace(c, params=params))
    ids = {c.id for c in cats}
    special = tuple(dataclasses.replace(s, joker_points=tuple(
        (k, v) for k, v in s.joker_points if k in ids)) if isinstance(s, YahtzeeBonusJoker)
        else s for s in rs.special)
    bonus = rs.upper_bonus
    if bonus is not None:
        bonus = UpperBonus(3, bonus.comparison, bonus.amount)
    return dataclasses.replace(rs, id=f"tiny-{rs.id}", dice=dice, rolls=2,
                               categories=tuple(cats), special=special, upper_bonus=bonus)


@pytest.mark.parametrize("name, opts", KERNEL_VARIANTS, ids=_ids)
def test_the_kernels_solve_a_tiny_variant_as_the_reference(name: str,
                                                           opts: dict[str, str] | None) -> None:
    rs = tiny(get(name, opts), 3 if name == "tommys-crag" else 2)
    sol = solve(rs, cache=False)
    spec = sol.spec
    assert current().name == "native"
    kt = kernel_tables(spec)
    V = ref.table(kt, spec.A)
    ms, ax = reachable_states(spec)
    assert len(ms) > 4
    np.testing.assert_allclose(sol.V[ms, ax], V[ms, ax], rtol=0, atol=1e-9)
    # the distributions of the points to come, every reachable state
    dd = build(sol, threads=2)
    want = ref.distributions(kt, V, spec.A)
    full = (1 << spec.nbox) - 1
    for m, a in zip(ms, ax, strict=True):
        if m == full:
            continue
        lo, pmf = dd.state(int(m), int(a))
        got = np.zeros(max(lo + len(pmf), len(want[m, a])) + 1)
        got[lo:lo + len(pmf)] = pmf
        exact = np.zeros(len(got))
        exact[:len(want[m, a])] = want[m, a][:len(got)]
        assert np.abs(np.cumsum(got) - np.cumsum(exact)).max() <= 1.0 / STEPS + 1e-9, (m, a)


@pytest.mark.parametrize("name, opts", [("tommys-crag", None), ("tommys-yahtzee", None),
                                        ("yahtzee", {"joker": "forced"}),
                                        ("yahtzee", {"joker": "free"}), ("yatzy", None)],
                         ids=_ids)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_the_kernels_reach_a_target_as_the_reference(name: str, opts: dict[str, str] | None,
                                                     dtype: type) -> None:
    """The target kernel (float64 and float32 tables) on a tiny ruleset, every reachable
    state and every total of its window."""
    from yacht.strategy.solver.target import check_supported, solve_windows, windows

    rs = tiny(get(name, opts), 3 if name == "tommys-crag" else 2)
    spec = check_supported(rs)
    sol = solve(rs, cache=False)
    target = int(round(sol.expected_score))
    win = windows(spec, target)
    Q = np.zeros(win.cells, dtype=dtype)
    solve_windows(spec, win, Q, None, 2)
    want = ref.target_chances(kernel_tables(spec), spec.A, target)
    tol = 1e-12 if dtype is np.float64 else 1e-5
    checked = 0
    for m, a in zip(*reachable_states(spec), strict=True):
        j = int(m) * win.A + int(a)
        lo, n = int(win.wlo[j]), int(win.wlen[j])
        if n <= 0 or m == (1 << spec.nbox) - 1:
            continue
        got = Q[int(win.off[j]):int(win.off[j]) + n].astype(np.float64)
        np.testing.assert_allclose(got, want[int(m), int(a)][lo:lo + n], rtol=0, atol=tol)
        checked += n
    assert checked > 20


def _random_states(spec: Any, rng: np.random.Generator, n: int) -> list[tuple[int, int]]:
    ms, ax = reachable_states(spec)
    full = (1 << spec.nbox) - 1
    pick = rng.choice(np.flatnonzero(ms != full), n, replace=False)
    return [(int(ms[i]), int(ax[i])) for i in pick]


@pytest.mark.parametrize("name, opts", [v for v in KERNEL_VARIANTS
                                        if v[0] not in ("ancient-yacht-10",)
                                        and "double" not in v[0]], ids=_ids)
def test_the_kernels_play_random_turns_as_the_reference(name: str,
                                                        opts: dict[str, str] | None) -> None:
    """A turn of the real variant (5 dice, its whole card) from random reachable states,
    on the solver's own table: the placement and keep values of every outcome and keep,
    and the option values of random situations."""
    sol = solve(get(name, opts))
    spec = sol.spec
    kt = kernel_tables(spec)
    t = spec.dice
    rng = np.random.default_rng(sum(map(ord, name)))
    for m, a in _random_states(spec, rng, 2):
        E0 = np.empty(t.nfull)
        Ks = np.empty((spec.rolls, t.nall))
        current().state_turn(spec, sol.V, m, a, E0, Ks)
        E0r, Ksr = ref.turn_values(kt, sol.V, m, a)
        np.testing.assert_allclose(E0, E0r, rtol=0, atol=1e-9)
        np.testing.assert_allclose(Ks, Ksr, rtol=0, atol=1e-9)
        if not wide_ok(spec):
            continue
        d = int(rng.integers(0, t.nfull))
        r = int(rng.integers(1, spec.rolls))
        ov = situation_values(sol, m, a, d, r)
        keeps = [int(k) for k in ov.keep_index[0] if k >= 0]
        np.testing.assert_allclose(ov.keep_value[0, :len(keeps)], Ksr[r - 1, keeps], rtol=0,
                                   atol=1e-9)
        boxes = np.full(spec.nbox, np.nan)
        for p in ref.placements(kt, m, a % spec.U, a // spec.U, d):
            boxes[p[0]] = ref._after(kt, sol.V, m, a, p)
        np.testing.assert_allclose(ov.box_value[0], boxes, rtol=0, atol=1e-9)


def test_the_quantizing_kernel_gives_the_numpy_twins_cumulative_chances() -> None:
    from yacht.strategy.solver.dist import _quantize

    rng = np.random.default_rng(7)
    lens = rng.integers(1, 40, size=300)
    lens[5] = 1                                 # a certain total
    parts = []
    for n in lens:
        p = rng.random(n) ** 6                  # thin tails: some rounding to 0 and to 1
        parts.append((p / p.sum() if n else p).astype(np.float32))
    P = np.concatenate(parts).astype(np.float32)
    pos = np.concatenate([[0], np.cumsum(lens)[:-1]]).astype(np.int64)
    lo = rng.integers(0, 500, size=len(lens)).astype(np.int64)
    shuffle = rng.permutation(len(lens))        # the states in another order than their chances
    got = _quantize(P, pos[shuffle], lo[shuffle], lens[shuffle].astype(np.int64))
    want = ref.quantize(P, pos[shuffle], lo[shuffle], lens[shuffle].astype(np.int64), STEPS)
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype and np.array_equal(g, w)
    assert 0 < len(got[0]) < len(P)             # some cut, some kept
    # an empty distribution anywhere: nothing kept for it, the others as before
    C2, coff2, first2, len2 = _quantize(P, np.append(pos, 0), np.append(lo, 9),
                                        np.append(lens, 0).astype(np.int64))
    alone = _quantize(P, pos, lo, lens.astype(np.int64))
    assert np.array_equal(C2, alone[0]) and np.array_equal(first2[:-1], alone[2])
    assert (len2[-1], first2[-1]) == (0, 9) and np.array_equal(len2[:-1], alone[3])


def test_the_kernels_solve_a_relaxed_game_as_the_reference() -> None:
    """The relaxed game of the saved-rolls bound (solver/pool.py): rolls by the number of
    boxes filled and a cost a roll, the whole table and a turn's keep values."""
    from yacht.strategy.solver.pool import relaxed_table
    from yacht.strategy.solver.spec import compile_ruleset
    from yacht.strategy.solver.tables import relaxed_tables

    spec = compile_ruleset(tiny(get("maxi-yatzy", {"saved_rolls": "off"}), 2))
    caps = np.array([4, 1, 3, 2], dtype=np.int64)[:spec.nbox]
    # one price for every turn, or a price a turn (the build's tiles and a turn's levels
    # take each card's own: state_turn below is on a card of one box, so 2.0)
    for price in (0.0, 1.5, np.array([3.0, 2.0, 0.25, 0.0])[:spec.nbox]):
        V = relaxed_table(spec, caps, price, workers=2)
        kt = relaxed_tables(spec, caps, price)
        want = ref.table(kt, spec.A)
        ms, ax = reachable_states(spec)
        assert len(ms) > 4
        np.testing.assert_allclose(V[ms, ax], want[ms, ax], rtol=0, atol=1e-9)
        # more rolls are worth more when they are free, and cost points when not
        plain = solve(spec.ruleset, cache=False).V
        assert (V[0, 0] > plain[0, 0]) == np.all(price == 0.0)
        # one turn (state_turn: every level of the most rolls, the cost included)
        E0 = np.empty(spec.dice.nfull)
        Ks = np.empty((int(caps.max()), spec.dice.nall))
        mod = native_module()
        assert mod is not None
        mod.state_turn(current().relaxed(spec, caps, price), want, 2, 0, E0, Ks)
        E0r, Ksr = ref.turn_values(kt, want, 2, 0)
        np.testing.assert_allclose(E0, E0r, rtol=0, atol=1e-9)
        np.testing.assert_allclose(Ks, Ksr, rtol=0, atol=1e-9)
