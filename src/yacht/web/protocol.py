"""Every message between a browser and the server, as declared types: the one way in.

What a browser sends over the table's WebSocket (:data:`ClientMessage`) and in the
bodies of the JSON API (:class:`TableRequest`, :class:`ScoreQuestion`, ...) is read
here and nowhere else: strict types (no number read from text, no true taken for 1),
no field that is not declared, sizes bounded. :func:`read_client` turns a frame's
text into a typed message or a :class:`ProtocolError` with one line for the sender.

The browser's commands are its own vocabulary (:data:`BrowserCommand`), not the
engine's actions: a roll names no dice values, so no message can set a die. What the
server sends (:data:`ServerMessage`) is declared as typed dictionaries: built without
a copy on the hot path, checked by mypy, and described in the generated JSON Schema
(``protocol.schema.json`` beside this file; ``python -m yacht.web.protocol`` writes it,
a test fails when it is stale).

>>> msg = read_client('{"type": "command", "command": {"type": "toggle", "position": 2}, '
...                   '"version": 4, "id": 7}')
>>> msg.command.to_command(), msg.version, msg.id
(Toggle(position=2), 4, 7)
>>> try:
...     read_client('{"type": "command", "command": {"type": "roll", "result": [6, 6]}}')
... except ProtocolError as e:
...     print(e.code, "-", e)
bad_request - command.result: only the server rolls the dice (a roll takes no other field)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal, NotRequired

import orjson
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    WithJsonSchema,
    model_validator,
)
from typing_extensions import TypedDict  # (pydantic reads these before Python 3.12)

from yacht.engine import NAME_LENGTH, PLAYER_LEVELS, Choose, GiveBack, Roll, TakeBack
from yacht.rules import MAX_PLAYERS
from yacht.session.clock import MAX_BANK_MINUTES, MAX_TURN, TurnClock
from yacht.session.commands import Command, GoOn, ScoreBox, Select, Toggle
from yacht.session.config import DICE_MARK_SETTINGS, SPEEDS

__all__ = ["CLIENT", "ERROR_CODES", "MAX_BODY", "MAX_COLUMNS", "MAX_DICE", "MAX_MESSAGE",
           "SCHEMA_PATH", "BrowserCommand", "ClaimRequest", "ClientMessage",
           "DailyRequest", "ErrorBody", "ErrorCode", "FieldMessage", "MyGamesRequest", "Prefs",
           "PrefsChange",
           "ProtocolError", "REACTIONS", "React", "Reaction", "ReactionName", "ScoreQuestion",
           "ServerMessage", "TableRequest", "describe", "error_body", "message_id", "read_client",
           "schema", "server_adapter", "validation_line"]
__all__ += ["FIELD_HELP", "MAX_OPTIONS", "OPTION_LENGTH", "VARIANT_LENGTH"]
__all__ += ["ABSENT_AFTER", "Again", "Away", "ClockRequest", "GameSeat", "Leave", "SameDiceView",
            "Series"]

#: the longest WebSocket message a browser may send (bytes)
MAX_MESSAGE = 4096
#: the longest HTTP request body the server reads (bytes)
MAX_BODY = 16384
#: the most dice and score columns of any variant (a test keeps these true)
MAX_DICE = 10
MAX_COLUMNS = 2
#: the generated schema of this module's types
SCHEMA_PATH = Path(__file__).with_name("protocol.schema.json")

ErrorCode = Literal[
    "bad_request", "bad_host", "too_large", "flood", "illegal", "not_your_turn",
    "computer_turn", "paused", "stale", "conflict", "not_started", "not_finished",
    "not_analysable", "no_hint", "unknown_seat", "closed", "store", "not_found", "busy",
    "server", "reactions_off", "private", "method_not_allowed", "upgrade_required"]
ERROR_CODES: tuple[str, ...] = ErrorCode.__args__  # type: ignore[attr-defined]

# --- the pieces ---------------------------------------------------------------------
MessageId = Annotated[int, Field(ge=0, le=2**53)] | Annotated[str, Field(max_length=32)]
Token = Annotated[str, Field(min_length=16, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
TableId = Annotated[str, Field(pattern=r"^[0-9a-f]{12}$")]
GameId = Annotated[str, Field(pattern=r"^[0-9a-f]{12}$")]
Position = Annotated[int, Field(ge=0, lt=MAX_DICE)]
BoxId = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[a-z0-9_]+$")]
Name = Annotated[str, Field(max_length=4 * NAME_LENGTH)]  # (the name's own rules: check_name)
Speed = Literal["slow", "normal", "fast", "instant"]
assert set(Speed.__args__) == set(SPEEDS)  # type: ignore[attr-defined]
Level = Literal["beginner", "intermediate", "expert", "champion"]
assert Level.__args__ == PLAYER_LEVELS  # type: ignore[attr-defined]


class _In(BaseModel):
    """What a client sends: strict types, no field that is not declared, never changed."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


# --- the browser's commands ------------------------------------------------------------
class RollCommand(_In):
    """Roll the chosen dice (all of them at the start of a turn): the server rolls."""

    type: Literal["roll"]

    def to_command(self) -> Command:
        return Roll()


class ToggleCommand(_In):
    """Choose or un-choose one die for the next roll."""

    type: Literal["toggle"]
    position: Position

    def to_command(self) -> Command:
        return Toggle(self.position)


class SelectCommand(_In):
    """Choose every die, every singlet, or none."""

    type: Literal["select"]
    which: Literal["all", "singlets", "none"]

    def to_command(self) -> Command:
        return Select(self.which)


class ChooseCommand(_In):
    """Choose exactly these dice (0-based positions) for the next roll."""

    type: Literal["choose"]
    dice: Annotated[list[Position], Field(max_length=MAX_DICE)]

    def to_command(self) -> Command:
        return Choose(tuple(self.dice))


class ScoreCommand(_In):
    """Score the dice in a box; ``column`` null: the first column where it is open."""

    type: Literal["score"]
    category: BoxId
    column: Annotated[int, Field(ge=0, lt=MAX_COLUMNS)] | None = None

    def to_command(self) -> Command:
        return ScoreBox(self.category, self.column)


class GiveBackCommand(_In):
    """Oops: give back the dice chosen for the next roll."""

    type: Literal["give_back"]

    def to_command(self) -> Command:
        return GiveBack()


class TakeBackCommand(_In):
    """Oops: take back the last scoring (until the next player rolls)."""

    type: Literal["take_back"]

    def to_command(self) -> Command:
        return TakeBack()


class GoOnCommand(_In):
    """Leave the pause (the next player's turn, or the results)."""

    type: Literal["go_on"]

    def to_command(self) -> Command:
        return GoOn()


BrowserCommand = Annotated[
    RollCommand | ToggleCommand | SelectCommand | ChooseCommand | ScoreCommand
    | GiveBackCommand | TakeBackCommand | GoOnCommand, Field(discriminator="type")]
COMMAND_TYPES = ("roll", "toggle", "select", "choose", "score", "give_back", "take_back",
                 "go_on")


# --- what a browser sends over the socket ----------------------------------------------
DiceMarkSetting = Literal["variant", "hold", "reroll"]
assert DiceMarkSetting.__args__ == DICE_MARK_SETTINGS  # type: ignore[attr-defined]


class Prefs(_In):
    """This browser's choices for its seats (null: as before): what a click on a die
    does - ``variant`` (the variant's way), ``hold`` it, or ``reroll`` (mark it to roll
    again); ``pause`` - after its player's score, when a computer is next, the table
    waits for Go on (true) or goes on after a moment (false). Neither changes a die."""

    dice_mark: DiceMarkSetting | None = None
    pause: bool | None = None


class Hello(_In):
    """The first message: this browser's token (null: a watcher), and its choices."""

    type: Literal["hello"]
    token: Token | None = None
    prefs: Prefs | None = None
    id: MessageId | None = None


class CommandMessage(_In):
    """A command from this browser's seats; ``version``: the snapshot's version the
    player saw, always given (a command is decided against the table its sender saw: a
    stale click, or an old message sent again, is refused ``stale``, never applied to a
    newer state)."""

    type: Literal["command"]
    command: BrowserCommand
    version: Annotated[int, Field(ge=0, le=2**53)]
    id: MessageId | None = None


class Join(_In):
    """Take an open seat (0-based) as ``name``; ``token``: this browser's, for a second seat."""

    type: Literal["join"]
    seat: Annotated[int, Field(ge=0, lt=MAX_PLAYERS)]
    name: Name
    token: Token | None = None
    id: MessageId | None = None


class Start(_In):
    """Start without the seats no one took."""

    type: Literal["start"]
    id: MessageId | None = None


class HintRequest(_In):
    """The advisor's ranking for this browser's player on turn (marks them assisted)."""

    type: Literal["hint"]
    id: MessageId | None = None


class SpeedChange(_In):
    """The computer players' pace."""

    type: Literal["speed"]
    speed: Speed
    id: MessageId | None = None


class PrefsChange(Prefs):
    """This browser's choices changed (see :class:`Prefs`); its seats' snapshots say
    them from the next state on."""

    type: Literal["prefs"]
    id: MessageId | None = None


class Ping(_In):
    type: Literal["ping"]
    id: MessageId | None = None


# --- reactions: a fixed few, never free text ---------------------------------------------
#: every reaction a browser may send, by its name on the wire (the page draws each as an
#: emoji: clap 👏, wow 😮, laugh 😂, dice 🎲, luck 🍀, sad 😢)
ReactionName = Literal["clap", "wow", "laugh", "dice", "luck", "sad"]
REACTIONS: tuple[str, ...] = ReactionName.__args__  # type: ignore[attr-defined]


class React(_In):
    """A reaction from this browser's seats (or from a watcher) to everyone at the table:
    one of :data:`REACTIONS`; rate-limited, and refused where the table turned them off."""

    type: Literal["react"]
    reaction: ReactionName
    id: MessageId | None = None


# --- tables that keep going: absent players, playing again -----------------------------
class Away(_In):
    """A seated player's vote that the person of ``seat`` (0-based) is away and the
    computer plays their turns (``on`` false: the vote taken back); the table's host
    decides alone. Only once that person's browser has been gone for the table's
    ``absent_after`` seconds, and not at a table with a clock (the clock plays for them)."""

    type: Literal["away"]
    seat: Annotated[int, Field(ge=0, lt=MAX_PLAYERS)]
    on: bool = True
    id: MessageId | None = None


class Again(_In):
    """Play again: a new game at this table with the same seats, variant and options
    (after the game's end; the first asks, the others accept)."""

    type: Literal["again"]
    id: MessageId | None = None


class Leave(_In):
    """Leave the table's next game (the seats this browser holds are given up)."""

    type: Literal["leave"]
    id: MessageId | None = None


ClientMessage = Annotated[Hello | CommandMessage | Join | Start | HintRequest | SpeedChange
                          | PrefsChange | Ping | React | Away | Again | Leave,
                          Field(discriminator="type")]
MESSAGE_TYPES = ("hello", "command", "join", "start", "hint", "speed", "prefs", "ping",
                 "react", "away", "again", "leave")
CLIENT: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


# --- HTTP bodies ---------------------------------------------------------------------
class PersonSeat(_In):
    """A person: ``here`` true - this browser plays it; false - open for a friend."""

    kind: Literal["person"]
    name: Name | None = None
    here: bool = True


class ComputerSeat(_In):
    """A computer player of a level."""

    kind: Level
    name: Name | None = None


SeatRequest = Annotated[PersonSeat | ComputerSeat, Field(discriminator="kind")]
#: the longest variant id, option name or value, and the most options a request names
VARIANT_LENGTH, OPTION_LENGTH, MAX_OPTIONS = 64, 40, 16
Options = Annotated[dict[Annotated[str, Field(max_length=OPTION_LENGTH)],
                         Annotated[str, Field(max_length=OPTION_LENGTH)]],
                    Field(max_length=MAX_OPTIONS)]


class ClockRequest(_In):
    """A table's turn clock: ``none``; ``turn`` - ``seconds`` (5-600) a turn; ``bank`` -
    ``minutes`` (1-60) per player plus ``seconds`` (0-600) a turn before the bank runs."""

    kind: Literal["none", "turn", "bank"] = "none"
    seconds: Annotated[int, Field(ge=0, le=MAX_TURN)] = 0
    minutes: Annotated[int, Field(ge=0, le=MAX_BANK_MINUTES)] = 0

    @model_validator(mode="after")
    def _limits(self) -> ClockRequest:
        TurnClock.parse(self.kind, self.seconds, self.minutes)  # (ValueError: one line)
        return self

    def clock(self) -> TurnClock | None:
        return TurnClock.parse(self.kind, self.seconds, self.minutes)


#: how long a seated player's browser is gone before the others may hand the seat to a
#: computer (seconds), unless the table says otherwise
ABSENT_AFTER = 120


class TableRequest(_In):
    """A new table: the variant, its options, the computers' pace and 1-8 seats; its
    turn clock, and after how many seconds an absent player's seat may be handed to a
    computer (a table without a clock)."""

    variant: Annotated[str, Field(max_length=VARIANT_LENGTH)]
    options: Options = Field(default_factory=dict)
    speed: Speed = "normal"
    seats: Annotated[list[SeatRequest], Field(min_length=1, max_length=MAX_PLAYERS)]
    #: the table's own settings: reactions on (the default) or off
    reactions: bool = True
    clock: ClockRequest = Field(default_factory=ClockRequest)
    absent_after: Annotated[int, Field(ge=30, le=3600)] = ABSENT_AFTER
    #: ``own``: one game, turn by turn; ``duplicate``: every seat plays its own card at
    #: once on the same dice (a duplicate table, ``duplicate.py``)
    dice: Literal["own", "duplicate"] = "own"


class ScoreQuestion(_In):
    """Dice to score: what every box of the variant gives them."""

    variant: Annotated[str, Field(max_length=VARIANT_LENGTH)]
    options: Options = Field(default_factory=dict)
    dice: Annotated[list[int], Field(max_length=MAX_DICE)]


class ClaimRequest(_In):
    """The key of a one-time link that hands a saved game to this browser."""

    key: Token


class MyGamesRequest(_In):
    """The tables this browser holds seats at: table id -> its token there."""

    tables: Annotated[dict[TableId, Token], Field(max_length=200)] = Field(default_factory=dict)


class DailyRequest(_In):
    """Today's challenge of a variant (its usual options) for the person here, alone;
    ``tables``: the tables this browser holds seats at (table id -> its token there):
    the name's game under way at one of them is answered instead of a new one."""

    variant: Annotated[str, Field(max_length=VARIANT_LENGTH)]
    name: Name
    tables: Annotated[dict[TableId, Token], Field(max_length=200)] = Field(default_factory=dict)


# --- what the server sends ---------------------------------------------------------------
class ErrorMessage(TypedDict):
    """Something was refused or failed: nothing changed. One line, never a file path."""

    type: Literal["error"]
    code: ErrorCode
    message: str
    id: NotRequired[MessageId]


class Ack(TypedDict):
    """The command is done and saved."""

    type: Literal["ack"]
    id: NotRequired[MessageId]


class Pong(TypedDict):
    type: Literal["pong"]
    id: NotRequired[MessageId]


class Welcome(TypedDict):
    """The seats this browser's token holds."""

    type: Literal["welcome"]
    table: str
    seats: list[int]


class Joined(TypedDict):
    type: Literal["joined"]
    token: str
    seats: list[int]
    id: NotRequired[MessageId]


class Reconnect(TypedDict):
    """The server is stopping: reconnect (the socket closes next, 1012)."""

    type: Literal["reconnect"]
    message: str


class Move(TypedDict):
    """One move of a hint: a keep (``reroll``, ``category`` null) or a box."""

    text: str
    expected: float
    loss: float
    reroll: list[int]
    category: str | None
    column: int


class WinMove(Move):
    chance: float


class ToWin(TypedDict):
    """The moves ranked by the chance of winning; while its tables are built in the
    background, no moves and ``preparing`` (how far the build got, 0-1; else null)."""

    title: str
    how: str
    exact: bool
    differ: bool
    moves: list[WinMove]
    preparing: float | None


class HintAnswer(TypedDict):
    """The advisor's ranking; ``marked``: this hint made the player's score assisted
    (their first: the page says so once)."""

    type: Literal["hint"]
    moves: list[Move]
    to_win: ToWin | None
    marked: bool
    id: NotRequired[MessageId]


class SeatView(TypedDict):
    name: str | None
    kind: Literal["person", "computer"]
    level: str | None
    open: bool
    mine: bool
    #: False: asked to play again, not answered yet
    ready: bool


class LobbyView(TypedDict):
    """A table waiting for its players."""

    phase: Literal["lobby"]
    id: str
    variant: str
    name: str
    options: dict[str, str]
    speed: Speed
    seats: list[SeatView]
    can_start: bool
    reactions: bool  # the table takes reactions (a setting of the table's)
    #: the games played at the table so far (a new game after them: each accepts or leaves)
    series: Series
    #: the table's turn clock in words (null: none)
    clock: str | None


#: the snapshot's schema (``yacht/session/table.schema.json``), by its ``$id``
SNAPSHOT_ID = "https://yacht-dice.invalid/schema/table-1.json"
Snapshot = Annotated[dict[str, Any], WithJsonSchema(
    {"description": "the table's snapshot: yacht/session/table.schema.json",
     "allOf": [{"$ref": SNAPSHOT_ID}]})]


class Series(TypedDict):
    """The games played at the table before this one: how many, and each seat's wins
    (by seat, in the seats' order; a shared win counts for each winner)."""

    games: int
    wins: list[int]


class GameSeat(TypedDict):
    """A seat of a game under way: whether its person's browser is here, since when it
    is gone, and the votes to hand it to the computer."""

    connected: bool
    #: seconds since its browser left (null: here, or a computer)
    absent: int | None
    #: the computer plays this person's turns (a vote, or the host) until they are back
    away: bool
    votes: int
    #: the votes it takes (a majority of the other people at the table)
    needed: int
    #: this browser voted
    voted: bool
    #: this browser may vote now (or, the host, hand the seat over)
    can_vote: bool


class GameView(TypedDict):
    """A table's game as this browser's seats see it (``host``: it made the table)."""

    phase: Literal["game"]
    id: str
    host: bool
    snapshot: Snapshot
    reactions: bool  # the table takes reactions (a setting of the table's)
    #: each seat's presence and votes (the snapshot's players, in order)
    seats: list[GameSeat]
    #: after how many seconds away a seat may be handed over (no clock)
    absent_after: int
    series: Series
    #: this browser may ask for a new game at the table (or accept one)
    can_again: bool


class Presence(TypedDict):
    seats: list[int]
    names: list[str]
    watchers: NotRequired[int]


class EventView(TypedDict):
    """Something that happened at the table (``yacht.session.table.Event``)."""

    kind: str
    version: int
    player: int | None
    text: str
    data: dict[str, Any]


class State(TypedDict):
    """The table after every change (one frame however many changes since the last).

    With an ``id``: it is also the answer to that message, done and saved (an ack)."""

    type: Literal["state"]
    table: LobbyView | GameView
    presence: list[Presence]
    events: list[EventView]
    id: NotRequired[MessageId]


class Reaction(TypedDict):
    """Someone at the table reacted: the seats of the browser it came from and their
    names (both empty: a watcher's)."""

    type: Literal["reaction"]
    reaction: ReactionName
    seats: list[int]
    names: list[str]


# --- duplicate tables: what one player may see of the others (``duplicate.py``) -------------
class FieldTurn(TypedDict):
    """One scoring of a card (the turn's box and its points, the total after it)."""

    turn: int
    category: str
    column: int
    points: int
    total: int


class FieldCard(TypedDict):
    """One seat's card as this viewer may see it: ``done`` turns finished (always
    shown), ``shown`` of them in ``turns`` (never more than the viewer has finished)."""

    card: int
    name: str | None
    kind: Literal["person", "computer"]
    level: str | None
    open: bool  # a friend's seat no one has taken yet
    mine: bool
    done: int
    shown: int
    total: int
    turns: list[FieldTurn]
    #: a watcher's view: the card's link while its seat is open (else null)
    url: NotRequired[str | None]


class FieldPlace(TypedDict):
    card: int
    name: str
    total: int
    place: int


class FieldEnd(TypedDict):
    """Every card is full: the ranking, the expert's total on the same dice, each card's
    points per turn against the mean of the others', and the best of each turn."""

    ranking: list[FieldPlace]
    expert: int | None
    against: list[list[float]]
    best: list[list[int]]


class FieldMessage(TypedDict):
    """A duplicate table's field as this viewer may see it: pushed whenever a card's
    turn is scored (``upto``: the turns shown, the viewer's own finished turns; a
    watcher's: the slowest player's)."""

    type: Literal["field"]
    group: str
    variant: str
    name: str
    commitment: str
    length: int
    me: int | None
    upto: int
    cards: list[FieldCard]
    end: FieldEnd | None
    #: someone asked to play again: the viewer's card at the new duplicate table (held
    #: by the same browser, to accept or leave; a watcher's: the new table's field)
    next: str | None


class SameDiceView(TypedDict):
    """A duplicate table's games compared, in the analysis of one of them
    (``GET /api/games/ID/analysis``: ``same_dice``, once every game of its table is
    full): the cards numbered among the games played (a seat no one took is left
    out), ``me`` the analysed game's, every turn shown; ``end`` as the field's."""

    me: int
    length: int
    cards: list[FieldCard]
    end: FieldEnd


ServerMessage = Annotated[ErrorMessage | Ack | Pong | Welcome | Joined | Reconnect | HintAnswer
                          | State | Reaction | FieldMessage, Field(discriminator="type")]


@cache
def server_adapter() -> TypeAdapter[ServerMessage]:
    """What checks the server's messages (the tests check every message they get)."""
    return TypeAdapter(ServerMessage)


class ErrorBody(TypedDict):
    """Every HTTP error: one line and a code."""

    error: str
    code: ErrorCode


def error_body(message: str, code: ErrorCode) -> ErrorBody:
    return {"error": message, "code": code}


# --- reading ----------------------------------------------------------------------------
class ProtocolError(Exception):
    """A message the server does not take: a code, one line, and the message's id."""

    def __init__(self, message: str, code: ErrorCode = "bad_request",
                 msg_id: int | str | None = None) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.id = msg_id


FIELD_HELP = {
    "id": "a whole number or a text of at most 32 characters",
    "version": "the snapshot's version, a whole number",
    "position": f"a die's 0-based position (0-{MAX_DICE - 1})",
    "which": "all, singlets or none",
    "dice": f"a list of 0-based die positions (0-{MAX_DICE - 1})",
    "category": "a box id (see the snapshot's previews)",
    "column": f"null or a 0-based column (0-{MAX_COLUMNS - 1})",
    "seat": f"a seat's 0-based number (0-{MAX_PLAYERS - 1})",
    "name": f"a name (1-{NAME_LENGTH} characters)",
    "token": "the token this server gave (16-64 letters, digits, - or _)",
    "key": "the key of the link (16-64 letters, digits, - or _)",
    "speed": "slow, normal, fast or instant",
    "dice_mark": "variant, hold or reroll (what a click on a die does)",
    "pause": "true or false (the Next player pause before a computer)",
    "prefs": "an object: dice_mark, pause",
    "variant": "a variant id (see /api/variants)",
    "options": f"an object of at most {MAX_OPTIONS} text values (each name and value at "
               f"most {OPTION_LENGTH} characters), e.g. {{\"joker\": \"free\"}}",
    "seats": f"a list of 1-{MAX_PLAYERS} seats",
    "kind": "person or a computer level (" + ", ".join(PLAYER_LEVELS) + ")",
    "here": "true or false",
    "tables": "an object: table id -> token",
    "command": "a command object, e.g. {\"type\": \"roll\"}",
    "reaction": "one of " + ", ".join(REACTIONS),
    "reactions": "true or false (the table takes reactions)",
    "assisted": "true or false (the top tens of games played with hints)",
    "computers": "true or false (the computer players' statistics too)",
}
#: ... where a body's field means something else than a message's
_BODY_HELP = {"dice": f"the dice's values, a list of at most {MAX_DICE} whole numbers",
              "absent_after": "a whole number of seconds, 30-3600 (how long a person's "
                              "browser is gone before the others may hand their seat to "
                              "the computer)",
              "clock": "an object: kind (none, turn or bank), seconds, minutes"}
#: ... a field of an object inside a body (its name and the object's)
_INNER_HELP = {("clock", "kind"): "none, turn or bank (the table's clock)",
               ("clock", "seconds"): f"a whole number of seconds, 0-{MAX_TURN} (a turn "
                                     "clock's turn: 5 at least)",
               ("clock", "minutes"): f"a whole number of minutes, 0-{MAX_BANK_MINUTES} "
                                     "(a bank's: 1 at least)"}
#: ... where a field of a body takes one of a few words (a table's ``dice``)
_WORDS_HELP = {"dice": "own or duplicate (the same dice for everyone, all at once)"}
_TAGS = frozenset(COMMAND_TYPES) | frozenset(PLAYER_LEVELS) | {"person"}


def _path(loc: tuple[int | str, ...], socket: bool) -> list[str]:
    """The fields of an error's location, without the union tags pydantic adds (on the
    socket the first is always the message's type)."""
    if socket:
        loc = loc[1:]
    return [str(p) for p in loc if not (isinstance(p, str) and (p in _TAGS or "-" in p))]


def validation_line(error: ValidationError, socket: bool = True) -> str:
    """The first problem of a validation error as one line a person can act on."""
    return describe(error.errors()[0], socket)


def describe(first: Mapping[str, Any], socket: bool = True) -> str:
    """One of pydantic's errors (``type``, ``loc``, ``msg``) as one line; ``socket``: of a
    WebSocket message (whose location starts with the message's type)."""
    kind, loc = first["type"], tuple(first["loc"])
    helps = FIELD_HELP if socket else {**FIELD_HELP, **_BODY_HELP}
    if kind == "json_invalid":
        return "not JSON"
    parts = _path(loc, socket)
    # (one line, as a query's options are told: api.py; a body that takes none says so)
    if parts[:1] == ["options"] and kind != "extra_forbidden":
        return f"options: {FIELD_HELP['options']}"
    where = ".".join(parts)
    field = parts[-1] if parts else ""
    if kind in ("union_tag_invalid", "union_tag_not_found"):
        inner = where + "." if where else ""
        if parts and parts[-1] == "command":
            return f"{inner}type: a command is one of {', '.join(COMMAND_TYPES)}"
        if socket and not parts:
            return f"type: a message is one of {', '.join(MESSAGE_TYPES)}"
        return f"{inner}kind: {FIELD_HELP['kind']}"
    if kind == "extra_forbidden":
        if len(loc) >= 3 and loc[-2] == "roll":
            return f"{where}: only the server rolls the dice (a roll takes no other field)"
        return f"{where}: no such field here"
    if kind == "missing":
        return f"{where or 'the body'}: missing ({helps.get(field, 'required')})"
    if kind in ("model_attributes_type", "model_type", "dict_type"):
        return f"{where or ('the message' if socket else 'the body')}: a JSON object is expected"
    if kind == "value_error":  # (a check of the type's own, in its own words)
        said = first.get("ctx", {}).get("error")
        return f"{where}: {said}" if where and said is not None else \
            str(said if said is not None else first["msg"])
    help_ = _WORDS_HELP.get(field) if kind == "literal_error" and not socket else None
    help_ = help_ or (None if socket else _INNER_HELP.get(tuple(parts[-2:])))  # type: ignore[arg-type]
    help_ = help_ or helps.get(field)
    if help_ is None and parts and parts[-1].isdigit() and len(parts) > 1:
        help_ = helps.get(parts[-2])
    return f"{where}: {help_ or first['msg']}" if where else str(first["msg"])


def message_id(obj: Any) -> int | str | None:
    """The ``id`` of a parsed message when it is a valid one (to answer even a message
    that is refused)."""
    if not isinstance(obj, dict):
        return None
    got = obj.get("id")
    if isinstance(got, bool):
        return None
    if isinstance(got, int) and 0 <= got <= 2**53:
        return got
    if isinstance(got, str) and len(got) <= 32:
        return got
    return None


def parse_json(text: str) -> Any:
    """A frame's text as JSON (ProtocolError when it is not)."""
    try:
        return orjson.loads(text)
    except (orjson.JSONDecodeError, RecursionError):
        raise ProtocolError("not JSON") from None


def read_client(text: str) -> ClientMessage:
    """A WebSocket frame's text as a typed message; raises ProtocolError (one line, with
    the message's id when it has a valid one). The caller has bounded the size."""
    obj = parse_json(text)
    if not isinstance(obj, dict):
        raise ProtocolError("a message is a JSON object with a \"type\"")
    try:
        return CLIENT.validate_python(obj)
    except ValidationError as e:
        raise ProtocolError(validation_line(e), "bad_request", message_id(obj)) from None


# --- the schema ---------------------------------------------------------------------------
def schema() -> dict[str, Any]:
    """The JSON Schema of the protocol: the client's messages, the server's, and the
    HTTP bodies (what ``protocol.schema.json`` holds)."""
    adapters: list[tuple[str, Any]] = [
        ("ClientMessage", CLIENT), ("ServerMessage", server_adapter()),
        ("TableRequest", TypeAdapter(TableRequest)), ("ScoreQuestion", TypeAdapter(ScoreQuestion)),
        ("ClaimRequest", TypeAdapter(ClaimRequest)),
        ("MyGamesRequest", TypeAdapter(MyGamesRequest)),
        ("DailyRequest", TypeAdapter(DailyRequest)),
        ("ErrorBody", TypeAdapter(ErrorBody)),
        ("SameDiceView", TypeAdapter(SameDiceView))]
    keyed, defs = TypeAdapter.json_schemas(
        [(name, "validation" if name not in ("ServerMessage", "SameDiceView")
          else "serialization", adapter)
         for name, adapter in adapters],
        ref_template="#/$defs/{model}")
    for (name, _mode), one in keyed.items():
        if "$ref" not in one:  # a union: a definition of its own
            defs["$defs"][name] = one
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://yacht-dice.invalid/schema/protocol-1.json",
        "title": "yacht web: the messages between a browser and the server",
        "description": "ClientMessage: what a browser sends on /ws/TABLE; ServerMessage: what "
                       "the server sends there; the rest: HTTP bodies. Generated from "
                       "yacht/web/protocol.py (python -m yacht.web.protocol).",
        "$defs": dict(sorted(defs["$defs"].items())),
    }


def schema_text() -> str:
    return json.dumps(schema(), indent=1, sort_keys=False) + "\n"


if __name__ == "__main__":  # python -m yacht.web.protocol: write the schema file
    SCHEMA_PATH.write_text(schema_text(), encoding="utf-8")
    print(f"wrote {SCHEMA_PATH}")
