"""The champion: a computer player that plays to win, not for the most points on average.

The expert maximises the expected final score. A player who must reach a
score, or beat the others, sometimes does better taking a risk the expert
would not (40 points short with two turns left: go for the Yahtzee), or
playing safe when ahead. The champion maximises its **chance of winning**:

* **Alone** (solitaire): the chance of finishing with at least ``target``
  points (default: what the caller passes, e.g. the best score of the
  variant's top ten plus one, else :func:`default_target`, the expert's
  expected score rounded). Exact for the one-column variants: the solver's
  target table (:mod:`.solver.target`, built once per variant and target and
  kept in the disk cache; 25-90 s and 210 MB for Yahtzee on a shared 2-core
  machine, see ``benchmarks/README.md``). The two-column games have no exact target table:
  there the champion plays as the expert until its last turns fit the budget
  of a chance table from its card (below), which it then plays exactly.
* **Against opponents**: the expected *share of first place* (1 for a win, 1/k
  for a k-way tie for first: equal totals share the first place, as the game
  ranks them), given the opponents' cards, who are taken to play on as the
  expert (their dice independent of the champion's). For every variant with
  exact tables the solver's score distributions (:mod:`.solver.dist`) give each
  opponent's final total exactly, so the worth of finishing with ``x`` points is
  exact, and so is the chance of winning after any box the champion scores, if
  it plays on as the expert: at **every decision from the first turn** it plays
  the keep or box with the best chance, the rest of its turn played to win too
  (the turn kernel over those chances) and the expert's play after it (a
  one-turn look-ahead on exact distributions). Given ``tilts`` (e.g.
  :data:`.solver.tilted.THETAS`) it counts instead, for each state and points
  at its turn's end, on the best of a small family of ways to play on: the
  expert and its risk-seeking and risk-averse tilts (:mod:`.solver.tilted`,
  each with exact distributions), which can plan a later risk, or later
  safety. Not the default: each tilt costs a distribution build (about as long
  as the expert's) and 270 MB of cache for Yahtzee, and a long match has yet
  to show that the family wins more (``benchmarks/README.md``). Given
  ``optimism`` it weighs in, instead, its best chance of reaching each final
  total on its own (a reach table, :func:`.solver.target.reach_table`: an upper
  bound of any way of playing on, where the expert's play is a lower one); not
  the default either: 4,000 paired games showed no gain. In its last
  turns (at most :data:`PLAN` boxes open) it **plans its whole rest of game**
  instead: the opponents' final totals as they stand now (exact distributions)
  make a worth of each final total of its own, and a chance table from its card
  (:mod:`.solver.local`, within ``budget``) plays every later turn to win for that
  worth too, not as the expert; it plans again at each decision, as the
  opponents' cards fill. Against opponents who have all finished that table is
  exact to the end (the worth is their totals).
  Generala's served boxes and doble generala are beyond the kernels' tables: its
  turn is worked out in numpy on its distributions (the one-turn look-ahead; from
  :data:`EXTENDED_OPEN` open boxes on, the plan, its tables in numpy too:
  :mod:`.solver.local_extended`), and with ``servida=win`` the chance that a
  turn's first roll ends the game at once is added to every option's chance (its
  own turns won, the opponents' lost; the order of the options does not change).
  The two-column Ancient Yacht games have no distributions: there the opponents'
  totals are a sample of ``samples`` expert games from their cards (an estimated
  worth within :data:`TRIM` of 0 or 1 taken as 0 or 1), and the champion plays
  the chance table from its card when it fits the ``budget`` (the chances it
  holds, scaled by the variant's work per chance: :func:`scaled_budget`; at most
  ``BUDGET_OPEN`` = 6 open boxes), the expert's move before.

Where the chances of two actions are equal (a game already won, or lost) the
one with the higher expected score is played.

Its tables (the distributions, or alone its target table) are not waited for:
while they are missing it asks for them to be built in the background
(:func:`preparing`, :mod:`.solver.background`) and plays the expert's move (or,
in its last turns, the chance table from its card, as without distributions);
with ``YACHT_BUILDS=wait`` it builds them first, its :meth:`~ChampionStrategy.preparation`
telling the table what and how far.

>>> import random
>>> from yacht.engine import Player, Roll, State
>>> from yacht.rules import get
>>> rs = get("tommys-crag")
>>> s = State(rs, [Player("C", "computer", "champion")], rng=random.Random(1))
>>> s.apply(Roll((6, 6, 1)))
>>> r = ChampionStrategy(rs, target=150).rank(s)
>>> r.goal, r.exact, 0 < r.options[0].chance < 1
('target', True, True)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from yacht.engine import State
from yacht.rules import Ruleset, Scorecard, counts_of
from yacht.rules.errors import InvalidValue

from .advisor import Ranked, advise
from .base import Decision
from .prepare import Preparation, Progress
from .solver.numbers import whole

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from .solver import Solution
    from .solver.background import Job
    from .solver.local import TurnChances

__all__ = ["BUDGET", "SAMPLES", "ChampionStrategy", "WinOption", "WinRanking",
           "default_target", "expert_finals", "preparing", "rank_situation", "rank_to_win",
           "win_worth"]

#: the most chances a table from the champion's card may hold, in Yahtzee-sized chances
#: (about 2-3 us each; see :func:`scaled_budget`)
BUDGET = 60_000
#: games simulated from an unfinished opponent's card
SAMPLES = 1000
#: two chances closer than this are equal (the expected score decides)
EQUAL = 1e-9
#: an estimated worth closer than this to 0 or 1 is taken as 0 or 1 (narrower tables)
TRIM = 1e-3
#: against unfinished opponents, with this many boxes open or fewer the champion plans its
#: whole rest of game to win (a chance table from its card, when it fits the budget)
#: instead of counting on the expert's play after its turn: about 0.2 points of winning
#: chance more against the expert in Yahtzee (0.01-0.40 over 30,000 paired games), 2 ms
#: a decision on average (benchmarks/README.md, issue 26)
PLAN = 6
#: Generala's plan (its tables in numpy) from this many open boxes on (about 0.1 s at 5)
EXTENDED_OPEN = 5
#: before its plan starts, the worth of the champion's future weighs the expert's play
#: after its turn (1 - OPTIMISM) and its best chance of reaching every final total on its
#: own, a reach table (:func:`.solver.target.reach_table`), OPTIMISM
OPTIMISM = 0.0


def default_target(ruleset: Ruleset, solution: Solution | None = None) -> int:
    """The solitaire target when none is given: the expert's expected score, rounded.

    >>> from yacht.rules import get
    >>> default_target(get("tommys-crag"))
    150
    """
    if solution is None:
        from .solver import solve

        solution = solve(ruleset, estimate=False)
    return int(round(solution.expected_score))


@dataclass(frozen=True)
class WinOption:
    """An action (with its expected final total, as the advisor ranks it) and the best
    chance of winning (or of reaching the target) after it."""

    ranked: Ranked
    chance: float
    loss: float          # the best option's chance minus this one's (>= 0)

    def decision(self) -> Decision:
        return self.ranked.decision()

    def to_json(self) -> dict[str, object]:
        d = self.ranked.to_json()
        d["chance"] = round(self.chance, 9)
        d["chance_loss"] = round(self.loss, 9)
        return d


@dataclass(frozen=True)
class WinRanking:
    """The actions ranked by the chance of winning, best first.

    ``goal`` is ``"target"`` (solitaire: the chance of at least ``target`` points) or
    ``"win"`` (the expected share of first place); ``exact`` whether the chances are
    exact (a target table, or opponents who have all finished) rather than estimated
    from the opponents' sampled totals; ``how`` says which in words."""

    options: tuple[WinOption, ...]
    goal: str
    target: int | None
    exact: bool
    how: str

    def __repr__(self) -> str:
        # (the dataclass's wrote out every option: thousands of characters)
        goal = f"to reach {self.target}" if self.goal == "target" else "to win"
        if not self.options:
            return f"<WinRanking {goal}: no options>"
        best = self.options[0]
        return (f"<WinRanking {goal}: {len(self.options)} options, best "
                f"{best.ranked.brief()} ({100 * best.chance:.1f}%), "
                f"{'exact' if self.exact else 'estimated'}>")

    def chance_of(self, r: Ranked) -> float | None:
        for o in self.options:
            if o.ranked.decision() == r.decision():
                return o.chance
        return None

    def to_json(self) -> dict[str, object]:
        return {"goal": self.goal, "target": self.target, "exact": self.exact, "how": self.how,
                "options": [o.to_json() for o in self.options]}


# --- the worth of a final total -------------------------------------------------------------

def win_worth(finals: Sequence[npt.NDArray[np.int64]]) -> tuple[int, npt.NDArray[np.float64]]:
    """``(lo, worth)``: finishing with ``x`` points is worth ``worth[x - lo]`` (0 below
    ``lo``, 1 from ``lo + len(worth)`` on): the expected share of first place against
    opponents whose final totals are drawn from ``finals`` (one sample per opponent,
    independently), a k-way tie for first counting 1/k.

    >>> import numpy as np
    >>> lo, w = win_worth([np.array([200])])      # one finished opponent, 200 points
    >>> lo, w.tolist()
    (200, [0.5])
    >>> lo, w = win_worth([np.array([10, 20]), np.array([15])])
    >>> lo, [round(x, 3) for x in w.tolist()]
    (15, [0.25, 0.5, 0.5, 0.5, 0.5, 0.75])
    """
    import numpy as np

    lo = max(int(np.min(f)) for f in finals)
    hi = max(int(np.max(f)) for f in finals) + 1
    xs = np.arange(lo, hi)
    # coef[k, x]: the chance that every opponent is at most x and k of them are at x
    coef = np.zeros((len(finals) + 1, hi - lo))
    coef[0] = 1.0
    for f in finals:
        f = np.asarray(f, dtype=np.int64)
        srt = np.sort(f)
        below = np.searchsorted(srt, xs, side="left") / len(f)
        at = (np.searchsorted(srt, xs, side="right") / len(f)) - below
        nxt = coef * below
        nxt[1:] += coef[:-1] * at
        coef = nxt
    worth = (coef / np.arange(1, len(finals) + 2)[:, None]).sum(axis=0)
    return lo, np.clip(worth, 0.0, 1.0)


def _trim(lo: int, worth: npt.NDArray[np.float64]) -> tuple[int, npt.NDArray[np.float64]]:
    """The worth with its tails within :data:`TRIM` of 0 and 1 cut off (taken as 0 / 1).

    >>> import numpy as np
    >>> _trim(10, np.array([0.0001, 0.2, 0.5, 0.9995]))
    (11, array([0.2, 0.5]))
    """
    import numpy as np

    keep = np.nonzero((worth >= TRIM) & (worth <= 1 - TRIM))[0]
    if not len(keep):   # a step: 0 below the first total worth more than a half, 1 from it
        at = int(np.searchsorted(worth, 0.5, side="right"))
        return lo + at, worth[:0]
    a, b = int(keep[0]), int(keep[-1]) + 1
    return lo + a, worth[a:b]


_SAMPLES_LOCK = threading.Lock()
_SAMPLES: OrderedDict[tuple[Any, ...], npt.NDArray[np.int64]] = OrderedDict()
_SAMPLES_KEPT = 50_000


def expert_finals(solution: Solution, card: Scorecard, turn: int, games: int
                  ) -> npt.NDArray[np.int64]:
    """Final totals of ``games`` games the expert plays from ``card`` (the total itself
    for a full card). The points to come depend on the card's state only, so they are
    kept per state (fixed seeds: the same card gives the same sample)."""
    import numpy as np

    from .solver import fast_selfplay

    rs = solution.ruleset
    base = rs.totals(card).grand
    if card.complete:
        return np.array([base], dtype=np.int64)
    forced = solution.forced_turn(card, turn)
    m, a = solution.spec.state_of(card)
    key = (rs.key, m, a, forced, games)
    with _SAMPLES_LOCK:
        hit = _SAMPLES.get(key)
        if hit is not None:
            _SAMPLES.move_to_end(key)
    if hit is None:
        start = None if forced else (m, a, -1, 0)
        seed = (m * 1_000_003 + a * 7919 + (1 if forced else 0)) & 0xFFFFFFFF
        hit = fast_selfplay(solution, games, seed=seed, workers=1,
                            start=start).totals.astype(np.int64)
        with _SAMPLES_LOCK:
            _SAMPLES[key] = hit
            while len(_SAMPLES) > _SAMPLES_KEPT:
                _SAMPLES.popitem(last=False)
    return hit + base


# --- ranking by chance ------------------------------------------------------------------

def _by_chance(rs: Ruleset, spec: Any, card: Scorecard, turn: int, dice: Sequence[int],
               rolls_left: int, tc: TurnChances, by_score: list[Ranked]) -> list[WinOption]:
    """Every action of the advisor's list with its chance from ``tc``."""
    t = spec.dice
    dice = tuple(int(v) for v in dice)
    d = t.index_of(dice) - t.full_start
    keep_chance = tc.Ks[rolls_left - 1] if rolls_left > 0 else None
    out = []
    for r in by_score:
        if r.kind == "score":
            assert r.category is not None
            b = r.column * spec.ncat + rs.index(r.category)
            v = float(tc.B[d, b])
            if v < 0:  # a repeat of the box (the same card, more points)
                v = float(tc.B[d, spec.nbox])
        else:
            assert keep_chance is not None
            v = float(keep_chance[t.index_of_counts(counts_of(r.keep, rs.faces))])
        out.append((v, r))
    return _sorted(out)


def _sorted(pairs: list[tuple[float, Ranked]]) -> list[WinOption]:
    # equal chances: the advisor's order (the higher expected score first)
    order = sorted(range(len(pairs)), key=lambda i: (-round(pairs[i][0] / EQUAL), i))
    best = pairs[order[0]][0]
    return [WinOption(pairs[i][1], pairs[i][0], max(0.0, best - pairs[i][0])) for i in order]


def _forced_by_chance(rs: Ruleset, tt: Any, card: Scorecard, dice: Sequence[int],
                      rolls_made: int, by_score: list[Ranked]) -> list[WinOption]:
    """The forced first turn with a target table: scoring the yacht now, or a keep."""
    spec = tt.spec
    ft = spec.forced
    points = rs.totals(card).grand
    keep, _ = tt._forced(points, card)
    m, a = spec.state_of(card)
    m |= 1 << ft.box
    out = []
    for r in by_score:
        if r.kind == "score":
            v = tt.state_chance(m, a, points + r.points)
        else:
            v = float(keep[rolls_made][spec.dice.index_of_counts(counts_of(r.keep, rs.faces))])
        out.append((v, r))
    return _sorted(out)


def rank_to_win(state: State, solution: Solution | None = None, *, target: int | None = None,
                budget: int = BUDGET, samples: int = SAMPLES, threads: int = 2,
                build: bool = True, memo: dict[str, Any] | None = None,
                tilts: tuple[float, ...] = (), plan: int = PLAN,
                optimism: float = OPTIMISM) -> WinRanking | None:
    """The actions of the player on turn (dice showing) ranked by the chance of winning:
    alone, of finishing with at least ``target`` points (default
    :func:`default_target`); with opponents, the expected share of first place. None
    where no chance can be worked out within reach (see the module doc): the expert's
    ranking is then the best there is. ``build``: build a missing target table
    (alone; else only one in memory or on disk is used). ``memo``: a dict the caller
    keeps between calls (the last table, reused while the cards stay the same).
    ``tilts``: the tilted experts (:mod:`.solver.tilted`) the player may play on as
    after its turn, besides the expert (e.g. :data:`.solver.tilted.THETAS`; none, the
    default as the champion's: the expert only). ``plan``: with this many boxes open or
    fewer (and unfinished opponents) the player's whole rest of game is planned to win
    against the opponents' final totals as they stand (:data:`PLAN`; 0: never)."""
    from .solver.numbers import a_state

    a_state(state, "rank_to_win(state)")
    if state.is_terminal() or not state.dice:
        return None
    me = state.current
    others = [(state.card(p), state.turns_taken(p)) for p in range(len(state.players))
              if p != me]
    return rank_situation(state.ruleset, state.card(me), state.turns_taken(me), state.dice,
                          state.rolls_left, others, solution,
                          target=target, budget=budget, samples=samples, threads=threads,
                          build=build, memo=memo, tilts=tilts, plan=plan,
                          optimism=optimism)


def rank_situation(rs: Ruleset, card: Scorecard, turn: int, dice: Sequence[int],
                   rolls_left: int, others: Sequence[tuple[Scorecard, int]],
                   solution: Solution | None = None, *, target: int | None = None,
                   budget: int = BUDGET, samples: int = SAMPLES, threads: int = 2,
                   build: bool = True, memo: dict[str, Any] | None = None,
                   by_score: list[Ranked] | None = None,
                   tilts: tuple[float, ...] = (), plan: int = PLAN,
                   optimism: float = OPTIMISM) -> WinRanking | None:
    """:func:`rank_to_win` for a situation: the player's ``card`` and ``turn`` (turns
    taken), the dice showing, the rolls left, and every opponent's (card, turns taken);
    no opponents: alone. ``by_score``: the advisor's ranking if the caller has it.
    ``target``: a whole number of points (else ``ValueError``, one line)."""
    from .advisor import advise_card
    from .solver import solve
    from .solver.local import BUDGET_OPEN, turn_chances

    if target is not None:
        target = whole(target, "target")
    sol = solution if solution is not None else solve(rs, estimate=False)
    if card.complete:
        return None
    alone = not others
    finished = all(c.complete for c, _ in others)
    if not alone and not sol.forced_turn(card, turn) and (
            not finished or _open(card) > BUDGET_OPEN or sol.spec.extended):
        # (against finished opponents the table from the card is exact to the end; the
        # kernels' tables know no served boxes: Generala's are in numpy, from its
        # distributions' path, its ending rolls counted apart)
        dd = _distributions(rs, build)
        if dd is not None:
            if by_score is None:
                by_score = advise_card(rs, card, turn, dice, rolls_left, sol)
            if (not finished or sol.spec.extended) and _open(card) <= plan:
                planned = _rank_planned(rs, sol, dd, card, turn, dice, rolls_left, others,
                                        by_score, budget, threads,
                                        memo if memo is not None else {})
                if planned is not None:
                    return planned
            own = [dd] + _tilted(rs, tilts, build)
            reach = _reach_table(rs, build) if optimism > 0 else None
            return _rank_exact(dd, card, turn, dice, rolls_left, others, by_score, own,
                               reach, optimism)
    if not alone and (sol.forced_turn(card, turn) or _open(card) > BUDGET_OPEN):
        return None   # (before the opponents' games are simulated)
    if by_score is None:
        by_score = advise_card(rs, card, turn, dice, rolls_left, sol)
    memo = memo if memo is not None else {}
    if alone:
        goal_target = target if target is not None else default_target(rs, sol)
        tt = _target_table(rs, goal_target, build)
        if tt is not None:
            how = f"exact: the best chance of reaching {goal_target} points"
            if sol.forced_turn(card, turn):
                made = rs.max_rolls(rs.context(card, turn, 1)) - rolls_left
                opts = _forced_by_chance(rs, tt, card, dice, made, by_score)
            else:
                m, a = tt.spec.state_of(card)
                tc = turn_chances(tt.spec, tt.win.A, tt.arrays(), m, a, rs.totals(card).grand)
                opts = _by_chance(rs, tt.spec, card, turn, dice, rolls_left, tc, by_score)
            return WinRanking(tuple(opts), "target", goal_target, True, how)
        import numpy as np

        lo, worth, exact = goal_target, np.zeros(0), True
        how = f"exact (the last turns): the best chance of reaching {goal_target} points"
    else:
        finals = [expert_finals(sol, c, t, samples) for c, t in others]
        exact = all(len(f) == 1 for f in finals)
        lo, worth = win_worth(finals)
        if not exact:
            lo, worth = _trim(lo, worth)
        goal_target = None
        how = ("exact: the opponents have finished" if exact else
               f"estimated: the opponents' totals from {samples:,} expert games each")
    if sol.forced_turn(card, turn):
        return None
    ranked = _by_table(rs, sol, card, turn, dice, rolls_left, lo, worth, by_score, budget,
                       threads, memo)
    if ranked is None:
        return None
    return WinRanking(tuple(ranked), "target" if alone else "win", goal_target, exact, how)


def _by_table(rs: Ruleset, sol: Any, card: Scorecard, turn: int, dice: Sequence[int],
              rolls_left: int, lo: int, worth: npt.NDArray[np.float64],
              by_score: list[Ranked], budget: int, threads: int,
              memo: dict[str, Any], ending: bool = False) -> list[WinOption] | None:
    """The actions ranked by a chance table from ``card`` for the worth (``lo``,
    ``worth``: see :func:`win_worth`), the table kept in ``memo`` while the card and the
    worth stay the same; None when it does not fit ``budget``. Served boxes and a box
    needing another (Generala): the table in numpy (:mod:`.solver.local_extended`, at
    most :data:`EXTENDED_OPEN` open boxes); ``ending``: a table game, whose first rolls
    that would end it are counted apart (:func:`_ended`)."""
    from .solver import UnsupportedRuleset
    from .solver.local import local_table

    spec = sol.spec
    points = rs.totals(card).grand
    key = (rs.key, card, lo, worth.tobytes(), budget, ending)
    if memo.get("key") == key:
        table = memo["table"]
    else:
        try:
            if not spec.extended:
                table = local_table(rs, card, lo, worth, threads=threads,
                                    budget=scaled_budget(spec, budget))
            elif _open(card) <= EXTENDED_OPEN:
                from .solver.local_extended import plan_rows

                table = plan_rows(spec, card, points, worth, ending, lo=lo)
            else:
                table = None
        except UnsupportedRuleset:
            table = None
        memo["key"], memo["table"] = key, table
    if table is None:
        return None
    m, a = spec.state_of(card)
    if spec.extended:
        tc = _turn(spec, spec.A, table.arrays, m, a, points, rolls_left)
    else:
        tc = table.turn(m, a, points)
    return _by_chance(rs, spec, card, turn, dice, rolls_left, tc, by_score)


def _rank_planned(rs: Ruleset, sol: Any, dd: Any, card: Scorecard, turn: int,
                  dice: Sequence[int], rolls_left: int, others: Sequence[tuple[Scorecard, int]],
                  by_score: list[Ranked], budget: int, threads: int,
                  memo: dict[str, Any]) -> WinRanking | None:
    """Every action ranked by the chance of winning, the champion's whole rest of game
    played to win against the opponents' final totals as they stand now (exact
    distributions: they play on as the expert), from a chance table from its card; None
    when that table does not fit ``budget``."""
    from .solver.dist import win_worth as worth_of

    lo, worth = _trim(*worth_of([dd.final(c, t) for c, t in others]))
    opts = _by_table(rs, sol, card, turn, dice, rolls_left, lo, worth, by_score, budget,
                     threads, memo, ending=bool(getattr(dd, "ending", False)))
    if opts is None:
        return None
    how = ("exact: the opponents have finished" if all(c.complete for c, _ in others)
           else "exact if the opponents play on as the expert (the rest of the game "
           "planned to win against their totals as they stand)")
    return _ended(dd, card, others, WinRanking(tuple(opts), "win", None, True, how))


def _reach_table(rs: Ruleset, build: bool) -> Any:
    """The reach table of ``rs`` (:func:`.solver.target.reach_table`), or None."""
    from .solver import UnsupportedRuleset
    from .solver.target import is_ready, reach_table, reach_target

    try:
        if not build and not is_ready(rs, reach_target(rs), reach=True):
            return None
        return reach_table(rs)
    except (UnsupportedRuleset, ValueError):
        return None


def _tilted(rs: Ruleset, tilts: tuple[float, ...], build: bool) -> list[Any]:
    """The distributions of the tilted experts of ``tilts`` (those built, unless
    ``build``)."""
    from .solver.tilted import tilted, tilted_ready

    return [tilted(rs, t) for t in tilts if build or tilted_ready(rs, t)]


def _distributions(rs: Ruleset, build: bool) -> Any:
    """The exact score distributions of ``rs``, or None (none for this variant, or not
    built and not to be built)."""
    from .solver.dist import distributions, is_ready, turns_known

    # (with opponents: where a roll can end the game, those of a game that runs to its
    # end, the chance of such a roll counted apart)
    if not turns_known(rs) or (not build and not is_ready(rs, table=True)):
        return None
    return distributions(rs, table=True)


class _Rows(threading.local):
    """Per thread and variant: the index arrays the turn kernel reads (an entry per card
    state, a few MB), the entries of the last turn cleared before the next."""

    def __init__(self) -> None:
        self.key: int | None = None
        self.arrays: tuple[Any, Any, Any] | None = None
        self.touched: list[int] = []
        self.turn: tuple[Any, ...] | None = None   # the situation the rows are for
        self.Q: Any = None

    def get(self, spec: Any) -> tuple[Any, Any, Any]:
        import numpy as np

        if self.key != id(spec) or self.arrays is None:
            n = (1 << spec.nbox) * spec.A
            self.arrays = (np.zeros(n, dtype=np.int64), np.full(n, 1 << 40, dtype=np.int64),
                           np.zeros(n, dtype=np.int64))
            self.key = id(spec)
            self.touched = []
        off, wlo, wlen = self.arrays
        self.turn = None
        for j in self.touched:
            off[j], wlo[j], wlen[j] = 0, 1 << 40, 0
        self.touched = []
        return self.arrays


_ROWS = _Rows()


def _rank_exact(dd: Any, card: Scorecard, turn: int, dice: Sequence[int], rolls_left: int,
                others: Sequence[tuple[Scorecard, int]], by_score: list[Ranked],
                own: Sequence[Any] = (), reach: Any = None, optimism: float = 0.0
                ) -> WinRanking:
    """Every action ranked by the chance of winning against opponents who play on as the
    expert, from the exact distributions of their final totals: this turn played to
    win (every keep and box), the champion playing on after it as the best for each
    state and points at its end of the ways of ``own`` (distributions of its points to
    come: the expert's, ``dd``, when empty; with tilted experts, see
    :mod:`.solver.tilted`)."""
    import numpy as np

    from .solver.dist import STEPS, win_worth
    from .solver.target import _box_max

    rs = dd.ruleset
    spec = dd.spec
    own = list(own) or [dd]
    finals = [dd.final(c, t) for c, t in others]
    wlo_, worth = win_worth(finals)
    points = rs.totals(card).grand
    m, a = spec.state_of(card)
    U, A = spec.U, spec.A
    u, flag = a % U, a // U
    reps = int(spec.rep_pts.max()) if m & _repeat_mask(spec) else 0
    top = int(_box_max(spec).max())
    if spec.served is not None:   # (Generala's served boxes)
        top = max(top, int((spec.served.max(axis=1) * spec.box_mult[:spec.nbox]).max()))
    G = top + spec.bonus_amt * (1 if U > 1 else 0) + spec.ybonus + reps
    turn_key = (id(spec), card, tuple(others), tuple(id(d) for d in own), id(reach),
                optimism)
    if _ROWS.turn == turn_key and _ROWS.arrays is not None:  # the same turn: the same rows
        off, wlo, wlen = _ROWS.arrays
        tc = _turn(spec, A, (off, wlo, wlen, _ROWS.Q), m, a, points, rolls_left)
        return _ended(dd, card, others, _exact_ranking(
            rs, spec, card, turn, dice, rolls_left, tc, by_score, others, len(own) > 1,
            optimism if reach is not None else 0.0))
    off, wlo, wlen = _ROWS.get(spec)
    rows: list[Any] = []
    at = 0

    # wext[G + k]: the worth of finishing with points + k points (k from -G on; past its
    # end every total is worth 1)
    idx = np.arange(points - G - wlo_, max(points + G + _reach(spec) - wlo_, len(worth)) + 1)
    wext = np.where(idx < 0, 0.0, np.where(idx >= len(worth), 1.0,
                                            worth[np.clip(idx, 0, max(0, len(worth) - 1))]))
    views = [_view(d) for d in own]

    def row(j: int, m2: int, a2: int) -> None:
        """Row j (state (m2, a2)): the chance of winning with x points so far, x from
        points to points + G, the player playing on the best of its ways (``own``)."""
        nonlocal at, wext
        if wlen[j] > 0:
            return
        vals = None
        for d, (doff, dlo, dln, C) in zip(own, views, strict=True):
            if m2 == full:
                lo, pmf = 0, np.ones(1)
            else:
                k = d.index(m2, a2)
                o, n = int(doff[k]), int(dln[k])
                lo = int(dlo[k])
                pmf = np.diff(C[o:o + n], prepend=0.0, append=float(STEPS)) / STEPS
            end = 2 * G + lo + len(pmf)
            if end > len(wext):
                wext = np.concatenate([wext, np.ones(end - len(wext))])
            v = np.correlate(wext[G + lo:end], pmf, mode="valid")
            vals = v if vals is None else np.maximum(vals, v)
        if reach is not None and optimism > 0 and m2 != full:
            pmf = reach.reach_pmf(m2, a2)
            end = 2 * G + len(pmf)
            if end > len(wext):
                wext = np.concatenate([wext, np.ones(end - len(wext))])
            v = np.correlate(wext[G:end], pmf, mode="valid")
            vals = v if vals is None else (1.0 - optimism) * vals + optimism * v
        off[j], wlo[j], wlen[j] = at, points, G + 1
        _ROWS.touched.append(j)
        rows.append(vals)
        at += G + 1

    full = (1 << spec.nbox) - 1
    for b in range(spec.nbox):
        if (m >> b) & 1:
            continue
        m2 = m | (1 << b)
        # (the flag after: whether the yacht box, or the box another needs, holds points)
        flags = [0, 1] if spec.nflag == 2 and b == spec.flag_box else [flag]
        if U > 1 and spec.box_upper[b]:
            pts = {int(p) for p in spec.score[b]}
            if spec.joker_pts[b] >= 0:
                pts.add(int(spec.joker_pts[b]))
            us = sorted({min(U - 1, u + p) for p in pts})
        else:
            us = [u]
        for f2 in flags:
            for u2 in us:
                row(m2 * A + f2 * U + u2, m2, f2 * U + u2)
    if reps:
        row(m * A + a, m, a)
    Q = np.concatenate(rows) if rows else np.zeros(1)
    _ROWS.turn, _ROWS.Q = turn_key, Q
    tc = _turn(spec, A, (off, wlo, wlen, Q), m, a, points, rolls_left)
    return _ended(dd, card, others, _exact_ranking(
        rs, spec, card, turn, dice, rolls_left, tc, by_score, others, len(own) > 1,
        optimism if reach is not None else 0.0))


def _turn(spec: Any, A: int, arrays: Any, m: int, a: int, points: int,
          rolls_left: int) -> Any:
    """The turn's chances from the rows: the turn kernel's, or in numpy for served boxes
    and a box needing another (Generala)."""
    from .solver.local import turn_chances

    if spec.extended:
        from .solver.dist_extended import turn_chances as numpy_turn

        return numpy_turn(spec, A, arrays, m, a, points, rolls_left == spec.rolls - 1)
    return turn_chances(spec, A, arrays, m, a, points)


def _ended(dd: Any, card: Scorecard, others: Sequence[tuple[Scorecard, int]],
           ranking: WinRanking) -> WinRanking:
    """``ranking`` where a turn's first roll can end the game at once (Generala's served
    Generala): its chances are those of a game that runs to its end; this adds the
    chance that a turn still to start ends it (the player's own, won; an opponent's,
    lost). The order of the chances does not change. The others are in seat order; the
    player's turn has begun (dice showing), so those who have begun fewer turns start
    theirs first."""
    from .solver.dist import end_chance, ending_note, ending_terms

    if not getattr(dd, "ending", False):
        return ranking
    end = end_chance(dd.ruleset)
    begun = card.filled + 1
    after = [c for c, _ in others if c.filled < begun]
    before = [c for c, _ in others if c.filled >= begun]
    left = [_open(c) for c in after + before] + [_open(card) - 1]
    at_once, runs = ending_terms(left, 0, end)
    mine = at_once[-1]
    from dataclasses import replace

    opts = tuple(replace(o, chance=mine + runs * o.chance, loss=runs * o.loss)
                 for o in ranking.options)
    return WinRanking(opts, ranking.goal, ranking.target, ranking.exact,
                      f"{ranking.how}; {ending_note(dd.ruleset)}")


def _exact_ranking(rs: Ruleset, spec: Any, card: Scorecard, turn: int, dice: Sequence[int],
                   rolls_left: int, tc: Any, by_score: list[Ranked],
                   others: Sequence[tuple[Scorecard, int]], tilted: bool = False,
                   optimism: float = 0.0) -> WinRanking:
    opts = _by_chance(rs, spec, card, turn, dice, rolls_left, tc, by_score)
    exact = all(c.complete for c, _ in others)
    after = ("the best after it of the expert's play and its risk-seeking and risk-averse "
             "tilts" if tilted else "the expert's play after it")
    if exact:  # (with turns after this one, they are played as the expert's)
        how = "exact: the opponents have finished" + (
            f" (this turn played to win, {after})" if _open(card) > 1 else "")
    else:
        how = f"exact if the opponents play on as the expert (this turn played to win, {after})"
    if optimism > 0 and not exact:
        how = (f"estimated: this turn played to win, {after} weighed {1 - optimism:g} "
               f"against {optimism:g} for its best chance of each total on its own")
    return WinRanking(tuple(opts), "win", None, exact or optimism <= 0, how)


_VIEWS: dict[int, tuple[Any, ...]] = {}


def _view(d: Any) -> tuple[Any, Any, Any, Any]:
    """A distributions table's index arrays and cumulative chances as plain arrays (a
    slice of a mapped file costs more than its reading)."""
    import numpy as np

    hit = _VIEWS.get(id(d))
    if hit is None or hit[0] is not d:
        if len(_VIEWS) > 16:
            _VIEWS.clear()
        hit = (d, np.asarray(d.off), np.asarray(d.lo), np.asarray(d.length),
               np.asarray(d.C).view(np.ndarray))
        _VIEWS[id(d)] = hit
    return hit[1], hit[2], hit[3], hit[4]


def _reach(spec: Any) -> int:
    """Points to come the padded worth covers from the start (a row reaching further
    pads it with ones: past the opponents' best, every total wins)."""
    from .solver.target import _box_max

    return int(_box_max(spec).sum()) + int(spec.bonus_amt) + 13 * int(spec.ybonus) + 64


def _repeat_mask(spec: Any) -> int:
    """The boxes whose filling makes a yacht score again (a repeat box)."""
    out = 0
    for b in range(spec.nbox):
        if spec.rep_pts[b] > 0:
            out |= 1 << b
    return out


def scaled_budget(spec: Any, budget: int) -> int:
    """``budget`` in chances of this variant: a chance costs in proportion to the kept
    dice sets times the re-rolls (5 dice, 3 rolls: 462 x 2, the unit), so 10 dice with
    5 rolls (8,008 x 4) get 35 times fewer, Tommy's Crag (84 x 1) 11 times more.

    >>> from yacht.rules import get
    >>> from yacht.strategy.solver.spec import compiled
    >>> scaled_budget(compiled(get("yatzy")), 60_000)
    60000
    >>> scaled_budget(compiled(get("ancient-yacht-10")), 60_000)
    1730
    """
    return int(budget * 924 // (spec.dice.nall * max(1, spec.rolls - 1)))


def _open(card: Scorecard) -> int:
    return sum(len(col) for col in card.boxes) - card.filled


def _target_table(rs: Ruleset, target: int, build: bool) -> Any:
    """The exact target table, or None (unsupported, too big, or not built and not
    to be built)."""
    from .solver import UnsupportedRuleset
    from .solver.target import is_ready, target_table

    try:
        if not build and not is_ready(rs, target):
            return None
        return target_table(rs, target)
    except (UnsupportedRuleset, ValueError):
        return None


def _preparation(state: State, target: int | None, tilts: tuple[float, ...],
                 solution: Solution) -> Preparation | None:
    """The tables the chances of winning in ``state`` need and miss, as a build to wait
    for (None: ready, or none for this variant)."""
    from .solver import UnsupportedRuleset
    from .solver.target import is_ready, target_table

    if state.is_terminal():
        return None
    rs = state.ruleset
    if len(state.players) != 1:
        from .solver import dist, tilted

        if not dist.supported(rs):
            if not dist.turns_known(rs) or dist.is_ready(rs, table=True):
                return None   # (the two-column games: a table of its own card, at the end)

            def build_table(progress: Progress | None) -> None:
                dist.distributions(rs, progress=progress, table=True)

            return Preparation("the distributions of the scores to come (built once)",
                               build_table)
        if tilted.family_ready(rs, tilts):
            return None

        def build_dists(progress: Progress | None) -> None:
            tilted.family(rs, tilts, progress=progress)

        return Preparation("the distributions of the scores to come (built once)",
                           build_dists)
    goal = target if target is not None else default_target(rs, solution)
    try:
        if is_ready(rs, goal):
            return None
    except UnsupportedRuleset:  # the two-column games: it plays as the expert
        return None

    def build(progress: Progress | None) -> None:
        try:
            target_table(rs, goal, progress=progress)
        except (UnsupportedRuleset, ValueError):  # too big: it plays as the expert
            pass

    return Preparation(f"its table to reach {goal} points (built once)", build)


def preparing(state: State, target: int | None = None, tilts: tuple[float, ...] = (),
              solution: Solution | None = None) -> Job | None:
    """The build in the background (:mod:`.solver.background`) of the tables the
    chances of winning in ``state`` need and miss - against opponents the score
    distributions (with ``tilts``, the tilted experts' too), alone the table for reaching
    ``target`` (None: :func:`default_target`) -, started now if it was not yet in this
    process; None when they are ready or this variant has none. Its
    :attr:`~.solver.background.Job.fraction` says how far it got."""
    from .solver import solve
    from .solver.background import request
    from .solver.dist import in_background, is_ready

    rs = state.ruleset
    if target is not None:
        target = whole(target, "target")
    if state.is_terminal():
        return None
    if len(state.players) != 1 and not tilts:   # (the common case, cheap: in memory)
        from .solver.dist import turns_known

        if not turns_known(rs) or is_ready(rs, table=True):
            return None
        return in_background(rs, table=True)
    sol = solution if solution is not None else solve(rs, estimate=False)
    prep = _preparation(state, target, tilts, sol)
    if prep is None:
        return None
    goal = None if len(state.players) != 1 else (
        target if target is not None else default_target(rs, sol))
    return request(("champion", rs.key, tilts, goal), prep.build)


class ChampionStrategy:
    """The champion computer player (see the module doc).

    ``target``: the solitaire goal (None: :func:`default_target`; a caller such as the
    game session may set it, e.g. from the top ten, before the first decision).
    ``budget``, ``samples``, ``threads``: see :func:`rank_to_win`.
    """

    level = "champion"
    _target: int | None = None

    def __init__(self, ruleset: Ruleset, target: int | None = None, *, budget: int = BUDGET,
                 samples: int = SAMPLES, threads: int = 2, tilts: tuple[float, ...] | None = None,
                 plan: int = PLAN, optimism: float = OPTIMISM):
        from .solver import solve

        self.ruleset = ruleset
        self.solution = solve(ruleset, progress=False, estimate=False)
        self.target = target   # (checked: see the property)
        self.budget = budget
        self.samples = samples
        self.threads = threads
        self.tilts = () if tilts is None else tuple(tilts)
        self.plan = plan
        self.optimism = optimism
        self._memo: dict[str, Any] = {}
        self._lock = threading.Lock()

    @property
    def target(self) -> int | None:
        """The solitaire goal: a whole number of points, or None (:func:`default_target`);
        anything else is refused (``ValueError``) when it is set."""
        return self._target

    @target.setter
    def target(self, target: int | None) -> None:
        self._target = None if target is None else whole(target, "target")

    def preparation(self, state: State) -> Preparation | None:
        """What its moves in ``state`` miss to play to win: against opponents, the score
        distributions; alone, the table for reaching its target (each built once and
        kept). Built in the background (:func:`preparing`: it plays the expert's moves
        until they are ready), so none to wait for; with :func:`.solver.background.waits`
        (tests, matches) what it is and its build (see :mod:`.prepare`), waited for."""
        from .solver.background import waits

        if not waits():
            preparing(state, self.target, self.tilts, self.solution)
            return None
        return _preparation(state, self.target, self.tilts, self.solution)

    def rank(self, state: State) -> WinRanking | None:
        if state.ruleset.key != self.ruleset.key:
            raise InvalidValue(f"this player plays {self.ruleset.key}, not {state.ruleset.key}")
        from .solver.background import waits

        with self._lock:
            build = waits()
            if not build:   # (what it misses is built in the background meanwhile)
                preparing(state, self.target, self.tilts, self.solution)
            return rank_to_win(state, self.solution, target=self.target, budget=self.budget,
                               samples=self.samples, threads=self.threads, build=build,
                               memo=self._memo, tilts=self.tilts, plan=self.plan,
                               optimism=self.optimism)

    def decide(self, state: State) -> Decision:
        ranked = self.rank(state)
        if ranked is None:
            return advise(state, self.solution)[0].decision()
        return ranked.options[0].decision()
