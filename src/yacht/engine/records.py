"""Game records: ruleset id + options + players + the action log, saved as versioned JSON."""

from __future__ import annotations

import errno
import json
import os
import random
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from yacht.rules import OptionError, Ruleset, UnknownVariant, YachtError, get
from yacht.rules.errors import InvalidValue

from .actions import Action, IllegalAction, Roll, Score, TakeBack, action_from_json, action_to_json
from .dice import Commitment
from .state import Player, Rng, State

__all__ = ["FORMAT", "VERSION", "Record", "RecordError", "TurnSummary", "take_turns"]

FORMAT = "yacht-record"
VERSION = 1


class RecordError(YachtError, ValueError):
    """A record that cannot be read: not ours, damaged, or from a newer version."""


@dataclass
class TurnSummary:
    """What one scoring did: who, where, the points, and the totals after it."""

    number: int
    player: int
    dice: tuple[int, ...]
    rolls: int
    category: str
    column: int
    points: int
    totals: list[int]


def take_turns(state: State, actions: Iterable[Action], out: list[TurnSummary]) -> None:
    """Play ``actions`` on ``state`` (a replay's: made without a seed), adding to ``out``
    each scoring (a take-back removes the last): :meth:`Record.turns` from the start, or
    a reader going on from where it was with the actions since."""
    for action in actions:
        if isinstance(action, Score):
            me, dice, rolls = state.current, state.dice, state.rolls
            pl = state.placement(action.category, action.column)
            state.apply(action)  # (raises for a placement the rules do not allow)
            assert pl is not None
            out.append(TurnSummary(len(out) + 1, me, dice, rolls, action.category,
                                   action.column, pl.total, state.returns()))
        else:
            state.apply(action)
            if isinstance(action, TakeBack) and out:
                out.pop()


@dataclass
class Record:
    """Everything needed to rebuild a game exactly.

    ``dice_seed``: the scheme and commitment of the seed the game's dice come from
    (None: a generator's dice, or an older record), with the seed itself once the game
    is finished (never before: it would tell the dice to come).

    >>> from yacht.engine import Roll, Score
    >>> s = State(get("tommys-crag"), [Player("Ann")])
    >>> s.apply(Roll((6, 6, 1))); s.apply(Score("crag"))
    >>> r = Record.from_state(s)
    >>> Record.from_json(r.to_json()).final_state().returns()
    [50]
    """

    variant: str
    options: dict[str, str]
    players: list[Player]
    actions: list[Action] = field(default_factory=list)
    created: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    meta: dict[str, Any] = field(default_factory=dict)
    dice_seed: Commitment | None = None

    def __repr__(self) -> str:
        # (not the log: a game is a few hundred actions)
        opts = ",".join(f"{k}={v}" for k, v in self.options.items())
        who = ", ".join(p.name for p in self.players)
        return (f"<Record {self.variant}{' ' + opts if opts else ''} ({who}): "
                f"{len(self.actions)} actions, created {self.created}>")

    @classmethod
    def from_state(cls, state: State, **meta: Any) -> Record:
        """The record of ``state`` so far: its commitment, never its seed."""
        if not isinstance(state, State):
            raise RecordError(f"a record is made from a game (yacht.engine.State), "
                              f"not {type(state).__name__}")
        return cls(state.ruleset.id, dict(state.ruleset.option_values), list(state.players),
                   list(state.log), meta=dict(meta), dice_seed=state.commitment)

    @property
    def dice_entered(self) -> bool:
        """Whether a roll was entered by hand (real dice): such dice come from no seed."""
        return any(isinstance(a, Roll) and a.entered for a in self.actions)

    @property
    def ruleset(self) -> Ruleset:
        try:
            return get(self.variant, self.options)
        except (UnknownVariant, OptionError) as e:
            raise RecordError(str(e)) from None

    def new_state(self, rng: Rng | None = None, seed: bytes | None = None) -> State:
        """The game at its start; new rolls come from ``seed`` if given, else from ``rng``
        (default a fixed generator: a replay draws nothing)."""
        if seed is not None:
            return State(self.ruleset, self.players, seed=seed)
        return State(self.ruleset, self.players, rng if rng is not None else random.Random(0))

    def _logged(self) -> list[Action]:
        """The actions, each as a record holds it: RecordError for a roll without its
        dice (``Roll()`` is a roll still to be drawn; a replay draws nothing)."""
        for i, action in enumerate(self.actions):
            if isinstance(action, Roll) and action.result is None:
                raise RecordError(f"action {i + 1} (roll) has no result: a record's rolls "
                                  "hold their dice")
        return self.actions

    def replay(self) -> Iterator[State]:
        """Every state of the game: the start, then one after each action (clones)."""
        state = self.new_state()
        yield state.clone()
        for i, action in enumerate(self._logged()):
            try:
                state.apply(action)
            except IllegalAction as e:
                raise RecordError(f"action {i + 1} ({action_to_json(action)['type']}) "
                                  f"cannot be replayed: {e}") from None
            yield state.clone()

    def final_state(self) -> State:
        state = self.new_state()
        for i, action in enumerate(self._logged()):
            try:
                state.apply(action)
            except IllegalAction as e:
                raise RecordError(f"action {i + 1} cannot be replayed: {e}") from None
        return state

    def turns(self) -> list[TurnSummary]:
        """The scorings that stand (those taken back are left out), in order."""
        out: list[TurnSummary] = []
        take_turns(self.new_state(), self._logged(), out)
        return out

    # --- JSON -------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        out = {
            "format": FORMAT,
            "version": VERSION,
            "variant": self.variant,
            "options": dict(self.options),
            "players": [p.to_json() for p in self.players],
            "created": self.created,
            "meta": self.meta,
        }
        if self.dice_seed is not None:
            out["dice_seed"] = self.dice_seed.to_json()
        out["actions"] = [action_to_json(a) for a in self.actions]
        return out

    @classmethod
    def from_json(cls, obj: Any) -> Record:
        """Parse and check a record; raises RecordError saying what is wrong."""
        if not isinstance(obj, Mapping) or obj.get("format") != FORMAT:
            raise RecordError("not a yacht game record (no 'format': 'yacht-record')")
        version = obj.get("version")
        if not isinstance(version, int) or version < 1:
            raise RecordError("the record has no valid format version")
        if version > VERSION:
            raise RecordError(f"the record is format version {version}, newer than this "
                              f"program reads (up to {VERSION}); upgrade yacht-dice")
        try:
            variant = obj["variant"]
            options = obj.get("options", {})
            if not isinstance(variant, str) or not isinstance(options, dict):
                raise InvalidValue("'variant' must be text and 'options' an object")
            options = {str(k): str(v) for k, v in options.items()}
            players_raw = obj["players"]
            if not isinstance(players_raw, list) or not players_raw:
                raise InvalidValue("'players' must be a non-empty list")
            players = [Player.from_json(p) for p in players_raw]
            actions_raw = obj["actions"]
            if not isinstance(actions_raw, list):
                raise InvalidValue("'actions' must be a list")
            actions = []
            for i, a in enumerate(actions_raw):
                try:
                    actions.append(action_from_json(a))
                except ValueError as e:
                    raise InvalidValue(f"action {i + 1}: {e}") from None
            meta = obj.get("meta", {})
            created = obj.get("created", "")
            seed_raw = obj.get("dice_seed")
            dice_seed = Commitment.from_json(seed_raw) if seed_raw is not None else None
        except KeyError as e:
            raise RecordError(f"the record has no {e.args[0]!r}") from None
        except ValueError as e:
            raise RecordError(str(e)) from None
        rec = cls(variant, options, players, actions, str(created),
                  dict(meta) if isinstance(meta, dict) else {}, dice_seed)
        rs = rec.ruleset
        if not 1 <= len(players) <= rs.max_players:
            raise RecordError(f"{len(players)} players (accepted: 1-{rs.max_players})")
        rec.final_state()  # every action must replay
        return rec

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    @classmethod
    def loads(cls, text: str) -> Record:
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(f"not valid JSON ({e.msg} at line {e.lineno})") from None
        return cls.from_json(obj)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write atomically: a crash leaves the old file or the new one, never half. A
        path that cannot be written raises the ``OSError`` ``open`` would, naming ``path``
        (not the temporary file written first): a folder that does not exist is a
        ``FileNotFoundError`` saying so."""
        path = Path(path)
        if not path.parent.is_dir():
            raise FileNotFoundError(errno.ENOENT, f"the folder {path.parent} does not exist",
                                    str(path))
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(self.dumps())
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except OSError as e:
            if e.filename is not None and Path(e.filename) == tmp:
                raise type(e)(e.errno, e.strerror, str(path)) from None
            raise
        finally:
            if tmp.exists():
                tmp.unlink()

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Record:
        path = Path(path)
        try:
            data = path.read_bytes()
        except OSError as e:
            raise RecordError(f"cannot read {path}: {e.strerror or e}") from None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise RecordError(f"{path} is not a text file") from None
        try:
            return cls.loads(text)
        except RecordError as e:
            raise RecordError(f"{path}: {e}") from None
