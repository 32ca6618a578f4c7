"""The game under a table: the state, who plays, what is saved.

A :class:`Session` keeps the engine's state and the store in step: every
action the state accepts goes to the store at once, so a game can be resumed
after a crash or a quit. It has no flow of its own: whose turn it is, computer
moves, pauses and pacing are the :class:`~yacht.session.table.Table`'s.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol

from yacht.engine import (
    DEFAULT_LEVEL,
    Action,
    Commitment,
    IllegalAction,
    Player,
    Record,
    Roll,
    Score,
    State,
    TakeBack,
)
from yacht.rules import Ruleset, YachtError

from . import steps
from .config import PlayerSpec
from .steps import Blocking, Save, Steps

__all__ = ["HintUnavailable", "LastScore", "SaveConflict", "SaveFailed", "Session", "SessionError",
           "StoreLike", "players_from_specs"]


def _utc_day() -> str:
    from datetime import UTC, datetime

    return datetime.now(UTC).date().isoformat()


class SessionError(YachtError):
    """A game that cannot be started or resumed; the message is one line for the user."""


class SaveFailed(IllegalAction):
    """A strict session could not save an action; the game did not change."""


class SaveConflict(SaveFailed):
    """A strict session's action lost a race: another process saved a different action at
    that place first (the stored game went on without this copy)."""


class HintUnavailable(YachtError):
    """The advisor cannot be used (not installed yet, or it failed); one-line message."""


class StoreLike(Protocol):
    """Every part of :class:`yacht.store.Store` the tables and the interfaces use (tests
    pass a small fake). ``finish_game`` and ``top_ten`` return ScoreEntry-like objects
    (``rank``, ``name``, ``score``, ``date``, ``game_id``, ``assisted``, ``dice_entered``,
    ``ended_early``, ``to_json()``); ``game_info`` an object with ``assisted``;
    ``unfinished_games``
    GameInfo-like ones. ``start_game`` keeps the secret ``seed`` of the record's
    commitment; ``load_record`` reveals it only for a finished game, ``load_seed`` to the
    session that goes on with the game."""

    def start_game(self, record: Record, seed: bytes | None = None) -> str: ...
    def append_action(self, game_id: str, index: int, action: Action,
                      new: bool = False) -> None: ...
    def set_assisted(self, game_id: str, player: int | None = None) -> None: ...
    def finish_game(self, game_id: str, state: State) -> Any: ...
    def load_record(self, game_id: str) -> Record: ...
    def load_seed(self, game_id: str) -> bytes | None: ...
    def resolve_id(self, prefix: str) -> str: ...
    def progress(self, game_id: str) -> tuple[int, bool]: ...
    def game_info(self, game_id: str) -> Any: ...
    def top_ten(self, ruleset: Ruleset, assisted: bool = False) -> Any: ...
    def unfinished_games(self) -> Any: ...
    def delete_game(self, game_id: str) -> None: ...
    def close(self) -> None: ...


StrategyFactory = Callable[[str, Ruleset], Any]


@dataclass(frozen=True)
class LastScore:
    """What the last scoring did, so a UI can keep it readable (the Next Player pause)."""

    player: int
    dice: tuple[int, ...]
    rolls: int
    category: str
    column: int
    points: int


def _apply_tracking(state: State, action: Action, last: LastScore | None) -> LastScore | None:
    """Apply ``action`` to ``state``; returns what the last scoring did afterwards."""
    before = state.current, state.dice, state.rolls
    pl = state.placement(action.category, action.column) if isinstance(action, Score) else None
    state.apply(action)
    if isinstance(action, Score) and pl is not None:
        return LastScore(before[0], before[1], before[2], action.category, action.column,
                         pl.total)
    if isinstance(action, TakeBack) or (isinstance(action, Roll) and before[1] == ()):
        return None
    return last


def players_from_specs(specs: Sequence[PlayerSpec]) -> list[Player]:
    return [s.player() for s in specs]


def _default_factory(level: str, ruleset: Ruleset) -> Any:
    from yacht.strategy import make_player

    return make_player(ruleset, level)


class Session:
    """A game in progress and its place in the store.

    >>> from yacht.rules import get
    >>> s = Session(get("tommys-crag"), [Player("Ann")], rng=random.Random(1))
    >>> s.apply(Roll()); len(s.state.dice)
    3
    """

    def __init__(self, ruleset: Ruleset, players: Sequence[Player], *,
                 store: StoreLike | None = None, rng: random.Random | None = None,
                 strategy_factory: StrategyFactory | None = None,
                 meta: dict[str, Any] | None = None, strict: bool = False,
                 seed: bytes | None = None,
                 _state: State | None = None, _game_id: str | None = None,
                 _assisted: bool = False) -> None:
        """``strict``: an action counts only once the store has it (a server answers no
        one before that); a store failure raises SaveFailed and changes nothing. Else a
        store failure leaves a one-line ``warning`` and the game goes on in memory.

        The dice: from ``rng`` when one is given (simulations, tests), else from
        ``seed`` or a fresh secret seed (whose commitment the game shows from the start;
        see :mod:`yacht.engine.dice`)."""
        try:
            self.state = _state if _state is not None else State(ruleset, players, rng=rng,
                                                                 seed=seed)
        except ValueError as e:
            raise SessionError(str(e)) from None
        self.ruleset = self.state.ruleset
        self.store = store
        self._factory = strategy_factory or _default_factory
        self.assisted = _assisted
        self.assisted_players: set[int] = set()
        self.finished = False
        self.new_entries: list[Any] = []
        self.last_score: LastScore | None = None
        #: the last problem with saving (a UI shows it); the game goes on in memory
        self.warning: str | None = None
        self.game_id = _game_id
        #: the game went on (or ended, or was deleted) in another window: one line; this
        #: copy is no longer saved
        self.elsewhere: str | None = None
        #: the index of the first action the store did not take (a failed save: the next
        #: save writes every action from there on); None: the store has the whole log
        self.unsaved_from: int | None = None
        self.strict = strict
        self._meta = dict(meta or {})
        #: told when a save has waited some seconds for the store (another program holds
        #: the database): "waiting", from a thread of the store's, then "through" or
        #: "failed" (a store that can: ``Store.telling_waits``). Not for a strict
        #: session: a server's moves wait as they are (its players see it)
        self.on_store_wait: Callable[[str], None] | None = None
        #: the seed stays secret though the game is finished: other games on the same
        #: seed are still played (a duplicate table's card; the server says so)
        self.seed_withheld = False

    @property
    def meta(self) -> dict[str, Any]:
        """What the game's record keeps besides its moves (where it is played, its clock)."""
        return self._meta

    @property
    def strategy_factory(self) -> StrategyFactory:
        """What makes this game's computer players (a reloaded copy uses the same)."""
        return self._factory

    @property
    def saved(self) -> bool:
        """Whether the game as it stands is in the store (it goes there with its first
        action; not once it went on elsewhere, nor while a failed save has left actions
        the store does not have)."""
        return self._in_store and self.unsaved_from is None

    @property
    def _in_store(self) -> bool:
        """The game has its place in the store (saved, or to be saved up to date)."""
        return self.store is not None and self.game_id is not None and self.elsewhere is None

    def check_store(self) -> str | None:
        """Whether the stored game went on without this copy (another window played it,
        finished it or deleted it); sets and returns :attr:`elsewhere`."""
        if self.elsewhere is not None or self.store is None or self.game_id is None:
            return self.elsewhere
        try:
            n, finished = self.store.progress(self.game_id)
        except Exception as e:  # the store's errors are one-line messages
            from yacht.store.errors import StoreGone

            if "no game" in str(e):
                self.elsewhere = f"game {self.game_id} was deleted elsewhere"
            elif isinstance(e, StoreGone) and self.unsaved_from is None:
                # (the file went with the whole game: nothing of it can be found again)
                self.unsaved_from = 0
                self.warning = f"saving failed: {e}"
            return self.elsewhere
        if n > len(self.state.log) or (finished and not self.finished):
            self.elsewhere = (f"game {self.game_id} went on elsewhere (another window or "
                              "command played it)")
        return self.elsewhere

    def _ensure_started(self) -> bool:
        """Put the game in the store once it has an action; True if this call did."""
        if self.store is None or self.game_id is not None or not self.state.log:
            return False
        self._store_call(lambda st: setattr(self, "game_id", self._start_in(st, self.state)))
        if self.game_id is None:
            return False
        gid = self.game_id
        for player in sorted(self.assisted_players):
            self._store_call(lambda st, p=player: st.set_assisted(gid, p))
        return True

    def save_now(self) -> str | None:
        """Put the game in the store now, even before its first action (an online table
        links to it from the start); its id. A strict session raises SaveFailed."""
        if self.store is None or self.game_id is not None:
            return self.game_id
        try:
            self.game_id = self._start_in(self.store, self.state)
        except Exception as e:
            if self.strict:
                raise SaveFailed(f"the game could not be saved: {e}") from None
            self.warning = f"saving failed: {e}"
        return self.game_id

    def _start_in(self, store: StoreLike, state: State) -> str:
        """Put the game (``state``: its actions so far, maybe a copy without dice) in
        ``store``, with its commitment and its seed."""
        record = Record.from_state(state, **self._meta)
        record.dice_seed = self.state.commitment
        return store.start_game(record, seed=self.state.seed)

    def attach_store(self, store: StoreLike) -> None:
        """Start saving a game that began without a store (the UI opens it in the background).

        The actions played so far are saved at once, then every new one as it happens.
        """
        if self.store is not None:
            return
        self.store = store
        self._ensure_started()
        gid = self.game_id
        if gid is not None and self.finished:
            result: list[Any] = []
            self._store_call(lambda st: result.extend(st.finish_game(gid, self.state) or ()))
            self.new_entries = result

    # --- construction -----------------------------------------------------------
    @classmethod
    def resume(cls, store: StoreLike, game_id: str, *, rng: random.Random | None = None,
               strategy_factory: StrategyFactory | None = None,
               strict: bool = False) -> Session:
        """The saved game ``game_id`` (or the one game whose id starts so) where it was left
        (raises SessionError). A game with a seed goes on with its seed (``rng`` is then
        not used); one without (older games, games made with a generator) draws its new
        rolls from ``rng`` (default: the system's)."""
        try:
            game_id = store.resolve_id(game_id)
            record = store.load_record(game_id)
            seed = store.load_seed(game_id)
        except Exception as e:  # the store's errors are one-line messages
            raise SessionError(str(e)) from None
        last: LastScore | None = None
        try:
            state = record.new_state(rng if rng is not None else random.SystemRandom(), seed)
            for action in record.actions:
                last = _apply_tracking(state, action, last)
        except (ValueError, IllegalAction) as e:
            raise SessionError(f"saved game {game_id} cannot be replayed: {e}") from None
        try:
            info = store.game_info(game_id)
        except Exception as e:  # the store's errors are one-line messages
            raise SessionError(str(e)) from None
        s = cls(state.ruleset, state.players, store=store, strategy_factory=strategy_factory,
                meta=record.meta, strict=strict, _state=state, _game_id=game_id,
                _assisted=bool(info.assisted))
        s.assisted_players = set(getattr(info, "assisted_players", ()))
        s.last_score = last
        return s

    # --- reading ----------------------------------------------------------------
    @property
    def players(self) -> tuple[Player, ...]:
        return self.state.players

    @property
    def current_player(self) -> Player:
        return self.state.players[self.state.current]

    def is_computer_turn(self) -> bool:
        return not self.state.is_terminal() and self.current_player.is_computer

    def is_over(self) -> bool:
        return self.state.is_terminal()

    @property
    def demo(self) -> bool:
        return all(p.is_computer for p in self.players)

    @property
    def dice_entered(self) -> bool:
        """A roll was entered by hand (real dice): the game is marked "dice entered"."""
        return self.state.dice_entered

    @property
    def apart(self) -> bool:
        """The game's scores go to the list apart from the top ten (the advisor was
        asked, or dice were entered by hand)."""
        return self.assisted or self.state.dice_entered

    @property
    def daily(self) -> str | None:
        """The day of the daily challenge this game is (None: it is no daily game)."""
        from yacht.engine.dice import daily_of

        return daily_of(self._meta)

    @property
    def dice_seed(self) -> Commitment | None:
        """The commitment to the game's seed (None: a generator's dice), with the seed
        once the game is finished (recorded: no take-back can follow) - a daily
        challenge's once its day is over too, a :attr:`seed_withheld` one's once that is
        lifted."""
        from yacht.engine.dice import seed_kept

        public = self.state.commitment
        seed = self.state.seed
        if public is None or seed is None or not self.finished or self.seed_withheld \
                or seed_kept(self.daily, _utc_day()):  # (a daily challenge's: the day's)
            return public
        return public.revealed(seed)

    def can_take_back(self) -> bool:
        return self.state.can_take_back()

    def can_give_back(self) -> bool:
        return self.state.can_give_back() and not self.is_computer_turn()

    # --- playing ----------------------------------------------------------------
    def apply(self, action: Action) -> None:
        """Play ``action`` and save it; raises IllegalAction (user-ready message), the state
        unchanged. (Interfaces send commands to a :class:`~yacht.session.table.Table`,
        which checks them and calls this.)"""
        steps.run(self.apply_steps(action))

    def apply_steps(self, action: Action) -> Steps[None]:
        """:meth:`apply` as steps (:mod:`yacht.session.steps`): a strict session yields
        the save of the action, and plays it once the store has it."""
        state = self.state
        if self.strict and self.store is not None:
            yield from self._apply_saved_first(action)
            return
        self.last_score = _apply_tracking(state, action, self.last_score)
        index = len(state.log) - 1
        if self._ensure_started():
            return  # the new game in the store holds this action already
        if self._in_store:
            self.save_unsaved(upto=index)

    def save_unsaved(self, upto: int | None = None) -> bool:
        """Write the actions the store does not have yet: the one at ``upto`` (the one just
        played) and every one a failed save left out before it, in order (a save that
        failed once is made good by the next, never left as a gap that would read as the
        game having gone on elsewhere). True when the store has the whole log now."""
        if not self._in_store:
            return False
        assert self.store is not None and self.game_id is not None
        log = self.state.log
        if self.unsaved_from is None:
            if upto is None:
                return True
            start = upto
        else:
            start = self.unsaved_from
        end = len(log) if upto is None else upto + 1
        from yacht.store.errors import GameMovedOn

        for i in range(start, end):
            try:
                with self._telling():
                    self.store.append_action(self.game_id, i, log[i])
            except GameMovedOn:
                self.elsewhere = (f"game {self.game_id} went on elsewhere (another window or "
                                  "command played it)")
                return False
            except Exception as e:  # a broken store must not lose the game in memory
                self.unsaved_from = i
                self.warning = f"saving failed: {e}"
                return False
        self.unsaved_from = None
        return True

    def _apply_saved_first(self, action: Action) -> Steps[None]:
        """Save the action (with its dice drawn now), then play it."""
        state = self.state
        store = self.store
        assert store is not None
        state.check(action)
        if isinstance(action, Roll) and action.result is None:
            action = Roll(state.draw())
        probe = state.clone(rng=False)
        probe.apply(action)
        logged = probe.log[-1]
        index = len(probe.log) - 1
        from yacht.store.errors import GameMovedOn

        try:
            if self.game_id is None:
                self.game_id = yield Blocking(partial(self._start_saved, store, probe))
            else:  # new: the same move sent by another server at once counts once
                yield Save(store, self.game_id, index, logged, new=True)
        except GameMovedOn as e:
            raise SaveConflict(f"someone else moved first ({e})") from None
        except Exception as e:  # the store's errors are one-line messages
            raise SaveFailed(f"the game could not be saved, so that did not count: {e}") \
                from None
        if self.state is not state or len(state.log) != index:
            # (steps on an event loop: this copy was replaced from the store while the
            # action was being saved - the stored game, which has it, is the one to take)
            raise SaveConflict("the game was taken up from the store meanwhile")
        self.last_score = _apply_tracking(state, logged, self.last_score)

    def _start_saved(self, store: StoreLike, probe: State) -> str:
        """The game put in the store with its first action (and its assisted players)."""
        gid = self._start_in(store, probe)
        for player in sorted(self.assisted_players):
            store.set_assisted(gid, player)
        return gid

    def apply_saved(self, action: Action) -> None:
        """Play an action the store has already (another process of a server saved it)."""
        self.last_score = _apply_tracking(self.state, action, self.last_score)

    def stored_actions(self) -> list[Action] | None:
        """The stored game's actions when it went further than this copy (None: it did
        not). Raises what the store raises."""
        if self.store is None or self.game_id is None:
            return None
        n, _ = self.store.progress(self.game_id)
        if n == len(self.state.log) or n == self.unsaved_from:
            return None  # (or it is where a failed save left it: this copy is the newer)
        return list(self.store.load_record(self.game_id).actions)

    def record(self) -> Record:
        """The game's record as it stands (its commitment; the seed once finished)."""
        record = Record.from_state(self.state, **self._meta)
        record.dice_seed = self.dice_seed
        return record

    def reload(self, actions: list[Action]) -> None:
        """Start again from the stored game's ``actions`` (this copy went astray)."""
        state = State(self.ruleset, self.state.players, dice=self.state.dice_source)
        last: LastScore | None = None
        for action in actions:
            last = _apply_tracking(state, action, last)
        self.state, self.last_score = state, last
        self.finished = False
        self.unsaved_from = None

    def make_strategy(self, player: int) -> Any:
        """A new computer player for seat ``player`` (its level, or the default level).

        Raises what the factory raises (an unknown level, a missing table...).
        """
        level = self.players[player].level or DEFAULT_LEVEL
        made = self._factory(level, self.ruleset)
        if getattr(made, "level", None) == "champion" and getattr(made, "target", 0) is None:
            made.target = self._champion_target(player)
        return made

    def _champion_target(self, player: int) -> int | None:
        """Alone, the champion plays to beat the player's best score in the top ten (the
        top ten's best when the player has none there); None: its own default."""
        if len(self.players) != 1:
            return None
        entries = self.top_ten()
        name = self.players[player].name.casefold()
        own = [e.score for e in entries if str(e.name).casefold() == name]
        scores = own or [e.score for e in entries]
        return int(max(scores)) + 1 if scores else None

    def mark_assisted(self, player: int | None = None) -> None:
        """A player (default: the one on turn) consulted the advisor: their scores count
        as assisted."""
        me = self.state.current if player is None else player
        if me in self.assisted_players:
            return
        self.assisted_players.add(me)
        self.assisted = True
        if self._in_store:
            gid = self.game_id
            self._store_call(lambda st: st.set_assisted(gid, me))

    # --- the end ------------------------------------------------------------------
    def finish(self) -> list[Any]:
        """Record the finished game in the store; returns the new top-ten entries.

        Calling it again returns the same entries.
        """
        if self.finished or not self.state.is_terminal():
            return self.new_entries
        self.finished = True
        if self._in_store:  # (finish_game writes the actions a failed save left out too)
            gid = self.game_id
            assert gid is not None
            result: list[Any] = []
            if self._store_call(lambda st: result.extend(st.finish_game(gid, self.state)
                                                         or ())):
                self.unsaved_from = None
            self.new_entries = result
        return self.new_entries

    def top_ten(self) -> list[Any]:
        if self.store is None:
            return []
        out: list[Any] = []
        self._store_call(lambda st: out.extend(st.top_ten(self.ruleset, self.apart)))
        return out

    def abandon(self) -> None:
        """Forget this unfinished game in the store (the UI asks first)."""
        if self._in_store:
            gid = self.game_id
            assert gid is not None
            self._store_call(lambda st: st.delete_game(gid))
            self.game_id = None

    def _telling(self) -> contextlib.AbstractContextManager[Any]:
        """The store tells :attr:`on_store_wait` of a write that waits, within this."""
        telling = getattr(self.store, "telling_waits", None)
        if self.on_store_wait is None or self.strict or telling is None:
            return contextlib.nullcontext()
        return telling(self.on_store_wait)  # type: ignore[no-any-return]

    def _store_call(self, fn: Callable[[Any], None]) -> bool:
        try:
            with self._telling():
                fn(self.store)
        except Exception as e:  # a broken store must not lose the game in memory
            self.warning = f"saving failed: {e}"
            return False
        return True
