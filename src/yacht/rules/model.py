"""The data that makes a variant: categories, columns, bonus, options, special rules."""

from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

from .errors import InvalidType, InvalidValue, YachtError
from .scoring import Counts, counts_of, describe, score

if TYPE_CHECKING:
    from .hooks import SpecialRule

Section = Literal["upper", "lower"]
#: what a click on a die means: hold it, or mark it to roll again
DiceMark = Literal["hold", "reroll"]
#: every value of :data:`DiceMark`
DICE_MARKS: tuple[DiceMark, ...] = ("hold", "reroll")

__all__ = [
    "DICE_MARKS",
    "Category",
    "ColumnTotals",
    "DiceMark",
    "Option",
    "OptionError",
    "Par",
    "Placement",
    "Ruleset",
    "Scorecard",
    "Totals",
    "Change",
    "TurnContext",
    "UnknownBox",
    "UpperBonus",
]


#: the most players a table seats (a variant may allow fewer)
MAX_PLAYERS = 8


class OptionError(YachtError, ValueError):
    """An option name or value that the variant does not accept."""


class UnknownBox(YachtError, KeyError):
    """The variant has no box of that id (a KeyError, as a mapping's lookup raises):
    the message names the boxes it has."""

    def __str__(self) -> str:  # (a KeyError shows its argument quoted)
        return str(self.args[0]) if self.args else "unknown box"


def check_dice(dice: Sequence[int], faces: int, count: int | None = None) -> tuple[int, ...]:
    """``dice`` as plain ints when each is a face (1-``faces``), and there are ``count``
    of them if given; ValueError in one line otherwise (TypeError for what is no whole
    number). For the public ways in to scoring; the scorers themselves trust their
    counts.

    >>> check_dice([1, 2, 0], 6)
    Traceback (most recent call last):
    ...
    yacht.rules.errors.InvalidValue: die value 0 is not a face (accepted: 1-6)
    """
    if isinstance(dice, str | bytes) or not hasattr(dice, "__iter__"):
        raise InvalidType(f"dice are a sequence of whole numbers, not {dice!r}")
    out = []
    for v in dice:
        try:
            if isinstance(v, bool):
                raise TypeError
            out.append(operator.index(v))
        except TypeError:
            raise InvalidType(f"a die's value must be a whole number (int), not {v!r}") from None
    if count is not None and len(out) != count:
        raise InvalidValue(f"{len(out)} dice given: this game is played with {count} "
                           f"(accepted: {count} values 1-{faces})")
    bad = next((v for v in out if not 1 <= v <= faces), None)
    if bad is not None:
        raise InvalidValue(f"die value {bad} is not a face (accepted: 1-{faces})")
    return tuple(out)


_SCORED: dict[tuple[str, Any, Counts], int] = {}
_SCORED_MAX = 1 << 18


@dataclass(frozen=True)
class Category:
    """One box of the scorecard.

    >>> c = Category("fours", "Fours", "upper", "face", (("face", 4),))
    >>> c.score((4, 4, 1, 4, 2))
    12
    """

    id: str
    label: str
    section: Section
    scorer: str
    params: tuple[tuple[str, Any], ...] = ()
    #: the original program's name for the box where it had one of its own (Tommy's
    #: boards 1-9, A-D); "" otherwise. (Names and letters are no part of how a box
    #: scores: two boxes that score alike are equal whatever they are called.)
    board: str = field(default="", compare=False)
    #: the letter the original program took for the box ("" for none): offered as the
    #: box's key when no key of the game has it
    letter: str = field(default="", compare=False)

    @property
    def parameters(self) -> Mapping[str, Any]:
        return MappingProxyType(dict(self.params))

    def score_counts(self, counts: Counts) -> int:
        # a box's points depend on its scorer, parameters and the dice alone: worked
        # out once (a table server scores every open box of every new roll)
        key = (self.scorer, self.params, counts)
        try:
            return _SCORED[key]
        except KeyError:
            pass
        except TypeError:  # parameters that cannot be a key (not from a built-in ruleset)
            return score(self.scorer, counts, self.parameters)
        points = score(self.scorer, counts, self.parameters)
        if len(_SCORED) >= _SCORED_MAX:
            _SCORED.clear()
        _SCORED[key] = points
        return points

    def score(self, dice: Iterable[int], faces: int = 6) -> int:
        """The box's points for ``dice`` (each 1-``faces``: ValueError otherwise)."""
        return self.score_counts(counts_of(check_dice(tuple(dice), faces), faces))

    def describe(self, dice: int) -> str:
        return describe(self.scorer, self.parameters, dice)


@dataclass(frozen=True)
class UpperBonus:
    """Points added to a column when its upper section reaches a threshold.

    ``tiers`` are further steps, (upper total needed, bonus then), each replacing the
    one before (Kismet: 35 at 63, 55 at 71, 75 at 78; never added up).

    >>> UpperBonus(63, ">=", 35).earned(63), UpperBonus(63, ">", 35).earned(63)
    (True, False)
    >>> kismet = UpperBonus(63, ">=", 35, ((71, 55), (78, 75)))
    >>> [kismet.amount_for(u) for u in (62, 63, 70, 71, 77, 78, 105)]
    [0, 35, 35, 55, 55, 75, 75]
    >>> kismet.next_step(66), kismet.next_step(78)
    ((71, 55), None)
    """

    threshold: int
    comparison: Literal[">=", ">"]
    amount: int
    tiers: tuple[tuple[int, int], ...] = ()

    def earned(self, upper: int) -> bool:
        return upper >= self.threshold if self.comparison == ">=" else upper > self.threshold

    @property
    def needed(self) -> int:
        """The smallest upper total that earns the bonus."""
        return self.threshold if self.comparison == ">=" else self.threshold + 1

    @property
    def steps(self) -> tuple[tuple[int, int], ...]:
        """Every step as (smallest upper total, bonus), lowest first."""
        return ((self.needed, self.amount), *self.tiers)

    @property
    def top(self) -> int:
        """The upper total that earns the largest bonus (where counting further stops)."""
        return self.steps[-1][0]

    @property
    def best(self) -> int:
        """The largest bonus."""
        return max(a for _, a in self.steps)

    def amount_for(self, upper: int) -> int:
        """The bonus an upper total earns (0 below the first step)."""
        got = 0
        for need, amount in self.steps:
            if upper >= need:
                got = amount
        return got

    def next_step(self, upper: int) -> tuple[int, int] | None:
        """The next step above what ``upper`` earns: (upper total needed, its bonus)."""
        for need, amount in self.steps:
            if upper < need:
                return need, amount
        return None


@dataclass(frozen=True)
class Par:
    """A score the original program judged every final score against.

    >>> Par(335, "the author's").whose
    "the author's"
    """

    score: int
    whose: str


@dataclass(frozen=True)
class Option:
    """A setting a player may choose for a variant.

    ``field`` names an integer field of :class:`Ruleset` that the value
    replaces (``"rolls"``); otherwise special rules read the value by id.
    """

    id: str
    label: str
    values: tuple[str, ...]
    default: str
    help: str
    value_help: tuple[str, ...] = ()
    field: str | None = None
    #: what a value changes in the ruleset, beyond what special rules read: value ->
    #: the changes (a box's parameter, a box dropped, the upper bonus)
    changes: tuple[tuple[str, tuple[Change, ...]], ...] = ()

    def changes_for(self, value: str) -> tuple[Change, ...]:
        return dict(self.changes).get(value, ())


@dataclass(frozen=True)
class Change:
    """One change an option's value makes: ``category``'s parameter ``param`` becomes
    ``value``, or the box is dropped (``drop``), or (no category) the upper bonus
    becomes ``bonus``."""

    category: str = ""
    param: str = ""
    value: Any = None
    drop: bool = False
    bonus: UpperBonus | None = None

    def apply(self, categories: list[Category], bonus: UpperBonus | None
              ) -> tuple[list[Category], UpperBonus | None]:
        if not self.category:
            return categories, self.bonus
        out = []
        for c in categories:
            if c.id != self.category:
                out.append(c)
            elif not self.drop:
                params = dict(c.params)
                params[self.param] = self.value
                out.append(replace(c, params=tuple(params.items())))
        return out, bonus


@dataclass(frozen=True)
class Scorecard:
    """One player's card: ``boxes[column][category]`` is ``None`` while open.

    ``extra`` holds points that belong to no box (the Yahtzee bonuses); ``saved`` the
    rolls the player has saved for later turns (Maxi Yatzy).
    """

    boxes: tuple[tuple[int | None, ...], ...]
    extra: int = 0
    saved: int = 0

    @classmethod
    def empty(cls, columns: int, categories: int) -> Scorecard:
        return cls(tuple((None,) * categories for _ in range(columns)))

    def is_open(self, column: int, category: int) -> bool:
        return self.boxes[column][category] is None

    @property
    def filled(self) -> int:
        return sum(1 for col in self.boxes for b in col if b is not None)

    @cached_property
    def complete(self) -> bool:
        # (asked after every action of every game: a card never changes, so once)
        return all(b is not None for col in self.boxes for b in col)

    def with_box(self, column: int, category: int, value: int | None, extra: int = 0) -> Scorecard:
        col = list(self.boxes[column])
        col[category] = value
        boxes = list(self.boxes)
        boxes[column] = tuple(col)
        return Scorecard(tuple(boxes), self.extra + extra, self.saved)

    def with_saved(self, saved: int) -> Scorecard:
        return Scorecard(self.boxes, self.extra, saved)

    def first_open(self) -> tuple[int, int] | None:
        """The topmost open box (column, category), first column first; None when full."""
        for col, boxes in enumerate(self.boxes):
            for i, b in enumerate(boxes):
                if b is None:
                    return col, i
        return None

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"boxes": [list(c) for c in self.boxes], "extra": self.extra}
        if self.saved:
            d["saved"] = self.saved
        return d


@dataclass(frozen=True)
class Placement:
    """A way to score the current dice: a box, the points, and any bonus.

    ``repeat`` marks a score added to an already filled box (Tommy's
    Yahtzee board); ``joker`` marks points given by a Joker rule; ``served`` points
    that count more for being scored from the turn's first roll (Generala).
    """

    category: str
    column: int
    points: int
    bonus: int = 0
    repeat: bool = False
    joker: bool = False
    served: bool = False

    @property
    def total(self) -> int:
        return self.points + self.bonus


@dataclass(frozen=True)
class TurnContext:
    """What a special rule may look at: the player's card and the turn so far."""

    card: Scorecard
    turn: int
    rolls: int
    settings: Mapping[str, str]
    #: how many play at the table (a rule may apply only with opponents)
    players: int = 1


@dataclass(frozen=True)
class ColumnTotals:
    upper: int
    bonus: int
    lower: int
    multiplier: int

    @property
    def subtotal(self) -> int:
        return self.upper + self.bonus + self.lower

    @property
    def weighted(self) -> int:
        return self.subtotal * self.multiplier


@dataclass(frozen=True)
class Totals:
    columns: tuple[ColumnTotals, ...]
    extra: int

    @property
    def grand(self) -> int:
        return sum(c.weighted for c in self.columns) + self.extra


@dataclass(frozen=True)
class Ruleset:
    """Everything that makes one variant, as data.

    Special rules are hook objects (see :mod:`yacht.rules.hooks`); the engine
    calls them at fixed points and never asks which variant it plays.

    >>> from yacht.rules import get
    >>> rs = get("yatzy")
    >>> rs.dice, rs.rolls, len(rs.categories)
    (5, 3, 15)
    >>> rs.scores((6, 6, 6, 6, 6))["two_pairs"]
    0
    """

    id: str
    name: str
    description: str
    origin: str
    dice: int
    rolls: int
    categories: tuple[Category, ...]
    faces: int = 6
    aliases: tuple[str, ...] = ()
    columns: tuple[int, ...] = (1,)
    upper_bonus: UpperBonus | None = None
    options: tuple[Option, ...] = ()
    special: tuple[SpecialRule, ...] = ()
    min_players: int = 1
    max_players: int = MAX_PLAYERS
    notes: tuple[str, ...] = ()
    #: the score the original judged every game against (None: the best possible)
    par: Par | None = None
    #: what clicking a die does by default: ``"hold"`` keeps it out of the next roll
    #: (Yatsee, today's apps), ``"reroll"`` marks it to roll again (Ancient Yacht,
    #: Windows Yacht, Yatcy, Tommy's). How the dice are shown, not how the game
    #: scores: rulesets that differ only here are equal.
    dice_mark: DiceMark = field(default="hold", compare=False)
    #: the card's names of its two sections (Kismet's card: "Basic" and "Kismet")
    section_names: tuple[str, str] = field(default=("Upper", "Lower"), compare=False)
    #: each face's colour, ones first, when the dice are coloured (Kismet: 1 and 6
    #: black, 2 and 5 red, 3 and 4 green); () for plain dice. Boxes that look at the
    #: colours have them in their own parameters: this is how the dice are shown.
    die_colours: tuple[str, ...] = field(default=(), compare=False)
    settings: tuple[tuple[str, str], ...] = field(default=())
    #: every box and the bonus before any option's changes (set from ``categories`` and
    #: ``upper_bonus`` when the ruleset is made)
    catalogue: tuple[Category, ...] = field(default=(), compare=False, repr=False)
    base_bonus: UpperBonus | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not 1 <= self.dice <= 10:
            raise InvalidValue(f"{self.id}: dice must be 1-10, not {self.dice}")
        if not self.catalogue:
            object.__setattr__(self, "catalogue", self.categories)
            object.__setattr__(self, "base_bonus", self.upper_bonus)
        if not self.settings and self.options:
            object.__setattr__(self, "settings", tuple((o.id, o.default) for o in self.options))
            if any(o.changes for o in self.options):  # the defaults' changes
                object.__setattr__(self, "categories", self._changed(self.settings)[0])
                object.__setattr__(self, "upper_bonus", self._changed(self.settings)[1])

    def _changed(self, settings: Iterable[tuple[str, str]]
                 ) -> tuple[tuple[Category, ...], UpperBonus | None]:
        """The boxes and the bonus with every option's changes for ``settings``."""
        cats, bonus = list(self.catalogue), self.base_bonus
        for key, value in settings:
            for change in self.option(key).changes_for(value):
                cats, bonus = change.apply(cats, bonus)
        return tuple(cats), bonus

    def __hash__(self) -> int:
        """Worked out once: a ruleset keys the caches an interface reads on every
        snapshot, and hashing all its categories each time was a tenth of one."""
        found: int | None = self.__dict__.get("_hash")
        if found is None:
            found = hash(tuple(getattr(self, f.name) for f in fields(self) if f.compare))
            object.__setattr__(self, "_hash", found)
        return found

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the kept hash: another process hashes strings differently."""
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}

    # --- options ----------------------------------------------------------
    @property
    def option_values(self) -> Mapping[str, str]:
        """The chosen value of every option (defaults where none was chosen)."""
        return MappingProxyType(dict(self.settings))

    def option(self, option_id: str) -> Option:
        for o in self.options:
            if o.id == option_id:
                return o
        accepted = ", ".join(o.id for o in self.options) or "none"
        raise OptionError(f"{self.id} has no option {option_id!r} (options: {accepted})")

    def configure(self, options: Mapping[str, str] | None = None, /, **more: str) -> Ruleset:
        """This variant with options set; unknown names or values raise OptionError (a
        value is text: ``"3"``, not 3 or None).

        >>> from yacht.rules import get
        >>> get("ancient-yacht-10").configure(rolls="3").rolls
        3
        """
        chosen = dict(self.settings)
        for key, value in {**(options or {}), **more}.items():
            opt = self.option(key)
            if not isinstance(value, str):
                raise OptionError(
                    f"{self.id}: option {key}'s value must be text, not {value!r} "
                    f"(accepted: {'|'.join(opt.values)})")
            value = value.strip().lower()
            if value not in opt.values:
                raise OptionError(
                    f"{self.id}: option {key} cannot be {value!r} (accepted: "
                    f"{'|'.join(opt.values)})"
                )
            chosen[key] = value
        settings = tuple((o.id, chosen[o.id]) for o in self.options)
        changes: dict[str, Any] = {"settings": settings}
        for opt in self.options:
            if opt.field is not None:
                changes[opt.field] = int(chosen[opt.id])
        if any(o.changes for o in self.options):
            changes["categories"], changes["upper_bonus"] = self._changed(settings)
        return replace(self, **changes)

    @property
    def key(self) -> str:
        """Id plus every option value: one string per kind of game (high-score tables, caches)."""
        if not self.settings:
            return self.id
        return self.id + "".join(f";{k}={v}" for k, v in self.settings)

    # --- categories ---------------------------------------------------------
    def index(self, category_id: str) -> int:
        """The position of the box ``category_id`` on the card (from 0); UnknownBox (a
        KeyError) naming the boxes there are otherwise.

        >>> from yacht.rules import get
        >>> get("yatzy").index("chance")
        13
        >>> get("tommys-crag").index("nope")
        Traceback (most recent call last):
        ...
        yacht.rules.model.UnknownBox: tommys-crag has no box 'nope' (boxes: ones, twos, ...
        """
        for i, c in enumerate(self.categories):
            if c.id == category_id:
                return i
        raise UnknownBox(f"{self.id} has no box {category_id!r} (boxes: "
                         f"{', '.join(c.id for c in self.categories)})")

    def category(self, category_id: str) -> Category:
        """The box ``category_id`` (UnknownBox, a KeyError, if there is none)."""
        return self.categories[self.index(category_id)]

    def upper_category(self, face: int) -> Category | None:
        """The upper box that counts ``face`` (if the variant has one)."""
        for c in self.categories:
            if c.scorer == "face" and int(c.parameters["face"]) == face:
                return c
        return None

    def scores(self, dice: Sequence[int]) -> dict[str, int]:
        """What every category's scorer gives ``dice``: the box's own points, before any
        special rule (which may change them by the card or the turn: a Joker, a served
        roll, a box that needs another). ``dice``: one value (1-:attr:`faces`) per die of
        the game, else ValueError in one line.

        >>> from yacht.rules import get
        >>> get("yatzy").scores([6, 6, 6])
        Traceback (most recent call last):
        ...
        yacht.rules.errors.InvalidValue: 3 dice given: this game is played with 5 (accepted: ...)
        """
        counts = counts_of(check_dice(dice, self.faces, self.dice), self.faces)
        return {c.id: c.score_counts(counts) for c in self.categories}

    @property
    def turns(self) -> int:
        """Boxes per player: the number of turns when no rule adds any."""
        return len(self.categories) * len(self.columns)

    # --- one turn -------------------------------------------------------------
    def new_card(self) -> Scorecard:
        return Scorecard.empty(len(self.columns), len(self.categories))

    def context(self, card: Scorecard, turn: int = 0, rolls: int = 1,
                players: int = 1) -> TurnContext:
        return TurnContext(card, turn, rolls, self.option_values, players)

    def max_rolls(self, ctx: TurnContext) -> int:
        """Rolls allowed in this turn (a special rule may allow more)."""
        limit = self.rolls
        for rule in self.special:
            limit = rule.max_rolls(self, ctx, limit)
        return limit

    def may_reroll(self, ctx: TurnContext, counts: Counts) -> bool:
        """Whether the player may roll again after this roll."""
        if ctx.rolls >= self.max_rolls(ctx):
            return False
        return all(rule.may_reroll(self, ctx, counts) for rule in self.special)

    def no_box_reason(self, ctx: TurnContext, counts: Counts) -> str | None:
        """Why a special rule lets no box take these dice now, as a clause ("the first
        turn goes to the Yacht box, which takes only 5 matching dice"); None: no rule
        keeps them out (every open box may be there, or none is open to them)."""
        for rule in self.special:
            why = rule.no_box_reason(self, ctx, counts)
            if why is not None:
                return why
        return None

    def stop_reason(self, ctx: TurnContext, counts: Counts) -> str | None:
        """Why a special rule ends the turn's rolling before its rolls are used up, as a
        clause ("all 5 dice match"); None when it does not (rolls left, or none)."""
        if ctx.rolls >= self.max_rolls(ctx):
            return None
        for rule in self.special:
            if not rule.may_reroll(self, ctx, counts):
                return rule.stop_reason(self, ctx, counts)
        return None

    def placements(self, ctx: TurnContext, counts: Counts) -> list[Placement]:
        """Every legal way to score these dice now, with the points each gives."""
        options = [
            Placement(cat.id, col, cat.score_counts(counts))
            for col in range(len(self.columns))
            for i, cat in enumerate(self.categories)
            if ctx.card.is_open(col, i)
        ]
        for rule in self.special:
            options = rule.placements(self, ctx, counts, options)
        return options

    def after_score(self, ctx: TurnContext, counts: Counts, placement: Placement,
                    cards: Sequence[Scorecard], me: int) -> list[Scorecard]:
        """Every player's card once player ``me`` has scored ``placement`` (already on
        ``cards[me]``; ``ctx``: the turn as it was): a special rule may save rolls on
        the player's card or write on another player's."""
        out = list(cards)
        for rule in self.special:
            out = rule.after_score(self, ctx, counts, placement, out, me)
        return out

    def ends_game(self, ctx: TurnContext, counts: Counts) -> bool:
        """Whether this roll ends the game at once, the roller winning."""
        return any(rule.ends_game(self, ctx, counts) for rule in self.special)

    def end_reason(self) -> str:
        """Why a game that ended at once is over (what its special rules say)."""
        return next((r for rule in self.special if (r := rule.end_reason(self))),
                    "a roll that ends the game")

    def penalty_reason(self) -> str:
        """What made a player write on another player's card."""
        return next((r for rule in self.special if (r := rule.penalty_reason(self))),
                    "a special rule")

    def box_mark(self, category: str, value: int) -> str | None:
        """A word a special rule gives the value of a filled box ("served"), or None."""
        for rule in self.special:
            mark = rule.box_mark(self, category, value)
            if mark:
                return mark
        return None

    def place(self, card: Scorecard, placement: Placement) -> Scorecard:
        """The card after ``placement`` is scored on it."""
        i = self.index(placement.category)
        old = card.boxes[placement.column][i]
        if placement.repeat:
            value = (old or 0) + placement.points
        else:
            if old is not None:
                raise InvalidValue(f"box {placement.category} is already filled")
            value = placement.points
        return card.with_box(placement.column, i, value, placement.bonus)

    def totals(self, card: Scorecard) -> Totals:
        cols = []
        for col, mult in enumerate(self.columns):
            upper = lower = 0
            for i, cat in enumerate(self.categories):
                v = card.boxes[col][i] or 0
                if cat.section == "upper":
                    upper += v
                else:
                    lower += v
            bonus = self.upper_bonus.amount_for(upper) if self.upper_bonus else 0
            cols.append(ColumnTotals(upper, bonus, lower, mult))
        return Totals(tuple(cols), card.extra)
