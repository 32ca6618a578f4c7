"""Optimal play from Python: one object per variant and options (``yacht.solve``).

Every value here is an **expected final total**: the points already on the
card plus the expected points still to come under optimal solitaire play.

>>> import yacht
>>> crag = yacht.solve("tommys-crag")
>>> round(crag.expected_score, 2)
149.85
>>> s = crag.situation("336 r1 crag=50")
>>> print(s)
336 r1 crag=50
>>> crag.best(s)
Option(kind='keep', keep=(3, 3), box=None, column=0, value=160.11..., loss=0.0)
>>> [str(o) for o in crag.options(s)[:3]]
['keep 3 3', 'keep 6', 'keep nothing']

A situation is written ``DICE rN [tN] [CARD]``: the dice showing (``13356``, or
``1,3,3,5,6``; ``-`` before the first roll of a turn), the rolls left
(``r0``: the dice must be scored), the turns already taken when it is not the
number of filled boxes, and the card in the notation of ``yacht advise
--card`` (``ones=3,fours=12,yahtzee=50,extra=100``; ``col2:chance=20`` for a
second column). ``yacht advise VARIANT "13356 r2 ones=3"`` reads the same.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from yacht import parsing
from yacht.rules import Ruleset, Scorecard, get

from .advisor import AdviceError, advise_card, card_text, parse_card
from .ranking import Option

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from .solver.build import Solution

__all__ = ["Distribution", "Option", "Situation", "SolvedVariant", "solve"]


# --- situations -----------------------------------------------------------------------

@dataclass(frozen=True)
class Situation:
    """A player's situation: the card, the dice showing (``()`` before the first roll of
    a turn), the rolls left and the turns already taken.

    ``str(situation)`` writes the notation :meth:`parse` reads (round trip).
    """

    ruleset: Ruleset
    card: Scorecard
    dice: tuple[int, ...] = ()
    rolls_left: int = 0
    turn: int = 0

    @classmethod
    def of(cls, ruleset: Ruleset, card: Scorecard | None = None, dice: tuple[int, ...] = (),
           rolls_left: int = 0, turn: int | None = None) -> Situation:
        """A checked situation (``turn`` defaults to the number of filled boxes)."""
        card = ruleset.new_card() if card is None else card
        s = cls(ruleset, card, tuple(int(v) for v in dice), int(rolls_left),
                card.filled if turn is None else int(turn))
        s.check()
        return s

    def check(self) -> None:
        """Raise :class:`~yacht.strategy.advisor.AdviceError` (one line) if it cannot be."""
        rs = self.ruleset
        if len(self.card.boxes) != len(rs.columns) or any(
                len(c) != len(rs.categories) for c in self.card.boxes):
            raise AdviceError(f"the card does not fit {rs.id}")
        if self.turn < 0:
            raise AdviceError("the turn number cannot be negative")
        if self.turn < self.card.filled:
            raise AdviceError(f"{self.card.filled} boxes are filled, so at least "
                              f"{self.card.filled} turns were taken, not {self.turn}")
        possible = parsing.turns_possible(rs, self.card)
        if self.turn not in possible:
            raise AdviceError(f"this card is {possible[-1]} turns into the game at most, "
                              f"not {self.turn}")
        if not self.dice:
            if self.rolls_left:
                raise AdviceError("rolls left only count once the dice are showing")
            return
        if len(self.dice) != rs.dice or any(not 1 <= v <= rs.faces for v in self.dice):
            raise AdviceError(f"{rs.id} needs {rs.dice} dice with values 1-{rs.faces}")
        most = rs.max_rolls(rs.context(self.card, self.turn, 1))
        if not 0 <= self.rolls_left <= most - 1:
            raise AdviceError(f"rolls left must be 0-{most - 1} in this turn, "
                              f"not {self.rolls_left}")

    @classmethod
    def parse(cls, ruleset: Ruleset, text: str) -> Situation:
        """Read ``"13356 r2 t5 ones=3,fours=12"`` (see the module doc).

        >>> from yacht.rules import get
        >>> s = Situation.parse(get("yatzy"), "1,3,3,5,6 r2 ones=3, fours=12")
        >>> s.dice, s.rolls_left, s.turn, str(s)
        ((1, 3, 3, 5, 6), 2, 2, '13356 r2 ones=3,fours=12')
        """
        try:
            read = parsing.parse_situation(ruleset, text)
        except AdviceError:
            raise
        except parsing.InputError as e:  # the shared parser's one line, as the advisor's
            raise AdviceError(str(e)) from None
        dice, rolls, turn, card = read
        return cls.of(ruleset, card, dice, rolls or 0, turn)

    def text(self) -> str:
        """The notation of this situation."""
        rs = self.ruleset
        if not self.dice:
            parts = ["-"]
        else:
            sep = "" if rs.faces < 10 else ","
            parts = [sep.join(map(str, self.dice)), f"r{self.rolls_left}"]
        if self.turn != self.card.filled:
            parts.append(f"t{self.turn}")
        card = card_text(rs, self.card)
        if card:
            parts.append(card)
        return " ".join(parts)

    __str__ = text


# --- options and distributions --------------------------------------------------------

@dataclass(frozen=True, eq=False)
class Distribution:
    """Final totals of games played optimally (simulated, ``games`` of them)."""

    totals: npt.NDArray[np.int64]
    seed: int

    @property
    def games(self) -> int:
        return len(self.totals)

    @property
    def mean(self) -> float:
        return float(self.totals.mean())

    @property
    def std(self) -> float:
        return float(self.totals.std(ddof=1)) if self.games > 1 else 0.0

    @property
    def stderr(self) -> float:
        return self.std / math.sqrt(self.games) if self.games else 0.0

    def percentile(self, p: float) -> float:
        import numpy as np

        return float(np.percentile(self.totals, p))

    def chance_at_least(self, points: float) -> float:
        """The share of games that ended with at least ``points``."""
        return float((self.totals >= points).mean())

    def counts(self) -> dict[int, int]:
        """How many games ended with each total."""
        import numpy as np

        values, counts = np.unique(self.totals, return_counts=True)
        return {int(v): int(c) for v, c in zip(values, counts, strict=True)}


# --- the solved variant ---------------------------------------------------------------

Where = Situation | str | None


class SolvedVariant:
    """Optimal solitaire play of one variant with its options.

    ``value``, ``options``, ``best`` and ``distribution`` take a situation: a
    :class:`Situation`, its text, or None for the empty card before the first
    roll. For ``ancient-yacht-10-double`` (too big for an exact table) the
    values are those of the computed strategy, not proven optima.
    """

    def __init__(self, ruleset: Ruleset, *, progress: Any = False, workers: int | None = None):
        from .solver import solve as solve_table

        self.ruleset = ruleset
        self.solution: Solution = solve_table(ruleset, progress=progress, workers=workers,
                                              estimate=False)
        self._cards: OrderedDict[Scorecard, tuple[int, int, float]] = OrderedDict()
        self._cards_by_text: OrderedDict[str, tuple[Scorecard, int, int, float]] = OrderedDict()
        self._lock = threading.Lock()
        self._fast = self._fast_tables()
        from .solver.single import native_advisor

        # the C extension's single-situation calls (None: the Python paths below)
        self._native: Any = native_advisor(self.solution)

    def __repr__(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in self.ruleset.option_values.items())
        return f"<SolvedVariant {self.ruleset.id}{' ' + opts if opts else ''}>"

    @property
    def exact(self) -> bool:
        return self.solution.exact

    @property
    def expected_score(self) -> float:
        """The expected final total from an empty card (simulated when not exact)."""
        if self.solution.exact:
            return self.solution.expected_score
        from .solver import solve as solve_table

        return solve_table(self.ruleset).expected_score

    def situation(self, text: str | None = None, *, dice: tuple[int, ...] = (),
                  rolls_left: int = 0, card: Scorecard | str | None = None,
                  turn: int | None = None) -> Situation:
        """A situation from its text, or from its parts (``card`` as a card or its text)."""
        if text is not None:
            return Situation.parse(self.ruleset, text)
        if isinstance(card, str):
            card = parse_card(self.ruleset, card)
        return Situation.of(self.ruleset, card, dice, rolls_left, turn)

    def _situation(self, where: Where) -> Situation:
        if where is None:
            return Situation(self.ruleset, self.ruleset.new_card())
        if isinstance(where, str):
            return Situation.parse(self.ruleset, where)
        if where.ruleset.key != self.ruleset.key:
            raise AdviceError(f"a situation of {where.ruleset.key}, not {self.ruleset.key}")
        return where

    def value(self, where: Where = None) -> float:
        """The expected final total of the situation under optimal play."""
        got = self._native_best(where)
        if got is not None:
            return got.value
        s = self._situation(where)
        if s.card.complete:
            return float(self.ruleset.totals(s.card).grand)
        if not s.dice:
            return self.solution.value(s.card, s.turn)
        return self.options(s)[0].value

    def best(self, where: Where) -> Option:
        """The best option of a situation with dice showing."""
        got = self._native_best(where)
        if got is not None:
            return got
        return self.options(where)[0]

    def options(self, where: Where) -> list[Option]:
        """Every distinct keep (keeping all dice is scoring) and every allowed box, with
        its expected final total, best first."""
        native = self._native
        if native is not None:
            got: list[Option] | None = None
            if type(where) is str:
                got = native.options_text(where)
            elif type(where) is Situation and where.ruleset is self.ruleset:
                got = native.options(where.card, where.turn, where.dice, where.rolls_left)
            if got is not None:
                return got
        if isinstance(where, str) and self._fast is not None:
            got = self._text_fast(where)
            if got is not None:
                return got
        s = self._situation(where)
        if not s.dice:
            raise AdviceError("no dice showing: roll first (options need dice)")
        if s.card.complete:
            raise AdviceError("the card is full: the game is over")
        fast = self._fast
        sol = self.solution
        if fast is not None and not sol.forced_turn(s.card, s.turn):
            return self._options_fast(s.card, s.dice, s.rolls_left, fast)
        ranked = advise_card(self.ruleset, s.card, s.turn, s.dice, s.rolls_left, sol)
        return [Option(r.kind, r.keep, r.category, r.column, r.expected, r.loss)
                for r in ranked]

    def _native_best(self, where: Where) -> Option | None:
        """The best option from the C extension in one call, or None (no dice, a full card,
        the forced first turn, loose notation, no extension: the general path)."""
        native = self._native
        if native is None:
            return None
        if type(where) is str:
            got: Option | None = native.best_text(where)
            return got
        if type(where) is Situation and where.ruleset is self.ruleset:
            got = native.best(where.card, where.turn, where.dice, where.rolls_left)
            return got
        return None

    # the fast path in Python: the batch kernel on one situation, no engine objects
    def _fast_tables(self) -> tuple[Any, ...] | None:
        from .solver.batch import supported
        from .solver.dice import proper_subsets

        if not supported(self.solution):
            return None
        spec = self.solution.spec
        t = spec.dice
        subs, nsubs = proper_subsets(t.n, t.faces)
        dice_of = [t.dice_of(k) for k in range(t.nall)]
        boxes = [(c.id, col) for col in range(spec.ncols) for c in self.ruleset.categories]
        subs_l = subs.tolist()
        nsubs_l = nsubs.tolist()
        return (t, subs_l, nsubs_l, dice_of, boxes)

    def _text_fast(self, text: str) -> list[Option] | None:
        """Options of a situation's text in the common form ``DICE rN [CARD]`` on a normal
        turn, without building a :class:`Situation` (None: take the general path)."""
        fast = self._fast
        assert fast is not None
        tokens = text.split()
        if len(tokens) < 2 or tokens[1][:1] != "r" or not _ascii_digits(tokens[1][1:]):
            return None
        rest = tokens[2:]
        if rest and rest[0][:1] in "tT":
            return None
        card_text_ = ",".join(rest)
        hit = self._cards_by_text.get(card_text_)
        if hit is None:
            try:
                card = parse_card(self.ruleset, card_text_)
            except AdviceError:
                return None
            m, a, base = self._card_state(card)
            hit = (card, m, a, base)
            with self._lock:
                self._cards_by_text[card_text_] = hit
                if len(self._cards_by_text) > 1024:
                    self._cards_by_text.popitem(last=False)
        card, m, a, base = hit
        dice_tok = tokens[0]
        rs = self.ruleset
        if rs.faces >= 10 or not _ascii_digits(dice_tok) or len(dice_tok) != rs.dice:
            return None
        dice = tuple(map(int, dice_tok))
        r = int(tokens[1][1:])
        if (card.complete or not 0 <= r < rs.rolls or min(dice) < 1 or max(dice) > rs.faces
                or self.solution.forced_turn(card, card.filled)):
            return None
        return self._options_fast(card, dice, r, fast, (m, a, base))

    def _card_state(self, card: Scorecard) -> tuple[int, int, float]:
        with self._lock:
            hit = self._cards.get(card)
            if hit is not None:
                return hit
        m, a = self.solution.spec.state_of(card)
        got = (m, a, float(self.ruleset.totals(card).grand))
        with self._lock:
            self._cards[card] = got
            if len(self._cards) > 1024:
                self._cards.popitem(last=False)
        return got

    def _options_fast(self, card: Scorecard, dice: tuple[int, ...], r: int,
                      fast: tuple[Any, ...],
                      state: tuple[int, int, float] | None = None) -> list[Option]:
        from .solver.batch import _one

        t, subs, nsubs, dice_of, boxes = fast
        m, a, base = self._card_state(card) if state is None else state
        d = t.index_of(dice) - t.full_start
        # (no rule stops a re-roll on a normal turn of these variants)
        kvals, bvals = _one(self.solution, m, a, d, r)
        bv = bvals.tolist()
        allowed = [b for b, v in enumerate(bv) if v == v]  # not NaN
        vals = [bv[b] for b in allowed]
        nb = len(vals)
        if r:
            vals += kvals[:nsubs[d]].tolist()
        best = max(vals)
        row = subs[d]
        new = tuple.__new__
        out: list[Option] = []
        for i in sorted(range(len(vals)), key=vals.__getitem__, reverse=True):
            v = vals[i]
            if i < nb:
                box, col = boxes[allowed[i]]
                out.append(new(Option, ("score", (), box, col, base + v, best - v)))
            else:
                out.append(new(Option, ("keep", dice_of[row[i - nb]], None, 0, base + v,
                                        best - v)))
        return out

    def simulate(self, games: int = 1000, seed: int = 0, workers: int = 2) -> Distribution:
        """Final totals of ``games`` games from an empty card, played optimally."""
        return self.distribution(None, games, seed, workers)

    def distribution(self, where: Where = None, games: int = 10_000, seed: int = 0,
                     workers: int = 2) -> Distribution:
        """Final totals of ``games`` games played optimally from the situation (the same
        seed gives the same games)."""
        import numpy as np

        from .solver import fast_selfplay

        s = self._situation(where)
        sol = self.solution
        if s.card.complete:
            return Distribution(np.full(games, self.ruleset.totals(s.card).grand,
                                        dtype=np.int64), seed)
        if s.dice and sol.forced_turn(s.card, s.turn):
            raise AdviceError("the distribution from inside the forced first turn is not "
                              "available (give the situation before its first roll)")
        m, a, base = self._card_state(s.card)
        t = sol.spec.dice
        d = t.index_of(s.dice) - t.full_start if s.dice else -1
        r = s.rolls_left if s.dice else 0
        res = fast_selfplay(sol, games, seed=seed, workers=workers, start=(m, a, d, r))
        return Distribution(res.totals.astype(np.int64) + int(round(base)), seed)


_SOLVED: dict[str, SolvedVariant] = {}
_SOLVED_LOCK = threading.Lock()


def solve(variant: str | Ruleset, options: Mapping[str, str] | None = None, /, *,
          progress: Any = False, workers: int | None = None, **more: str) -> SolvedVariant:
    """The solved variant (built on first use, then from the cache): ``yacht.solve("yatzy")``,
    ``yacht.solve("yahtzee", joker="free")`` or ``yacht.solve("yahtzee", {"joker": "free"})``.
    """
    rs = variant if isinstance(variant, Ruleset) else get(variant)
    if options or more:
        rs = rs.configure(options, **more)
    with _SOLVED_LOCK:
        hit = _SOLVED.get(rs.key)
    if hit is not None and hit.ruleset == rs:
        return hit
    sv = SolvedVariant(rs, progress=progress, workers=workers)
    with _SOLVED_LOCK:
        _SOLVED[rs.key] = sv
    return sv


def _ascii_digits(text: str) -> bool:
    """0-9 only (``str.isdigit`` also takes other scripts' digits and ``²``)."""
    return text.isascii() and text.isdigit()
