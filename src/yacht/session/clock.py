"""A table's turn clock: how long a person has for a turn, and what each has left.

A table may set a clock (:class:`TurnClock`): N seconds per turn, or a bank of M minutes
per player plus S seconds per turn that do not count against it (a chess clock with a
delay). The clock counts while a person is on turn and free to act (no pause); when it
runs out, the computer (the expert) plays the rest of that turn for them, and the
record marks the turn's score as played by the clock. What a table's clock says at a
moment is :class:`ClockState` (kept with the game in the store, so that a restarted or
another server process counts to the same deadline).

>>> c = TurnClock.parse("bank", 10, 2)
>>> c.kind, c.per_turn, c.bank, c.describe()
('bank', 10, 120, '2 min each + 10 s a turn')
>>> s = ClockState(c, [120.0, 120.0])
>>> s.follow((0, 0), now=1000.0), s.deadline()
(True, 1130.0)
>>> s.follow((1, 0), now=1040.0), s.banks      # Ann took 40 s: 30 from her bank
(True, [90.0, 120.0])
>>> TurnClock.parse("turn", 3, 0)
Traceback (most recent call last):
...
ValueError: a turn clock gives 5-600 seconds a turn, not 3
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["CLOCK_KINDS", "MAX_BANK_MINUTES", "MAX_TURN", "MIN_TURN", "ClockState",
           "TurnClock"]

ClockKind = Literal["none", "turn", "bank"]
CLOCK_KINDS: tuple[str, ...] = ("none", "turn", "bank")
#: the seconds a turn may be given (a turn clock), and the most minutes of a bank
MIN_TURN, MAX_TURN = 5, 600
MAX_BANK_MINUTES = 60
#: a pause (the next player's, the game's end) on a table with a clock goes on by itself
#: after the turn's time, or this long when the turn has no time of its own (a bank)
PAUSE_WITHOUT_TURN = 30


@dataclass(frozen=True)
class TurnClock:
    """``per_turn`` seconds each turn; ``bank`` seconds per player (0: none) drawn on
    once a turn takes longer than ``per_turn``."""

    per_turn: int
    bank: int = 0

    @property
    def kind(self) -> Literal["turn", "bank"]:
        return "bank" if self.bank else "turn"

    @property
    def pause(self) -> int:
        """How long a pause waits before it goes on by itself (seconds)."""
        return self.per_turn or PAUSE_WITHOUT_TURN

    @classmethod
    def parse(cls, kind: str, seconds: int, minutes: int = 0) -> TurnClock | None:
        """The clock a table asks for (None: ``none``); ValueError (one line) otherwise."""
        if kind == "none":
            return None
        if kind == "turn":
            if not MIN_TURN <= seconds <= MAX_TURN:
                raise ValueError(f"a turn clock gives {MIN_TURN}-{MAX_TURN} seconds a turn, "
                                 f"not {seconds}")
            return cls(seconds)
        if kind == "bank":
            if not 1 <= minutes <= MAX_BANK_MINUTES:
                raise ValueError(f"a bank gives each player 1-{MAX_BANK_MINUTES} minutes, "
                                 f"not {minutes}")
            if not 0 <= seconds <= MAX_TURN:
                raise ValueError(f"a bank adds 0-{MAX_TURN} seconds a turn, not {seconds}")
            return cls(seconds, 60 * minutes)
        raise ValueError(f"a clock is {', '.join(CLOCK_KINDS)}, not {kind!r}")

    def describe(self) -> str:
        if self.bank:
            return f"{self.bank // 60} min each + {self.per_turn} s a turn"
        return f"{self.per_turn} s a turn"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "per_turn": self.per_turn, "bank": self.bank}

    @classmethod
    def from_json(cls, obj: Any) -> TurnClock | None:
        """A clock as kept with a game or a table (None: none, or not readable)."""
        if not isinstance(obj, dict):
            return None
        per_turn, bank = obj.get("per_turn"), obj.get("bank", 0)
        if not isinstance(per_turn, int) or not isinstance(bank, int) \
                or isinstance(per_turn, bool) or isinstance(bank, bool):
            return None
        try:
            return cls.parse("bank" if bank else "turn", per_turn, bank // 60)
        except ValueError:
            return None


Key = tuple[int, int]  # (player, the number of turns they had taken): one turn


@dataclass
class ClockState:
    """The clock of a game at one moment: the turn it counts (``key``) since when
    (``started``, epoch seconds), each player's bank left, and the turn whose time ran
    out (``out``: the computer plays it)."""

    clock: TurnClock
    banks: list[float]
    key: Key | None = None
    started: float = 0.0
    out: Key | None = None

    def deadline(self) -> float | None:
        """When the turn counted now runs out (epoch seconds; None: none counts)."""
        if self.key is None:
            return None
        return self.started + self.clock.per_turn + self.banks[self.key[0]]

    def follow(self, key: Key | None, now: float) -> bool:
        """The table is now at turn ``key`` (None: no person's turn counts): the turn
        that counted until now pays what it took beyond its own seconds from its bank.
        True when a new turn began to count."""
        if key == self.key:
            return False
        if self.key is not None and self.out != self.key and self.clock.bank:
            p = self.key[0]
            over = max(0.0, now - self.started - self.clock.per_turn)
            self.banks[p] = max(0.0, self.banks[p] - over)
        self.key, self.started = key, now
        return key is not None

    def run_out(self) -> None:
        """The turn's time is up: its bank is spent, the computer plays it."""
        if self.key is not None:
            self.out = self.key
            self.banks[self.key[0]] = 0.0

    @property
    def ran_out(self) -> bool:
        return self.key is not None and self.out == self.key

    def to_json(self) -> dict[str, Any]:
        """What the store keeps (a restart counts on from it)."""
        return {"key": list(self.key) if self.key is not None else None,
                "started": round(self.started, 3), "banks": [round(b, 3) for b in self.banks],
                "out": list(self.out) if self.out is not None else None}

    def take(self, stored: Any) -> None:
        """Count on from what the store kept, when it is about the turn counted now."""
        if not isinstance(stored, dict):
            return
        banks = stored.get("banks")
        if isinstance(banks, list) and len(banks) == len(self.banks) and all(
                isinstance(b, int | float) and not isinstance(b, bool) for b in banks):
            self.banks = [max(0.0, min(float(b), float(self.clock.bank))) for b in banks]
        key, started = stored.get("key"), stored.get("started")
        if self.key is not None and key == list(self.key) and isinstance(started, int | float):
            self.started = float(started)
            if stored.get("out") == list(self.key):
                self.out = self.key

    def view(self, now: float) -> dict[str, Any]:
        """The snapshot's ``clock``: the deadline as epoch milliseconds (the browser
        counts down to it), each player's bank left (milliseconds)."""
        deadline = self.deadline()
        return {"kind": self.clock.kind, "per_turn": self.clock.per_turn,
                "bank": self.clock.bank, "text": self.clock.describe(),
                "player": self.key[0] if self.key is not None else None,
                "deadline": round(deadline * 1000) if deadline is not None else None,
                "left": (max(0, round((deadline - now) * 1000))
                         if deadline is not None else None),
                "out": self.ran_out,
                "banks": [round(b * 1000) for b in self.banks] if self.clock.bank else None}
