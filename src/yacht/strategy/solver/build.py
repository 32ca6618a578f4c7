"""Build (or load) the table of a ruleset and wrap it as a :class:`Solution`.

Thread-safe: two threads asking for the same table at once build (or load)
it once (a lock per table key); a :class:`Solution` may be shared by threads.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from yacht.rules import Ruleset, Scorecard
from yacht.rules.errors import InvalidType

from . import cache as diskcache
from .backend import current as backend
from .numbers import a_ruleset
from .numbers import variant_name as _variant_name
from .spec import Spec, compile_ruleset
from .tables import padded_stride, placement_rows, scores_ok, tile_width, wide_ok

__all__ = ["Plan", "Solution", "build_plan", "clear_memory_cache", "is_ready",
           "memory_solution", "reachable_states", "solve"]

Progress = Callable[[int, int], None]
F64 = npt.NDArray[np.float64]

# tables bigger than this many cells are stored on disk as float32 (error far below 0.0005)
FLOAT32_CELLS = 1 << 23

# re-exported for the callers that read them from here
__all__ += ["padded_stride", "placement_rows", "tile_width", "wide_ok"]


def _threads(workers: int | None) -> int:
    if workers is None:
        workers = os.cpu_count() or 1
    return max(1, min(64, workers))


def _layers(nbox: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """All masks ordered by the number of boxes filled, and where each count starts."""
    nmask = 1 << nbox
    masks = np.arange(nmask, dtype=np.int64)
    pc = np.zeros(nmask, dtype=np.int8)
    for b in range(nbox):
        pc += ((masks >> b) & 1).astype(np.int8)
    order = np.argsort(pc, kind="stable").astype(np.int64)
    bounds = np.concatenate([[0], np.cumsum(np.bincount(pc, minlength=nbox + 1))])
    return order, bounds.astype(np.int64)


@dataclass(frozen=True, eq=False)
class Plan:
    """Which states of each mask the build solves.

    ``umax[m]``: the largest upper total the filled boxes of ``m`` can hold
    (capped); ``ulo[m]``: below it the bonus is out of reach, so one value stands
    for all the totals up to ``ulo``; ``nflag[m]``: 2 when the bonus box of ``m``
    may hold points or not. The upper totals a card can really have depend on
    which upper boxes are filled (a filled Sixes box holds 0, 6, ... 30): mask
    ``m`` solves the totals ``ulist[uoff[usub[m]]:uoff[usub[m] + 1]]`` (``ulo``,
    then the reachable ones above it).
    """

    ulo: npt.NDArray[np.int64]
    umax: npt.NDArray[np.int64]
    nflag: npt.NDArray[np.int64]
    usub: npt.NDArray[np.int64]
    uoff: npt.NDArray[np.int64]
    ulist: npt.NDArray[np.int64]
    reach: tuple[frozenset[int], ...]   # per upper subset: the reachable totals
    states: int                          # reachable card states (mask, upper total, flag)

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in (self.ulo, self.umax, self.nflag, self.usub, self.uoff,
                                      self.ulist))


def build_plan(spec: Spec) -> Plan:
    """The :class:`Plan` of ``spec``.

    >>> from yacht.rules import get
    >>> plan = build_plan(compile_ruleset(get("yahtzee")))
    >>> plan.states, sorted(plan.reach[1 << 5])[:4]
    (536448, [0, 6, 12, 18])
    """
    nmask = 1 << spec.nbox
    masks = np.arange(nmask, dtype=np.int64)
    U = spec.U
    nflag = np.ones(nmask, dtype=np.int64)
    if spec.nflag == 2:
        nflag += (masks >> spec.flag_box) & 1
    ups = [b for b in range(spec.nbox) if spec.box_upper[b]] if U > 1 else []
    usub = np.zeros(nmask, dtype=np.int64)
    for i, b in enumerate(ups):
        usub |= ((masks >> b) & 1) << i
    cap = U - 1
    top = [int(spec.score[b].max()) for b in ups]
    pts = [{0, *map(int, spec.score[b])} | ({int(spec.joker_pts[b])} if spec.joker_pts[b] >= 0
                                            else set()) for b in ups]
    reach: list[frozenset[int]] = []
    lists: list[list[int]] = []
    sub_lo = np.zeros(1 << len(ups), dtype=np.int64)
    sub_max = np.zeros(1 << len(ups), dtype=np.int64)
    for sub in range(1 << len(ups)):
        got = {0}
        for i in range(len(ups)):
            if (sub >> i) & 1:
                got = {min(cap, a + p) for a in got for p in pts[i]}
        filled_top = sum(top[i] for i in range(len(ups)) if (sub >> i) & 1)
        rem = sum(top[i] for i in range(len(ups)) if not (sub >> i) & 1)
        umax = min(filled_top, cap) if U > 1 else 0
        ulo = min(umax, max(0, spec.low_need - rem - 1)) if U > 1 else 0
        sub_lo[sub], sub_max[sub] = ulo, umax
        reach.append(frozenset(got))
        lists.append([ulo, *sorted(u for u in got if u > ulo)])
    uoff = np.zeros(len(lists) + 1, dtype=np.int64)
    uoff[1:] = np.cumsum([len(x) for x in lists])
    ulist = np.array([u for x in lists for u in x], dtype=np.int64)
    sizes = np.array([len(r) for r in reach], dtype=np.int64)
    states = int((sizes[usub] * nflag).sum())
    return Plan(sub_lo[usub], sub_max[usub], nflag, usub, uoff, ulist, tuple(reach), states)


def reachable_states(spec: Spec) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Every reachable card state as (masks, auxs) arrays (for tests and analysis)."""
    plan = build_plan(spec)
    ms: list[int] = []
    ax: list[int] = []
    for m in range(1 << spec.nbox):
        for fl in range(int(plan.nflag[m])):
            for u in sorted(plan.reach[int(plan.usub[m])]):
                ms.append(m)
                ax.append(fl * spec.U + u)
    return np.array(ms, dtype=np.int64), np.array(ax, dtype=np.int64)


def build_table(spec: Spec, progress: Progress | None = None,
                workers: int | None = None) -> tuple[F64, int, int]:
    """The value of every card state: ``V[mask, aux]`` (see :mod:`.reference`), the
    number of reachable states, and the bytes of the arrays the build used.

    Masks are solved layer by layer (most boxes filled first); the masks of a
    layer are independent and are spread over ``workers`` threads. Entries of
    states no card can reach may be left unsolved (the native build skips them).
    """
    if spec.extended:
        from .extended import build_extended

        return build_extended(spec, progress)
    order, bounds = _layers(spec.nbox)
    threads = _threads(workers)
    plan = build_plan(spec)
    # the wide build also solves the fixed points of a repeat box
    wide = scores_ok(spec)
    final, run, used = (_wide_runner if wide else _repeat_runner)(spec, plan)
    for k in range(spec.nbox - 1, -1, -1):
        run(order[bounds[k]:bounds[k + 1]], threads)
        if progress is not None:
            progress(spec.nbox - k, spec.nbox)
    V = final()
    return V, plan.states, used + V.nbytes + order.nbytes + plan.nbytes


Runner = Callable[[npt.NDArray[np.int64], int], None]
Final = Callable[[], F64]


def _wide_runner(spec: Spec, plan: Plan, tables: Any = None) -> tuple[Final, Runner, int]:
    """The wide-tile build: returns (final table getter, layer runner, bytes used);
    ``tables``: the kernels' tables of a relaxed game of ``spec`` (see :mod:`.pool`)."""
    be = backend()
    nmask = 1 << spec.nbox
    U = spec.U
    S = padded_stride(spec)
    Vp = np.zeros((nmask, spec.nflag * S))
    if spec.bonus_table is not None:  # a bonus by steps: paid at the end
        end = spec.bonus_table[np.minimum(np.arange(S), U - 1)]
        for fl in range(spec.nflag):
            Vp[nmask - 1, fl * S:(fl + 1) * S] = end

    def run(layer: npt.NDArray[np.int64], threads: int) -> None:
        be.build_layer(spec, layer, Vp, S, plan, threads, tables)

    def final() -> F64:
        if S == U:
            return Vp
        V = np.empty((nmask, spec.A))
        for fl in range(spec.nflag):
            V[:, fl * U:(fl + 1) * U] = Vp[:, fl * S:fl * S + U]
        return V

    return final, run, Vp.nbytes


def _repeat_runner(spec: Spec, plan: Plan) -> tuple[Final, Runner, int]:
    """A build with a repeat box: every state is a fixed point, solved mask by mask."""
    be = backend()
    V = np.zeros((1 << spec.nbox, spec.A))
    if spec.bonus_table is not None:  # a bonus by steps: paid at the end
        for fl in range(spec.nflag):
            V[-1, fl * spec.U:(fl + 1) * spec.U] = spec.bonus_table

    def run(layer: npt.NDArray[np.int64], threads: int) -> None:
        be.build_repeat_layer(spec, layer, V, plan.umax, threads)

    return (lambda: V), run, 0


def forced_turn_tables(spec: Spec) -> tuple[F64, float]:
    """Keep values of the forced first turn and its expected score.

    ``keep[r, k]``: expected score of the box when ``k`` is kept after roll ``r``
    (1-based) and the rest is rolled (roll ``r + 1``). Returns (keep, start).
    """
    ft = spec.forced
    assert ft is not None
    return forced_tables(spec, [float(ft.value(r)) for r in range(ft.last_roll + 1)],
                         float(ft.floor))


def forced_tables(spec: Spec, at_yacht: list[float], floor: float) -> tuple[F64, float]:
    """The forced first turn's keep table for any values of its ends: ``at_yacht[r]`` is
    the value of all dice matching after roll ``r`` (1-based), ``floor`` the value of
    no match by the last roll (the expected score: the points; a target table: the
    chances after them). Returns (keep, start) as :func:`forced_turn_tables`."""
    ft = spec.forced
    assert ft is not None
    t = spec.dice
    last = ft.last_roll
    n = t.n
    sizes = [np.flatnonzero(t.size == k) for k in range(n + 1)]
    keep = np.full((last + 1, t.nall), np.nan)
    E_next: F64 | None = None
    start = 0.0
    for r in range(last, 0, -1):
        # E_r on the full block
        E = np.empty(t.nfull)
        if E_next is None:
            E[:] = floor
        else:
            K = _keep_average(t, E_next, sizes)
            keep[r] = K
            M = K.copy()
            for k in range(1, n + 1):
                idx = sizes[k]
                best = M[idx]
                for f in range(t.faces):
                    dn = t.down[idx, f]
                    ok = dn >= 0
                    cand = np.where(ok, M[np.where(ok, dn, 0)], -np.inf)
                    if k == n:
                        best = cand if f == 0 else np.maximum(best, cand)
                    else:
                        best = np.maximum(best, cand)
                M[idx] = best
            E[:] = M[t.full_start:]
        E[t.is_yacht] = at_yacht[r]
        E_next = E
    assert E_next is not None
    K = _keep_average(t, E_next, sizes)
    keep[0] = K
    start = float(K[0])
    return keep, start


def _keep_average(t: Any, E_full: F64, sizes: list[Any]) -> F64:
    K = np.empty(t.nall)
    K[t.full_start:] = E_full
    for k in range(t.n - 1, -1, -1):
        idx = sizes[k]
        K[idx] = K[t.up[idx]].mean(axis=1)
    return K


@dataclass(eq=False)
class Solution:
    """The solved table of one ruleset; see ``API.md`` for the contract."""

    spec: Spec
    V: F64
    states: int
    seconds: float
    built: bool
    peak_memory: int = 0
    forced_keep: F64 | None = None
    forced_start: float = 0.0
    exact: bool = True
    upper_bound: float | None = None
    note: str = ""
    estimate: float | None = None
    #: saved rolls (see :mod:`.pool`): the points a roll left to the pool is worth, and
    #: the most rolls a turn is planned for (0: the ruleset's rolls)
    carry: float = 0.0
    levels: int = 0
    #: the strategy in a few words when it is not exact ("" for the decomposition of
    #: the two-column games: the analysis has words for it)
    short: str = ""
    _turns: OrderedDict[tuple[int, int], tuple[F64, F64]] = field(
        default_factory=OrderedDict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _advisor: list[Any] = field(default_factory=list, repr=False)  # see single.py

    def __post_init__(self) -> None:
        # the kernels read float64 tables (big tables are float32 on disk only)
        self.V = np.ascontiguousarray(self.V, dtype=np.float64)

    def __repr__(self) -> str:
        # (the dataclass's repr wrote out the Spec, its Ruleset and the arrays: pages)
        how = "exact" if self.exact else "approximate"
        return (f"<Solution {_variant_name(self.ruleset)}: expected score "
                f"{self.expected_score:.4f} ({how}), {self.states} states>")

    @property
    def ruleset(self) -> Ruleset:
        return self.spec.ruleset

    @property
    def expected_score(self) -> float:
        """Optimal solitaire expectation from an empty card (measured, when not exact)."""
        if self.estimate is not None:
            return self.estimate
        if self.spec.forced is not None:
            return self.forced_start + float(self.V[1 << self.spec.forced.box, 0])
        return float(self.V[0, 0])

    def future(self, mask: int, aux: int) -> float:
        """Expected points still to come from the start of a (normal) turn."""
        return float(self.V[mask, aux])

    def forced_turn(self, card: Scorecard, turn: int) -> bool:
        """Whether this turn is the forced first turn."""
        ft = self.spec.forced
        return (ft is not None and turn == 0 and card.boxes[0][ft.box] is None)

    def value(self, card: Scorecard, turn: int) -> float:
        """Expected final total from the start of a turn with ``card`` (points on it included).

        >>> from yacht.rules import get
        >>> sol = solve(get("tommys-crag"))
        >>> round(sol.value(sol.ruleset.new_card(), 0), 4) == round(sol.expected_score, 4)
        True
        """
        rs = self.ruleset
        if not isinstance(card, Scorecard):
            raise InvalidType(f"Solution.value(card, turn): the card is a Scorecard "
                              f"(ruleset.new_card(), parse_card), not {type(card).__name__}")
        if card.complete:
            return float(rs.totals(card).grand)
        m, a = self.spec.state_of(card)
        base = self.spec.base_points(card)
        if self.forced_turn(card, turn):
            assert self.spec.forced is not None
            return base + self.forced_start + float(self.V[m | (1 << self.spec.forced.box), a])
        # (a pool is the next turn's to use, the last turn's too: priced by carry_value,
        # or beyond what that pays for, by the turn's own plan)
        if self.carry and card.saved > self.carry_rolls:
            return base + self.pool_turn_value(m, a, card.saved)
        return base + float(self.V[m, a]) + self.carry_value(card.saved)

    def pool_turn_value(self, mask: int, aux: int, saved: int) -> float:
        """Saved rolls: the points to come from the start of a turn from (mask, aux) with
        ``saved`` rolls in the pool, as the strategy plays that turn: its keep values for
        the rolls the turn has (up to :attr:`plan_levels`), the rolls it leaves then worth
        ``carry`` each (:meth:`turn_tables`). :meth:`value` takes it for a pool of more
        than :attr:`carry_rolls` rolls, which :meth:`carry_value` prices as that many
        though the turn uses them (and the last turn's rolls are used or lost in it)."""
        _, Ks = self.turn_tables(mask, aux)
        rolls = min(self.spec.rolls + saved, self.plan_levels)
        return float(Ks[rolls - 1, 0])

    def carry_value(self, rolls: int, mask: int | None = None) -> float:
        """What ``rolls`` left to the player's pool are worth to the strategy (0 without
        saved rolls, and 0 in the last turn of a card, ``mask`` its boxes filled: the
        rolls left after it are lost)."""
        if not self.carry or (mask is not None and self._last_turn(mask)):
            return 0.0
        return self.carry * min(rolls, max(0, self.plan_levels - self.spec.rolls))

    @property
    def carry_rolls(self) -> int:
        """The most saved rolls :meth:`carry_value` pays for."""
        return max(0, self.plan_levels - self.spec.rolls)

    def _last_turn(self, mask: int) -> bool:
        return bin(mask).count("1") == self.spec.nbox - 1

    @property
    def plan_levels(self) -> int:
        """Levels of :meth:`turn_tables`' keep values (the most rolls a turn is planned
        for)."""
        return self.levels or self.spec.rolls

    def turn_tables(self, mask: int, aux: int) -> tuple[F64, F64]:
        """(E0, Ks) of a normal turn from state (mask, aux); see :func:`kernels.keep_levels`.

        Kept in a small cache per solution (safe to use from several threads)."""
        key = (mask, aux)
        with self._lock:
            hit = self._turns.get(key)
            if hit is not None:
                self._turns.move_to_end(key)
                return hit
        t = self.spec.dice
        E0 = np.empty(t.nfull)
        Ks = np.empty((self.spec.rolls, t.nall))
        if self.spec.pool:
            from .pool import pool_levels

            backend().state_turn(self.spec, self.V, mask, aux, E0, Ks)
            Ks = pool_levels(self.spec, E0, self.plan_levels,
                             0.0 if self._last_turn(mask) else self.carry)
        elif self.spec.extended:
            from .extended import state_turn

            state_turn(self.spec, self.V, mask, aux, E0, Ks)
        else:
            backend().state_turn(self.spec, self.V, mask, aux, E0, Ks)
        E0.flags.writeable = False
        Ks.flags.writeable = False
        with self._lock:
            self._turns[key] = (E0, Ks)
            if len(self._turns) > 4096:
                self._turns.popitem(last=False)
        return E0, Ks


_MEMORY: dict[str, Solution] = {}
# ruleset objects already matched to a solution in _MEMORY: id -> (ruleset, solution)
_SEEN: dict[int, tuple[Ruleset, Solution]] = {}
_LOCKS: dict[str, threading.Lock] = {}
_LOCKS_LOCK = threading.Lock()


def _key_lock(key: str) -> threading.Lock:
    with _LOCKS_LOCK:
        lock = _LOCKS.get(key)
        if lock is None:
            lock = _LOCKS[key] = threading.Lock()
        return lock


def clear_memory_cache() -> None:
    """Forget the solutions kept in this process (the disk cache stays)."""
    _MEMORY.clear()
    _SEEN.clear()


def _bar(label: str) -> Progress:
    """A bar on stderr, as wide as the terminal allows."""
    import shutil

    from yacht.render import progress_line

    def show(done: int, total: int) -> None:
        columns = shutil.get_terminal_size((80, 24)).columns
        sys.stderr.write("\r" + progress_line(label, done, total, columns, f"{done}/{total}"))
        if done >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()
    return show


def _too_big(spec: Spec) -> bool:
    """Games solved by the decomposition of ``approx.py`` instead of an exact table."""
    return spec.nbox > 24 or (spec.dice.n >= 8 and spec.nbox > 16)


def _memory_hit(ruleset: Ruleset, spec: Spec | None = None) -> Solution | None:
    seen = _SEEN.get(id(ruleset))
    if seen is not None and seen[0] is ruleset:
        return seen[1]
    hit = _MEMORY.get(ruleset.key)
    if hit is None:
        return None
    if hit.ruleset == ruleset:
        if len(_SEEN) > 256:
            _SEEN.clear()
        _SEEN[id(ruleset)] = (ruleset, hit)
        return hit
    if spec is not None and hit.spec.fingerprint() == spec.fingerprint():
        return hit
    return None


def memory_solution(ruleset: Ruleset) -> Solution | None:
    """The solution of ``ruleset`` if this process holds it (never loads or builds)."""
    return _memory_hit(ruleset)


def is_ready(ruleset: Ruleset, estimate: bool = True) -> bool:
    """Whether :func:`solve` (with the same ``estimate``) would answer without building:
    the table is in memory or in the disk cache (only the file's header is checked).
    Loads no kernels.

    >>> from yacht.rules import get
    >>> is_ready(get("tommys-crag")) == is_ready(get("tommys-crag"))
    True
    """
    hit = _memory_hit(ruleset)
    if hit is not None and (not estimate or hit.exact or hit.estimate is not None):
        return True
    spec = compile_ruleset(ruleset)
    if spec.pool:
        from .pool import ready as pool_ready

        return pool_ready(ruleset, spec, estimate)
    if _too_big(spec):
        from .approx import estimate_ready, one_column

        return is_ready(one_column(ruleset)) and (not estimate or estimate_ready(ruleset, spec))
    return diskcache.probe(diskcache.cache_path(ruleset.key), ruleset.key, spec.fingerprint())


def solve(ruleset: Ruleset, *, cache: bool = True, progress: bool | Progress = False,
          workers: int | None = None, estimate: bool = True) -> Solution:
    """The optimal solitaire table of ``ruleset``: from memory, from disk, or built now.

    ``progress=True`` draws a bar on stderr while building; a callable gets
    ``(done, total)`` layers. ``cache=False`` neither reads nor writes the disk.
    ``estimate=False`` (games too big for an exact table only): the strategy
    alone, without its simulated score and bound (what a computer player needs).
    Two threads asking for the same table build it once.

    >>> from yacht.rules import get
    >>> round(solve(get("tommys-crag")).expected_score, 2)
    149.85
    """
    a_ruleset(ruleset, "solve(ruleset)")
    hit = _memory_hit(ruleset)
    if hit is not None and (estimate is False or hit.exact or hit.estimate is not None):
        return hit
    spec = compile_ruleset(ruleset)
    key = ruleset.key
    with _key_lock(key):
        hit = _memory_hit(ruleset, spec)
        if hit is not None and (estimate is False or hit.exact or hit.estimate is not None):
            return hit
        if spec.pool:
            from .pool import solve_pool

            sol = solve_pool(ruleset, spec, cache=cache, progress=progress, workers=workers,
                             estimate=estimate)
        elif _too_big(spec):
            from .approx import solve_approx

            sol = solve_approx(ruleset, cache=cache, progress=progress, workers=workers,
                               estimate=estimate)
        else:
            sol = _load_or_build(ruleset, spec, cache, progress, workers)
        _MEMORY[key] = sol
        _SEEN.clear()
        return sol


def _load_or_build(ruleset: Ruleset, spec: Spec, cache: bool, progress: bool | Progress,
                   workers: int | None) -> Solution:
    key = ruleset.key
    fp = spec.fingerprint()
    path = diskcache.cache_path(key)
    if cache:
        loaded = diskcache.load(path, key, fp)
        if loaded is not None:
            arrays, facts = loaded
            try:
                sol = Solution(spec, arrays["V"], int(facts["states"]), float(facts["seconds"]),
                               False, int(facts.get("peak_memory", 0)),
                               arrays.get("forced_keep"), float(facts.get("forced_start", 0.0)))
                if sol.V.shape == (1 << spec.nbox, spec.A):
                    digest = diskcache.rules_digest(ruleset)
                    if digest and facts.get("rules_digest") != digest:
                        # the same table under changed code or names: let the next
                        # `yacht solve` read its facts without checking the rules again
                        diskcache.save(path, key, fp, arrays, {
                            **facts, "rules_digest": digest,
                            "expected_score": sol.expected_score}, quiet=True)
                    return sol
            except (KeyError, ValueError, TypeError):
                pass
    cb: Progress | None
    if progress is True:
        from yacht.render import key_title

        cb = _bar(f"solving {key_title(key)} (once)")
    elif progress is False:
        cb = None
    else:
        cb = progress
    t0 = time.perf_counter()
    V, states, peak = build_table(spec, cb, workers)
    fkeep, fstart = (forced_turn_tables(spec) if spec.forced is not None else (None, 0.0))
    seconds = time.perf_counter() - t0
    sol = Solution(spec, V, states, seconds, True, peak, fkeep, fstart)
    if cache:
        stored = V if V.size <= FLOAT32_CELLS else V.astype(np.float32)
        to_save: dict[str, npt.NDArray[Any]] = {"V": stored}
        if fkeep is not None:
            to_save["forced_keep"] = fkeep
        diskcache.save(path, key, fp, to_save, {"states": states, "seconds": seconds,
                                                "peak_memory": peak, "forced_start": fstart,
                                                "expected_score": sol.expected_score,
                                                "rules_digest": diskcache.rules_digest(ruleset)})
    return sol
