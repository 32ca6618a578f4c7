"""Where a game's dice come from: a secret seed anyone can check afterwards, or a generator.

A game made without a random number generator draws every die from a **seed**:
32 random bytes made with the game and kept secret until it is finished. The
**commitment**, SHA-256 of the seed, is public from the start; once the game
is finished the seed is revealed, and anyone can work out every die again and
compare (:func:`yacht.engine.verify`, ``yacht verify``). The construction,
scheme ``yacht-hmac-sha256/1`` (HMAC-SHA256 used as a deterministic random bit
generator, one output per die; ``docs/VERIFY.md`` gives the same for other
languages):

* a die is named by three whole numbers: ``turn``, the scorings that stand in
  the whole game before the roll (0 in the first turn; a scoring taken back no
  longer counts, so a score taken back and made again leaves the next turn on
  the same number); ``roll``, the roll's number within its turn (1 for the
  first); ``die``, the die's position (0 for the first);
* ``faces`` faces (2-256) give the ``limit`` ``256 - 256 % faces``;
* for ``counter`` = 0, 1, 2, ...: the message is the ASCII text
  ``yacht-hmac-sha256/1:TURN:ROLL:DIE:COUNTER`` (decimal numbers, no leading
  zeros), the digest is HMAC-SHA256 keyed by the seed over the message, and
  the first byte ``b`` of the digest, in order, that is below ``limit`` gives
  the face ``b % faces + 1`` (rejection sampling: every face equally likely);
  a digest without such a byte (not expected to happen) moves on to the next
  counter.

A roll draws the dice it rolls, each at its own position: the same die of the
same roll of the same turn always shows the same face, whichever other dice
are rolled with it and whatever was chosen, given back or taken back before.

>>> dice = SeededDice(bytes(range(32)))
>>> dice.commitment
'630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd'
>>> dice.draw(0, 1, (0, 1, 2, 3, 4), 6), dice.draw(0, 2, (1, 3), 6)
((2, 4, 4, 3, 1), (2, 3))
>>> list(hmac.digest(dice.seed, b"yacht-hmac-sha256/1:0:1:0:0", "sha256")[:2])
[255, 181]

(The first die: byte 255 is not below 252, the limit for 6 faces; 181 is, and
181 % 6 + 1 = 2.)
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import random
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from yacht.rules.errors import InvalidType, InvalidValue

from .actions import IllegalAction

__all__ = ["SCHEME", "SEED_BYTES", "Commitment", "DiceSource", "RandomDice", "SeededDice",
           "commitment_of", "daily_of", "die_face", "seed_kept"]

#: the name of the construction (the first part of every message)
SCHEME = "yacht-hmac-sha256/1"
#: the length of a seed
SEED_BYTES = 32


class _Rng(Protocol):
    def randint(self, a: int, b: int) -> int: ...


def daily_of(meta: Mapping[str, Any]) -> str | None:
    """The day (``YYYY-MM-DD``, UTC) of the daily challenge a game's meta data names
    (None: not a daily game's)."""
    day = meta.get("daily")
    return day if isinstance(day, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", day) else None


def seed_kept(daily: str | None, today: str) -> bool:
    """Whether a finished game's seed is still kept on ``today``: a daily challenge's
    seed is everyone's of that day, so it is shown once the day (``daily``) is over,
    however soon a game on it is finished.

    >>> seed_kept("2026-12-02", "2026-12-02"), seed_kept("2026-12-01", "2026-12-02")
    (True, False)
    """
    return daily is not None and daily >= today


def commitment_of(seed: bytes) -> str:
    """SHA-256 of the seed, lower-case hex: what a game shows of its seed before its end."""
    return hashlib.sha256(seed).hexdigest()


def die_face(seed: bytes, turn: int, roll: int, die: int, faces: int) -> int:
    """The face (1..``faces``) of die ``die`` in roll ``roll`` of turn ``turn`` (see the
    module's text)."""
    if not 2 <= faces <= 256:
        raise InvalidValue(f"dice of {faces} faces cannot be drawn (accepted: 2-256)")
    limit = 256 - 256 % faces
    counter = 0
    while True:
        message = f"{SCHEME}:{turn}:{roll}:{die}:{counter}".encode("ascii")
        for b in hmac.digest(seed, message, "sha256"):
            if b < limit:
                return b % faces + 1
        counter += 1


@dataclass(frozen=True)
class Commitment:
    """A game's public promise about its dice: the scheme and SHA-256 of the seed (hex),
    and the seed itself (hex) once the game is finished."""

    scheme: str
    commitment: str
    seed: str | None = None

    def revealed(self, seed: bytes) -> Commitment:
        return Commitment(self.scheme, self.commitment, seed.hex())

    def to_json(self) -> dict[str, Any]:
        out = {"scheme": self.scheme, "commitment": self.commitment}
        if self.seed is not None:
            out["seed"] = self.seed
        return out

    @classmethod
    def from_json(cls, obj: Any) -> Commitment:
        """Raises ValueError naming what is wrong."""
        if not isinstance(obj, dict):
            raise InvalidValue("'dice_seed' must be an object with a scheme and a commitment")
        scheme, commitment, seed = obj.get("scheme"), obj.get("commitment"), obj.get("seed")
        if not isinstance(scheme, str) or not isinstance(commitment, str):
            raise InvalidValue("'dice_seed' needs a 'scheme' and a 'commitment' (text)")
        if seed is not None and not isinstance(seed, str):
            raise InvalidValue("the 'seed' of 'dice_seed' must be text (hex)")
        return cls(scheme, commitment, seed)


class DiceSource(Protocol):
    """What a game's dice come from (the state asks it for every roll it draws)."""

    def draw(self, turn: int, roll: int, positions: Sequence[int],
             faces: int) -> tuple[int, ...]: ...

    def copy(self) -> DiceSource: ...


class SeededDice:
    """The dice of a seed (scheme :data:`SCHEME`); ``SeededDice.new()`` makes a fresh one."""

    scheme = SCHEME

    def __init__(self, seed: bytes) -> None:
        if not isinstance(seed, (bytes, bytearray, memoryview)):
            raise InvalidType(f"a seed is {SEED_BYTES} bytes (bytes, e.g. secrets."
                              f"token_bytes({SEED_BYTES})), not {type(seed).__name__}")
        if len(seed) != SEED_BYTES:
            raise InvalidValue(f"a seed is {SEED_BYTES} bytes, not {len(seed)}")
        self.seed = bytes(seed)
        self.commitment = commitment_of(self.seed)

    @classmethod
    def new(cls) -> SeededDice:
        return cls(secrets.token_bytes(SEED_BYTES))

    def public(self) -> Commitment:
        """The commitment, without the seed."""
        return Commitment(self.scheme, self.commitment)

    def draw(self, turn: int, roll: int, positions: Sequence[int],
             faces: int) -> tuple[int, ...]:
        return tuple(die_face(self.seed, turn, roll, pos, faces) for pos in positions)

    def copy(self) -> SeededDice:
        return self  # nothing in it changes

    def __repr__(self) -> str:  # never the seed
        return f"<SeededDice {self.commitment[:12]}>"


class RandomDice:
    """Dice from a random number generator (``random.Random`` with a seed: simulations,
    tests), one ``randint`` per die in position order."""

    def __init__(self, rng: _Rng) -> None:
        if not callable(getattr(rng, "randint", None)):
            raise InvalidType(f"rng is a generator with randint(a, b) (random.Random(n)), "
                              f"not {type(rng).__name__}")
        self.rng = rng

    def draw(self, turn: int, roll: int, positions: Sequence[int],
             faces: int) -> tuple[int, ...]:
        return tuple(self.rng.randint(1, faces) for _ in positions)

    def copy(self) -> RandomDice:
        """A copy that goes on as this one would (the generator copied when it can be).

        >>> a = RandomDice(random.Random(7))
        >>> b = a.copy()
        >>> a.draw(0, 0, range(5), 6) == b.draw(0, 0, range(5), 6)
        True
        """
        rng = self.rng
        if type(rng) is random.Random:
            # (its state handed over whole: a deep copy went through the state's 625
            # numbers one by one, most of a brute force's time cloning games)
            twin = random.Random(0)
            twin.setstate(rng.getstate())
            return RandomDice(twin)
        try:
            return RandomDice(copy.deepcopy(rng))
        except (TypeError, NotImplementedError):
            return self


class NoDice:
    """The dice of a copy made for reading: it never rolls."""

    def draw(self, turn: int, roll: int, positions: Sequence[int],
             faces: int) -> tuple[int, ...]:
        raise IllegalAction("this is a copy for reading: it cannot roll dice")

    def copy(self) -> NoDice:
        return self


NO_DICE = NoDice()
