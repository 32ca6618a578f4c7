"""The game as a pure state machine: one State API for the UIs and every algorithm."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from math import factorial
from typing import Any, ClassVar, Literal, Protocol, TypeVar

from yacht.rules import Placement, Ruleset, Scorecard, Totals, TurnContext, YachtError, counts_of
from yacht.rules.errors import InvalidType, InvalidValue

from .actions import Action, Choose, GiveBack, IllegalAction, Roll, Score, TakeBack
from .dice import NO_DICE, Commitment, DiceSource, RandomDice, SeededDice

__all__ = ["DEFAULT_LEVEL", "NAME_LENGTH", "PLAYER_LEVELS", "Player", "PlayerIndexError", "Rng",
           "State", "roll_probability"]

#: the longest player name (in characters)
NAME_LENGTH = 20

#: the levels a person can choose for a computer player, weakest first (the strategy
#: package makes them; "random" is for tests and self-play)
PLAYER_LEVELS: tuple[str, ...] = ("beginner", "intermediate", "expert", "champion")

#: a computer player's level when none is named
DEFAULT_LEVEL = "intermediate"

PlayerKind = Literal["person", "computer"]


class PlayerIndexError(YachtError, IndexError):
    """A player index that is not one of the game's (0 to the number of players - 1):
    negative indices are refused, never counted from the end."""


class Rng(Protocol):
    """What the engine needs from a random number generator (``random.Random`` fits)."""

    def randint(self, a: int, b: int) -> int: ...


@dataclass(frozen=True)
class Player:
    """A seat at the table: a person or a computer player of some level.

    Checked when made: ``name`` is text of 1-:data:`NAME_LENGTH` characters, ``kind``
    is ``"person"`` or ``"computer"``, a computer's ``level`` None or one of
    :data:`PLAYER_LEVELS` (or ``"random"``, for tests and self-play); ``InvalidType``
    (a TypeError) or ``InvalidValue`` (a ValueError), both ``yacht.YachtError``, in
    one line otherwise. A name a person types goes through
    :func:`yacht.parsing.check_name` too (visible characters only).

    A record keeps the names and levels it was played with, and loads whatever they
    are (:meth:`from_json`: games saved before names had their 20-character limit; a
    level this version does not have, which a table plays at random with a warning):
    only their types are checked there.

    >>> Player("Ann", "robot")
    Traceback (most recent call last):
    ...
    yacht.rules.errors.InvalidValue: player kind 'robot' is not person or computer
    >>> Player("Cpu", "computer", "grandmaster")
    Traceback (most recent call last):
    ...
    yacht.rules.errors.InvalidValue: computer level 'grandmaster' is not one of beginner, ...
    >>> Player.from_json({"name": "Cpu", "kind": "computer", "level": "grandmaster"}).level
    'grandmaster'
    """

    name: str
    kind: PlayerKind = "person"
    level: str | None = None

    def __post_init__(self) -> None:
        self._check_types()
        if not 1 <= len(self.name) <= NAME_LENGTH:
            shown = self.name if len(self.name) <= 2 * NAME_LENGTH else \
                self.name[:2 * NAME_LENGTH] + "..."
            raise InvalidValue(f"player name {shown!r} has {len(self.name)} characters: a "
                               f"name has 1-{NAME_LENGTH}")
        if self.kind == "computer" and self.level is not None \
                and self.level not in (*PLAYER_LEVELS, "random"):
            shown = self.level if len(self.level) <= NAME_LENGTH else \
                self.level[:NAME_LENGTH] + "..."
            raise InvalidValue(f"computer level {shown!r} is not one of "
                               f"{', '.join(PLAYER_LEVELS)} (or random)")

    def _check_types(self) -> None:
        if not isinstance(self.name, str):
            raise InvalidType(f"a player's name must be text, not {self.name!r}")
        if self.kind not in ("person", "computer"):
            raise InvalidValue(f"player kind {self.kind!r} is not person or computer")
        if self.level is not None and not isinstance(self.level, str):
            raise InvalidType(f"a player's level must be text or None, not {self.level!r}")

    @property
    def is_computer(self) -> bool:
        return self.kind == "computer"

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"name": self.name, "kind": self.kind}
        if self.level is not None:
            d["level"] = self.level
        return d

    @classmethod
    def from_json(cls, obj: Any) -> Player:
        """A player from its JSON object, its name and level as a record keeps them (any
        length, any level); ValueError naming what is wrong."""
        if not isinstance(obj, dict) or not isinstance(obj.get("name"), str):
            raise InvalidValue("a player must be an object with a 'name'")
        # (a record's name and level stand as they were played: their types are checked)
        player = object.__new__(cls)
        for key, value in (("name", obj["name"]), ("kind", obj.get("kind", "person")),
                           ("level", obj.get("level"))):
            object.__setattr__(player, key, value)
        try:
            player._check_types()
        except TypeError as e:
            raise InvalidValue(str(e)) from None
        return player


def roll_probability(outcome: Sequence[int], faces: int = 6) -> Fraction:
    """Chance that ``len(outcome)`` dice show this multiset.

    >>> roll_probability((1, 1, 2))
    Fraction(1, 72)
    """
    n = len(outcome)
    ways = factorial(n)
    for c in counts_of(outcome, faces):
        ways //= factorial(c)
    return Fraction(ways, faces**n)


@dataclass
class _Position:
    """Everything that decides the game from here (no log, no RNG)."""

    cards: list[Scorecard]
    turns: list[int]
    current: int
    dice: tuple[int, ...] = ()
    rolls: int = 0
    chosen: frozenset[int] = frozenset()
    undo: _Position | None = field(default=None, repr=False)
    #: the player whose roll ended the game at once (a served Generala), or None
    ended: int | None = None

    def key(self) -> tuple[Any, ...]:
        return (tuple(self.cards), tuple(self.turns), self.current, self.dice, self.rolls,
                self.chosen, self.undo.key() if self.undo else None, self.ended)


class State:
    """A game of any variant for 1-8 players.

    What a game allows, in the terms of OpenSpiel: :meth:`legal_actions` lists every
    move allowed now (with the Oops ones: :class:`GiveBack`, and :class:`TakeBack`
    while the scoring may be taken back), :meth:`chance_outcomes` the outcomes of a
    :class:`Roll` when one is allowed, :meth:`apply` plays an action or raises
    IllegalAction (TypeError for an object that is no action) leaving the state as it
    was, :meth:`returns` gives each player's total.

    **A terminal state** (:meth:`is_terminal`: every card full, or a roll that ended the
    game) has no moves: :meth:`legal_actions` and :meth:`chance_outcomes` are empty and
    Roll, Choose, Score and GiveBack are refused. The one thing it still allows is the
    Oops take-back of the final scoring when a person made it (:meth:`can_take_back`):
    an undo, not a move (a table offers it in the pause at the game's end, until the
    results are in); applied, the game is no longer over. A search that plays to the
    end stops at a terminal state; it never needs the take-back (:meth:`clone` keeps a
    position to go back to).

    Two states are equal (``==``) when they play one ruleset (with its options), with
    the same players, in the same position (with what may be taken back) reached by the
    same log; where their dice come from is no part of it. A state is mutable and
    therefore not hashable: :meth:`position_key` is the hashable key of a position.

    >>> import random
    >>> from yacht.rules import get
    >>> s = State(get("yatzy"), [Player("Ann")], rng=random.Random(1))
    >>> s.apply(Roll((6, 6, 6, 2, 3)))
    >>> s.apply(Score("sixes"))
    >>> s.totals(0).grand
    18
    >>> s.apply(TakeBack()); s.dice
    (6, 6, 6, 2, 3)
    """

    def __init__(self, ruleset: Ruleset, players: Sequence[Player], rng: Rng | None = None,
                 *, seed: bytes | None = None, dice: DiceSource | None = None):
        """Where the dice come from: ``rng`` (a generator: simulations, tests), ``seed``
        (32 bytes: see :mod:`yacht.engine.dice`), or ``dice`` (another state's
        :attr:`dice_source`); none of them: a fresh secret seed."""
        if not isinstance(ruleset, Ruleset):
            raise InvalidType(f"a state plays a Ruleset (yacht.rules.get(name)), not "
                              f"{ruleset!r}")
        if not 1 <= len(players) <= ruleset.max_players:
            raise InvalidValue(
                f"{ruleset.id} takes {ruleset.min_players}-{ruleset.max_players} players, "
                f"not {len(players)}")
        bad = next((p for p in players if not isinstance(p, Player)), None)
        if bad is not None:
            raise InvalidType(f"a state's players are Player objects, not {bad!r}")
        if sum(x is not None for x in (rng, seed, dice)) > 1:
            raise InvalidValue("give the dice one source: a generator, a seed or a dice source")
        self.ruleset = ruleset
        self.players: tuple[Player, ...] = tuple(players)
        self.dice_source: DiceSource = (
            dice if dice is not None else RandomDice(rng) if rng is not None
            else SeededDice(seed) if seed is not None else SeededDice.new())
        self.log: list[Action] = []
        #: a roll was entered by hand (real dice): the game is marked "dice entered"
        self.dice_entered = False
        self._p = _Position(
            cards=[ruleset.new_card() for _ in players], turns=[0] * len(players), current=0)
        self._placements: tuple[Placement, ...] | None = None

    # --- reading -------------------------------------------------------------
    @property
    def current(self) -> int:
        """Index of the player on turn."""
        return self._p.current

    def current_player(self) -> int:
        """Index of the player on turn (the same as :attr:`current`)."""
        return self._p.current

    @property
    def dice(self) -> tuple[int, ...]:
        """The dice showing, in position order; empty before the turn's first roll."""
        return self._p.dice

    @property
    def rolls(self) -> int:
        """Rolls made in this turn."""
        return self._p.rolls

    @property
    def chosen(self) -> frozenset[int]:
        """Positions of the dice chosen for the next roll."""
        return self._p.chosen

    def _seat(self, player: object) -> int:
        """``player`` as an index of :attr:`players`: a whole number 0 to the number of
        players - 1 (:class:`PlayerIndexError` otherwise, negative ones too: ``-1`` is
        no player, not the last one; TypeError for what is no whole number)."""
        n = len(self.players)
        if type(player) is int and 0 <= player < n:
            return player
        if isinstance(player, bool) or not hasattr(player, "__index__"):
            raise InvalidType(f"a player is an index of the game's players (0-{n - 1}), "
                              f"not {player!r}")
        import operator

        i = operator.index(player)  # (numpy's integers)
        if not 0 <= i < n:
            raise PlayerIndexError(f"no player {i}: this game's players are 0-{n - 1}")
        return i

    def card(self, player: int) -> Scorecard:
        """The scorecard of ``player`` (an index of :attr:`players`, 0 to their number - 1;
        :class:`PlayerIndexError` for any other, negative ones too).

        >>> from yacht.rules import get
        >>> State(get("yatzy"), [Player("Ann"), Player("Bob")]).card(-1)
        Traceback (most recent call last):
        ...
        yacht.engine.state.PlayerIndexError: no player -1: this game's players are 0-1
        """
        return self._p.cards[self._seat(player)]

    def turns_taken(self, player: int) -> int:
        """The scorings of ``player`` that stand (a repeat box's count too); ``player`` as
        for :meth:`card`."""
        return self._p.turns[self._seat(player)]

    def totals(self, player: int) -> Totals:
        """The totals of ``player``'s card (sections, bonus, columns, grand total);
        ``player`` as for :meth:`card`."""
        return self.ruleset.totals(self._p.cards[self._seat(player)])

    def context(self) -> TurnContext:
        """What the special rules are told of the turn now (card, turn, rolls, players)."""
        return self._context(self._p)

    def _context(self, p: _Position) -> TurnContext:
        return self.ruleset.context(p.cards[p.current], p.turns[p.current], p.rolls,
                                    len(self.players))

    @property
    def max_rolls(self) -> int:
        """Rolls this turn allows."""
        return self.ruleset.max_rolls(self.context())

    @property
    def rolls_left(self) -> int:
        """Rolls this turn still allows."""
        return self.max_rolls - self._p.rolls

    def may_reroll(self) -> bool:
        """Whether dice may be chosen and rolled again now (after the first roll)."""
        if not self._p.dice:
            return False
        return self.ruleset.may_reroll(self.context(), counts_of(self._p.dice, self.ruleset.faces))

    def placements(self) -> list[Placement]:
        """Every box the current dice may be scored in now, with its points."""
        if not self._p.dice or self.is_terminal():
            return []
        found = self._placements
        if found is None:  # worked out once per position (an interface asks often)
            found = self._placements = tuple(self.ruleset.placements(
                self.context(), counts_of(self._p.dice, self.ruleset.faces)))
        return list(found)

    def is_terminal(self) -> bool:
        """Whether the game is over: every card full, or a roll ended it at once. A
        terminal state has no moves (see the class's account: only the take-back of a
        person's final scoring is left)."""
        return self._p.ended is not None or all(c.complete for c in self._p.cards)

    @property
    def ended_by(self) -> int | None:
        """The player whose roll ended the game at once and won it (a served Generala),
        or None."""
        return self._p.ended

    def returns(self) -> list[int]:
        """Each player's grand total (final when the game is over)."""
        return [self.totals(i).grand for i in range(len(self.players))]

    def winners(self) -> list[int]:
        """Players with the highest total (more than one is a tie); the player whose roll
        ended the game at once, if one did, whatever the totals."""
        if self._p.ended is not None:
            return [self._p.ended]
        r = self.returns()
        best = max(r)
        return [i for i, v in enumerate(r) if v == best]

    def can_give_back(self) -> bool:
        """Whether dice are chosen for the next roll (Oops 1 gives them back)."""
        return bool(self._p.chosen)

    def can_take_back(self) -> bool:
        """Whether the last scoring may be taken back (Oops 2): a person's, until the
        next roll; at a terminal state too (the final scoring)."""
        return self._p.undo is not None

    @property
    def seed(self) -> bytes | None:
        """The secret seed the dice come from (None: a generator's dice). Never shown
        before the game is finished."""
        source = self.dice_source
        return source.seed if isinstance(source, SeededDice) else None

    @property
    def commitment(self) -> Commitment | None:
        """The scheme and SHA-256 of the seed (public from the start); None without a
        seed."""
        source = self.dice_source
        return source.public() if isinstance(source, SeededDice) else None

    def roll_index(self) -> tuple[int, int]:
        """The next roll's (turn, roll): the scorings that stand in the whole game, and
        the roll's number within the turn (from 1)."""
        return sum(self._p.turns), self._p.rolls + 1

    def draw(self) -> tuple[int, ...]:
        """The values of the next random roll, drawn now from the game's dice: one per
        position of :meth:`to_roll`, in order (every random roll is drawn here)."""
        turn, roll = self.roll_index()
        return self.dice_source.draw(turn, roll, self.to_roll(), self.ruleset.faces)

    def position_key(self) -> tuple[Any, ...]:
        """A hashable value equal for two states exactly when the game is in the same place."""
        return (self.ruleset.key, self.players, self._p.key())

    def __eq__(self, other: object) -> bool:
        """Same ruleset (and options), players, position and log (see the class)."""
        if not isinstance(other, State):
            return NotImplemented
        return (self is other or (self.ruleset == other.ruleset
                                  and self.position_key() == other.position_key()
                                  and self.log == other.log))

    __hash__: ClassVar[None]  # type: ignore[assignment]  # (mutable: position_key hashes)

    # --- actions -------------------------------------------------------------
    def to_roll(self) -> tuple[int, ...]:
        """Positions the next Roll would roll (all dice at the start of a turn)."""
        if not self._p.dice:
            return tuple(range(self.ruleset.dice))
        return tuple(sorted(self._p.chosen))

    def legal_actions(self) -> list[Action]:
        """Every action allowed now, including the Oops ones; none at a terminal state
        (the take-back of a final scoring is an undo, not a move: :meth:`can_take_back`).

        Choices are listed once per distinct multiset of dice to roll again
        (the lowest positions holding those values stand for all).
        """
        if self.is_terminal():
            return []
        acts: list[Action] = []
        if not self._p.dice:
            acts.append(Roll())
        else:
            if self.may_reroll():
                acts.extend(Choose(c) for c in self._distinct_choices())
                if self._p.chosen:
                    acts.append(Roll())
            seen = set()
            for pl in self.placements():
                if (pl.category, pl.column) not in seen:
                    seen.add((pl.category, pl.column))
                    acts.append(Score(pl.category, pl.column))
        if self.can_give_back():
            acts.append(GiveBack())
        if self.can_take_back():
            acts.append(TakeBack())
        return acts

    def _distinct_choices(self) -> list[tuple[int, ...]]:
        by_face: dict[int, list[int]] = {}
        for pos, v in enumerate(self._p.dice):
            by_face.setdefault(v, []).append(pos)
        faces = sorted(by_face)
        out = []
        for ks in product(*(range(len(by_face[f]) + 1) for f in faces)):
            if sum(ks):
                out.append(tuple(sorted(
                    p for f, k in zip(faces, ks, strict=True) for p in by_face[f][:k])))
        return out

    def chance_outcomes(self, exact: bool = False) -> list[tuple[tuple[int, ...], Any]]:
        """The outcomes of the next roll as sorted dice multisets, with probabilities
        (floats, or Fractions with ``exact``); empty when no Roll is allowed now (the
        game is over, or the dice must be chosen or scored first).

        Apply one with ``Roll(outcome)``: the values go to the rolled positions in order.
        """
        if self._roll_refused() is not None:
            return []
        n = len(self.to_roll())
        faces = self.ruleset.faces
        outs = []
        for combo in _multisets(n, faces):
            p = roll_probability(combo, faces)
            outs.append((combo, p if exact else float(p)))
        return outs

    def _no_reroll(self) -> str:
        """Why the dice showing cannot be rolled again, as a clause: the turn's rolls are
        used up, or a special rule ends the rolling before them (Tommy's Yacht's first
        turn once all dice match)."""
        why = self.ruleset.stop_reason(self.context(),
                                       counts_of(self._p.dice, self.ruleset.faces))
        return "no roll left in this turn" if why is None else \
            f"{why}, so this turn's rolling stops here"

    def _roll_refused(self) -> str | None:
        """Why a Roll is not allowed now, or None when it is."""
        p = self._p
        if self.is_terminal():
            return "the game is over"
        if p.dice and not self.may_reroll():
            return f"{self._no_reroll()}: score the dice in an open box"
        if p.dice and not p.chosen:
            # (only what can be done: Tommy's Yacht's first turn scores only a match)
            return "choose at least one die to roll again" + (
                ", or score" if self.placements() else "")
        return None

    def _check_values(self, result: tuple[int, ...]) -> None:
        """A roll's values: one per die rolled, each a face."""
        n = len(self.to_roll())
        if len(result) != n:
            raise IllegalAction(f"a roll of {n} dice needs {n} values, not {len(result)}")
        faces = self.ruleset.faces
        bad = [v for v in result if not 1 <= v <= faces]
        if bad:
            raise IllegalAction(f"die value {bad[0]} is not a face (accepted: 1-{faces})")

    def check(self, action: Action) -> None:
        """Raise IllegalAction if ``action`` is not allowed now (TypeError if it is no
        action); change nothing. (An action's numbers are plain ints once it is made:
        see :mod:`yacht.engine.actions`.)"""
        p = self._p
        rs = self.ruleset
        if not isinstance(action, _ACTIONS):
            raise InvalidType(f"{action!r} is not an action (accepted: Roll, Choose, Score, "
                              "GiveBack, TakeBack)")
        if isinstance(action, TakeBack):
            if p.undo is None:
                raise IllegalAction("there is no scoring to take back (only a person's last "
                                    "scoring, before the next roll)")
            return
        if self.is_terminal():
            raise IllegalAction("the game is over")
        if isinstance(action, Roll):
            why = self._roll_refused()
            if why is not None:
                raise IllegalAction(why)
            if action.entered and action.result is None:
                raise IllegalAction("a roll entered by hand needs the values the dice show")
            if action.result is not None:
                self._check_values(action.result)
        elif isinstance(action, Choose):
            if not p.dice:
                raise IllegalAction("roll first: there are no dice to choose")
            if not self.may_reroll():
                raise IllegalAction(f"{self._no_reroll()}: score the dice in an open box")
            bad = [d for d in action.dice if not 0 <= d < rs.dice]
            if bad:
                raise IllegalAction(_no_such("die", "dice", "position", "positions",
                                             bad[0], rs.dice))
            if len(set(action.dice)) != len(action.dice):
                raise IllegalAction("a die is chosen twice")
        elif isinstance(action, GiveBack):
            if not p.chosen:
                raise IllegalAction("no dice are chosen, so none can be given back")
        else:
            if not p.dice:
                raise IllegalAction("roll first: there are no dice to score")
            if self._placement(action) is None:
                self._explain_score(action)

    def placement(self, category: str, column: int = 0) -> Placement | None:
        """The placement scoring the dice showing in this box now (None if not allowed).

        >>> import random
        >>> from yacht.rules import get
        >>> s = State(get("yatzy"), [Player("Ann")], rng=random.Random(1))
        >>> s.apply(Roll((6, 6, 6, 2, 3)))
        >>> s.placement("sixes").total, s.placement("yatzy").total, s.placement("x")
        (18, 0, None)
        """
        for pl in self.placements():
            if pl.category == category and pl.column == column:
                return pl
        return None

    def _placement(self, action: Score) -> Placement | None:
        return self.placement(action.category, action.column)

    def _explain_score(self, action: Score) -> None:
        rs = self.ruleset
        ids = [c.id for c in rs.categories]
        if action.category not in ids:
            raise IllegalAction(f"unknown box {action.category!r} (accepted: {', '.join(ids)})")
        if not 0 <= action.column < len(rs.columns):
            raise IllegalAction(_no_such("column", "columns", "index", "indexes",
                                         action.column, len(rs.columns)))
        allowed = {pl.category for pl in self.placements()}
        if not allowed:
            why = rs.no_box_reason(self.context(), counts_of(self._p.dice, rs.faces))
            raise IllegalAction(f"{why or 'these dice cannot be scored yet'}: roll again")
        names = [c.label for c in rs.categories if c.id in allowed]  # in the card's order
        label = rs.category(action.category).label
        points = self.card(self.current).boxes[action.column][rs.index(action.category)]
        if points is not None:  # (filled: not a rule's refusal of an open box)
            where = f" in column {action.column + 1}" if len(rs.columns) > 1 else ""
            raise IllegalAction(f"{label} is filled already{where} ({points}): score an open "
                                f"box (open to these dice: {', '.join(names)})")
        raise IllegalAction(f"{label} cannot be scored now "
                            f"(open to these dice: {', '.join(names)})")

    def apply(self, action: Action) -> None:
        """Play ``action``; the log records it (a Roll with its result).

        Raises IllegalAction (TypeError for an object that is no action), leaving the
        state as it was, when it is not allowed: the new position is made apart and
        takes the old one's place only once everything worked.
        """
        self.check(action)
        p = self._p
        rs = self.ruleset
        new = _shallow(p)
        done: Action = action
        if isinstance(action, Roll):
            result = action.result
            if result is None:  # (a dice source's values checked as a typed roll's)
                drawn = Roll(self.draw()).result
                assert drawn is not None
                self._check_values(result := drawn)
            dice = list(p.dice) if p.dice else [0] * rs.dice
            for pos, v in zip(self.to_roll(), result, strict=True):
                dice[pos] = v
            new.dice = tuple(dice)
            new.rolls += 1
            new.chosen = frozenset()
            new.undo = None
            if rs.ends_game(self._context(new), counts_of(new.dice, rs.faces)):
                new.ended = new.current
            done = Roll(result, action.entered)
        elif isinstance(action, Choose):
            new.chosen = frozenset(action.dice)
            done = Choose(tuple(sorted(action.dice)))
        elif isinstance(action, GiveBack):
            new.chosen = frozenset()
        elif isinstance(action, Score):
            pl = self._placement(action)
            assert pl is not None
            before = _shallow(p)
            before.undo = None
            me = p.current
            cards = list(p.cards)
            cards[me] = rs.place(cards[me], pl)
            new.cards = rs.after_score(self._context(p), counts_of(p.dice, rs.faces), pl,
                                       cards, me)
            new.turns = list(p.turns)
            new.turns[me] += 1
            new.dice, new.rolls, new.chosen = (), 0, frozenset()
            new.current = _next_player(new.cards, me)
            new.undo = None if self.players[me].is_computer else before
        else:
            assert isinstance(action, TakeBack) and p.undo is not None
            new = p.undo
        self._p = new
        self._placements = None  # (the position changed)
        self.log.append(done)
        if isinstance(action, Roll) and action.entered:
            self.dice_entered = True

    def clone(self, rng: bool = True) -> State:
        """An independent copy; its dice go on as this state's would (a generator is
        copied when it can be; a seed is the same).

        ``rng=False`` gives a copy for reading (a view, a strategy's look-ahead):
        it has no dice, and a random roll on it is refused.
        """
        new = _shallow(self)
        new.log = list(self.log)
        new._p = _shallow(self._p)
        new.dice_source = self.dice_source.copy() if rng else NO_DICE
        return new

    def __repr__(self) -> str:
        return (f"<State {self.ruleset.id} player={self.current} dice={self.dice} "
                f"rolls={self.rolls} chosen={sorted(self.chosen)} returns={self.returns()}>")


_ACTIONS = (Roll, Choose, Score, GiveBack, TakeBack)


def _next_player(cards: Sequence[Scorecard], me: int) -> int:
    """Who plays after ``me``: the next player with an open box (``me`` if none has)."""
    n = len(cards)
    for step in range(1, n + 1):
        q = (me + step) % n
        if not cards[q].complete:
            return q
    return me


def _no_such(thing: str, things: str, index: str, indexes: str, i: int, n: int) -> str:
    """A die or column that is not there, for API users (who count from 0) and players
    (who count from 1) alike: ``there is no die 6 (position 5; dice 1-5 are positions
    0-4)``, ``there is no column 2 (index 1; column 1 is index 0)``."""
    what = f"{thing} 1 is {index} 0" if n == 1 else f"{things} 1-{n} are {indexes} 0-{n - 1}"
    if i < 0:
        return f"there is no {thing} at {index} {i} ({what})"
    return f"there is no {thing} {i + 1} ({index} {i}; {what})"


_T = TypeVar("_T")


def _shallow(obj: _T) -> _T:
    """A shallow copy of a plain object (its attributes shared): what ``copy.copy``
    makes, without its generic protocol (a quarter of the time; a server clones a
    state for every view and every checked command)."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


def _multisets(n: int, faces: int) -> Iterator[tuple[int, ...]]:
    """All sorted tuples of ``n`` values in 1..faces."""
    def rec(start: int, left: int) -> Iterator[tuple[int, ...]]:
        if left == 0:
            yield ()
            return
        for v in range(start, faces + 1):
            for rest in rec(v, left - 1):
                yield (v, *rest)
    return rec(1, n)
