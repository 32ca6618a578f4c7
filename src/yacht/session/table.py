"""The table: the one place a game flows, whatever the interface.

A :class:`Table` holds a :class:`~yacht.session.game.Session` (the state, the
players' strategies, the store) and decides everything that is not a rule of
the dice: whose turn it is, when a computer player moves and how long each
step stays visible (:class:`Pacing`), the pauses an interface shows (the next
player, the game's end), what happens when a computer player fails, and
finishing the game once. Interfaces are views: they send commands from a
**seat**, receive **events**, and draw the **snapshot** (a versioned JSON
object, the same for the terminal, the line game, the browser and the
command line's ``--json``).

Any thread may call a table: commands are applied one at a time under a
lock; a command sent against an older ``version`` is refused without a
change. Computer turns run where the caller's driver says: :meth:`Table.run_due`
in the calling thread (the line game, the command line), a
:class:`ThreadDriver` (the terminal game), or :func:`drive_async` (a server).

>>> import random
>>> from yacht.engine import Player, Roll
>>> from yacht.rules import get
>>> from yacht.session.commands import ScoreBox
>>> t = Table.new(get("tommys-crag"), [Player("Ann"), Player("Cpu", "computer", "random")],
...               rng=random.Random(3), speed="instant")
>>> seen = []
>>> _ = t.subscribe(lambda e: seen.append(e.kind))
>>> _ = t.act(LOCAL, Roll())
>>> _ = t.act(LOCAL, ScoreBox("crag"))
>>> seen
['rolled', 'scored', 'turn_passed', 'paused']
>>> t.view().pause
'next_player'
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import random
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from yacht.engine import (
    Action,
    Choose,
    Commitment,
    GiveBack,
    IllegalAction,
    Player,
    Record,
    Roll,
    Score,
    State,
    TakeBack,
)
from yacht.render import dice_text
from yacht.rules import DICE_MARKS, DiceMark, Ruleset, Scorecard

from . import steps
from .advice import Advice
from .clock import ClockState, TurnClock
from .commands import (
    ActionError,
    Command,
    ComputerMove,
    GoOn,
    held_in_log,
    hold_action,
    resolve_marked,
)
from .comment import Past, past_games
from .config import SPEEDS
from .game import (
    HintUnavailable,
    LastScore,
    SaveConflict,
    SaveFailed,
    Session,
    SessionError,
    StoreLike,
    StrategyFactory,
)
from .present import possessive, verb
from .steps import Blocking, Offload, Steps

__all__ = ["EVENT_KINDS", "LOCAL", "Due", "Event", "Pacing", "Plan", "Refused", "Seat",
           "SeatPrefs", "Table", "TableView", "ThreadDriver", "drive_async"]

#: the seat of the people at one keyboard: it holds every person player
LOCAL = "local"

#: every kind of event a table emits
EVENT_KINDS = ("rolled", "chosen", "held", "gave_back", "scored", "penalty", "ended",
               "took_back",
               "turn_passed", "paused", "went_on", "computer_thinking", "computer_progress",
               "computer_failed", "game_over", "finished", "assisted", "store_warning",
               "store_waiting", "elsewhere", "reloaded", "speed", "demo", "seat_prefs",
               "closed", "clock", "stand_in")

#: what a terminal says while a save waits for the database (a store_waiting event)
STORE_WAITING = "Waiting for the database: another program is writing to it"

#: the level that plays a person's turn for them (their clock ran out, or they are away)
STAND_IN = "expert"

#: a computer decision or a hint that takes longer than this says so (``thinking``)
SLOW = 0.25

#: the least time a person's score stays before a computer rolls, when the seat goes on
#: without the Next player pause (seconds)
MOMENT = 1.5

Pause = Literal["next_player", "game_over"]


class Refused(IllegalAction):
    """A command the table does not take now; nothing changed.

    ``code`` says why: ``illegal`` (the rules), ``not_your_turn`` (another seat's
    player is on turn), ``computer_turn``, ``paused`` (leave the pause first),
    ``stale`` (sent against an older version), ``unknown_seat``, ``closed``,
    ``store`` (a strict table could not save it).
    """

    def __init__(self, message: str, code: str = "illegal") -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Event:
    """Something that happened at the table, for every subscriber.

    ``text`` is one line a person can read (a log, a screen reader); ``data``
    holds the details (JSON-ready).
    """

    kind: str
    version: int
    player: int | None = None
    text: str = ""
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "version": self.version, "player": self.player,
                "text": self.text, "data": dict(self.data)}


@dataclass(frozen=True)
class Seat:
    """Who may act for which players: a person at a keyboard holds every local player;
    a browser holds one. ``operator`` seats may also make a computer move at once."""

    id: str
    players: frozenset[int]
    operator: bool = False


@dataclass(frozen=True)
class SeatPrefs:
    """What a seat's person chose for how the table treats them (their interface's
    setting, told to the table): ``dice_mark`` - a click on a die holds it (``"hold"``)
    or marks it to roll again (``"reroll"``, the notation's way, and a seat's until it
    says otherwise); ``pause`` - after their score, when a computer is next, the table
    waits for Go on (True, as it always did), or goes on after a moment (False; the
    score can still be taken back until the computer rolls)."""

    dice_mark: DiceMark = "reroll"
    pause: bool = True


@dataclass(frozen=True)
class _Hold:
    """A plan's step that is the table's own: the dice it holds from now on (``quiet``:
    the same as before a roll, kept for the next: no event of its own). The engine's
    state is told too (:func:`~yacht.session.commands.hold_action`), so that the holds
    are saved with the game."""

    held: frozenset[int] | None
    quiet: bool = False


@dataclass(frozen=True)
class Pacing:
    """How long each step of the flow stays visible, by speed (seconds).

    >>> Pacing("normal").step, Pacing("normal").between_computers, Pacing("instant").step
    (0.6, 1.2, 0.0)
    """

    speed: str = "normal"

    @property
    def step(self) -> float:
        """Before each step of a computer's turn (a roll, a choice, a scoring)."""
        return SPEEDS.get(self.speed, SPEEDS["normal"])

    @property
    def between_computers(self) -> float:
        """After a computer scored and another computer is next: the result stays readable."""
        return 2 * self.step

    @property
    def demo_end(self) -> float:
        """A demo game's last cards stay up this long before its results."""
        return 3 * self.step

    @property
    def after_person(self) -> float:
        """After a person scored and a computer is next, with no pause to go on from (the
        seat's choice): a moment to read the score and take it back, at any speed."""
        return max(self.between_computers, MOMENT)


@dataclass(frozen=True)
class Due:
    """The next thing the table does by itself, at monotonic time ``at``: a computer's
    step, the end of a demo's last pause, or a person's first roll (``auto_roll``)."""

    kind: Literal["computer", "go_on", "roll", "clock"]
    at: float
    version: int


@dataclass(frozen=True)
class Plan:
    """A computer player's next step, worked out off the lock for table ``version``."""

    version: int
    player: int
    actions: tuple[Action, ...]
    failure: str | None = None


@dataclass(frozen=True)
class Thinking:
    """A computer player (or the advisor) at work: what, and how far (``total`` 0: unknown)."""

    player: int
    what: str
    done: int = 0
    total: int = 0


@dataclass(frozen=True)
class TableView:
    """The table at one version, for reading from any thread (the state is a copy)."""

    state: State
    version: int
    pause: Pause | None
    last_score: LastScore | None
    game_id: str | None
    saved: bool
    assisted: bool
    demo: bool
    speed: str
    finished: bool
    new_entries: tuple[Any, ...]
    thinking: Thinking | None
    news: tuple[str, ...]
    warning: str | None
    closed: bool
    elsewhere: str | None = None
    #: the computer plays the people's turns too (a demo switched on during the game)
    taken_over: bool = False
    #: per player, their earlier games of this kind (the end line; () until finished)
    past: tuple[Past | None, ...] = ()
    #: a roll was entered by hand (real dice)
    dice_entered: bool = False
    #: the commitment to the game's seed (the seed too once the game is finished)
    dice_seed: Commitment | None = None
    #: the day (UTC, YYYY-MM-DD) of the daily challenge the game is, if it is one
    daily: str | None = None
    #: the dice the table holds for the turn's next roll (None: it holds none; a choice
    #: in the notation's terms, ``state.chosen``, says what rolls)
    held: frozenset[int] | None = None
    #: each seat's choices (by seat id; a seat not listed has the defaults)
    prefs: Mapping[str, SeatPrefs] = field(default_factory=dict)
    #: the turn clock as the snapshot gives it (None: the table has none)
    clock: Mapping[str, Any] | None = None
    #: the people whose turns the computer plays while they are away
    stand_ins: frozenset[int] = frozenset()
    #: the computer plays the turn on now for its person (their clock ran out, or they
    #: are away)
    played_for: bool = False
    #: the players whose scores go to the list apart (they asked the advisor, or the
    #: computer played a turn of theirs); ``assisted``: any of them
    assisted_players: frozenset[int] = frozenset()

    @property
    def apart(self) -> bool:
        """The game's scores go to the list apart from the top ten (the advisor was
        asked, or dice were entered by hand)."""
        return self.assisted or self.dice_entered

    @property
    def ruleset(self) -> Ruleset:
        return self.state.ruleset

    @property
    def over(self) -> bool:
        return self.state.is_terminal()

    def dice_mark(self, seat: str | None) -> DiceMark:
        """What a click on a die means to ``seat`` (None, a watcher: the variant's way)."""
        if seat is None:
            return self.ruleset.dice_mark
        return self.prefs.get(seat, SeatPrefs()).dice_mark

    @property
    def computer_turn(self) -> bool:
        """The player on turn is played by the computer (a computer player, or anyone
        while a demo has taken over)."""
        st = self.state
        return not st.is_terminal() and (st.players[st.current].is_computer
                                         or self.taken_over or self.played_for)


def _pause_after_score(state: State, scorer: int, computer: bool,
                       between_people: bool = False) -> Pause | None:
    """The pause after ``scorer`` scored: the game's end, or (a person scored and a
    computer is next, or another person when ``between_people``) the next player's
    turn, so the result stays readable and can still be taken back."""
    if state.is_terminal():
        return "game_over"
    nxt = state.current
    if computer or nxt == scorer:
        return None
    if state.players[nxt].is_computer or between_people:
        return "next_player"
    return None


def _ready(level: str, rs: Ruleset) -> bool:
    """Whether a computer level (or "advisor") answers at once, nothing to build first."""
    from yacht.strategy import ready

    try:
        return ready(level, rs)
    except Exception:  # an unknown level: the player falls back when it is made
        return True


class Table:
    """One game and everything that flows around it; see the module's text."""

    def __init__(self, session: Session, *, speed: str = "normal",
                 seats: Iterable[Seat] | None = None, pauses: bool = True,
                 clock: Callable[[], float] = time.monotonic,
                 pause_between_people: bool = False, auto_roll: bool = False,
                 real_dice: bool = False, wall: Callable[[], float] = time.time) -> None:
        """``pauses=False`` for an interface that shows none (a command line): the
        table goes on to the next turn at once and records a finished game at once.

        ``real_dice``: the people at this table roll real dice and may enter what they
        show (a ``Roll`` with values; such a game is marked "dice entered"). Without
        it a person's roll with values is refused: the table alone rolls.

        ``pause_between_people``: a person's score is followed by the Next player pause
        when another person is next too (people sharing one screen, as Ancient Yacht
        had it); ``auto_roll``: a person's turn starts with a roll the table makes by
        itself, a step after the turn began (Windows Yacht, Yatsee).
        """
        self._game = session
        session.on_store_wait = self._store_waiting
        self._pauses = pauses
        self.pause_between_people = pause_between_people
        self.auto_roll = auto_roll
        self.real_dice = real_dice
        self._no_auto_roll = -1  # the version at which an automatic roll failed
        self._taken_over = False
        self._lock = threading.RLock()
        self._changed_cond = threading.Condition(self._lock)
        self._think_lock = threading.Lock()
        #: one command at a time on an event loop (act_async): the loop and its lock
        self._acting: tuple[asyncio.AbstractEventLoop, asyncio.Lock] | None = None
        self._clock = clock
        # a resumed game goes on from the number of its actions, so that a command sent
        # to this table before a restart cannot match a different state by its version
        self._version = len(session.state.log)
        #: the snapshots' position part (snapshot.position) of the newest log it was
        #: made for, made here or heard from the process that made the move
        self._position: tuple[tuple[Action, ...], dict[str, Any]] | None = None
        # (a resumed game comes back in the pause it was saved in: the game's end, or the
        # Next player pause after a person's score, which may still be taken back)
        self._pause: Pause | None = ("game_over" if session.is_over()
                                     else self._saved_pause(session))
        self._changed_at = clock()
        self._after_computer_score = False
        #: a person scored and the table went on without the Next player pause
        self._after_person_score = False
        #: the dice held for the turn's next roll (see held_dice), and those held when the
        #: last score was made (a take-back gives them back); a resumed game's are in its
        #: log (the engine's chosen dice, or a choice of none: every die held)
        self._held: frozenset[int] | None = held_in_log(session.state)
        self._held_at_score: frozenset[int] | None = None
        #: the log's length after a computer's choice of dice on a person's turn (a demo,
        #: a stand-in): the roll comes next; a person's own choice is decided afresh
        self._computer_chose = -1
        self._prefs: dict[str, SeatPrefs] = {}
        self._subscribers: list[Callable[[Event], None]] = []
        self._pacing = Pacing(speed if speed in SPEEDS else "normal")
        self._thinking: Thinking | None = None
        self._news: deque[str] = deque(maxlen=8)
        #: each player's earlier games of this kind, read once the game is finished
        self._past: tuple[Past | None, ...] = ()
        self._closed = False
        self._remote = False  # while taking up what another process did
        #: one keep_speed at a time (each writes the speed of its time: the last one wins)
        self._keeping = threading.Lock()
        self._strategies: dict[int, Any] = {}
        self._seats: dict[str, Seat] = {}
        people = frozenset(i for i, p in enumerate(session.players) if not p.is_computer)
        for seat in seats if seats is not None else [Seat(LOCAL, people, operator=True)]:
            self._seats[seat.id] = seat
        # the turn clock (the game's record says whether it has one) and the people the
        # computer stands in for while they are away
        self._wall = wall
        self._stand_ins: frozenset[int] = frozenset()
        self._stand_in_ends: frozenset[int] = frozenset()  # back at their next turn
        turn_clock = TurnClock.from_json(session.meta.get("clock"))
        self._turn_clock = None if turn_clock is None else ClockState(
            turn_clock, [float(turn_clock.bank)] * len(session.players))
        self._follow_clock(save=False)

    def _saved_pause(self, session: Session) -> Pause | None:
        """The Next player pause a game's log ends in: a person's score (by them, not the
        computer for them) that may still be taken back, with the turn passed to a
        computer (or another person, where the table pauses between people). A game saved
        there - quit or killed before the computer rolled - comes back to it, so that the
        score may still be taken back; None otherwise."""
        st = session.state
        last = session.last_score
        scored = st.log[-1] if st.log else None
        if (not self._pauses or last is None or not isinstance(scored, Score)
                or scored.by is not None or not st.can_take_back()):
            return None
        return _pause_after_score(st, last.player, False, self.pause_between_people)

    # --- making one ---------------------------------------------------------------
    @classmethod
    def new(cls, ruleset: Ruleset, players: Sequence[Player], *,
            store: StoreLike | None = None, rng: random.Random | None = None,
            strategy_factory: StrategyFactory | None = None,
            meta: dict[str, Any] | None = None, speed: str = "normal",
            seats: Iterable[Seat] | None = None, pauses: bool = True,
            strict: bool = False, pause_between_people: bool = False,
            auto_roll: bool = False, real_dice: bool = False,
            seed: bytes | None = None) -> Table:
        """A new game (raises SessionError for a game that cannot start). ``strict``: an
        action counts only once the store has it (see :class:`Session`). The dice come
        from ``rng`` if given, else from ``seed`` or a fresh secret seed."""
        return cls(Session(ruleset, players, store=store, rng=rng,
                           strategy_factory=strategy_factory, meta=meta, strict=strict,
                           seed=seed),
                   speed=speed, seats=seats, pauses=pauses,
                   pause_between_people=pause_between_people, auto_roll=auto_roll,
                   real_dice=real_dice)

    @classmethod
    def resume(cls, store: StoreLike, game_id: str, *, rng: random.Random | None = None,
               strategy_factory: StrategyFactory | None = None, speed: str = "normal",
               seats: Iterable[Seat] | None = None, pauses: bool = True,
               strict: bool = False, pause_between_people: bool = False,
               auto_roll: bool = False, real_dice: bool = False,
               wall: Callable[[], float] = time.time) -> Table:
        """A saved game where it was left, with its seed (raises SessionError), its recent
        moves told, its turn clock counting on from what the store kept (``wall``: the
        time of day, epoch seconds)."""
        table = cls(Session.resume(store, game_id, rng=rng, strategy_factory=strategy_factory,
                                   strict=strict),
                    speed=speed, seats=seats, pauses=pauses,
                    pause_between_people=pause_between_people, auto_roll=auto_roll,
                    real_dice=real_dice, wall=wall)
        table._news.extend(table._retold())
        table._load_clock()
        return table

    def _retold(self) -> list[str]:
        """The lines of news the game's actions made, told again: its actions played on a
        copy without a store, as the table told them when they happened (what the log
        does not hold, such as a store's warning, is not told again)."""
        s = self._game
        try:
            copy = Table(Session(s.ruleset, s.players, rng=random.Random(0)),
                         pause_between_people=self.pause_between_people)
            with copy._lock:
                copy._play_saved(s.state.log)
        except Exception:  # the news is no reason to refuse a game that replays
            return []
        return list(copy._news)

    # --- seats --------------------------------------------------------------------
    def add_seat(self, seat: Seat) -> None:
        with self._lock:
            self._seats[seat.id] = seat

    def remove_seat(self, seat_id: str) -> None:
        with self._lock:
            self._seats.pop(seat_id, None)

    def seat(self, seat_id: str) -> Seat:
        with self._lock:
            found = self._seats.get(seat_id)
        if found is None:
            raise Refused(f"there is no seat {seat_id!r} at this table", "unknown_seat")
        return found

    def prefs(self, seat_id: str) -> SeatPrefs:
        """What seat ``seat_id`` chose (the defaults until it says)."""
        with self._lock:
            return self._prefs.get(seat_id, SeatPrefs())

    def set_prefs(self, seat_id: str, *, dice_mark: str | None = None,
                  pause: bool | None = None) -> list[Event]:
        """Tell the table what seat ``seat_id``'s person chose (None: unchanged): what a
        click on a die means to them, ``dice_mark`` ``"hold"``, ``"reroll"`` or
        ``"variant"`` (the variant's own way, ``Ruleset.dice_mark``); and whether a
        computer waits for their Go on after they scored (``pause``). Neither changes a
        die or a score: only what the seat's commands and snapshot mean. A change is a
        ``seat_prefs`` event, not a new version: the game is as it was, and no other
        seat's command is made stale by it (an interface sends the seat's commands after
        it, in order)."""
        mark = self.ruleset.dice_mark if dice_mark == "variant" else next(
            (m for m in DICE_MARKS if m == dice_mark), None)
        if dice_mark is not None and mark is None:
            raise ValueError(f"a click on a die holds it or marks it to roll again, not "
                             f"{dice_mark!r} (accepted: hold, reroll, variant)")
        with self._lock:
            old = self._prefs.get(seat_id, SeatPrefs())
            new = SeatPrefs(old.dice_mark if mark is None else mark,
                            old.pause if pause is None else pause)
            if new == old:
                return []
            self._prefs[seat_id] = new
            events = [self._event("seat_prefs", None)]
            self._emit(events)
            return events

    # --- reading ------------------------------------------------------------------
    @property
    def version(self) -> int:
        return self._version

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def game_id(self) -> str | None:
        """The stored game's id (None until it is saved)."""
        return self._game.game_id

    @property
    def action_count(self) -> int:
        """How many actions the game's log holds."""
        return len(self._game.state.log)

    def actions_since(self, n: int) -> list[Action]:
        """The game's actions from log index ``n`` on (a copy; safe from any thread)."""
        with self._lock:
            return list(self._game.state.log[max(0, n):])

    @property
    def ruleset(self) -> Ruleset:
        return self._game.ruleset

    @property
    def players(self) -> tuple[Player, ...]:
        return self._game.players

    @property
    def meta(self) -> dict[str, Any]:
        """A copy of what the game's record keeps besides its moves (where it was
        started, the speed a terminal started it at, its clock...)."""
        return dict(self._game.meta)

    def view(self) -> TableView:
        """The table as it is now (a consistent copy; safe from any thread)."""
        with self._lock:
            s = self._game
            s.state.placements()  # worked out once per position: every view's copy has it
            return TableView(
                state=s.state.clone(rng=False), version=self._version, pause=self._pause,
                last_score=s.last_score, game_id=s.game_id, saved=s.saved,
                assisted=s.assisted, demo=s.demo or self._taken_over,
                speed=self._pacing.speed, finished=s.finished,
                new_entries=tuple(s.new_entries), thinking=self._thinking,
                news=tuple(self._news), warning=s.warning, closed=self._closed,
                elsewhere=s.elsewhere, taken_over=self._taken_over, past=self._past,
                dice_entered=s.dice_entered, dice_seed=s.dice_seed, daily=s.daily,
                held=self._held, prefs=dict(self._prefs),
                clock=(self._turn_clock.view(self._wall())
                       if self._turn_clock is not None else None),
                stand_ins=self._stand_ins | self._stand_in_ends,
                played_for=self._played_for(),
                assisted_players=frozenset(s.assisted_players))

    def snapshot(self, seat: str | None = None, words: Any = None) -> dict[str, Any]:
        """The whole table as JSON (``table.schema.json``), as ``seat`` sees it."""
        return self.snapshots(words)(seat)

    def snapshots(self, words: Any = None) -> Callable[[str | None], dict[str, Any]]:
        """The table as it is now, for any seat: ``snapshots()(seat)`` is
        ``snapshot(seat)``, but what all seats see alike is made once (a server sending
        each change to every browser at the table)."""
        from .snapshot import for_seat, shared

        view = self.view()
        base = shared(view, words, self._position_of(view.state))
        made: dict[Any, Any] = {}  # (what the seats have in common beyond ``base``)
        return lambda seat: for_seat(base, view,
                                     self._seats.get(seat) if seat is not None else None,
                                     words, made)

    def position(self) -> tuple[list[Action], dict[str, Any]]:
        """The game's actions and the position they lead to, as every seat's snapshot
        shows it (``snapshot.position``: nothing of any seat's own): what a server process
        tells the others with its news (made once, shared with its own snapshots)."""
        with self._lock:
            st = self._game.state
            return list(st.log), self._position_of(st)

    def take_position(self, upto: int, pos: dict[str, Any]) -> bool:
        """Another process's :meth:`position` after ``upto`` actions, heard with the news
        of those actions (once they are taken up here): this table's snapshots use it
        instead of working it out again, if it is now at that position (else it is
        ignored). False when ignored."""
        from .snapshot import fits

        with self._lock:
            st = self._game.state
            if len(st.log) != upto or not fits(pos, st):
                return False
            self._position = (tuple(st.log), pos)
            return True

    def _position_of(self, st: State) -> dict[str, Any]:
        """The position part of ``st`` (this game's state or a copy of it), made once per
        log (comparing logs is quick: their actions are the same objects)."""
        from .snapshot import position

        log = tuple(st.log)
        known = self._position
        if known is not None and known[0] == log:
            return known[1]
        pos = position(st)
        self._position = (log, pos)
        return pos

    def subscribe(self, fn: Callable[[Event], None]) -> Callable[[], None]:
        """Call ``fn`` with every event from now on (in the thread that caused it, in
        order; ``fn`` must be quick and must not wait for another thread). Returns the
        function that unsubscribes."""
        with self._lock:
            self._subscribers.append(fn)

        def unsubscribe() -> None:
            with self._lock:
                if fn in self._subscribers:
                    self._subscribers.remove(fn)
        return unsubscribe

    def _store_waiting(self, how: str) -> None:
        """The store tells that a save waits for the database (``how``: "waiting"), or
        that the wait is over ("through", "failed"): a ``store_waiting`` event
        (``waiting``, ``saved``), from the store's thread and without the table's lock
        (the thread saving holds it); not in the news."""
        waiting = how == "waiting"
        self._emit([Event("store_waiting", self._version, None,
                          STORE_WAITING if waiting else "",
                          {"waiting": waiting, "saved": how == "through"})])

    def _emit(self, events: list[Event]) -> None:
        for event in events:
            for fn in list(self._subscribers):
                try:
                    fn(event)
                except Exception:  # a broken view must not break the table
                    pass

    def _event(self, kind: str, player: int | None = None, text: str = "",
               **data: Any) -> Event:
        if text:
            self._news.append(text)
        if self._remote:
            data["remote"] = True  # taken up from the store: another process made it
        return Event(kind, self._version, player, text, data)

    def _changed(self) -> None:
        self._version += 1
        self._changed_at = self._clock()
        self._follow_clock()
        self._changed_cond.notify_all()

    # --- acting -------------------------------------------------------------------
    def act(self, seat: str, *commands: Command, version: int | None = None) -> list[Event]:
        """Apply ``commands`` from ``seat``, all or none; returns the events they caused.

        Raises :class:`Refused` (nothing changed) when the seat may not, the
        rules do not allow it, or ``version`` is not the table's version.
        """
        if len(commands) == 1 and isinstance(commands[0], ComputerMove):
            return self._computer_now(seat, version)
        with self._lock:
            return steps.run(self._act(seat, commands, version))

    async def act_async(self, seat: str, *commands: Command, version: int | None = None,
                        offload: Offload) -> list[Event]:
        """:meth:`act` on a running event loop: the checks and the play on the loop, the
        store's commit awaited without a thread (``offload`` runs what must block: a
        computer's move, a game's start or end in the store). One command of the table
        at a time on the loop; its lock is held between the waits, never across one. A
        caller cancelled meanwhile does not stop the command half way."""
        if len(commands) == 1 and isinstance(commands[0], ComputerMove):
            return await offload(functools.partial(self._computer_now, seat, version))  # type: ignore[no-any-return]
        return await self._in_turn(lambda: self._act(seat, commands, version), offload)

    async def _in_turn(self, work: Callable[[], Steps[list[Event]]],
                       offload: Offload) -> list[Event]:
        """Run ``work()``'s steps on the running loop once the table's earlier work on it
        is done, to the end even if the caller goes away."""
        loop = asyncio.get_running_loop()
        if self._acting is None or self._acting[0] is not loop:
            self._acting = (loop, asyncio.Lock())
        acting = self._acting[1]

        async def in_turn() -> list[Event]:
            async with acting:
                return await steps.run_async(work(), self._lock, offload)

        task = loop.create_task(in_turn())
        # (its outcome is the caller's; one whose caller went away is dropped quietly)
        task.add_done_callback(lambda t: t.cancelled() or t.exception())
        return await asyncio.shield(task)

    def _act(self, seat: str, commands: Sequence[Command],
             version: int | None) -> Steps[list[Event]]:
        who = self.seat(seat)
        self._check_open(version)
        if any(isinstance(c, ComputerMove) for c in commands):
            raise Refused("a computer move is a command of its own", "illegal")
        plan = self._plan(who, commands)
        events: list[Event] = []
        try:
            for item in plan:
                if isinstance(item, GoOn):
                    events += yield from self._go_on_steps()
                elif isinstance(item, _Hold):
                    events += yield from self._hold_steps(item, who)
                else:
                    events += yield from self._apply_steps(item, seat=who)
        finally:  # (a strict table's store may fail after a first action: told too)
            self._emit(events)
        return events

    def _check_open(self, version: int | None) -> None:
        if self._closed:
            raise Refused("this table is closed", "closed")
        if version is not None and version != self._version:
            raise Refused(f"the table has moved on (version {self._version}, not {version}): "
                          "look again", "stale")

    def _plan(self, seat: Seat, commands: Sequence[Command]) -> list[Action | GoOn | _Hold]:
        """Check the whole sequence on a copy; the engine actions (and GoOn) to apply."""
        try:
            return self._check_plan(seat, commands)
        except Refused:
            raise
        except IllegalAction as e:  # the rules' own reason
            raise Refused(str(e), "illegal") from None

    def _check_plan(self, seat: Seat,
                    commands: Sequence[Command]) -> list[Action | GoOn | _Hold]:
        probe = self._game.state.clone(rng=False)
        pause = self._pause
        last = self._game.last_score
        held, at_score = self._held, self._held_at_score
        prefs = self._prefs.get(seat.id, SeatPrefs())
        out: list[Action | GoOn | _Hold] = []
        for cmd in commands:
            if isinstance(cmd, GoOn):
                if pause is None:
                    raise Refused("there is no pause to leave", "illegal")
                if not (seat.operator or seat.players):
                    raise Refused("a watcher cannot go on", "not_your_turn")
                pause = None
                out.append(cmd)
                continue
            if isinstance(cmd, TakeBack):
                if self._game.finished:  # (recorded with its results: the store has it)
                    raise Refused("the game is over (its scores stand)", "illegal")
                if not probe.can_take_back():
                    probe.check(cmd)  # the engine's reason
                scored = next((a for a in reversed(probe.log) if isinstance(a, Score)), None)
                if scored is not None and scored.by is not None:
                    raise Refused("a score the computer made for a player cannot be "
                                  "taken back", "illegal")
                if last is not None and last.player not in seat.players:
                    raise Refused(f"only {probe.players[last.player].name} can take back "
                                  "that score", "not_your_turn")
                probe.apply(cmd)
                pause, last = None, None
                held, at_score = at_score, None
                out.append(cmd)
                continue
            if pause is not None:
                raise Refused("leave the pause first (go on to the next turn)", "paused")
            if probe.is_terminal():
                raise Refused("the game is over", "illegal")
            me = probe.players[probe.current]
            if me.is_computer:
                raise Refused(f"wait: {me.name} (a computer) is playing", "computer_turn")
            if self._taken_over:
                raise Refused("wait: the computer plays every seat (demo)", "computer_turn")
            if probe.current == self._game.state.current and self._played_for():
                raise Refused(self._played_for_line(me.name), "computer_turn")
            if probe.current not in seat.players:
                raise Refused(f"it is {possessive(me.name)} turn", "not_your_turn")
            if isinstance(cmd, Roll):
                self._entered(cmd)  # dice of a person's own: first of all, at most tables
            found, after = resolve_marked(cmd, probe, held, prefs.dice_mark)
            actions = [self._entered(a) for a in found]
            for a in actions:
                probe.check(a)
                who = probe.current
                # the copy cannot roll: any values will do for checking what follows
                probe.apply(Roll((1,) * len(probe.to_roll()))
                            if isinstance(a, Roll) and a.result is None else a)
                if isinstance(a, Score):
                    at_score = held
                    if self._pauses:
                        pause = self._pause_for(probe, who, False, prefs)[0]
            out += actions
            if after != (None if actions else held):  # the table's own holds change
                out.append(_Hold(after, quiet=bool(actions) and isinstance(actions[-1], Roll)))
            held = after
        return out

    def _pause_for(self, state: State, scorer: int, computer: bool,
                   prefs: SeatPrefs | None) -> tuple[Pause | None, bool]:
        """The pause after ``scorer`` scored, and whether a Next player pause is left out
        (True: the scorer's seat goes on without it when a computer is next)."""
        pause = _pause_after_score(state, scorer, computer, self.pause_between_people)
        if (pause == "next_player" and prefs is not None and not prefs.pause
                and state.players[state.current].is_computer):
            return None, True
        return pause, False

    def _hold_steps(self, item: _Hold, seat: Seat) -> Steps[list[Event]]:
        """The table holds ``item.held`` from now on, and the engine's state says so (a
        choice of the other dice, saved as every action is: the holds survive a quit or
        a kill, and reach the other processes of a server)."""
        told = hold_action(self._game.state, item.held)
        events: list[Event] = []
        if told is not None:
            events += yield from self._apply_steps(told, seat=seat)
        return events + self._set_held(item.held, item.quiet, changed=told is not None)

    def _set_held(self, held: frozenset[int] | None, quiet: bool = False,
                  changed: bool = False) -> list[Event]:
        """The table holds ``held`` for the turn's next roll (a ``held`` event).
        ``quiet``: the holds a roll keeps (the roll was the change); ``changed``: an
        action saying so made the new version already."""
        from .commands import held_dice

        self._held = held
        if quiet:
            return []
        if not changed:
            self._changed()
        st = self._game.state
        return [self._event("held", st.current, held=sorted(held_dice(st, held)))]

    def _entered(self, action: Action) -> Action:
        """A person's roll with values: marked entered at a table for real dice, refused
        at any other (the table alone rolls there)."""
        if not isinstance(action, Roll) or (action.result is None and not action.entered):
            return action
        if not self.real_dice:
            raise Refused("this table rolls the dice itself: their values cannot be given "
                          "(a game with real dice is played with the line game or `yacht "
                          "resume --action`)", "illegal")
        if self._game.daily is not None:  # (else typed dice topped the day's standings)
            raise Refused("a daily challenge rolls its own dice, the same for everyone: "
                          "their values cannot be given (roll without them)", "illegal")
        return Roll(action.result, entered=True)

    def _apply(self, action: Action, computer: bool = False, saved: bool = False,
               seat: Seat | None = None) -> list[Event]:
        """Play one checked action (lock held); the events it makes. ``saved``: the store
        has it already (another process of a server played it); ``seat``: whose command
        it is (their choices say whether a pause follows their score)."""
        return steps.run(self._apply_steps(action, computer, saved, seat))

    def _apply_steps(self, action: Action, computer: bool = False, saved: bool = False,
                     seat: Seat | None = None) -> Steps[list[Event]]:
        """:meth:`_apply` as steps (the save, a finished game's results)."""
        s = self._game
        st = s.state
        me = st.current
        name = st.players[me].name
        pl = st.placement(action.category, action.column) if isinstance(action, Score) else None
        rolled = st.to_roll() if isinstance(action, Roll) else ()
        cards_before = [st.card(i) for i in range(len(st.players))]
        kept = tuple(v for i, v in enumerate(st.dice) if i not in action.dice) \
            if isinstance(action, Choose) else ()
        elsewhere = s.elsewhere
        try:
            if saved:
                s.apply_saved(action)
            else:
                yield from s.apply_steps(action)
        except SaveConflict as e:
            # another process saved a different action here first: this table takes up
            # the stored game, and the command is answered as sent against an old table
            self._emit((yield Blocking(self._sync)))
            raise Refused(f"the table had moved on: {e}", "stale") from None
        except SaveFailed as e:
            raise Refused(str(e), "store") from None
        except IllegalAction as e:
            raise Refused(str(e), "illegal") from None
        self._changed()
        # the holds go with the turn, or with an action that chooses for itself; a
        # take-back gives back those of the score it takes back
        if isinstance(action, Score):
            self._held, self._held_at_score = None, self._held
        elif isinstance(action, TakeBack):
            self._held, self._held_at_score = self._held_at_score, None
        else:  # (a choice of none: every die held, as another process's seat held them)
            self._held, self._held_at_score = held_in_log(st), None
        events: list[Event] = []
        rs = s.ruleset
        if isinstance(action, Roll):
            self._after_computer_score = self._after_person_score = False
            if self._pause == "next_player":
                # (another process's roll: its player went on there - before this copy
                # was loaded in the pause it had been saved in - so this copy goes on too)
                self._pause = None
                events.append(self._event("went_on", None, pause="next_player"))
            dice = st.dice
            events.append(self._event("rolled", me, dice=list(dice), positions=list(rolled),
                                      rolls=st.rolls, rolls_left=st.rolls_left,
                                      entered=action.entered))
            if st.is_terminal():  # a roll that ends the game at once (a served Generala)
                events.append(self._event(
                    "ended", me, f"{verb(name, 'wins', 'win')} at once with "
                    f"{rs.end_reason()}"))
                events += self._set_pause("game_over")
                if not self._pauses:
                    events += yield from self._go_on_steps()
        elif isinstance(action, Choose):
            # (coloured dice with their colours' marks, as every line of text shows them)
            text = (f"{verb(name, 'keeps', 'keep')} {dice_text(kept, rs) or 'nothing'}"
                    if computer else "")
            events.append(self._event("chosen", me, text, chosen=sorted(action.dice),
                                      kept=list(kept)))
        elif isinstance(action, GiveBack):
            events.append(self._event("gave_back", me, f"{name}: dice given back"))
        elif isinstance(action, Score):
            label = rs.category(action.category).label
            col = f" (column {action.column + 1})" if len(rs.columns) > 1 else ""
            total = pl.total if pl else 0
            served = " (served)" if pl and pl.served else ""  # Generala: from the first roll
            events.append(self._event(
                "scored", me, f"{name}: {label}{col} for {total}{served}",
                category=action.category, column=action.column, label=label,
                points=pl.points if pl else 0, bonus=pl.bonus if pl else 0, total=total,
                repeat=bool(pl and pl.repeat), served=bool(pl and pl.served),
                grand=st.totals(me).grand))
            events += self._penalties(me, cards_before)
            nxt = st.current
            if nxt != me and not st.is_terminal():
                events.append(self._event("turn_passed", nxt, previous=me, next=nxt))
            self._stand_in_ends = frozenset()  # (back from their next turn on)
            prefs = self._prefs.get(seat.id, SeatPrefs()) if seat is not None else None
            pause, at_once = self._pause_for(st, me, computer, prefs)
            if pause == "game_over" or (pause is not None and self._pauses):
                events += self._set_pause(pause)
                if not self._pauses:  # the results at once
                    events += yield from self._go_on_steps()
            self._after_computer_score = computer
            self._after_person_score = at_once and self._pauses
            if self._after_person_score:
                # no Next player pause for this seat: the game goes on by itself (the
                # score can be taken back until the computer rolls). Told as a pause left
                # at once, so that another process of a server, which pauses by
                # default, leaves it too.
                events.append(self._event("went_on", None, pause="next_player",
                                          at_once=True))
        elif isinstance(action, TakeBack):
            self._pause = None
            self._after_computer_score = self._after_person_score = False
            events.append(self._event("took_back", st.current,
                                      f"{st.players[st.current].name}: last score taken back"))
        events += self._warnings() + self._elsewhere(elsewhere)
        return events

    def _penalties(self, me: int, before: Sequence[Scorecard]) -> list[Event]:
        """The boxes a player's scoring filled on other players' cards (the second-Kismet
        zero), each told."""
        st = self._game.state
        rs = st.ruleset
        events: list[Event] = []
        for other, old in enumerate(before):
            if other == me:
                continue
            new = st.card(other)
            for col, (was, now) in enumerate(zip(old.boxes, new.boxes, strict=True)):
                for i, (a, b) in enumerate(zip(was, now, strict=True)):
                    if a is None and b is not None:
                        who = st.players[other].name
                        events.append(self._event(
                            "penalty", other,
                            f"{possessive(st.players[me].name, start=True)} "
                            f"{rs.penalty_reason()}: {verb(who, 'writes', 'write')} {b} in "
                            f"{rs.categories[i].label}",
                            by=me, category=rs.categories[i].id, column=col, points=b))
        return events

    def _elsewhere(self, before: str | None) -> list[Event]:
        now = self._game.elsewhere
        if now is None or now == before:
            return []
        return [self._event("elsewhere", None, now)]

    def sync(self) -> list[Event]:
        """Take up what the store has that this table has not: the actions another process
        of a server saved (played here as they were), or, if this copy went astray, the
        stored game as it is (a ``reloaded`` event). Reads the store (call it off an event
        loop)."""
        with self._lock:
            events = self._sync()
            self._emit(events)
            return events

    def _sync(self) -> list[Event]:
        s = self._game
        try:
            stored = s.stored_actions()
        except Exception as e:  # the store's one line; the next sync tries again
            return [self._event("store_warning", None, f"cannot read the game: {e}")]
        if stored is None:
            return []
        log = s.state.log
        if stored[:len(log)] == log:
            return self._play_saved(stored[len(log):])
        self._remote = True
        try:
            return self._take_stored(stored)
        finally:
            self._remote = False

    def _take_stored(self, stored: list[Action], finished: bool = False) -> list[Event]:
        """This copy replaced by the stored game's actions (lock held): its pause, its
        recent moves told anew, a ``reloaded`` event."""
        s = self._game
        s.reload(stored)
        s.finished = finished
        self._pause = "game_over" if s.is_over() and not finished else None
        self._after_computer_score = self._after_person_score = False
        self._held, self._held_at_score = held_in_log(s.state), None
        self._news.clear()
        self._news.extend(self._retold())
        self._changed()
        return [self._event("reloaded", None, "the game as it is stored", actions=len(stored))]

    def reload(self) -> list[Event]:
        """Take up the stored game as it is now, when it went on elsewhere (another window
        played, or finished, it): this copy is replaced by it and saved again from here on.
        Raises SessionError (one line) when it cannot be (not saved, deleted...). Reads
        the store: call it off an interface's main thread if the store may be slow."""
        with self._lock:
            s = self._game
            if s.store is None or s.game_id is None:
                raise SessionError("this game is not saved: there is nothing to reload")
            try:
                stored = list(s.store.load_record(s.game_id).actions)
                _n, finished = s.store.progress(s.game_id)
            except Exception as e:  # the store's one line
                raise SessionError(str(e)) from None
            try:
                events = self._take_stored(stored, finished)
            except (ValueError, IllegalAction) as e:
                raise SessionError(f"the stored game cannot be replayed: {e}") from None
            s.elsewhere = None
            self._emit(events)
            return events

    def take_up(self, news: Sequence[tuple[int, Sequence[Action]]],
                position: tuple[int, dict[str, Any]] | None = None) -> list[Event]:
        """Actions another process saved, as its news carried them: ``(start, actions)``,
        the actions from log index ``start`` on. Played here as they were when they
        follow on from this copy (the store is not read); otherwise (news out of order,
        a take-back, a copy gone astray) the store is read, as :meth:`sync` does.
        ``position``: the mover's :meth:`position` after them, used by this table's
        snapshots if this table is there now (see :meth:`take_position`).

        >>> from yacht.engine import Player, Roll
        >>> from yacht.rules import get
        >>> here = Table.new(get("yatzy"), [Player("Ann"), Player("Bob")])
        >>> there = Table.new(get("yatzy"), [Player("Ann"), Player("Bob")])
        >>> _ = here.act(LOCAL, Roll())
        >>> [e.kind for e in there.take_up([(0, here.actions_since(0))])]
        ['rolled']
        >>> there.take_up([(0, here.actions_since(0))])  # heard twice: played once
        []
        """
        with self._lock:
            return steps.run(self._take_up(news, position))

    async def take_up_async(self, news: Sequence[tuple[int, Sequence[Action]]],
                            position: tuple[int, dict[str, Any]] | None = None, *,
                            offload: Offload) -> list[Event]:
        """:meth:`take_up` on a running event loop, in turn with :meth:`act_async`
        (``offload`` runs a read of the store, when the news does not follow on)."""
        return await self._in_turn(lambda: self._take_up(news, position), offload)

    def _take_up(self, news: Sequence[tuple[int, Sequence[Action]]],
                 position: tuple[int, dict[str, Any]] | None) -> Steps[list[Event]]:
        events: list[Event] = []
        for start, actions in news:
            log = self._game.state.log
            have = log[start:start + len(actions)]
            if start > len(log) or list(have) != list(actions[:len(have)]):
                events += yield Blocking(self._sync)
                break
            try:
                events += yield from self._play_saved_steps(actions[len(have):])
            except Refused:
                events += yield Blocking(self._sync)
                break
        if position is not None:
            self.take_position(*position)
        self._emit(events)
        return events

    def _play_saved(self, actions: Sequence[Action]) -> list[Event]:
        return steps.run(self._play_saved_steps(actions))

    def _play_saved_steps(self, actions: Sequence[Action]) -> Steps[list[Event]]:
        s = self._game
        events: list[Event] = []
        # (their events say they came from elsewhere; a step that waits - a finished
        # game's results - holds the table's lock on its thread, so no other event is
        # made meanwhile)
        self._remote = True
        try:
            for action in actions:
                st = s.state
                computer = not st.is_terminal() and (
                    st.players[st.current].is_computer
                    or (isinstance(action, Score) and action.by is not None))
                events += yield from self._apply_steps(action, computer=computer, saved=True)
        finally:
            self._remote = False
        return events

    def remote_go_on(self, pause: str) -> list[Event]:
        """Another process's player left the pause ``pause``: leave it here too."""
        with self._lock:
            if self._pause is None or self._pause != pause or self._closed:
                return []
            self._remote = True
            try:
                events = self._go_on()
            finally:
                self._remote = False
            self._emit(events)
            return events

    def check_store(self) -> list[Event]:
        """Whether the saved game went on elsewhere (another window played, finished or
        deleted it): an ``elsewhere`` event once; this table is no longer saved. A
        window's driver asks every few seconds (one quick read)."""
        with self._lock:
            before = self._game.elsewhere
            if before is not None or self._closed:
                return []
            self._game.check_store()
            events = self._elsewhere(before) + self._warnings()
            self._emit(events)
            return events

    def _set_pause(self, pause: Pause) -> list[Event]:
        self._pause = pause
        events = [self._event("paused", None, pause=pause)]
        if pause == "game_over":
            st = self._game.state
            events.append(self._event("game_over", None, "Game over",
                                      totals=st.returns(), winners=st.winners()))
        return events

    def _go_on(self) -> list[Event]:
        return steps.run(self._go_on_steps())

    def _go_on_steps(self) -> Steps[list[Event]]:
        pause = self._pause
        self._pause = None
        self._changed()
        events = [self._event("went_on", None, pause=pause)]
        if pause == "game_over" and self._game.is_over():
            events += yield from self._finish_steps()
        return events

    def _finish(self) -> list[Event]:
        return steps.run(self._finish_steps())

    def _finish_steps(self) -> Steps[list[Event]]:
        s = self._game
        if s.finished:
            return []
        entries = yield Blocking(s.finish)
        if s.saved and s.store is not None:  # (its results are in the store's statistics)
            st, store = s.state, s.store
            self._past = yield Blocking(lambda: tuple(
                past_games(store, p.name, st.ruleset, st.returns()[i])
                for i, p in enumerate(st.players)))
        events = [self._event("finished", None, entries=[_entry_json(e) for e in entries])]
        return events + self._warnings()

    def _warnings(self) -> list[Event]:
        s = self._game
        if not s.warning:
            return []
        text, s.warning = s.warning, None
        return [self._event("store_warning", None, text)]

    def go_on(self, seat: str = LOCAL, version: int | None = None) -> list[Event]:
        """Leave the pause (the next player's turn, or the results)."""
        return self.act(seat, GoOn(), version=version)

    def withhold_seed(self, on: bool) -> bool:
        """Keep the finished game's seed out of its snapshots (``on``), or show it again:
        other games on the same seed are still played (a duplicate table's cards).
        Whether it changed."""
        with self._lock:
            changed = self._game.seed_withheld != on
            self._game.seed_withheld = on
            return changed

    # --- computer players ---------------------------------------------------------
    def set_speed(self, speed: str) -> None:
        if speed not in SPEEDS:
            raise ValueError(f"unknown speed {speed!r} (accepted: {', '.join(SPEEDS)})")
        with self._lock:
            self._pacing = Pacing(speed)
            event = self._event("speed", None, speed=speed)
            self._changed_cond.notify_all()
            self._emit([event])

    def keep_speed(self) -> None:
        """Keep the table's speed with its game (its record's meta ``speed``: a game saved
        later starts with it, a saved one has it updated in the store), so that the game
        resumed goes on at it; a terminal's + and -. Writes to the store without the
        table's lock: call it off an event loop. A store that cannot keep it leaves the
        game going on at it here (resumed, it goes on at the speed kept before), and says
        so (a ``store_warning`` event). A web table keeps its speed in its own row."""
        with self._keeping:
            with self._lock:
                s = self._game
                speed = self._pacing.speed
                s.meta["speed"] = speed
                if s.store is None or s.game_id is None or s.elsewhere is not None:
                    return
                store, game_id = s.store, s.game_id
            keep = getattr(store, "update_meta", None)
            if keep is None:
                return
            try:
                keep(game_id, {"speed": speed})
            except Exception as e:  # (not kept: the game goes on at it here all the same)
                why = " ".join(str(e).split())[:120] or type(e).__name__
                with self._lock:
                    self._emit([self._event(
                        "store_warning", None, f"the speed {speed} was not saved with the "
                        f"game ({why}): resumed, it goes on at the speed saved before")])

    @property
    def pacing(self) -> Pacing:
        return self._pacing

    def due(self) -> Due | None:
        """What the table will do by itself next, and when (None: it waits for a person)."""
        with self._lock:
            if self._closed:
                return None
            s = self._game
            if self._pause == "game_over":
                if s.demo and not s.finished:
                    return Due("go_on", self._changed_at + self._pacing.demo_end, self._version)
                return self._pause_due()
            if self._pause is not None:
                return self._pause_due()
            if s.is_over():
                return None
            if not self._plays_itself():
                roll = None
                if self.auto_roll and not s.state.dice and self._no_auto_roll != self._version:
                    roll = Due("roll", self._changed_at + self._pacing.step, self._version)
                clock = self._clock_due()
                return clock if roll is None or (clock is not None and clock.at < roll.at) \
                    else roll
            wait = (self._pacing.between_computers if self._after_computer_score
                    else self._pacing.after_person if self._after_person_score
                    else self._pacing.step)
            return Due("computer", self._changed_at + wait, self._version)

    def _plays_itself(self) -> bool:
        """Whether the computer plays the turn now: a computer player's, anyone's while
        a demo has taken over, or a person's whose clock ran out or who is away (lock
        held)."""
        s = self._game
        return not s.is_over() and (s.is_computer_turn() or self._taken_over
                                    or self._played_for(passed=False))

    # --- the turn clock and the stand-ins ------------------------------------------------
    @property
    def turn_clock(self) -> TurnClock | None:
        """The table's turn clock (the game's record says it; None: none)."""
        return self._turn_clock.clock if self._turn_clock is not None else None

    def _counting(self) -> tuple[int, int] | None:
        """The person's turn the clock counts now (lock held): no pause, no computer."""
        st = self._game.state
        if (self._closed or st.is_terminal() or self._pause is not None or self._taken_over
                or st.players[st.current].is_computer
                or st.current in self._stand_ins | self._stand_in_ends):
            return None
        return st.current, st.turns_taken(st.current)

    def _follow_clock(self, save: bool = True) -> None:
        """The clock follows the table (lock held): a new turn counts from now, the turn
        that ended pays from its bank; the store keeps it (where the change was made)."""
        c = self._turn_clock
        if c is None:
            return
        if c.follow(self._counting(), self._wall()) and save and not self._remote:
            self._save_clock()

    def _save_clock(self) -> None:
        c, s = self._turn_clock, self._game
        keep = getattr(s.store, "set_clock", None)
        if c is None or keep is None or not s.saved:
            return
        try:
            keep(s.game_id, c.to_json())
        except Exception:  # (the clock counts on here; a restart then gives a full turn)
            pass

    def _load_clock(self) -> None:
        """A resumed game's clock counts on from what the store kept."""
        c, s = self._turn_clock, self._game
        read = getattr(s.store, "load_clock", None)
        if c is None or read is None or s.game_id is None:
            return
        try:
            c.take(read(s.game_id))
        except Exception:  # (not readable: the turn counts from now)
            pass

    def _played_for(self, passed: bool = True) -> bool:
        """The computer plays the turn on now for its person (lock held): their clock
        ran out (``passed``: or its deadline passed - the table that drives it, here or in
        another process, is about to say so), or they are away."""
        st = self._game.state
        if st.is_terminal() or st.players[st.current].is_computer:
            return False
        if st.current in self._stand_ins or st.current in self._stand_in_ends:
            return True
        c = self._turn_clock
        if c is None or c.key is None or c.key[0] != st.current:
            return False
        deadline = c.deadline()
        return c.ran_out or (passed and deadline is not None and self._wall() >= deadline)

    def _played_by(self, player: int) -> Literal["clock", "stand_in"] | None:
        """What a computer step for a person's turn is marked with in the record: the
        computer stood in for them (away, or a demo that took over the game), or played
        on when their clock ran out. A score so marked is not the person's: no take-back,
        no verdict on it, left out of their analysis (``review``)."""
        if self._game.players[player].is_computer:
            return None
        if self._taken_over:
            return "stand_in"
        if not self._played_for(passed=False):
            return None
        st = self._game.state
        return "stand_in" if st.current in self._stand_ins | self._stand_in_ends else "clock"

    def _played_for_line(self, name: str) -> str:
        if self._game.state.current in self._stand_ins | self._stand_in_ends:
            return f"wait: the computer plays {possessive(name)} turn while they are away"
        return f"time is up: the computer plays {possessive(name)} turn"

    def _clock_due(self) -> Due | None:
        """The deadline of the turn the clock counts, as a due step (lock held)."""
        c = self._turn_clock
        if c is None or c.key is None or c.ran_out:
            return None
        deadline = c.deadline()
        assert deadline is not None
        return Due("clock", self._clock() + (deadline - self._wall()), self._version)

    def _pause_due(self) -> Due | None:
        """On a table with a clock a pause goes on by itself after a turn's time (no one
        waits forever for a player who left); lock held."""
        c = self._turn_clock
        if c is None or self._game.finished:
            return None
        return Due("clock", self._changed_at + c.clock.pause, self._version)

    def _run_out(self, due: Due) -> bool:
        """The deadline came: the computer plays the rest of the turn (a ``clock`` event),
        or the pause goes on."""
        with self._lock:
            c = self._turn_clock
            if c is None or self._version != due.version or self._closed:
                return False
            if self._pause is not None:
                self._emit(self._go_on())
                return True
            deadline = c.deadline()
            if c.key is None or c.ran_out or deadline is None or self._wall() < deadline - 0.05:
                return False
            c.run_out()
            if not self._remote:
                self._save_clock()
            self._changed()
            name = self._game.players[c.key[0]].name
            self._emit([self._event("clock", c.key[0],
                                    f"{name}: time is up; the computer plays the turn",
                                    player_name=name)])
            return True

    @property
    def stand_ins(self) -> frozenset[int]:
        """The people whose turns the computer plays while they are away."""
        with self._lock:
            return self._stand_ins | self._stand_in_ends

    def set_stand_ins(self, players: Iterable[int]) -> list[Event]:
        """The computer plays these people's turns from now on (they are away: a vote of
        the others, or the host); one taken out of them plays again from their next turn
        (a turn the computer has begun for them, it finishes). A ``stand_in`` event."""
        with self._lock:
            st = self._game.state
            new = frozenset(p for p in players
                            if 0 <= p < len(st.players) and not st.players[p].is_computer)
            old = self._stand_ins | self._stand_in_ends
            if new == self._stand_ins:
                return []
            ends = frozenset(p for p in self._stand_ins - new
                             if p == st.current and st.dice and not st.is_terminal())
            self._stand_ins, self._stand_in_ends = new, ends
            if new | ends == old:
                return []
            self._changed()
            came = sorted(old - new - ends)
            went = sorted(new - old)
            names = [st.players[p].name for p in went]
            back = [st.players[p].name for p in came]
            text = "; ".join(
                ([f"The computer plays for {', '.join(names)} while away"] if names else [])
                + ([f"{', '.join(back)} back at the table"] if back else []))
            events = [self._event("stand_in", None, text, players=sorted(new | ends))]
            self._emit(events)
            return events

    def set_demo(self, on: bool) -> list[Event]:
        """Let the computer play every seat from now on (``on``), or give the people their
        turns back (Tommy's F2). A person whose turn the computer plays counts as
        assisted. A Next player pause is left at once when the computer takes over."""
        with self._lock:
            if self._closed:
                raise Refused("this table is closed", "closed")
            if on == self._taken_over:
                return []
            self._taken_over = on
            self._changed()
            people = any(not p.is_computer for p in self._game.players)
            text = ("Demo: the computer plays every seat" if on else
                    "Demo off: the people play their own turns" if people else
                    "Demo off (every seat is a computer player)")
            events = [self._event("demo", None, text, on=on)]
            if on and self._pause == "next_player":
                events += self._go_on()
            self._emit(events)
            return events

    def think(self, version: int | None = None) -> Plan | None:
        """Work out the next step of the computer on turn (the slow part; no lock held
        while deciding). None when no computer is due (or the table moved on)."""
        with self._think_lock:
            with self._lock:
                s = self._game
                if (self._closed or self._pause is not None or not self._plays_itself()
                        or (version is not None and version != self._version)):
                    return None
                v = self._version
                me = s.state.current
                state = s.state.clone(rng=False)
                # (the dice it chose roll next; on a person's turn, dice the person chose
                # or held are no choice of the computer's: it decides for itself)
                if not state.dice or (state.chosen and (
                        state.players[me].is_computer
                        or self._computer_chose == len(state.log))):
                    return Plan(v, me, (Roll(),))
                level = state.players[me].level or "intermediate"
                if not state.players[me].is_computer and self._played_for(passed=False):
                    level = STAND_IN  # (a person's turn: the expert plays it for them)
            name = state.players[me].name
            slow = me not in self._strategies and not _ready(level, state.ruleset)
            if slow:
                self._get_ready(level, Thinking(me, f"{verb(name, 'is', 'are')} getting ready "
                                                    f"(the {level} level's tables)"))
            try:
                from yacht.strategy import preparation

                more = preparation(self._strategy(me, level), state)  # for this game (the
                if more is not None:                           # champion's target table, alone)
                    slow = True
                    self._get_ready(level, Thinking(
                        me, f"{verb(name, 'is', 'are')} getting ready: {more.what}"), more.build)
                with self._says_if_slow(Thinking(me, f"{verb(name, 'is', 'are')} thinking")):
                    decision = self._strategy(me, level).decide(state)
                if decision.score is not None:
                    actions: tuple[Action, ...] = (decision.score,)
                else:
                    actions = (Choose(tuple(sorted(decision.reroll))),)
                failure = None
            except Exception as e:  # a failing strategy must not end the game
                from yacht.engine import random_decision

                actions = (random_decision(state, random.Random())[0],)
                failure = str(e) or type(e).__name__
            finally:
                if slow:
                    self._set_thinking(None)
            return Plan(v, me, actions, failure)

    def _strategy(self, player: int, level: str | None = None) -> Any:
        """The computer player of seat ``player``, made when first needed (think lock held);
        ``level`` :data:`STAND_IN`: the expert who plays a person's turn for them.

        A level that cannot be made plays at random, with a warning once.
        """
        key = player if level != STAND_IN else -1 - player
        found = self._strategies.get(key)
        if found is None:
            try:
                found = (self._game.make_strategy(player) if level != STAND_IN
                         else self._game.strategy_factory(STAND_IN, self._game.ruleset))
            except (LookupError, ImportError, ValueError) as e:
                from yacht.strategy import RandomStrategy

                level = self._game.players[player].level
                with self._lock:
                    self._game.warning = (f"computer level {level} is not available ({e}); "
                                            "it plays at random")
                found = RandomStrategy(self._game.ruleset)
            self._strategies[key] = found
        return found

    @contextlib.contextmanager
    def _says_if_slow(self, thinking: Thinking) -> Iterator[None]:
        """Whatever runs inside says ``thinking`` (a ``computer_thinking`` event, the
        snapshot's ``thinking``) once it has taken longer than :data:`SLOW`, until it ends."""
        done = threading.Event()
        said = threading.Event()

        def say() -> None:
            with self._lock:
                if not done.is_set() and self._thinking is None:
                    said.set()
                    self._set_thinking(thinking)

        timer = threading.Timer(SLOW, say)
        timer.daemon = True
        timer.start()
        try:
            yield
        finally:
            done.set()
            timer.cancel()
            with self._lock:
                if said.is_set() and self._thinking == thinking:
                    self._set_thinking(None)
                    self._changed_cond.notify_all()
                    self._emit([self._event("computer_progress", thinking.player,
                                            what=thinking.what, done=1, total=1)])

    def _set_thinking(self, thinking: Thinking | None) -> None:
        with self._lock:
            self._thinking = thinking
            if thinking is not None:
                event = self._event("computer_thinking", thinking.player, what=thinking.what)
                self._emit([event])

    def _get_ready(self, level: str, thinking: Thinking,
                   build: Callable[[Callable[[int, int], None]], None] | None = None) -> None:
        """Build what ``level`` needs, or run ``build`` (no lock held), telling how far it
        got."""
        from yacht.strategy import prepare

        self._set_thinking(thinking)
        shown = [-1]

        def progress(done: int, total: int) -> None:
            percent = 100 * done // total if total > 0 else 0
            if percent < shown[0] + 5 and done < total:
                return  # every 5 %: enough to see it move, few events
            shown[0] = percent
            with self._lock:
                self._thinking = Thinking(thinking.player, thinking.what, done, total)
                self._emit([self._event("computer_progress", thinking.player,
                                        what=thinking.what, done=done, total=total)])

        try:
            if build is not None:
                build(progress)
            else:
                prepare(level, self._game.ruleset, progress)
        except Exception:  # the player (or the advisor) reports its own problem
            pass

    def step(self, plan: Plan | None) -> list[Event]:
        """Play a computer step worked out by :meth:`think` (nothing if the table moved on)."""
        if plan is None:
            return []
        with self._lock:
            if plan.version != self._version or self._closed:
                return []
            events: list[Event] = []
            if plan.failure is not None:
                name = self._game.players[plan.player].name
                events.append(self._event(
                    "computer_failed", plan.player,
                    f"the computer player {name} failed ({plan.failure}); it moves at random",
                    error=plan.failure))
            s = self._game
            if not s.players[plan.player].is_computer and plan.player not in s.assisted_players:
                s.mark_assisted(plan.player)  # the computer played a person's turn (demo)
                events.append(self._event("assisted", plan.player,
                                          player_name=s.players[plan.player].name))
            by = self._played_by(plan.player)
            for action in plan.actions:
                if by is not None and isinstance(action, Score):
                    action = dataclasses.replace(action, by=by)
                try:
                    events += self._apply(action, computer=True)
                    if isinstance(action, Choose):
                        self._computer_chose = len(self._game.state.log)
                except Refused as e:  # an illegal move: play a random one instead
                    if e.code != "illegal":
                        # the store refused it (raised: the driver tries again later) or
                        # another copy of the game saved a move first (the table has taken
                        # up the stored game: the next plan is made on it); never a random
                        # move on a position the plan was not made for
                        self._emit(events)
                        if e.code == "stale":
                            return events
                        raise
                    from yacht.engine import random_decision

                    events.append(self._event(
                        "computer_failed", plan.player,
                        f"the computer player tried an illegal move ({e}); it moves at random",
                        error=str(e)))
                    fallback = random_decision(self._game.state.clone(rng=False),
                                               random.Random())[0]
                    events += self._apply(fallback, computer=True)
                    break
            self._emit(events)
            return events

    def _computer_now(self, seat: str, version: int | None) -> list[Event]:
        with self._lock:
            who = self.seat(seat)
            self._check_open(version)
            if not who.operator:
                raise Refused("only the table's operator can make a computer move now",
                              "not_your_turn")
            s = self._game
            if not s.is_computer_turn():
                name = s.current_player.name if not s.is_over() else "nobody"
                raise Refused(f"{verb(name, 'is', 'are')} not a computer player", "illegal")
            if self._pause is not None:
                raise Refused("leave the pause first (go on to the next turn)", "paused")
            v = self._version
        return self.step(self.think(v))

    def run_due(self, wait: bool = False, until: Callable[[], bool] | None = None) -> int:
        """Do in this thread what the table does by itself, until it waits for a person
        (or ``until()`` is true); ``wait`` keeps the pace (sleeps), else steps at once.
        Returns the number of steps."""
        steps = 0
        while until is None or not until():
            due = self.due()
            if due is None or (due.kind == "clock" and due.at > self._clock()):
                break  # (a person's turn, however long their clock still runs)
            if wait:
                delay = due.at - self._clock()
                if delay > 0:
                    time.sleep(delay)
            if not self._do(due):
                continue
            steps += 1
        return steps

    def _do(self, due: Due) -> bool:
        if due.kind == "go_on":
            with self._lock:
                if self._version != due.version or self._pause is None or (
                        self._pause != "game_over" and self._turn_clock is None):
                    return False
                events = self._go_on()
                self._emit(events)
            return True
        if due.kind == "clock":
            return self._run_out(due)
        if due.kind == "roll":
            with self._lock:
                if self._version != due.version or self.due() != due:
                    return False
                try:
                    events = self._apply(Roll())
                except Refused as e:  # a store that cannot save it: the person rolls
                    self._no_auto_roll = self._version
                    self._emit([self._event("store_warning", None, str(e))])
                    return False
                self._emit(events)
            return True
        return bool(self.step(self.think(due.version)))

    # --- the advisor ----------------------------------------------------------------
    def hint(self, seat: str = LOCAL, limit: int = 5) -> list[Advice]:
        """The advisor's ranking for the player on turn (marks them assisted).

        Raises :class:`Refused` when it is not the seat's turn and
        HintUnavailable when there is nothing to advise or no advisor.
        """
        from .advice import Moves, rank_moves

        with self._lock:
            who = self.seat(seat)
            s = self._game
            if self._closed or s.is_over() or s.is_computer_turn() or self._pause is not None:
                raise HintUnavailable("a hint is for a person's turn")
            if s.state.current not in who.players:
                raise Refused(f"it is {possessive(s.current_player.name)} turn", "not_your_turn")
            state = s.state.clone(rng=False)
            me = state.current
        if state.dice and not _ready("advisor", state.ruleset):
            with self._think_lock:  # one build at a time (a computer may need it too)
                self._get_ready("advisor", Thinking(me, "The advisor is getting ready (the "
                                                        f"{state.ruleset.name} tables)"))
            self._set_thinking(None)
        with self._says_if_slow(Thinking(me, "The advisor is working it out")):
            ranking = rank_moves(state, limit)
        with self._lock:
            before = s.assisted_players.copy()
            if isinstance(ranking, Moves):  # (the player's first hint: say so once)
                ranking.marked = me not in before
                persons = [p for p in state.players if p.kind == "person"]
                ranking.who = state.players[me].name if len(persons) > 1 else None
            s.mark_assisted(me)
            events = []
            if me not in before:
                events.append(self._event("assisted", me, player_name=state.players[me].name))
            events += self._warnings()
            self._emit(events)
        return ranking

    # --- the end ------------------------------------------------------------------
    def finish(self) -> list[Any]:
        """Record a finished game in the store once; the new top-ten entries."""
        with self._lock:
            if self._game.is_over():
                self._emit(self._finish())
            return list(self._game.new_entries)

    def abandon(self) -> None:
        """Delete this unfinished game from the store (the interface asks first)."""
        with self._lock:
            self._game.abandon()
            self._emit(self._warnings())

    def close(self) -> None:
        """No more commands or computer steps (a finished game is recorded first)."""
        with self._lock:
            if self._closed:
                return
            events = self._finish() if self._game.is_over() else []
            self._closed = True
            events.append(self._event("closed"))
            self._changed_cond.notify_all()
            self._emit(events)

    def top_ten(self, apart: bool | None = None) -> list[Any]:
        """The top ten this game goes to, or (``apart`` given) the list apart from the top
        ten (``True``: assisted games and games with dice entered) or the top ten itself."""
        with self._lock:
            s = self._game
            if apart is None or s.store is None:
                return s.top_ten() if apart is None else []
            store = s.store
        return list(store.top_ten(s.ruleset, apart))

    @property
    def has_store(self) -> bool:
        """The game is played with a store (saved, unless it went on elsewhere)."""
        return self._game.store is not None

    def save_unsaved(self) -> bool:
        """Try again to write the actions a failed save left out (an interface calls it
        before it says whether the game is saved; the next move tries too). True: the
        store has the whole game. Writes to the store: call it off an event loop."""
        with self._lock:
            return self._game.save_unsaved()

    def take_warning(self) -> str | None:
        """The last problem with the store, once (an interface shows it, then it is gone)."""
        with self._lock:
            text, self._game.warning = self._game.warning, None
            return text

    def record(self) -> Record:
        """The game's record as it stands (for its analysis, an export)."""
        with self._lock:
            return self._game.record()

    def save(self) -> str | None:
        """Store the game now, before its first action; its id (see Session.save_now)."""
        with self._lock:
            try:
                game_id = self._game.save_now()
            except SaveFailed as e:
                raise Refused(str(e), "store") from None
            self._save_clock()  # (the first turn's clock counts from here)
            return game_id

    def attach_store(self, store: StoreLike) -> None:
        """Start saving a game that began before the store was open."""
        with self._lock:
            self._game.attach_store(store)
            self._emit(self._warnings())

    def wait_for_change(self, version: int, timeout: float | None = None) -> bool:
        """Block until the version is not ``version`` (or the speed changed, or the table
        closed); False on timeout."""
        with self._changed_cond:
            return self._changed_cond.wait_for(
                lambda: self._version != version or self._closed, timeout)


def _entry_json(entry: Any) -> Any:
    return entry.to_json()


class ThreadDriver:
    """Runs what a table does by itself (computer turns, a demo's end) on a thread of
    its own, at the table's pace. The terminal game uses one per table."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._stop = threading.Event()
        self._wakeup = threading.Event()
        self._thread = threading.Thread(target=self._run, name="yacht-table", daemon=True)
        self._unsubscribe = table.subscribe(self._poke)
        #: True while a step is being worked out or played
        self.busy = False

    def start(self) -> ThreadDriver:
        self._thread.start()
        return self

    def stop(self, join: bool = True) -> None:
        self._stop.set()
        self._unsubscribe()
        self._wakeup.set()
        if join and self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(timeout=5)

    def poke(self) -> None:
        """Look again now (the speed changed, a pause ended...)."""
        self._wakeup.set()

    def _poke(self, event: Event) -> None:
        self._wakeup.set()  # never blocks: a subscriber runs with the table locked

    def idle(self) -> bool:
        """Nothing due and nothing under way (what a test waits for): a person's turn,
        however long their clock still runs."""
        due = self.table.due()
        return not self.busy and (due is None or (due.kind == "clock"
                                                  and due.at > self.table._clock()))

    #: how often the driver asks the store whether the game went on elsewhere (seconds)
    WATCH = 2.0

    def _run(self) -> None:
        table = self.table
        watched = time.monotonic()
        while not self._stop.is_set():
            if time.monotonic() - watched >= self.WATCH:
                watched = time.monotonic()
                try:
                    table.check_store()
                except Exception:  # a store that cannot be read says so when written to
                    pass
            self._wakeup.clear()
            due = table.due()
            if due is None:
                self._wakeup.wait(0.5)
                continue
            delay = due.at - table._clock()
            if delay > 0:
                self._wakeup.wait(delay)
                continue
            self.busy = True
            try:
                table._do(due)
            except Exception:  # a driver never dies of one step
                time.sleep(0.05)
            finally:
                self.busy = False


async def drive_async(table: Table, *, stop: asyncio.Event | None = None,
                      think: Callable[[Callable[[], Any]], Any] | None = None,
                      play: Callable[[Callable[[], Any]], Any] | None = None) -> None:
    """Run what a table does by itself in an asyncio program, until ``stop`` is set or
    the table closes. Computer decisions run in a worker thread (``think``: how to run
    a blocking call, default ``asyncio.to_thread``), and so do the table's own moves (a
    roll, the turn clock, going on after a pause: ``play``, the same default), which
    save the game and tell the listeners: the event loop never waits for a database or
    a listener."""
    loop = asyncio.get_running_loop()
    changed = asyncio.Event()

    def poke(event: Event) -> None:
        loop.call_soon_threadsafe(changed.set)

    unsubscribe = table.subscribe(poke)
    # ``stop`` wakes the wait for what is due too: a turn clock's minutes did not hold
    # up a server that stops
    stopping = None if stop is None else loop.create_task(stop.wait())
    if stopping is not None:
        stopping.add_done_callback(lambda _t: changed.set())
    try:
        while not (stop is not None and stop.is_set()):
            due = table.due()
            if table.closed:
                return
            changed.clear()
            if due is None or due.at > table._clock():
                timeout = 0.5 if due is None else max(0.0, due.at - table._clock())
                try:
                    await asyncio.wait_for(changed.wait(), timeout)
                except TimeoutError:
                    pass
                continue
            if due.kind in ("go_on", "roll", "clock"):
                do = functools.partial(table._do, due)
                await (play(do) if play is not None else asyncio.to_thread(do))
                continue
            decide = functools.partial(table.think, due.version)
            plan = await (think(decide) if think is not None else asyncio.to_thread(decide))
            table.step(plan)
    finally:
        unsubscribe()
        if stopping is not None:
            stopping.cancel()


__all__ += ["ActionError", "Thinking"]
