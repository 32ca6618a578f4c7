"""The non-exact computer players: ``beginner`` and ``intermediate``.

Both read only the ruleset's data (categories with their scorer kinds and
parameters, columns with multipliers, the upper bonus) and the engine's
``state.placements()`` (which already applies jokers, repeats and forced
turns), so they play every variant without asking which one it is.

``beginner`` plays like a casual person: it keeps the biggest group of equal
dice, stops when the dice already make a fixed-points box, and takes the box
that scores the most points now.

``intermediate`` is a sound heuristic: every open box has a value (its
typical score when a whole turn goes for it, plus the change in the chance
of the upper bonus), and each distinct keep is judged by the exact expected
best value over the rolls left in the turn, computed over dice multisets.

>>> import random
>>> from yacht.engine import Player, Roll, State
>>> from yacht.rules import get
>>> s = State(get("yatzy"), [Player("Cpu", "computer", "beginner")], rng=random.Random(3))
>>> s.apply(Roll((2, 5, 5, 1, 5)))
>>> BeginnerStrategy(s.ruleset).decide(s)
Decision(reroll=(0, 3), score=None)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Any

import numpy as np
import numpy.typing as npt

from yacht.engine import Score, State
from yacht.rules import Category, Placement, Ruleset, Scorecard, TurnContext, counts_of
from yacht.rules.errors import InvalidValue

from .base import Decision, check_decidable

__all__ = [
    "BeginnerStrategy",
    "DiceTables",
    "IntermediateStrategy",
    "RulesetTables",
    "biggest_group",
    "dice_tables",
    "ruleset_tables",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

# Value of a roll that cannot be scored at all (Tommy's Yacht first turn before a
# yacht): far below any real score, but finite so that expectations still rank keeps.
NO_PLACEMENT = -1000.0
_EPS = 1e-9


# --- small helpers ---------------------------------------------------------------

def biggest_group(dice: Sequence[int]) -> tuple[int, int]:
    """``(face, count)`` of the biggest group of equal dice; ties go to the higher face.

    >>> biggest_group((2, 5, 5, 1, 2))
    (5, 2)
    >>> biggest_group((1, 2, 3, 4, 6))
    (6, 1)
    """
    best_face, best_count = 0, 0
    for face in set(dice):
        c = sum(1 for d in dice if d == face)
        if (c, face) > (best_count, best_face):
            best_face, best_count = face, c
    return best_face, best_count


def _reroll_for_keep(dice: Sequence[int], keep: Sequence[int]) -> tuple[int, ...]:
    """Positions to roll again so that the dice kept show ``keep`` (counts per face).

    The first dice of each face (by position) are kept.

    >>> _reroll_for_keep((5, 2, 5, 5, 1), (0, 0, 0, 0, 2, 0))
    (1, 3, 4)
    """
    left = list(keep)
    out = []
    for pos, v in enumerate(dice):
        if left[v - 1] > 0:
            left[v - 1] -= 1
        else:
            out.append(pos)
    return tuple(out)


def _is_fixed_points(cat: Category) -> bool:
    """A box whose points do not depend on the dice values (straights, full house 25...)."""
    pts = cat.parameters.get("points")
    return pts is not None and not isinstance(pts, str)


# --- dice tables: all multisets and the keep -> roll transitions ---------------------

@dataclass(frozen=True, eq=False)
class DiceTables:
    """Every roll and keep of ``n`` dice with ``faces`` faces as multisets, and how keeps
    turn into rolls.

    ``rolls[r]`` are the counts of roll ``r``; ``keeps[k]`` the counts of keep ``k``
    (0 to n dice). The pairs ``(pair_keep, pair_roll, pair_prob)`` list, sorted by
    keep, every roll a keep can become with its probability; ``keep_ptr`` starts
    each keep's slice. ``by_roll_keep``/``roll_ptr`` list, for each roll, the proper
    keeps (fewer than n dice) it contains.

    >>> t = dice_tables(2, 6)
    >>> len(t.rolls), len(t.keeps)
    (21, 28)
    >>> float(t.pair_prob[t.keep_ptr[0]:t.keep_ptr[1]].sum())
    1.0
    """

    n: int
    faces: int
    rolls: npt.NDArray[np.int8]
    keeps: npt.NDArray[np.int8]
    keep_size: IntArray
    roll_index: dict[tuple[int, ...], int]
    keep_index: dict[tuple[int, ...], int]
    pair_keep: IntArray
    pair_roll: IntArray
    pair_prob: FloatArray
    keep_ptr: IntArray
    by_roll_keep: IntArray
    roll_ptr: IntArray

    def expect(self, values: FloatArray) -> FloatArray:
        """For every keep, the expected value over the rolls it can become."""
        return np.add.reduceat(self.pair_prob * values[self.pair_roll], self.keep_ptr[:-1])

    def expect_keeps(self, values: FloatArray, keeps: IntArray) -> FloatArray:
        """The expected value of ``values`` for the keeps ``keeps`` only."""
        starts = self.keep_ptr[keeps]
        lengths = self.keep_ptr[keeps + 1] - starts
        offsets = np.concatenate(([0], np.cumsum(lengths)[:-1]))
        idx = np.repeat(starts - offsets, lengths) + np.arange(int(lengths.sum()))
        return np.add.reduceat(self.pair_prob[idx] * values[self.pair_roll[idx]], offsets)

    def best_keep_value(self, keep_values: FloatArray) -> FloatArray:
        """For every roll, the best value over the proper keeps it contains."""
        return np.maximum.reduceat(keep_values[self.by_roll_keep], self.roll_ptr[:-1])

    def keeps_of(self, roll: int) -> IntArray:
        """The proper keeps of roll ``roll`` (indices into ``keeps``)."""
        return self.by_roll_keep[self.roll_ptr[roll]:self.roll_ptr[roll + 1]]


def _multisets(m: int, faces: int) -> npt.NDArray[np.int8]:
    out = np.zeros((math.comb(m + faces - 1, m), faces), dtype=np.int8)
    for i, combo in enumerate(combinations_with_replacement(range(faces), m)):
        for f in combo:
            out[i, f] += 1
    return out


def _probabilities(counts: npt.NDArray[np.int8], faces: int) -> FloatArray:
    m = int(counts[0].sum()) if len(counts) else 0
    fact = np.array([math.factorial(i) for i in range(m + 1)], dtype=np.float64)
    return np.asarray(fact[m] / np.prod(fact[counts], axis=1) / float(faces) ** m,
                      dtype=np.float64)


@lru_cache(maxsize=8)
def dice_tables(n: int, faces: int = 6) -> DiceTables:
    """The tables for ``n`` dice (built once per process)."""
    base = n + 1
    weights = base ** np.arange(faces, dtype=np.int64)
    rolls = _multisets(n, faces)
    roll_codes = rolls.astype(np.int64) @ weights
    order = np.argsort(roll_codes)
    sorted_codes = roll_codes[order]
    by_size = [_multisets(m, faces) for m in range(n + 1)]
    keeps = np.concatenate(by_size)
    keep_size = keeps.sum(axis=1).astype(np.int64)
    pk, pr, pp, lengths = [], [], [], []
    start = 0
    for k in range(n + 1):
        kk = by_size[k]
        outs = by_size[n - k]
        probs = _probabilities(outs, faces)
        combined = ((kk.astype(np.int64) @ weights)[:, None]
                    + (outs.astype(np.int64) @ weights)[None, :])
        ridx = order[np.searchsorted(sorted_codes, combined.ravel())]
        pk.append(np.repeat(np.arange(start, start + len(kk), dtype=np.int64), len(outs)))
        pr.append(ridx.astype(np.int64))
        pp.append(np.tile(probs, len(kk)))
        lengths.append(np.full(len(kk), len(outs), dtype=np.int64))
        start += len(kk)
    pair_keep = np.concatenate(pk)
    pair_roll = np.concatenate(pr)
    pair_prob = np.concatenate(pp)
    keep_ptr = np.concatenate(([0], np.cumsum(np.concatenate(lengths)))).astype(np.int64)
    proper = keep_size[pair_keep] < n
    pk_p, pr_p = pair_keep[proper], pair_roll[proper]
    o = np.argsort(pr_p, kind="stable")
    by_roll_keep = pk_p[o]
    per_roll = np.bincount(pr_p, minlength=len(rolls))
    roll_ptr = np.concatenate(([0], np.cumsum(per_roll))).astype(np.int64)
    return DiceTables(
        n=n, faces=faces, rolls=rolls, keeps=keeps, keep_size=keep_size,
        roll_index={tuple(int(x) for x in r): i for i, r in enumerate(rolls)},
        keep_index={tuple(int(x) for x in r): i for i, r in enumerate(keeps)},
        pair_keep=pair_keep, pair_roll=pair_roll, pair_prob=pair_prob, keep_ptr=keep_ptr,
        by_roll_keep=by_roll_keep, roll_ptr=roll_ptr,
    )


# --- per-ruleset tables ------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class RulesetTables:
    """What the intermediate player knows of a ruleset before the game starts.

    ``scores[r, c]`` is what box ``c`` scores for roll ``r``; ``typical[c]`` the
    expected score of box ``c`` when one whole (ordinary) turn goes for it alone,
    and ``success[c]`` the best chance such a turn has to score anything there.
    """

    def box_values(self, attempts: float) -> FloatArray:
        """What each box is worth when it has ``attempts`` turns' chances to score.

        A box that scores with chance ``p`` in a turn, ``typical / p`` on average
        when it does, is worth ``typical / p * (1 - (1 - p) ** attempts)``: rare
        boxes (the yacht) are worth much more than one turn's chance early in the
        game, and boxes that always score (choice) just their typical score.
        """
        p = np.clip(self.success, 1e-12, 1.0)
        return np.asarray(self.typical / p * (1.0 - (1.0 - p) ** max(1.0, attempts)),
                          dtype=np.float64)

    dice: DiceTables
    scores: FloatArray
    typical: FloatArray
    success: FloatArray  # chance that a turn going for the box scores anything in it
    upper_faces: tuple[int | None, ...]
    target_mean: float     # expected count of a face when a whole turn goes for it
    target_var: float
    index: dict[str, int]  # category id -> position
    counts: tuple[tuple[int, ...], ...]  # counts of every roll, as tuples
    boxes: tuple[tuple[int, int], ...]  # (column, category) of every box
    placements: tuple[tuple[Placement, ...], ...]  # every box's placement for every roll


def _single_box_value(t: DiceTables, values: FloatArray, rolls: int) -> float:
    """Expected final value of a turn of ``rolls`` rolls that goes for ``values`` alone."""
    v = values
    for _ in range(rolls - 1):
        v = np.maximum(values, t.best_keep_value(t.expect(v)))
    # the first roll: all dice are rolled (the empty keep)
    return float(t.expect(v)[t.keep_index[(0,) * t.faces]])


_RULESET_CACHE: dict[str, RulesetTables] = {}


def ruleset_tables(rs: Ruleset) -> RulesetTables:
    """The tables for ``rs`` (built once per process and ruleset key)."""
    cached = _RULESET_CACHE.get(rs.key)
    if cached is not None:
        return cached
    t = dice_tables(rs.dice, rs.faces)
    scores = np.array([[cat.score_counts(tuple(int(x) for x in r)) for cat in rs.categories]
                       for r in t.rolls], dtype=np.float64)
    typical = np.array([_single_box_value(t, scores[:, c], rs.rolls)
                        for c in range(len(rs.categories))], dtype=np.float64)
    success = np.array([_single_box_value(t, (scores[:, c] > 0).astype(np.float64), rs.rolls)
                        for c in range(len(rs.categories))], dtype=np.float64)
    upper_faces = tuple(int(cat.parameters["face"]) if cat.scorer == "face" else None
                        for cat in rs.categories)
    q = 1.0 - ((rs.faces - 1) / rs.faces) ** rs.rolls
    counts = tuple(tuple(int(x) for x in r) for r in t.rolls)
    boxes = tuple((col, i) for col in range(len(rs.columns)) for i in range(len(rs.categories)))
    placements: tuple[tuple[Placement, ...], ...] = ()
    if rs.special:
        placements = tuple(
            tuple(Placement(rs.categories[i].id, col, int(scores[r, i])) for col, i in boxes)
            for r in range(len(counts)))
    tables = RulesetTables(t, scores, typical, success, upper_faces, rs.dice * q,
                           rs.dice * q * (1.0 - q), {c.id: i for i, c in enumerate(rs.categories)},
                           counts, boxes, placements)
    _RULESET_CACHE[rs.key] = tables
    return tables


def _normal_cdf(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


# --- beginner ----------------------------------------------------------------------

_BEST_CACHE: dict[str, dict[str, int]] = {}


def _best_possible(rs: Ruleset) -> dict[str, int]:
    """The most each box can score (once per process and ruleset key)."""
    best = _BEST_CACHE.get(rs.key)
    if best is None:
        rolls = list(combinations_with_replacement(range(1, rs.faces + 1), rs.dice))
        best = {cat.id: max(cat.score(r, rs.faces) for r in rolls) for cat in rs.categories}
        _BEST_CACHE[rs.key] = best
    return best


class BeginnerStrategy:
    """A casual player: keep the biggest group, take the most points now.

    It stops rolling when the dice already make a box with fixed points (a
    straight, a full house worth 25...) or show one face only; when nothing
    scores it crosses out the box that could never have scored much.
    """

    level = "beginner"

    def __init__(self, ruleset: Ruleset):
        self.ruleset = ruleset
        # the best a box can ever score, for choosing what to cross out
        self._max = _best_possible(ruleset)

    def decide(self, state: State) -> Decision:
        check_decidable(state)
        rs = self.ruleset
        options = state.placements()
        if options and (not state.may_reroll() or self._satisfied(state, options)):
            return Decision(score=self._choose(options))
        face, _ = biggest_group(state.dice)
        reroll = tuple(i for i, v in enumerate(state.dice) if v != face)
        return Decision(reroll=reroll or tuple(range(rs.dice)))

    def _satisfied(self, state: State, options: list[Placement]) -> bool:
        if len(set(state.dice)) == 1:
            return True
        best = self._choose(options)
        pl = next(p for p in options if p.category == best.category and p.column == best.column)
        return pl.points > 0 and _is_fixed_points(self.ruleset.category(pl.category))

    def _choose(self, options: list[Placement]) -> Score:
        cols = self.ruleset.columns

        def key(p: Placement) -> tuple[int, int, int]:
            gain = p.total * cols[p.column]
            # ties: keep the more valuable box free, then the earlier column
            return (gain, -self._max[p.category] * cols[p.column], -p.column)

        if all(p.total <= 0 for p in options):
            def scratch(p: Placement) -> tuple[int, int, int]:
                return (p.total * cols[p.column] - self._max[p.category] * cols[p.column],
                        -self._max[p.category], -p.column)
            best = max(options, key=scratch)
        else:
            best = max(options, key=key)
        return Score(best.category, best.column)


# --- intermediate ------------------------------------------------------------------

class IntermediateStrategy:
    """A sound heuristic: exact expectations within the turn, a value per open box.

    Placing ``p`` points in box ``c`` of column ``j`` is worth
    ``m_j * (p - w * worth(c) + amount * (bonus chance after - before))``, where
    ``m_j`` is the column's multiplier, ``worth(c)`` what the box is expected to
    score if kept open (:meth:`RulesetTables.box_values`, with more chances the
    more turns are left), ``w`` the ``opportunity`` weight, and the bonus chance
    a normal approximation of the upper section reaching its threshold. Each
    distinct keep is valued by the exact expectation of the best such value
    over the next ``max_depth`` rolls of the turn (computed over dice multisets).

    The ``intermediate`` level thinks one roll ahead and counts the boxes it
    gives up at half their worth: clearly better than a beginner, clearly
    below the expert. ``IntermediateStrategy(rs, max_depth=3, opportunity=1.0)``
    is a much stronger player (within a few points of the optimum on the
    five-dice games; 10 dice look at most two rolls ahead to stay fast).
    """

    level = "intermediate"
    # defaults of the intermediate level
    MAX_DEPTH = 1
    OPPORTUNITY = 0.5
    ATTEMPTS = 0.15

    def __init__(self, ruleset: Ruleset, *, max_depth: int | None = None,
                 opportunity: float | None = None, attempts: float | None = None):
        self.ruleset = ruleset
        self.tables = ruleset_tables(ruleset)
        depth = self.MAX_DEPTH if max_depth is None else max_depth
        if depth < 1:
            raise InvalidValue(f"max_depth must be at least 1, not {depth}")
        if len(self.tables.dice.pair_prob) > 50_000:  # 10 dice: keep decisions fast
            depth = min(depth, 2)
        self.max_depth = depth
        # how much of an open box's worth counts as the cost of filling it now
        self.opportunity = self.OPPORTUNITY if opportunity is None else opportunity
        # the share of the turns left that count as chances for each open box
        self.attempts = self.ATTEMPTS if attempts is None else attempts
        self._cache_key: Any = None
        self._turn: _Turn | None = None

    def decide(self, state: State) -> Decision:
        check_decidable(state)
        turn = self._turn_for(state)
        t = self.tables.dice
        counts = counts_of(state.dice, self.ruleset.faces)
        options = state.placements()
        ctx = state.context()
        best_score: Placement | None = None
        now = -math.inf
        for pl in options:
            v = turn.placement_value(pl)
            if v > now + _EPS:
                best_score, now = pl, v
        if not state.may_reroll():
            assert best_score is not None, "no roll left and nothing to score"
            return Decision(score=Score(best_score.category, best_score.column))
        nxt = turn.values(ctx.rolls + 1)
        cands = t.keeps_of(t.roll_index[counts])
        vals = t.expect_keeps(nxt, cands)
        # best keep; ties: keep more dice (fewer to roll), then the first listed
        order = np.lexsort((-t.keep_size[cands], -vals))
        k = int(cands[order[0]])
        if best_score is not None and float(vals[order[0]]) <= now + _EPS:
            return Decision(score=Score(best_score.category, best_score.column))
        keep = tuple(int(x) for x in t.keeps[k])
        return Decision(reroll=_reroll_for_keep(state.dice, keep))

    def _turn_for(self, state: State) -> _Turn:
        me = state.current
        ctx = state.context()
        key = (state.card(me), state.turns_taken(me), state.max_rolls)
        if self._turn is None or self._cache_key != key:
            self._turn = _Turn(self, state.card(me), ctx)
            self._cache_key = key
        # a turn that special rules make long (up to 32 rolls) looks one roll ahead
        depth = 1 if self._turn.by_roll else self.max_depth
        self._turn.horizon = min(state.max_rolls, ctx.rolls + depth)
        self._turn.max_rolls = state.max_rolls
        return self._turn


_TURN_CACHE: dict[tuple[Any, ...], tuple[dict[int, FloatArray],
                                              dict[int, npt.NDArray[np.bool_]]]] = {}


class _Turn:
    """The values of one turn: box values on this card, and roll values by roll number."""

    def __init__(self, player: IntermediateStrategy, card: Scorecard, ctx: TurnContext):
        self.rs = rs = player.ruleset
        self.tables = tb = player.tables
        self.card = card
        self.ctx = ctx
        self.horizon = 0
        self.max_rolls = 0
        self._values: dict[tuple[int, int], FloatArray] = {}
        # what the special rules give depends on the card and the turn only: shared by
        # every turn (and game) that reaches the same card, such as each first turn
        shared = _TURN_CACHE.setdefault((rs.key, card, ctx.turn, player.opportunity,
                                            player.attempts), ({}, {}))
        if len(_TURN_CACHE) > 256:
            _TURN_CACHE.pop(next(iter(_TURN_CACHE)))
        self._e0: dict[int, FloatArray] = shared[0]
        self._allowed: dict[int, npt.NDArray[np.bool_]] = shared[1]
        # Special rules are asked again for each roll number only in a turn whose
        # length they change (a forced first turn); otherwise once per turn.
        self.by_roll = any(rule.max_rolls(rs, ctx, rs.rolls) != rs.rolls for rule in rs.special)
        cats = rs.categories
        open_boxes = sum(1 for column in card.boxes for b in column if b is None)
        attempts = 1.0 + player.attempts * (open_boxes - 1)
        self.cost = player.opportunity * tb.box_values(attempts)
        self.bonus = rs.upper_bonus
        totals = rs.totals(card)
        self.upper = [c.upper for c in totals.columns]
        self.open_upper = [
            [f for i, f in enumerate(tb.upper_faces) if f is not None and card.is_open(col, i)]
            for col in range(len(rs.columns))
        ]
        self.phi_now = [self._phi(self.upper[col], self.open_upper[col])
                        for col in range(len(rs.columns))]
        # vectorized value of every open box for every roll (ordinary placements)
        columns = []
        for col, mult in enumerate(rs.columns):
            for i, _cat in enumerate(cats):
                if not card.is_open(col, i):
                    continue
                pts = tb.scores[:, i]
                v = mult * (pts - self.cost[i])
                f = tb.upper_faces[i]
                if f is not None and self.bonus is not None:
                    table = np.array([self._delta_phi(col, i, f * k) for k in range(rs.dice + 1)])
                    v = v + mult * self.bonus.amount * table[tb.dice.rolls[:, f - 1]]
                columns.append(v)
        self.base = np.max(np.stack(columns), axis=0) if columns else np.full(
            len(tb.dice.rolls), NO_PLACEMENT)
        self.index = tb.index
        # positions (in tb.placements rows) of the open boxes
        self._open = [j for j, (col, i) in enumerate(tb.boxes) if card.is_open(col, i)]

    # -- the upper bonus ----------------------------------------------------------
    def _phi(self, upper: int, faces: list[int]) -> float:
        """Chance (normal approximation) that the upper section earns the bonus."""
        if self.bonus is None:
            return 0.0
        need = self.bonus.needed - upper
        if need <= 0:
            return 1.0
        n = self.rs.dice
        if need > n * sum(faces):
            return 0.0
        mean = self.tables.target_mean * sum(faces)
        var = self.tables.target_var * sum(f * f for f in faces)
        if var <= 0:
            return 1.0 if mean >= need else 0.0
        return _normal_cdf((mean - need + 0.5) / math.sqrt(var))

    def _delta_phi(self, col: int, cat: int, points: int, repeat: bool = False) -> float:
        f = self.tables.upper_faces[cat]
        if f is None or self.bonus is None:
            return 0.0
        faces = self.open_upper[col] if repeat else [x for x in self.open_upper[col] if x != f]
        return self._phi(self.upper[col] + points, faces) - self.phi_now[col]

    def placement_value(self, pl: Placement) -> float:
        """What scoring ``pl`` is worth (points now minus what the box gives up)."""
        rs = self.rs
        i = self.index[pl.category]
        mult = rs.columns[pl.column]
        v = float(mult * pl.total)
        if not pl.repeat:
            v -= mult * float(self.cost[i])
        if self.bonus is not None:
            v += mult * self.bonus.amount * self._delta_phi(pl.column, i, pl.points, pl.repeat)
        return float(v)

    # -- roll values --------------------------------------------------------------
    def score_values(self, rolls: int) -> FloatArray:
        """For every roll, the best placement value when scoring on roll number ``rolls``."""
        rs = self.rs
        key = rolls if self.by_roll else 0
        cached = self._e0.get(key)
        if cached is not None:
            return cached
        if not rs.special:
            e0 = self.base
        else:
            ctx = TurnContext(self.card, self.ctx.turn, rolls, self.ctx.settings)
            e0 = self.base.copy()
            tb = self.tables
            open_ = self._open
            probe: list[Placement] = []
            for r, counts in enumerate(tb.counts):
                # A rule that leaves no placements alone for these dice is taken to
                # leave every placement alone: only then the ordinary value stands.
                if all(rule.placements(rs, ctx, counts, probe) is probe for rule in rs.special):
                    continue
                row = tb.placements[r]
                options = [row[j] for j in open_]
                for rule in rs.special:
                    options = rule.placements(rs, ctx, counts, options)
                e0[r] = max((self.placement_value(p) for p in options), default=NO_PLACEMENT)
        self._e0[key] = e0
        return e0

    def may_reroll(self, rolls: int) -> npt.NDArray[np.bool_] | None:
        """Where the special rules allow a further roll after roll number ``rolls``."""
        rs = self.rs
        if not rs.special:
            return None
        key = rolls if self.by_roll else 0
        if key not in self._allowed:
            ctx = TurnContext(self.card, self.ctx.turn, rolls, self.ctx.settings)
            self._allowed[key] = np.array([
                all(rule.may_reroll(rs, ctx, counts) for rule in rs.special)
                for counts in self.tables.counts])
        return self._allowed[key]

    def values(self, rolls: int) -> FloatArray:
        """For every roll, its value when it is roll number ``rolls`` of the turn."""
        horizon = min(self.horizon, self.max_rolls)
        key = (rolls, horizon)
        cached = self._values.get(key)
        if cached is not None:
            return cached
        e0 = self.score_values(rolls)
        if rolls >= horizon:
            v = e0
        else:
            t = self.tables.dice
            later = t.best_keep_value(t.expect(self.values(rolls + 1)))
            allowed = self.may_reroll(rolls)
            if allowed is not None:
                later = np.where(allowed, later, -math.inf)
            v = np.maximum(e0, later)
        self._values[key] = v
        return v
