"""Checking a finished game's dice against its committed seed (``yacht verify``).

>>> from yacht.engine import Player, Record, Roll, Score, State
>>> from yacht.rules import get
>>> s = State(get("tommys-crag"), [Player("Ann")], seed=bytes(32))
>>> while not s.is_terminal():
...     s.apply(Roll()); s.apply(Score(s.placements()[0].category))
>>> record = Record.from_state(s)
>>> verify(record).line
'not verified: the record does not reveal the seed (a game reveals it once it is finished)'
>>> record.dice_seed = record.dice_seed.revealed(bytes(32))
>>> verify(record).ok
True
>>> print(verify(record).line)
verified: all 39 dice of the 13 rolls came from the committed seed (commitment 66687aadf862...)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from yacht.rules.errors import InvalidType

from .actions import IllegalAction, Roll
from .dice import SCHEME, SEED_BYTES, commitment_of, daily_of, die_face

if TYPE_CHECKING:
    from .records import Record

__all__ = ["VERDICT_CODES", "Verdict", "verify"]

#: every ``Verdict.code``: ``verified`` (ok), else why not
VERDICT_CODES = ("verified", "no_seed", "unplayable", "unfinished", "unrevealed",
                 "unknown_scheme", "bad_seed", "entered", "mismatch")


@dataclass(frozen=True)
class Verdict:
    """Whether every die of a game came from its committed seed; ``line`` says it in one
    line, ``action`` (1-based) is the first action whose dice did not."""

    ok: bool
    code: str
    line: str
    action: int | None = None
    rolls: int = 0
    dice: int = 0
    scheme: str | None = None
    commitment: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "code": self.code, "line": self.line, "action": self.action,
                "rolls": self.rolls, "dice": self.dice, "scheme": self.scheme,
                "commitment": self.commitment}


@dataclass(frozen=True)
class _Drawn:
    """One roll of the record: where it was made and what it showed."""

    action: int  # 1-based
    turn: int
    roll: int
    positions: tuple[int, ...]
    result: tuple[int, ...]
    entered: bool


def _dice_text(dice: tuple[int, ...]) -> str:
    return " ".join(map(str, dice))


def verify(record: Record) -> Verdict:
    """Replay ``record`` and check each die of each roll against the seed it reveals (the
    construction of :mod:`yacht.engine.dice`). Never raises for a record's content: what
    is wrong is the verdict (something that is no record is an InvalidType)."""
    from .records import Record

    if not isinstance(record, Record):
        raise InvalidType(f"verify checks a game's record (yacht.engine.Record: "
                          f"Record.load(path)), not {type(record).__name__}")
    proof = record.dice_seed
    scheme = proof.scheme if proof is not None else None
    commitment = proof.commitment if proof is not None else None

    def verdict(code: str, line: str, action: int | None = None, rolls: int = 0,
                dice: int = 0) -> Verdict:
        return Verdict(code == "verified", code, line, action, rolls, dice, scheme, commitment)

    if proof is None:
        return verdict("no_seed", "not verified: the game has no committed seed (its dice "
                                  "came from a generator, or it was played before games "
                                  "committed to their dice)")
    try:
        state = record.new_state()
    except (ValueError, LookupError) as e:
        return verdict("unplayable", f"not verified: the game cannot be set up ({e})")
    drawn: list[_Drawn] = []
    for i, action in enumerate(record.actions, 1):
        if isinstance(action, Roll):
            if action.result is None:
                return verdict("unplayable", f"not verified: action {i} is a roll without "
                                             "its dice", i)
            turn, roll = state.roll_index()
            drawn.append(_Drawn(i, turn, roll, state.to_roll(), action.result, action.entered))
        try:
            state.apply(action)
        except IllegalAction as e:
            return verdict("unplayable", f"not verified: action {i} cannot be replayed ({e})",
                           i)
    if not state.is_terminal():
        return verdict("unfinished", "not verified: the game is not finished (a game reveals "
                                     "its seed once it is finished)")
    if proof.seed is None:
        day = daily_of(record.meta)
        if day is not None:
            return verdict("unrevealed", f"not verified yet: a daily challenge's seed is "
                                         f"revealed once its day ({day}, UTC) is over")
        return verdict("unrevealed", "not verified: the record does not reveal the seed (a "
                                     "game reveals it once it is finished)")
    if proof.scheme != SCHEME:
        return verdict("unknown_scheme", f"not verified: the dice scheme {proof.scheme!r} is "
                                         f"not known here (known: {SCHEME})")
    try:
        seed = bytes.fromhex(proof.seed)
    except ValueError:
        seed = b""
    if len(seed) != SEED_BYTES:
        return verdict("bad_seed", f"not verified: the seed is not {SEED_BYTES} bytes in hex")
    if commitment_of(seed) != proof.commitment.lower():
        return verdict("bad_seed", "not verified: the seed does not match its commitment (its "
                                   f"SHA-256 is {commitment_of(seed)[:12]}..., the commitment "
                                   f"{proof.commitment[:12]}...)")
    faces = state.ruleset.faces
    dice = 0
    for n, d in enumerate(drawn):
        where = f"action {d.action} (roll {d.roll} of turn {d.turn + 1})"
        if d.entered:
            return verdict("entered", f"not verified: the dice of {where} were entered by "
                                      "hand (real dice), not drawn from the seed",
                           d.action, n, dice)
        expected = tuple(die_face(seed, d.turn, d.roll, pos, faces) for pos in d.positions)
        if expected != d.result:
            return verdict("mismatch", f"not verified: {where} shows {_dice_text(d.result)}; "
                                       f"the seed gives {_dice_text(expected)}",
                           d.action, n, dice)
        dice += len(d.result)
    return verdict("verified", f"verified: all {dice} dice of the {len(drawn)} rolls came "
                               f"from the committed seed (commitment {proof.commitment[:12]}"
                               "...)", None, len(drawn), dice)
