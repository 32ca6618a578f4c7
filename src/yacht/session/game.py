"""One game for any user interface: the state, who plays, computer turns, saving.

The session never sleeps and never draws: a UI asks it what happens next and
decides itself how long to show each step. Every action that the state
accepts is sent to the store right away, so a game can be resumed after a
crash or a quit.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from yacht.engine import (
    Action,
    Choose,
    GiveBack,
    IllegalAction,
    Player,
    Record,
    Roll,
    Score,
    State,
    TakeBack,
)
from yacht.rules import Ruleset

from .advice import Advice, rank_moves
from .config import PlayerSpec
from .keys import singlets

__all__ = ["HintUnavailable", "LastScore", "Session", "SessionError", "StoreLike",
           "players_from_specs"]


class SessionError(Exception):
    """A game that cannot be started or resumed; the message is one line for the user."""


class HintUnavailable(Exception):
    """The advisor cannot be used (not installed yet, or it failed); one-line message."""


class StoreLike(Protocol):
    """The part of :class:`yacht.store.Store` a session uses (tests pass a small fake)."""

    def start_game(self, record: Record) -> str: ...
    def append_action(self, game_id: str, index: int, action: Action) -> None: ...
    def set_assisted(self, game_id: str, player: int | None = None) -> None: ...
    def finish_game(self, game_id: str, state: State) -> Any: ...
    def load_record(self, game_id: str) -> Record: ...
    def top_ten(self, ruleset: Ruleset, assisted: bool = False) -> Any: ...


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
    pl = None
    if isinstance(action, Score):
        pl = next((p for p in state.placements()
                   if p.category == action.category and p.column == action.column), None)
    state.apply(action)
    if isinstance(action, Score) and pl is not None:
        return LastScore(before[0], before[1], before[2], action.category, action.column,
                         pl.total)
    if isinstance(action, TakeBack) or (isinstance(action, Roll) and before[1] == ()):
        return None
    return last


def players_from_specs(specs: Sequence[PlayerSpec]) -> list[Player]:
    return [Player(s.name, "computer", s.kind) if s.is_computer else Player(s.name)
            for s in specs]


def _default_factory(level: str, ruleset: Ruleset) -> Any:
    from yacht.strategy import make_player

    return make_player(level, ruleset)


class Session:
    """A game in progress.

    >>> from yacht.rules import get
    >>> s = Session(get("tommys-crag"), [Player("Ann")], rng=random.Random(1))
    >>> s.roll(); len(s.state.dice)
    3
    """

    def __init__(self, ruleset: Ruleset, players: Sequence[Player], *,
                 store: StoreLike | None = None, rng: random.Random | None = None,
                 strategy_factory: StrategyFactory | None = None,
                 meta: dict[str, Any] | None = None,
                 _state: State | None = None, _game_id: str | None = None,
                 _assisted: bool = False) -> None:
        try:
            self.state = _state if _state is not None else State(ruleset, players, rng=rng)
        except ValueError as e:
            raise SessionError(str(e)) from None
        self.ruleset = self.state.ruleset
        self.store = store
        self._factory = strategy_factory or _default_factory
        self._strategies: dict[int, Any] = {}
        self.assisted = _assisted
        self.assisted_players: set[int] = set()
        self.finished = False
        self.new_entries: list[Any] = []
        self.last_score: LastScore | None = None
        #: the last problem with saving (a UI shows it); the game goes on in memory
        self.warning: str | None = None
        self.game_id = _game_id
        self._meta = dict(meta or {})

    @property
    def saved(self) -> bool:
        """Whether the game is in the store (it goes there with its first action)."""
        return self.store is not None and self.game_id is not None

    def _ensure_started(self) -> bool:
        """Put the game in the store once it has an action; True if this call did."""
        if self.store is None or self.game_id is not None or not self.state.log:
            return False
        self._store_call(lambda st: setattr(
            self, "game_id", st.start_game(Record.from_state(self.state, **self._meta))))
        if self.game_id is None:
            return False
        gid = self.game_id
        for player in sorted(self.assisted_players):
            self._store_call(lambda st, p=player: st.set_assisted(gid, p))
        return True

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
               strategy_factory: StrategyFactory | None = None) -> Session:
        """The saved game ``game_id`` where it was left (raises SessionError)."""
        try:
            record = store.load_record(game_id)
        except Exception as e:  # the store's errors are one-line messages
            raise SessionError(str(e)) from None
        last: LastScore | None = None
        try:
            state = record.new_state(rng if rng is not None else random.SystemRandom())
            for action in record.actions:
                last = _apply_tracking(state, action, last)
        except (ValueError, IllegalAction) as e:
            raise SessionError(f"saved game {game_id} cannot be replayed: {e}") from None
        assisted = False
        info = getattr(store, "game_info", None)
        if info is not None:
            try:
                assisted = bool(getattr(info(game_id), "assisted", False))
            except Exception:  # an older store: the flag is only for display here
                assisted = False
        s = cls(state.ruleset, state.players, store=store, strategy_factory=strategy_factory,
                _state=state, _game_id=game_id, _assisted=assisted)
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

    def can_take_back(self) -> bool:
        return self.state.can_take_back()

    def can_give_back(self) -> bool:
        return self.state.can_give_back() and not self.is_computer_turn()

    # --- playing ----------------------------------------------------------------
    def apply(self, action: Action) -> None:
        """Play ``action``; raises IllegalAction (user-ready message), state unchanged."""
        state = self.state
        self.last_score = _apply_tracking(state, action, self.last_score)
        index = len(state.log) - 1
        logged = state.log[-1]
        if self._ensure_started():
            return  # the new game in the store holds this action already
        if self.store is not None and self.game_id is not None:
            gid = self.game_id
            self._store_call(lambda st: st.append_action(gid, index, logged))

    def roll(self) -> None:
        self.apply(Roll())

    def choose(self, positions: Sequence[int]) -> None:
        """Choose exactly these dice for the re-roll (an empty choice gives them back)."""
        positions = tuple(sorted(set(positions)))
        if not positions:
            if self.state.chosen:
                self.apply(GiveBack())
            return
        if frozenset(positions) != self.state.chosen:
            self.apply(Choose(positions))

    def toggle(self, position: int) -> None:
        """Choose or un-choose one die (0-based)."""
        if not 0 <= position < len(self.state.dice or ()):
            if not self.state.dice:
                raise IllegalAction("roll first: there are no dice to choose")
            raise IllegalAction(f"there is no die {position + 1} (accepted: "
                                f"1-{self.ruleset.dice})")
        self.choose(sorted(set(self.state.chosen) ^ {position}))

    def choose_all(self) -> None:
        self.choose(range(self.ruleset.dice))

    def choose_singlets(self) -> None:
        self._need_dice()
        self.choose(singlets(self.state.dice))

    def choose_none(self) -> None:
        self.choose(())

    def _need_dice(self) -> None:
        if not self.state.dice:
            raise IllegalAction("roll first: there are no dice to choose")

    def score(self, category: str, column: int = 0) -> None:
        """Score the dice in a box; a box open only in the other column says so."""
        st = self.state
        if st.dice and len(self.ruleset.columns) > 1:
            here = [p for p in st.placements() if p.category == category]
            if here and all(p.column != column for p in here):
                label = self.ruleset.category(category).label
                cols = " or ".join(str(p.column + 1) for p in here)
                raise IllegalAction(f"{label} is not open in column {column + 1}; "
                                    f"it is in column {cols}")
        self.apply(Score(category, column))

    def give_back(self) -> None:
        self.apply(GiveBack())

    def take_back(self) -> None:
        self.apply(TakeBack())

    # --- computer players ---------------------------------------------------------
    def strategy(self, player: int) -> Any:
        """The computer player for seat ``player``, built when first needed."""
        if player not in self._strategies:
            level = self.players[player].level or "intermediate"
            try:
                self._strategies[player] = self._factory(level, self.ruleset)
            except (LookupError, ImportError) as e:
                # a level that cannot be built (yet) plays at random rather than stopping
                from yacht.strategy import RandomStrategy

                self.warning = f"computer level {level} is not available ({e}); it plays at random"
                self._strategies[player] = RandomStrategy(self.ruleset)
        return self._strategies[player]

    def computer_action(self) -> Action | None:
        """The next single action of the computer on turn, without playing it.

        Safe to call from a worker thread while the UI only reads the state.
        Returns None when no computer is on turn.
        """
        if not self.is_computer_turn():
            return None
        state = self.state
        if not state.dice or state.chosen:
            return Roll()
        decision = self.strategy(state.current).decide(state.clone())
        if decision.score is not None:
            scoring: Score = decision.score
            return scoring
        return Choose(tuple(sorted(decision.reroll)))

    def next_computer_action(self) -> Action | None:
        """Work out and play the computer's next single action (choose, roll or score)."""
        action = self.computer_action()
        if action is not None:
            self.apply(action)
            if isinstance(action, Roll):
                logged: Action = self.state.log[-1]
                return logged
        return action

    def play_computer_turn(self) -> list[Action]:
        """Play the rest of the computer's turn at once (plain mode, tests)."""
        me, turns = self.state.current, self.state.turns_taken(self.state.current)
        done: list[Action] = []
        while self.is_computer_turn() and self.state.turns_taken(me) == turns:
            a = self.next_computer_action()
            assert a is not None
            done.append(a)
        return done

    # --- hint -----------------------------------------------------------------
    def hint(self, limit: int = 5) -> list[Advice]:
        """The advisor's ranking of moves now, best first.

        Marks the game assisted (its scores go to the assisted list).
        Raises HintUnavailable when there is no advisor or nothing to advise.
        """
        if self.is_computer_turn() or self.state.is_terminal():
            raise HintUnavailable("a hint is for a person's turn")
        ranking = rank_moves(self.state, limit)
        self.mark_assisted()
        return ranking

    def mark_assisted(self) -> None:
        """The player on turn consulted the advisor: their scores count as assisted."""
        me = self.state.current
        if me in self.assisted_players:
            return
        self.assisted_players.add(me)
        self.assisted = True
        if self.store is not None and self.game_id is not None:
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
        if self.store is not None and self.game_id is not None:
            gid = self.game_id
            result: list[Any] = []
            self._store_call(lambda st: result.extend(st.finish_game(gid, self.state) or ()))
            self.new_entries = result
        return self.new_entries

    def top_ten(self) -> list[Any]:
        if self.store is None:
            return []
        out: list[Any] = []
        self._store_call(lambda st: out.extend(st.top_ten(self.ruleset, self.assisted)))
        return out

    def abandon(self) -> None:
        """Forget this unfinished game in the store (the UI asks first)."""
        store: Any = self.store
        if store is not None and self.game_id is not None and hasattr(store, "delete_game"):
            gid = self.game_id
            self._store_call(lambda st: st.delete_game(gid))
            self.game_id = None

    def _store_call(self, fn: Callable[[Any], None]) -> None:
        try:
            fn(self.store)
        except Exception as e:  # a broken store must not lose the game in memory
            self.warning = f"saving failed: {e}"
