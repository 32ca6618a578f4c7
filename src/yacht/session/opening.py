"""Opening a table, the one way every interface does it: a new game from a variant, its
options and its players, or a saved game by its id; and the store games are saved in,
with the one line a player reads when there is none.

>>> from yacht.engine import Player
>>> t = open_table(None, variant="yatzy", players=[Player("Ann")], source="doc")
>>> t.ruleset.id, t.has_store
('yatzy', False)
>>> open_table(None, variant="yatzy", options={"joker": "free"}, players=[Player("Ann")],
...            source="doc")
Traceback (most recent call last):
...
yacht.session.game.SessionError: yatzy has no option 'joker' (options: none)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from yacht.engine import Player

from .game import SessionError, StoreLike, StrategyFactory
from .table import Seat, Table

__all__ = ["NOT_SAVED", "carry_options", "command_line", "no_store_to_resume",
           "open_store_for_games", "open_table", "unfinished_game", "upgrade_note"]


#: the options of this run of `yacht` that a command it prints must carry too, each with
#: its value and the sub-commands that take it (set by the command line: carry_options)
_CARRIED: dict[str, tuple[str, frozenset[str]]] = {}


def carry_options(given: Mapping[str, str | None], takes: Mapping[str, Iterable[str]]) -> None:
    """Remember the options of this run (``given``: an option and its value, None when it
    was not given) that every command printed for the user to type next must carry,
    each to the sub-commands that take it (``takes``): a game of ``yacht daily --db
    FILE`` is found again only in FILE. Called once a run, it forgets the run before."""
    _CARRIED.clear()
    for option, value in given.items():
        if value is not None and value.strip():
            _CARRIED[option] = (value, frozenset(takes.get(option, ())))


def command_line(*words: str, carry: bool = True) -> str:
    """The `yacht` command of ``words`` as the user types it next: with the options of
    this run it needs to find the same things (:func:`carry_options`: ``--db``; none
    with ``carry`` False, for a command that does not look in them: a record file's
    replay), each word quoted for the shell where it must be. The commands, the line
    game and the terminal game make every command they print for the user to type here.

    >>> command_line("resume", "1ab3af1a2d7d")
    'yacht resume 1ab3af1a2d7d'
    >>> carry_options({"--db": "my games.db"}, {"--db": ["resume", "play"]})
    >>> command_line("play", "--plain", "--resume", "1ab3af1a2d7d")
    "yacht play --plain --resume 1ab3af1a2d7d --db 'my games.db'"
    >>> command_line("rules", "yatzy")  # (it takes no --db)
    'yacht rules yatzy'
    >>> carry_options({"--db": None}, {})
    >>> command_line("resume", "ab12", "--show")
    'yacht resume ab12 --show'
    """
    import shlex

    parts = ["yacht", *words]
    for option, (value, commands) in _CARRIED.items() if carry else ():
        if words and words[0] in commands and option not in words:
            parts += [option, value]
    return " ".join(shlex.quote(p) for p in parts)


#: how the line of :func:`open_store_for_games` begins (the reason follows)
NOT_SAVED = "games are not saved: "


def open_store_for_games(url: str | None = None) -> tuple[StoreLike | None, str | None]:
    """The store games are saved in (``url``; default ``$YACHT_DB`` or the user's file),
    or None and the one line that says games are not saved, and why. A store upgraded
    for this version as it was opened has the line that says so: :func:`upgrade_note`."""
    try:
        from yacht.store import open_store

        store: Any = open_store(url)
    except Exception as e:  # StoreError, or no store package: play without saving
        return None, f"{NOT_SAVED}{e}"
    return store, None


def upgrade_note(store: Any) -> str | None:
    """The line that says ``store`` was just upgraded for this version of yacht and where
    its file as it was is kept (None: it was not upgraded, or it is not a store that
    says). Every command and game that opens a store to write says it: the copy was made
    without a word before, so nobody knew the database was upgraded, nor where its old
    file was.

    >>> class Old:
    ...     location, backup = "/d/g.db", "/d/g.db.bak-yacht_0001"
    >>> print(upgrade_note(Old()))  # doctest: +NORMALIZE_WHITESPACE
    /d/g.db is upgraded for this version of yacht; the file as it was is kept as
    /d/g.db.bak-yacht_0001
    """
    backup = getattr(store, "backup", None)
    if not backup:
        return None
    return (f"{store.location} is upgraded for this version of yacht; the file as it was "
            f"is kept as {backup}")


def no_store_to_resume(game_id: str, problem: str | None) -> str:
    """Why the saved game ``game_id`` cannot be played on when the store could not be
    opened for games (``problem``: the line of :func:`open_store_for_games`), and what
    to do: one line.

    >>> print(no_store_to_resume("ab12", "games are not saved: /d/g.db cannot be written "
    ...                          "(the file is read-only); commands that only read it work"))
    ... # doctest: +NORMALIZE_WHITESPACE
    game ab12 cannot be played on: /d/g.db cannot be written (the file is read-only); make
    it writable to play on (`yacht resume ab12 --show` shows the game as it is)
    """
    if not problem:
        return "there is no store to resume from"
    reason = problem.removeprefix(NOT_SAVED).split("; commands that only read")[0]
    return (f"game {game_id} cannot be played on: {reason}; make it writable to play on "
            f"(`{command_line('resume', game_id, '--show')}` shows the game as it is)")


def open_table(store: StoreLike | None, *, source: str, resume: str | None = None,
               variant: str | None = None, options: Mapping[str, str] | None = None,
               players: Sequence[Player] = (), rng: random.Random | None = None,
               strategy_factory: StrategyFactory | None = None, speed: str = "normal",
               seats: Iterable[Seat] | None = None, pauses: bool = True,
               pause_between_people: bool = False, auto_roll: bool = False,
               real_dice: bool = False, strict: bool = False, seed: bytes | None = None,
               meta: Mapping[str, Any] | None = None, to_play: bool = False,
               store_problem: str | None = None) -> Table:
    """A table: the saved game ``resume`` (an id or a unique start of one) where it was
    left, or a new game of ``variant`` with ``options`` for ``players``. ``source``: the
    interface (kept in a new game's record). How the game flows here (``speed``,
    ``pauses``, ``pause_between_people``, ``auto_roll``, ``real_dice``) is the
    interface's, never the store's. ``to_play``: the saved game is to be played on, so a
    finished one is refused (:func:`unfinished_game`). ``store_problem``: why ``store``
    is None (the line of :func:`open_store_for_games`), said when a saved game cannot be
    resumed without it. Raises SessionError, one line, when it cannot."""
    flow: dict[str, Any] = dict(strategy_factory=strategy_factory, speed=speed, seats=seats,
                                pauses=pauses, strict=strict, auto_roll=auto_roll,
                                pause_between_people=pause_between_people,
                                real_dice=real_dice)
    if resume is not None:
        if store is None:
            raise SessionError(no_store_to_resume(resume, store_problem))
        if to_play:
            resume = unfinished_game(store, resume)
        return Table.resume(store, resume, rng=rng, **flow)
    from yacht.rules import OptionError, UnknownVariant, get

    if variant is None:
        raise SessionError("give a variant (see `yacht variants`)")
    try:
        rs = get(variant, dict(options or {}))
    except (UnknownVariant, OptionError) as e:
        raise SessionError(str(e)) from None
    return Table.new(rs, list(players), store=store, rng=rng, seed=seed,
                     meta={"source": source, **(meta or {})}, **flow)


def unfinished_game(store: StoreLike, game_id: str) -> str:
    """The id of the saved game ``game_id`` names (an id or a unique start of one), a game
    still to be played; SessionError, one line, for one that is finished or not there."""
    try:
        full = store.resolve_id(game_id)
        finished = store.game_info(full).finished
    except Exception as e:  # the store's errors are one-line messages
        raise SessionError(str(e)) from None
    if finished is not None:
        raise SessionError(f"game {full} is finished (see `{command_line('scores')}`)")
    return full
