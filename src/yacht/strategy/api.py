"""Optimal play from Python: one object per variant and options (``yacht.solve``).

Every value here is an **expected final total**: the points already on the
card plus the expected points still to come under optimal solitaire play;
``final=False`` (on ``value``, ``best``, ``options`` and ``batch`` alike) gives
the points still to come instead.

>>> import yacht
>>> crag = yacht.solve("tommys-crag")
>>> round(crag.expected_score, 2)
149.85
>>> s = crag.situation("336 r1 crag=50")
>>> print(s)
336 r1 crag=50
>>> crag.best(s)  # doctest: +ELLIPSIS
Option(kind='keep', keep=(3, 3), box=None, column=0, value=160.11..., loss=0.0)
>>> [str(o) for o in crag.options(s)[:3]]
['keep 3 3', 'keep 6', 'keep nothing']
>>> round(crag.best(s, final=False).value, 2)
110.11
>>> crag.batch(["336 r1 crag=50", "111 r0"]).best_action()   # many at once: see bulk.py
['keep 3 3', 'score three_of_a_kind']

A situation is written ``DICE rN [tN] [CARD]``: the dice showing (``13356``, or
``1,3,3,5,6``; ``-`` before the first roll of a turn), the rolls left
(``r0``: the dice must be scored), the turns already taken when it is not the
number of filled boxes, and the card in the notation of ``yacht advise
--card`` (``ones=3,fours=12,yahtzee=50,extra=100``; ``col2:chance=20`` for a
second column; ``saved=2`` for the rolls saved for later turns in Maxi Yatzy, at most
``rolls - 1`` a turn taken). ``yacht advise VARIANT "13356 r2 ones=3"`` reads the same.
``str(situation)`` writes everything a situation holds, so that ``Situation.parse``
gives it back.
"""

from __future__ import annotations

import math
import os
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from yacht import parsing
from yacht.engine import State
from yacht.rules import OptionError, Ruleset, Scorecard, get

from .advisor import AdviceError, advise_card, card_text, parse_card
from .ranking import Option
from .solver.numbers import variant_name as _variant_name
from .solver.numbers import whole

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from .bulk import Batch, Game, Situations
    from .solver.build import Solution

__all__ = ["Chances", "Distribution", "Option", "Situation", "SolvedVariant", "solve"]


# --- situations -----------------------------------------------------------------------

@dataclass(frozen=True)
class Situation:
    """A player's situation: the card, the dice showing (``()`` before the first roll of
    a turn), the rolls left and the turns already taken.

    ``str(situation)`` writes the notation :meth:`parse` reads (round trip). Every way
    of making one (the constructor, :meth:`of`, :meth:`parse`, :meth:`from_state`,
    ``SolvedVariant.situation``) goes through the same checks (:meth:`check`): whole
    numbers only (numpy's integers become ``int``; a float or a bool is refused, never
    cut down), dice of the variant, a card whose boxes hold what the rules can put
    there (as the card notation reads it), the rolls left and turns the rules allow.
    Anything else raises :class:`~yacht.strategy.advisor.AdviceError` (one line).

    >>> from yacht.rules import get
    >>> rs = get("yatzy")
    >>> Situation(rs, rs.new_card().with_box(0, 0, 3), (1, 3, 3, 5, 6), 2, 1).text()
    '13356 r2 ones=3'
    >>> Situation(rs, rs.new_card().with_box(0, 0, 7), (1, 3, 3, 5, 6), 2, 1)
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    yacht.strategy.advisor.AdviceError: card item 'ones=7': ones cannot hold 7 (possible: ...)
    >>> Situation.of(rs, dice=(1, 3, 3, 5, 6.9), rolls_left=2)
    Traceback (most recent call last):
    ...
    yacht.strategy.advisor.AdviceError: a die must be a whole number, not 6.9
    """

    ruleset: Ruleset
    card: Scorecard
    dice: tuple[int, ...] = ()
    rolls_left: int = 0
    turn: int = 0

    def __post_init__(self) -> None:
        # the one place every situation is checked (and its numbers made plain ints)
        rs = self.ruleset
        if not isinstance(rs, Ruleset):
            raise AdviceError(f"a situation's ruleset must be a Ruleset (yacht.rules.get), "
                              f"not {type(rs).__name__}")
        dice = self.dice
        if type(dice) is not tuple or any(type(v) is not int for v in dice):
            object.__setattr__(self, "dice", _dice_of(rs, dice))
        for name, what in (("rolls_left", "rolls left"), ("turn", "the turn")):
            value = getattr(self, name)
            if type(value) is not int:
                object.__setattr__(self, name, whole(value, what, error=AdviceError))
        card = _card_of(rs, self.card)
        if card is not self.card:
            object.__setattr__(self, "card", card)
        self.check()

    @classmethod
    def of(cls, ruleset: Ruleset, card: Scorecard | None = None,
           dice: Sequence[int] | npt.NDArray[np.integer[Any]] = (), rolls_left: int = 0,
           turn: int | None = None) -> Situation:
        """A situation (``card`` defaults to the empty card, ``turn`` to the number of
        filled boxes)."""
        card = ruleset.new_card() if card is None else card
        if turn is None:
            turn = _usual_turn(ruleset, card) if isinstance(card, Scorecard) else 0
        return cls(ruleset, card, dice if isinstance(dice, tuple) else _dice_of(ruleset, dice),
                   rolls_left, turn)

    @classmethod
    def from_state(cls, state: State) -> Situation:
        """The situation of the player on turn in a game of the engine: their card and
        turns taken, the dice showing and the rolls left (0 where the rules allow no
        re-roll). ``SolvedVariant``'s ``situation``, ``value``, ``best`` and ``options``
        take the state itself, and :meth:`Option.actions` plays an option in it.

        >>> import random
        >>> from yacht.engine import Player, Roll, State
        >>> from yacht.rules import get
        >>> game = State(get("yatzy"), [Player("Ann")], rng=random.Random(1))
        >>> str(Situation.from_state(game))
        '-'
        >>> game.apply(Roll((1, 3, 3, 5, 6)))
        >>> str(Situation.from_state(game))
        '13356 r2'
        """
        if state.is_terminal():
            raise AdviceError("the game is over")
        me = state.current
        dice = state.dice
        rolls = state.rolls_left if dice and state.may_reroll() else 0
        return cls(state.ruleset, state.card(me), dice, rolls, state.turns_taken(me))

    def check(self) -> None:
        """Raise :class:`~yacht.strategy.advisor.AdviceError` (one line) if it cannot be."""
        rs = self.ruleset
        _check_card(rs, self.card)
        for rule in rs.special:  # (Tommy's Yacht's first turn, Generala's doble)
            if (problem := rule.card_problem(rs, self.card)) is not None:
                raise AdviceError(problem)
        if self.turn < 0:
            raise AdviceError("the turn number cannot be negative")
        possible = parsing.turns_possible(rs, self.card)
        if self.turn < possible.start:
            n = self.card.filled
            if n == possible.start:
                raise AdviceError(f"{n} box{' is' if n == 1 else 'es are'} filled, so at "
                                  f"least {n} turn{'' if n == 1 else 's'} "
                                  f"{'was' if n == 1 else 'were'} taken, not {self.turn}")
            why = ("its 0s may be others' penalties" if n > possible.start else
                   "each repeat of a box took a turn of its own")
            raise AdviceError(f"this card is at least {possible.start} turns into the game "
                              f"({why}), not {self.turn}")
        if self.turn not in possible:
            most = possible[-1]
            raise AdviceError(f"this card is {most} turn{'' if most == 1 else 's'} into the "
                              f"game at most, not {self.turn}")
        # (a turn rolls at least once: it leaves at most rolls - 1 more to the pool)
        if self.card.saved > (rs.rolls - 1) * self.turn:
            raise AdviceError(f"{self.turn} turns can have saved {(rs.rolls - 1) * self.turn} "
                              f"rolls at most, not {self.card.saved}")
        if not self.dice:
            if self.rolls_left:
                raise AdviceError("rolls left only count once the dice are showing")
            return
        if len(self.dice) != rs.dice or any(not 1 <= v <= rs.faces for v in self.dice):
            raise AdviceError(f"{rs.id} needs {rs.dice} dice with values 1-{rs.faces}")
        most = rs.max_rolls(rs.context(self.card, self.turn, 1))
        if not 0 <= self.rolls_left <= most - 1:
            pool = ""
            if any(rule.saves_rolls(rs) for rule in rs.special):
                pool = (f" (the turn's {rs.rolls} rolls, plus the rolls saved from earlier "
                        f"turns, written saved=N on the card (here {self.card.saved}), "
                        "less the first roll)")
            raise AdviceError(f"rolls left must be 0-{most - 1} in this turn, "
                              f"not {self.rolls_left}{pool}")

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
        if self.turn != _usual_turn(rs, self.card):
            parts.append(f"t{self.turn}")
        card = card_text(rs, self.card)
        if card:
            parts.append(card)
        return " ".join(parts)

    __str__ = text

    def __repr__(self) -> str:
        # (the dataclass's own repr wrote out the whole Ruleset: pages of it)
        return f"<Situation {_variant_name(self.ruleset)}: {self.text()}>"


def _real(value: object, what: str) -> float:
    """``value`` as a float, else :class:`AdviceError` naming ``what`` (a bool, a text,
    NaN or anything that is not a real number)."""
    import numbers

    if isinstance(value, bool) or not isinstance(value, numbers.Real) or value != value:
        shown = repr(value) if len(repr(value)) <= 24 else type(value).__name__
        raise AdviceError(f"{what} must be a number, not {shown}")
    return float(value)


def _yes_no(value: object, what: str) -> bool:
    """``value`` as a bool, else :class:`AdviceError` naming ``what``: ``final="no"`` is a
    text, and every text but the empty one is true.

    >>> _yes_no(False, "final")
    False
    """
    if value is True or value is False:
        return value
    import numpy as np

    if isinstance(value, np.bool_):
        return bool(value)
    shown = repr(value) if len(repr(value)) <= 24 else type(value).__name__
    raise AdviceError(f"{what} is True or False, not {shown}")


def _percent(p: object) -> float:
    q = _real(p, "a percentile")
    if not 0 <= q <= 100:
        raise AdviceError(f"a percentile is from 0 to 100, not {p}")
    return q


def _dice_of(rs: Ruleset, dice: object) -> tuple[int, ...]:
    """The dice as a tuple of ints, or AdviceError (a float, a bool, a text...)."""
    if isinstance(dice, str) or not isinstance(dice, Iterable):
        raise AdviceError(f"the dice must be a sequence of {rs.dice} whole numbers 1-{rs.faces}"
                          f", not {type(dice).__name__} (a situation's text goes through "
                          "Situation.parse)")
    return tuple(whole(v, "a die", error=AdviceError) for v in dice)


def _card_of(rs: Ruleset, card: object) -> Scorecard:
    """``card`` with plain ints in its boxes (numpy's integers made ints), or AdviceError
    for a number that is not whole or something that is not a card."""
    if not isinstance(card, Scorecard):
        raise AdviceError(f"the card must be a Scorecard, not {type(card).__name__} (a "
                          "card's text goes through SolvedVariant.situation(card=...))")
    boxes = card.boxes
    plain = all(type(v) is int or v is None for col in boxes for v in col)
    if plain and type(card.extra) is int and type(card.saved) is int:
        return card
    if len(boxes) != len(rs.columns) or any(len(c) != len(rs.categories) for c in boxes):
        return card  # (check() says it does not fit)
    new = tuple(tuple(None if v is None else whole(v, f"the points in {_box_name(rs, c, i)}",
                                                   error=AdviceError)
                      for i, v in enumerate(col)) for c, col in enumerate(boxes))
    return Scorecard(new, whole(card.extra, "extra points", error=AdviceError),
                     whole(card.saved, "saved rolls", error=AdviceError))


def _box_name(rs: Ruleset, col: int, i: int) -> str:
    cat = rs.categories[i].id if 0 <= i < len(rs.categories) else str(i)
    return f"col{col + 1}:{cat}" if col else cat


def _check_card(rs: Ruleset, card: Scorecard) -> None:
    """AdviceError unless the card's boxes hold what the rules can put there and its extra
    points are what its boxes can have earned: the card notation's checks
    (:func:`yacht.parsing.parse_card`), with its words."""
    boxes = card.boxes
    if len(boxes) != len(rs.columns) or any(len(c) != len(rs.categories) for c in boxes):
        raise AdviceError(f"the card does not fit {rs.id}")
    if card.extra < 0:
        raise AdviceError("extra points cannot be negative")
    if card.saved < 0:
        raise AdviceError("saved rolls cannot be negative")
    if card.extra or card.saved or any(v is not None and v not in parsing.possible_values(rs, i)
                         for col in boxes for i, v in enumerate(col)):
        # (the parser says what is wrong, as it would for the card's text)
        parse_card(rs, card_text(rs, card))


def _usual_turn(rs: Ruleset, card: Scorecard) -> int:
    """The turns taken when a situation does not say (no ``tN``): the filled boxes, or
    the fewest a repeat's points need (Tommy's Yahtzee: 100 in its box took 2 turns)."""
    return max(card.filled, parsing.turns_possible(rs, card).start)


# --- options and distributions --------------------------------------------------------

@dataclass(frozen=True, eq=False)
class Distribution:
    """Final totals of games played optimally (simulated, ``games`` of them)."""

    totals: npt.NDArray[np.int64]
    seed: int
    log: tuple[Game, ...] = ()      # each game's decisions (``decisions=True``)

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

    def __repr__(self) -> str:
        # (not the arrays: a simulation holds thousands of totals)
        if not self.games:
            return "<Distribution of no games>"
        return (f"<Distribution of {self.games} games: mean {self.mean:.2f}, "
                f"std {self.std:.2f}, {int(self.totals.min())}-{int(self.totals.max())}>")

    def percentile(self, p: float) -> float:
        """The ``p``-th percentile (0-100) of the totals, interpolated as numpy's."""
        import numpy as np

        return float(np.percentile(self.totals, _percent(p)))

    def chance_at_least(self, points: float) -> float:
        """The share of games that ended with at least ``points``."""
        return float((self.totals >= _real(points, "points")).mean())

    def counts(self) -> dict[int, int]:
        """How many games ended with each total."""
        import numpy as np

        values, counts = np.unique(self.totals, return_counts=True)
        return {int(v): int(c) for v, c in zip(values, counts, strict=True)}


@dataclass(frozen=True, eq=False)
class Chances:
    """The exact distribution of a final total: ``lo + i`` points with the chance
    ``pmf[i]`` (:meth:`SolvedVariant.chances`). The same questions as a
    :class:`Distribution`'s, answered without sampling error.

    >>> import numpy as np
    >>> c = Chances(10, np.array([0.25, 0.0, 0.75]))
    >>> c.mean, c.percentile(20), c.percentile(50), c.chance_at_least(11)
    (11.5, 10, 12, 0.75)
    >>> c.chances()
    {10: 0.25, 12: 0.75}
    """

    lo: int
    pmf: npt.NDArray[np.float64]

    @property
    def hi(self) -> int:
        """The highest total with a chance."""
        return self.lo + len(self.pmf) - 1

    @property
    def mean(self) -> float:
        import numpy as np

        return float(self.lo + (self.pmf * np.arange(len(self.pmf))).sum())

    @property
    def std(self) -> float:
        import numpy as np

        x = np.arange(len(self.pmf))
        m = float((self.pmf * x).sum())
        return math.sqrt(max(0.0, float((self.pmf * (x - m) ** 2).sum())))

    def percentile(self, p: float) -> int:
        """The least total reached or beaten by no more than ``100 - p`` % of games: the
        least ``x`` with a chance of at least ``p`` % of ending at ``x`` or below."""
        import numpy as np

        q = _percent(p)
        cdf = np.cumsum(self.pmf)
        i = int(np.searchsorted(cdf, q / 100 - 1e-12))
        return self.lo + min(i, len(self.pmf) - 1)

    def chance_at_least(self, points: float) -> float:
        """The chance of ending with at least ``points``."""
        k = math.ceil(_real(points, "points") - self.lo)
        if k <= 0:
            return 1.0  # (every total: certain, not a sum a hair below 1)
        return float(min(1.0, max(0.0, self.pmf[k:].sum())))

    def __repr__(self) -> str:
        # (not the array of chances: hundreds of them)
        return f"<Chances {self.lo}-{self.hi}: mean {self.mean:.2f}, std {self.std:.2f}>"

    def chances(self) -> dict[int, float]:
        """Each total that has a chance, with its chance."""
        return {self.lo + i: float(q) for i, q in enumerate(self.pmf) if q > 0}


# --- the solved variant ---------------------------------------------------------------

Where = Situation | str | State | None


class SolvedVariant:
    """Optimal solitaire play of one variant with its options (``yacht.solve``).

    ``value``, ``options``, ``best``, ``distribution`` and ``chances`` take a situation:
    a :class:`Situation`, its text (``"13356 r2 ones=3"``), a game of the engine
    (:class:`~yacht.engine.State`: the player on turn) or None for the empty card
    before the first roll; ``situation`` makes one. In bulk: ``batch``, ``situations``,
    ``export``; games: ``simulate``; the exact distribution of the final total:
    ``chances``, each player's chance of finishing first: ``win_chances``. For
    ``ancient-yacht-10-double`` (too big for an exact table) the values are those of
    the computed strategy, not proven optima.
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
        from .solver.backend import native_module

        self._module: Any = native_module() if self._native is not None else None
        # (made now: a first call with extra points costs what any first call costs)
        self._earn_table = _earn_table(self.ruleset) if self._module is not None else None
        self._names: tuple[tuple[str, ...], tuple[str, ...]] | None = None

    def __repr__(self) -> str:
        return f"<SolvedVariant {_variant_name(self.ruleset)}>"

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

    def situation(self, text: str | State | None = None, *,
                  dice: Sequence[int] | npt.NDArray[np.integer[Any]] = (),
                  rolls_left: int = 0, card: Scorecard | str | None = None,
                  turn: int | None = None) -> Situation:
        """A situation from its text, from a game of the engine (a :class:`~yacht.engine.
        State`: the player on turn's, :meth:`Situation.from_state`), or from its parts
        (``card`` as a card or its text; ``dice`` a sequence or a numpy array of whole
        numbers)."""
        if text is not None:
            no_dice = isinstance(dice, (tuple, list)) and not dice
            if not no_dice or rolls_left != 0 or card is not None or turn is not None:
                raise AdviceError("give a situation's text (or a State) or its parts "
                                  "(dice=, rolls_left=, card=, turn=), not both")
            return self._situation(text)
        if isinstance(card, str):
            card = parse_card(self.ruleset, card)
        return Situation.of(self.ruleset, card, dice, rolls_left, turn)

    def _situation(self, where: object) -> Situation:
        if where is None:
            return Situation(self.ruleset, self.ruleset.new_card())
        if isinstance(where, str):
            return Situation.parse(self.ruleset, where)
        if isinstance(where, State):
            if where.ruleset.key != self.ruleset.key:
                raise AdviceError(f"a game of {where.ruleset.key}, not {self.ruleset.key}")
            return Situation.from_state(where)
        if not isinstance(where, Situation):
            raise AdviceError(f"a situation is a text, a Situation, a State or None, not "
                              f"{type(where).__name__}")
        if where.ruleset.key != self.ruleset.key:
            raise AdviceError(f"a situation of {where.ruleset.key}, not {self.ruleset.key}")
        return where

    def _where(self, where: Where) -> str | Situation | None:
        """``where`` as the fast paths read it: a text, a Situation or None as they are,
        anything else (a State) made a Situation (or AdviceError)."""
        if where is None or type(where) is str or type(where) is Situation:
            return where
        return self._situation(where)

    def value(self, where: Where = None, *, final: bool = True) -> float:
        """The expected final total of the situation under optimal play (``final=False``:
        the expected points still to come). A :class:`~yacht.engine.State` is valued for
        the player on turn (their own card: solitaire values)."""
        final = _yes_no(final, "final")
        where = self._where(where)
        got = self._native_best(where)
        if got is not None:
            value = got.value
        else:
            s = self._situation(where)
            if s.card.complete:
                value = float(self.ruleset.totals(s.card).grand)
            elif not s.dice:
                value = self.solution.value(s.card, s.turn)
            else:
                value = self.options(s)[0].value
        return value if final else value - self._card_total(where)

    def best(self, where: Where, *, final: bool = True) -> Option:
        """The best option of a situation with dice showing (:meth:`Option.actions
        <yacht.strategy.ranking.Option.actions>` plays it in a game of the engine)."""
        final = _yes_no(final, "final")
        where = self._where(where)
        got = self._native_best(where)
        if got is None:
            got = self._options(where)[0]
        if final:
            return got
        return got._replace(value=got.value - self._card_total(where))

    def options(self, where: Where, *, final: bool = True) -> list[Option]:
        """Every distinct keep (keeping all dice is scoring) and every allowed box, with
        its expected final total (``final=False``: the points still to come), best first."""
        final = _yes_no(final, "final")
        where = self._where(where)
        got = self._options(where)
        if final:
            return got
        base = self._card_total(where)
        return [o._replace(value=o.value - base) for o in got]

    def _card_total(self, where: Where) -> float:
        """The points on the situation's card (what ``final=False`` takes off)."""
        if type(where) is str:
            from .bulk import Situations

            rows = Situations.empty(1)
            if self._read_texts([where], rows) == 0:
                return float(rows.card_total[0])
        return float(self.ruleset.totals(self._situation(where).card).grand)

    def _options(self, where: Where) -> list[Option]:
        native = self._native
        if native is not None:
            got: list[Option] | None = None
            if type(where) is str:
                got = native.options_text(where)
                if got is None and "extra=" in where:
                    got = self._text_extra(where, 0)
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
            if got is None and "extra=" in where:
                got = self._text_extra(where, 1)
            return got
        if type(where) is Situation and where.ruleset is self.ruleset:
            got = native.best(where.card, where.turn, where.dice, where.rolls_left)
            return got
        return None

    def _text_extra(self, text: str, best_only: int) -> Any:
        """The C extension's answer for the plain form with a last item ``extra=N``."""
        earn, turns = self._earn()
        return self._module.text_extra(self._native, text, earn, turns, best_only)

    def _earn(self) -> tuple[Any, int]:
        """What the C reader checks extra points with: per box and value the step of
        extra points it earns (0 none, -1 several: the Python path), or None when the
        rules give none; and the turns of a game (see ``_native_bulk.h``)."""
        got = self._earn_table
        if got is None:
            got = self._earn_table = _earn_table(self.ruleset)
        return got

    # --- many situations at once ------------------------------------------------------

    def situations(self, items: Sequence[str | Situation] | Situations) -> Situations:
        """A batch as the kernel reads it (:class:`~yacht.strategy.bulk.Situations`) from
        texts, :class:`Situation` objects (both may be mixed) or arrays (returned as they
        are). Texts in the plain form (``13356 r2 ones=3,fours=12``, ``extra=N`` last)
        and Situation objects of this variant are read in C; anything else as
        :meth:`situation` reads it. Every situation needs dice showing, an open box and
        a normal turn (not the forced first turn); bad input raises
        :class:`AdviceError` naming the situation (``situation 3: ...``)."""
        import numpy as np

        from .bulk import Situations

        if isinstance(items, Situations):
            return items
        if isinstance(items, str):
            raise AdviceError("a batch is a list of situations, not one text")
        try:
            seq = items if type(items) is list or type(items) is tuple else list(items)
        except TypeError:
            raise AdviceError(f"a batch is a list of situations (texts or Situation "
                              f"objects) or Situations, not {type(items).__name__}") from None
        out = Situations.empty(len(seq))
        left = self._read_texts(seq, out)
        todo: Any = () if not left else (
            range(len(seq)) if left == len(seq) else np.flatnonzero(out.mask < 0))
        t = self.solution.spec.dice
        for i in todo:
            item = seq[i]
            try:
                if not isinstance(item, str | Situation):
                    raise AdviceError(f"{type(item).__name__} is not a situation (a text or "
                                      "a Situation)")
                s = self._situation(item)
                if not s.dice:
                    raise AdviceError("no dice showing (a batch needs them: DICE rN [CARD])")
                if s.card.complete:
                    raise AdviceError("the card is full: the game is over")
                if self.solution.forced_turn(s.card, s.turn):
                    raise AdviceError("the forced first turn is not in batches (ask "
                                      "options() for it)")
            except AdviceError as e:
                raise AdviceError(f"situation {i + 1}: {e}") from None
            m, a, base = self._card_state(s.card)
            out.mask[i], out.aux[i], out.card_total[i] = m, a, base
            out.outcome[i] = t.index_of(s.dice) - t.full_start
            out.rolls_left[i] = s.rolls_left
        return out

    def _read_texts(self, seq: Sequence[Any], out: Situations) -> int:
        """The C reader on ``seq`` (a list or tuple) into ``out``: how many it left (their
        mask -1); all of them without the C extension."""
        if self._native is None or self._module is None:
            return len(seq)
        earn, turns = self._earn()
        left: int = self._module.situations_text(self._native, seq, earn, turns, out.mask,
                                                 out.aux, out.outcome, out.rolls_left,
                                                 out.card_total, self.ruleset)
        return left

    def batch(self, items: Sequence[str | Situation] | Situations, *, final: bool = True,
              workers: int = 1) -> Batch:
        """The value of every option of every situation (:class:`~yacht.strategy.bulk.
        Batch`), in machine code, ``workers`` threads: texts, :class:`Situation` objects or
        :class:`~yacht.strategy.bulk.Situations` as :meth:`situations` reads them. Values
        are expected final totals, or with ``final=False`` the points still to come."""
        import numpy as np

        from .bulk import Batch
        from .solver.batch import option_values, supported

        final = _yes_no(final, "final")
        if not supported(self.solution):
            raise AdviceError(f"{self.ruleset.id}: batches do not cover a repeat box (ask "
                              "options() one situation at a time)")
        workers = whole(workers, "workers", error=AdviceError)
        rows = self.situations(items)
        if final and np.isnan(rows.card_total).any():
            raise AdviceError("final totals need the points on each card (give card_total, "
                              "or final=False for the points still to come)")
        try:
            ov = option_values(self.solution, rows.mask, rows.aux, rows.outcome,
                               rows.rolls_left, workers=workers,
                               card_totals=rows.card_total if final else None)
        except ValueError as e:
            raise AdviceError(str(e)) from None
        keep_value = ov.keep_value
        keep_value[ov.keep_index < 0] = np.nan
        boxes, keeps = self._notation()
        return Batch(rows, final, ov.box_value, keep_value, ov.keep_index, boxes, keeps)

    def _notation(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """``str(Option)`` of every box and of keeping every multiset."""
        got = self._names
        if got is None:
            t = self.solution.spec.dice
            boxes = tuple(str(Option("score", (), c.id, col, 0.0, 0.0))
                          for col in range(len(self.ruleset.columns))
                          for c in self.ruleset.categories)
            keeps = tuple(str(Option("keep", t.dice_of(k), None, 0, 0.0, 0.0))
                          for k in range(t.nall))
            got = self._names = (boxes, keeps)
        return got

    def export(self, path: str | os.PathLike[str], situations: int, seed: int = 0,
               format: str = "jsonl", *, final: bool = True) -> int:
        """Write ``situations`` random reachable situations with every option's value and
        the best one as JSON Lines or Parquet (:func:`yacht.strategy.bulk.export`);
        returns the number of rows. Parquet needs pyarrow (``yacht-dice[parquet]``). A
        ``path`` whose folder does not exist is a ``FileNotFoundError`` naming ``path`` and
        saying so (any other ``OSError`` names ``path`` too, never a temporary file)."""
        from .bulk import export

        final = _yes_no(final, "final")
        if not isinstance(path, (str, os.PathLike)):
            raise AdviceError(f"export writes to a path (text or a Path), "
                              f"not {type(path).__name__}")
        return export(self, path, situations, seed, format, final)

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

    def simulate(self, games: int = 1000, seed: int = 0, workers: int = 2, *,
                 decisions: bool = False) -> Distribution:
        """Final totals of ``games`` games from an empty card, played optimally. With
        ``decisions`` the games go through the rules engine one by one (a few ms each)
        and ``.log`` holds each game's decisions (:class:`~yacht.strategy.bulk.Game`);
        the same seed gives the same games. ``games``: at least 1."""
        games = whole(games, "games", lo=1, error=AdviceError)
        if decisions:
            import numpy as np

            from .bulk import play

            log = tuple(play(self, games, seed))
            return Distribution(np.array([g.total for g in log], dtype=np.int64), seed, log)
        return self.distribution(None, games, seed, workers)

    def distribution(self, where: Where = None, games: int = 10_000, seed: int = 0,
                     workers: int = 2) -> Distribution:
        """Final totals of ``games`` games played optimally from the situation (the same
        seed gives the same games). ``games``: at least 1."""
        import numpy as np

        from .solver import fast_selfplay

        games = whole(games, "games", lo=1, error=AdviceError)
        workers = whole(workers, "workers", error=AdviceError)
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


    def chances(self, where: Where = None) -> Chances:
        """The exact distribution of the final total from the situation when the expert
        plays on (this turn too: its best choice at every roll, ties as :meth:`best`
        breaks them), from the variant's score distributions (built on first use, about
        half a minute for Yahtzee, then from the cache; :mod:`.solver.dist`, each
        cumulative chance within 1/65535). The game as played alone: a served Generala
        scores its points. Raises :class:`AdviceError` in a variant without them (the
        two-column games, Maxi Yatzy: :meth:`distribution` simulates games there)."""
        return self._chances(where, table=False)

    def _chances(self, where: Where, table: bool) -> Chances:
        from .solver.dist import distributions
        from .solver.spec import UnsupportedRuleset

        s = self._situation(where)
        rs = self.ruleset
        if s.card.complete:
            return Chances(rs.totals(s.card).grand, _ones())
        try:
            dd = distributions(rs, table=table)
        except UnsupportedRuleset as e:
            raise AdviceError(f"no exact distributions for {e}; distribution(games=N) "
                              f"simulates games instead") from None
        if not s.dice:
            return Chances(*dd.final(s.card, s.turn))
        if self.solution.forced_turn(s.card, s.turn):
            raise AdviceError("the distribution from inside the forced first turn is not "
                              "available (give the situation before its first roll)")
        return Chances(*self._turn_chances(s, dd))

    def _turn_chances(self, s: Situation, dd: Any) -> tuple[int, Any]:
        """(lo, pmf) of the final total from a turn in progress: the expert's choices
        followed through every roll to the box, then the distributions."""
        from itertools import combinations_with_replacement

        from yacht.engine.state import roll_probability
        from yacht.rules import counts_of

        rs = self.ruleset
        faces, n = rs.faces, rs.dice
        memo: dict[tuple[tuple[int, ...], int], tuple[int, Any]] = {}
        kept: dict[tuple[tuple[int, ...], int], tuple[int, Any]] = {}
        top = rs.max_rolls(rs.context(s.card, s.turn))   # rolls allowed this turn

        def at(dice: tuple[int, ...], r: int) -> tuple[int, Any]:
            hit = memo.get((dice, r))
            if hit is not None:
                return hit
            o = self.best(Situation(rs, s.card, dice, r, s.turn))
            if o.kind == "score":
                ctx = rs.context(s.card, s.turn, top - r)
                counts = counts_of(dice, faces)
                pl = next(p for p in rs.placements(ctx, counts)
                          if p.category == o.box and p.column == o.column)
                card = rs.after_score(ctx, counts, pl, [rs.place(s.card, pl)], 0)[0]
                lo, pmf = dd.final(card, s.turn + 1)
                out = (int(lo), pmf)
            elif (o.keep, r) in kept:
                out = kept[(o.keep, r)]
            else:
                parts = [(float(roll_probability(c, faces)), at(tuple(sorted(o.keep + c)), r - 1))
                         for c in combinations_with_replacement(range(1, faces + 1),
                                                                n - len(o.keep))]
                out = kept[(o.keep, r)] = _mixture(parts)
            memo[(dice, r)] = out
            return out

        return at(tuple(sorted(s.dice)), s.rolls_left)

    def win_chances(self, where: State | Sequence[Where]) -> list[float]:
        """Each player's exact chance of finishing first if all play on as the expert (a
        shared first place counts for each): of every player in a game of the engine
        (the player on turn from the dice showing, the others from their cards), or of
        the players in the situations given, one each in seat order (:meth:`chances`).
        Where a roll can end the game at once (Generala's served Generala), the chance
        that a turn still to start ends it is counted: the turns go round in seat
        order, the next to start being the first player with the fewest turns begun (a
        situation with dice showing has begun its turn)."""
        from .solver.dist import end_chance, table_win_chances

        if isinstance(where, State):
            if where.ruleset.key != self.ruleset.key:
                raise AdviceError(f"a game of {where.ruleset.key}, not {self.ruleset.key}")
            if where.is_terminal():
                won = where.winners()
                return [1.0 if p in won else 0.0 for p in range(len(where.players))]
            now = where.current
            wheres: list[Where] = [
                where if p == now else Situation.of(self.ruleset, where.card(p),
                                                    turn=where.turns_taken(p))
                for p in range(len(where.players))]
        elif isinstance(where, (str, Situation)) or where is None:
            raise AdviceError("win_chances takes a game (State) or a list of situations, "
                              "one a player")
        else:
            try:
                wheres = list(where)
            except TypeError:
                raise AdviceError(f"win_chances takes a game (State) or a list of "
                                  f"situations, one a player, not {type(where).__name__}"
                                  ) from None
        if not wheres:
            raise AdviceError("win_chances needs at least one player's situation")
        if len(wheres) == 1:
            self.chances(wheres[0])   # (its errors)
            return [1.0]  # (alone: first for certain, not a sum of chances a hair below 1)
        situations = [self._situation(w) for w in wheres]
        finals = [self._chances(s, table=True) for s in situations]
        begun = [s.turn + (1 if s.dice else 0) for s in situations]
        left = [sum(len(col) for col in s.card.boxes) - s.card.filled - (1 if s.dice else 0)
                for s in situations]
        return table_win_chances([(c.lo, c.pmf) for c in finals], left,
                                 begun.index(min(begun)), end_chance(self.ruleset))


_SOLVED: dict[str, SolvedVariant] = {}
_SOLVED_LOCK = threading.Lock()


def solve(variant: str | Ruleset, options: Mapping[str, str] | None = None, /, *,
          progress: Any = False, workers: int | None = None, **more: str) -> SolvedVariant:
    """The solved variant (built on first use, then from the cache): ``yacht.solve("yatzy")``,
    ``yacht.solve("yahtzee", joker="free")`` or ``yacht.solve("yahtzee", {"joker": "free"})``.
    """
    rs = variant if isinstance(variant, Ruleset) else get(variant)
    if options is not None and not isinstance(options, Mapping):
        raise OptionError(f"{rs.id}: the options are a mapping of names to values "
                          f"({{'joker': 'free'}}) or keywords (joker='free'), not "
                          f"{type(options).__name__}")
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


def _earn_table(rs: Ruleset) -> tuple[Any, int]:
    """See :meth:`SolvedVariant._earn`: rows per box (column * categories + category),
    one entry per value from the lowest to the highest a box can hold (0 included), as
    the C advisor lays out the values boxes can hold."""
    import numpy as np

    label = next((t for t in (r.extra_label(rs) for r in rs.special) if t), None)
    if label is None:
        return None, rs.turns
    values = [v for i in range(len(rs.categories)) for v in parsing.possible_values(rs, i)]
    low = min(0, *(v for v in values if v > -1_000_000))
    high = max(0, *(v for v in values if v < 1_000_000)) + 1
    ncat = len(rs.categories)
    earn = np.zeros((len(rs.columns) * ncat, high - low), dtype=np.int64)
    for col in range(len(rs.columns)):
        for i in range(ncat):
            for value in parsing.possible_values(rs, i):
                steps = parsing.extra_steps(rs, col, i, value)
                if steps and low <= value < high:
                    earn[col * ncat + i, value - low] = min(steps) if len(steps) == 1 else -1
    return earn, rs.turns


def _ones() -> Any:
    import numpy as np

    return np.ones(1)


def _mixture(parts: Sequence[tuple[float, tuple[int, Any]]]) -> tuple[int, Any]:
    """(lo, pmf) of the mixture of the distributions ``parts`` (weight, (lo, pmf))."""
    import numpy as np

    lo = min(d[0] for _, d in parts)
    hi = max(d[0] + len(d[1]) for _, d in parts)
    out = np.zeros(hi - lo)
    for w, (dlo, pmf) in parts:
        out[dlo - lo:dlo - lo + len(pmf)] += w * pmf
    return lo, out


def _ascii_digits(text: str) -> bool:
    """0-9 only (``str.isdigit`` also takes other scripts' digits and ``²``)."""
    return text.isascii() and text.isdigit()
