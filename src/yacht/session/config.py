"""The remembered setup choices: a small JSON file in the user's config folder.

The folder is ``platformdirs.user_config_dir("yacht-dice")``, or
``$YACHT_CONFIG_DIR`` when set (tests use it). A damaged or missing file
gives the defaults; the file is written atomically.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from yacht.engine import DEFAULT_LEVEL, PLAYER_LEVELS, Player
from yacht.parsing import InputError, check_name
from yacht.parsing import parse_players as _parse_players
from yacht.rules import MAX_PLAYERS

from .present import DICE_MARK_WORDS

__all__ = ["DICE_MARK_SETTINGS", "SPEEDS", "Config", "PlayerSpec", "config_path",
           "load_config", "save_config", "KINDS", "Launch", "demo_players", "parse_players"]

#: computer speed -> seconds between the steps of a computer turn
SPEEDS: dict[str, float] = {"slow": 1.2, "normal": 0.6, "fast": 0.25, "instant": 0.0}

#: what a click on a die does: as the variant has it (``Ruleset.dice_mark``), hold it,
#: or mark it to roll again
DICE_MARK_SETTINGS: tuple[str, ...] = tuple(DICE_MARK_WORDS)

#: the kinds a seat can have: a person, or a computer of a level
KINDS: tuple[str, ...] = ("person", *PLAYER_LEVELS)


@dataclass
class PlayerSpec:
    """One seat as the setup screen shows it: a name and a kind (person or a level)."""

    name: str
    kind: str = "person"  # "person" or a computer level

    @property
    def is_computer(self) -> bool:
        return self.kind != "person"

    @classmethod
    def of(cls, player: Player) -> PlayerSpec:
        """The seat of an engine player (a computer without a level gets the default)."""
        return cls(player.name, player.level or DEFAULT_LEVEL) if player.is_computer \
            else cls(player.name)

    def player(self) -> Player:
        return Player(self.name, "computer", self.kind) if self.is_computer else Player(self.name)


def _default_players() -> list[PlayerSpec]:
    return [PlayerSpec("You", "person"), PlayerSpec("Computer", DEFAULT_LEVEL)]


def demo_players(players: list[PlayerSpec] | None = None) -> list[PlayerSpec]:
    """The seats of a demo game: ``players`` with every person made a computer (at the
    default level), or two computers of different levels when none are given.

    >>> [(p.name, p.kind) for p in demo_players([PlayerSpec("Ann"), PlayerSpec("Bo", "expert")])]
    [('Ann', 'intermediate'), ('Bo', 'expert')]
    """
    if not players:
        return [PlayerSpec("Computer 1", DEFAULT_LEVEL), PlayerSpec("Computer 2", "expert")]
    return [p if p.is_computer else PlayerSpec(p.name, DEFAULT_LEVEL) for p in players]


@dataclass
class Config:
    variant: str = "yahtzee"
    options: dict[str, dict[str, str]] = field(default_factory=dict)  # per variant id
    players: list[PlayerSpec] = field(default_factory=_default_players)
    demo: bool = False
    speed: str = "normal"
    sound: bool = True
    #: the Next player pause between two people sharing the screen (Ancient Yacht's)
    next_player_pause: bool = True
    #: each turn starts with a roll by itself (Windows Yacht's and Yatsee's way)
    auto_roll: bool = False
    #: what a click (or a die's key) does: "variant", "hold" or "reroll"
    dice_mark: str = "variant"
    #: the Next player pause after a person's score when a computer is next (off: the
    #: game goes on after a moment; the score can be taken back until the computer rolls)
    computer_pause: bool = True

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, obj: Any) -> Config:
        """Whatever can be read of ``obj``; anything wrong falls back to the default."""
        c = cls()
        if not isinstance(obj, dict):
            return c
        if isinstance(obj.get("variant"), str):
            c.variant = obj["variant"]
        opts = obj.get("options")
        if isinstance(opts, dict):
            c.options = {str(k): {str(a): str(b) for a, b in v.items()}
                         for k, v in opts.items() if isinstance(v, dict)}
        players = obj.get("players")
        if isinstance(players, list):
            ps = [PlayerSpec(name, str(p.get("kind", "person")))
                  for p in players if isinstance(p, dict)
                  for name in [_name_or_none(p.get("name"))] if name is not None]
            ps = [p if p.kind in KINDS else PlayerSpec(p.name, DEFAULT_LEVEL) for p in ps]
            if 1 <= len(ps) <= MAX_PLAYERS and len({p.name.casefold() for p in ps}) == len(ps):
                c.players = ps
        if isinstance(obj.get("demo"), bool):
            c.demo = obj["demo"]
        if obj.get("speed") in SPEEDS:
            c.speed = obj["speed"]
        if obj.get("dice_mark") in DICE_MARK_SETTINGS:
            c.dice_mark = obj["dice_mark"]
        for flag in ("sound", "next_player_pause", "auto_roll", "computer_pause"):
            if isinstance(obj.get(flag), bool):
                setattr(c, flag, obj[flag])
        return c


def _name_or_none(raw: Any) -> str | None:
    """A remembered name if it is still a good one (printable, 1-20 characters)."""
    if not isinstance(raw, str):
        return None
    try:
        return check_name(raw)
    except InputError:
        return None


def config_path() -> Path:
    base = os.environ.get("YACHT_CONFIG_DIR")
    if not base:
        import platformdirs

        base = platformdirs.user_config_dir("yacht-dice")
    return Path(base) / "setup.json"


def load_config() -> Config:
    try:
        return Config.from_json(json.loads(config_path().read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return Config()


def save_config(config: Config) -> str | None:
    """Write the choices; returns a one-line problem instead of raising."""
    path = config_path()
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps(config.to_json(), indent=1), encoding="utf-8")
        os.replace(tmp, path)
    except OSError as e:
        return f"cannot save the setup in {path}: {e.strerror or e}"
    finally:
        try:
            tmp.unlink()
        except OSError:
            pass
    return None


def parse_players(text: str) -> list[PlayerSpec]:
    """``"Ann,Bob,cpu:expert"`` -> seats; raises ValueError naming the problem.

    A computer is ``cpu`` or ``cpu:LEVEL`` (``beginner``, ``intermediate``,
    ``expert``, ``champion``; default intermediate), optionally named
    ``Name=cpu:LEVEL`` or ``Name:LEVEL``.
    Names are 1-20 printable characters, each name once (in any case); there
    are 1-8 players (see :func:`yacht.parsing.parse_players`).

    >>> [(p.name, p.kind) for p in parse_players("Ann, cpu:expert")]
    [('Ann', 'person'), ('Expert', 'expert')]
    """
    return [PlayerSpec(name, kind) for name, kind in _parse_players(text)]


@dataclass
class Launch:
    """What the command line asked for; empty means "show the setup screen"."""

    variant: str | None = None
    options: dict[str, str] = field(default_factory=dict)
    players: list[PlayerSpec] | None = None
    demo: bool = False
    seed: int | None = None
    resume: str | None = None
    speed: str | None = None
    sound: bool | None = None

    @property
    def direct(self) -> bool:
        """Whether to start the game at once (a shortcut was given)."""
        return self.players is not None or self.demo or self.variant is not None
