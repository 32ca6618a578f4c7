"""What a seat can ask of a table, and the one text notation for it.

A command is an engine action (:class:`~yacht.engine.Roll`,
:class:`~yacht.engine.Choose`, :class:`~yacht.engine.Score`,
:class:`~yacht.engine.GiveBack`, :class:`~yacht.engine.TakeBack`) or one of the
table's own: :class:`Toggle` a die, :class:`Select` all dice / the singlets /
none, :class:`ScoreBox` in whichever column is open, :class:`GoOn` out of a
pause, :class:`ComputerMove` (the computer on turn makes one decision now).
Every command has a JSON form (``{"type": "roll"}``) for the browser.

The notation is what the line game reads and `yacht resume --action` takes
(case-insensitive; positions are 1-based, ``0`` is die 10):

=====================================  ==========================================
``roll`` (or ``r``, or nothing)        roll: all dice, or the chosen ones
``roll 3,5``                           roll with these values (real dice)
``choose 1,3`` / ``choose 13``         choose dice 1 and 3 for the next roll
``1 3`` / ``13``                       choose dice 1 and 3 and roll them again
``all`` / ``a``, ``singlets`` / ``s``  choose every die / every singlet and roll
``score BOX [COLUMN]``                 score a box: id, label or letter
``BOX [COLUMN]``, ``f2``, ``F``        the same (an upper-case letter: column 2)
``give-back``                          Oops: give back the chosen dice
``take-back`` / ``oops`` / ``o``       Oops: take back the last scoring
``computer``                           the computer on turn makes one decision
=====================================  ==========================================

>>> import random
>>> from yacht.engine import Player, State
>>> from yacht.rules import get
>>> s = State(get("yatzy"), [Player("Ann")], rng=random.Random(1))
>>> parse_command("roll 1,2,3,4,5", s)
[Roll(result=(1, 2, 3, 4, 5))]
>>> s.apply(Roll((1, 2, 3, 4, 5)))
>>> parse_command("choose 1, 3", s), parse_command("score Small straight", s)
([Choose(dice=(0, 2))], [ScoreBox(category='small_straight', column=None)])
>>> parse_command("13", s)
[Choose(dice=(0, 2)), Roll(result=None)]
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any, Literal

from yacht.engine import (
    Action,
    Choose,
    GiveBack,
    IllegalAction,
    Roll,
    Score,
    State,
    TakeBack,
    action_from_json,
    action_to_json,
)
from yacht.parsing import InputError, parse_dice, parse_positions, shown
from yacht.rules import DiceMark, Ruleset, counts_of

from .keys import category_keys, key_for, singlets

__all__ = ["NOTATION", "ActionError", "Command", "ComputerMove", "GoOn", "ScoreBox", "Select",
           "Toggle", "command_from_json", "command_text", "command_to_json", "dice_to_roll",
           "held_dice", "held_in_log", "hold_action", "legal_texts", "own_score_open",
           "parse_command", "resolve", "resolve_marked",
           "resume_command", "resume_hint", "start_command"]

NOTATION = ("roll [VALUES], choose POSITIONS (e.g. choose 1,3), score BOX [COLUMN], "
            "give-back, take-back, computer")


def resume_command(game_id: str) -> str:
    """The command that goes on with a saved game (in a terminal it opens the game; its
    ``--action`` plays one action in this notation).

    >>> resume_command("1ab3af1a2d7d")
    'yacht resume 1ab3af1a2d7d'
    """
    from .opening import command_line  # (opening imports the table, which imports this)

    return command_line("resume", game_id)


def start_command() -> str:
    """The command that starts the game and offers the unfinished games (in the database
    of this run).

    >>> start_command()
    'yacht play'
    """
    from .opening import command_line

    return command_line("play")


def resume_hint(game_id: str) -> str:
    """How a saved game goes on, in the words of every interface."""
    return f"`{resume_command(game_id)}` continues it"


class ActionError(InputError):
    """Text the notation does not know, or an action the rules do not allow now."""


@dataclass(frozen=True)
class Toggle:
    """Choose or un-choose one die (0-based position)."""

    position: int


@dataclass(frozen=True)
class Select:
    """Choose every die, every singlet (a face showing once) or none."""

    which: Literal["all", "singlets", "none"]


@dataclass(frozen=True)
class ScoreBox:
    """Score a box; ``column`` None takes the first column where the box takes the dice."""

    category: str
    column: int | None = None


@dataclass(frozen=True)
class GoOn:
    """Leave the pause the table is in (the next player's turn, or the results)."""


@dataclass(frozen=True)
class ComputerMove:
    """The computer player on turn makes its next decision now (not waiting for its pace)."""


Command = Action | Toggle | Select | ScoreBox | GoOn | ComputerMove

_SELECT = ("all", "singlets", "none")


def command_to_json(cmd: Command) -> dict[str, Any]:
    """The JSON form of a command.

    >>> command_to_json(Toggle(2)), command_to_json(ScoreBox("chance"))
    ({'type': 'toggle', 'position': 2}, {'type': 'score', 'category': 'chance', 'column': None})
    >>> command_to_json(Roll()), command_to_json(Roll((3, 5)))
    ({'type': 'roll'}, {'type': 'roll', 'result': [3, 5]})
    """
    if isinstance(cmd, Toggle):
        return {"type": "toggle", "position": cmd.position}
    if isinstance(cmd, Select):
        return {"type": "select", "which": cmd.which}
    if isinstance(cmd, ScoreBox):
        return {"type": "score", "category": cmd.category, "column": cmd.column}
    if isinstance(cmd, GoOn):
        return {"type": "go_on"}
    if isinstance(cmd, ComputerMove):
        return {"type": "computer"}
    if isinstance(cmd, Roll) and cmd.result is None:
        return {"type": "roll"}  # random dice (a record's roll always has its result)
    return action_to_json(cmd)


def command_from_json(obj: Any) -> Command:
    """A command from its JSON form; raises ActionError naming what is wrong.

    >>> command_from_json({"type": "select", "which": "singlets"})
    Select(which='singlets')
    >>> command_from_json({"type": "score", "category": "chance", "column": 1})
    Score(category='chance', column=1)
    """
    if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
        raise ActionError("a command is an object with a \"type\" (roll, choose, toggle, "
                          "select, score, give_back, take_back, go_on, computer)")
    kind = obj["type"]
    if kind == "toggle":
        pos = obj.get("position")
        if not isinstance(pos, int) or isinstance(pos, bool):
            raise ActionError("toggle needs a \"position\": a whole number (0-based)")
        return Toggle(pos)
    if kind == "select":
        which = obj.get("which")
        if which not in _SELECT:
            raise ActionError(f"select needs \"which\": one of {', '.join(_SELECT)}")
        return Select(which)
    if kind == "go_on":
        return GoOn()
    if kind == "computer":
        return ComputerMove()
    if kind == "roll" and obj.get("result") is None:
        return Roll()
    if kind == "score" and obj.get("column") is None:
        cat = obj.get("category")
        if not isinstance(cat, str):
            raise ActionError("score needs a \"category\": a box id")
        return ScoreBox(cat)
    try:
        return action_from_json(obj)
    except ValueError as e:
        raise ActionError(str(e)) from None


def _digits(text: str) -> bool:
    """ASCII digits only (``isdigit`` also takes ``²`` and other scripts' digits)."""
    return bool(text) and all("0" <= ch <= "9" for ch in text)


def _positions(text: str, rs: Ruleset) -> tuple[int, ...]:
    """1-based positions (0 = die 10) -> sorted 0-based ones; one die named once."""
    try:
        return parse_positions(text, rs)
    except InputError as e:
        raise ActionError(str(e)) from None


def _category(rs: Ruleset, text: str) -> str | None:
    if not text.isascii():
        return None  # (lower() would make the Kelvin sign a k)
    want = text.strip().strip("\"'").lower().replace("-", "_").replace(" ", "_")
    for c in rs.categories:
        if want in (c.id, c.label.lower().replace(" ", "_").replace("-", "_")):
            return c.id
    return None


def _near_box(rs: Ruleset, text: str) -> str | None:
    """The box a misspelt name is nearest to, as the card shows it with its letter
    (``Full House (l)``); None when none is near enough.

    >>> from yacht.rules import get
    >>> [_near_box(get("yahtzee"), t) for t in ("Full Houze", "large", "zz", "s")]
    ['Full House (l)', 'Large Straight (j)', None, None]
    """
    if not text.isascii():
        return None
    want = text.strip().strip("\"'").lower().replace("-", "_").replace(" ", "_")
    names = {c.label.lower().replace(" ", "_").replace("-", "_"): c for c in rs.categories}
    names.update({c.id: c for c in rs.categories})
    starts = {names[n].id: names[n] for n in names if len(want) >= 3 and n.startswith(want)}
    found = difflib.get_close_matches(want, list(names), n=1, cutoff=0.75)
    if len(starts) == 1:
        cat = next(iter(starts.values()))
    elif found:
        cat = names[found[0]]
    else:
        return None
    return f"{cat.label} ({category_keys(rs)[cat.id]})"


def _no_box(rs: Ruleset, name: str, otherwise: str) -> ActionError:
    """A name that is no box of ``rs``: the nearest box when one is near, else
    ``otherwise``."""
    near = _near_box(rs, name) if len(name) > 2 else None
    if near is not None:
        return ActionError(f"{rs.name} has no box {shown(name)}: {near} is the nearest")
    return ActionError(otherwise)


class _NoColumn(ActionError):
    """A box named with a column the variant does not have."""


def _no_column(rs: Ruleset, column: str) -> _NoColumn:
    if len(rs.columns) == 1:
        return _NoColumn(f"there is no column {column}: {rs.name} has one column (name the "
                         "box alone)")
    return _NoColumn(f"there is no column {column} (accepted: 1-{len(rs.columns)})")


def _box_id(rs: Ruleset, name: str) -> str | None:
    """The box a name, an id or a letter names (None: none)."""
    if len(name) == 1 and name.isascii() and name.isalpha():
        found = key_for(rs, name) or key_for(rs, name.lower())
        if found is not None:
            return found
    return _category(rs, name)


def _box(rs: Ruleset, text: str) -> ScoreBox | Score:
    """``BOX [COLUMN]`` with BOX an id, a label or a letter (upper-case: column 2)."""
    words = text.split()
    column: int | None = None
    last = words[-1] if words else ""
    if len(words) > 1 and not _digits(last) and _box_id(rs, " ".join(words[:-1])) \
            and not _box_id(rs, " ".join(words)):
        # a box and then something that is not a column (f -1, f x)
        raise _no_column(rs, shown(last, 12))
    if len(words) > 1 and _digits(last):
        if len(last) > 3:
            raise _no_column(rs, shown(last, 12))
        column = int(last)
        words = words[:-1]
    name = " ".join(words)
    if column is None and len(name) == 2 and name[0].isalpha() and _digits(name[1]):
        name, column = name[0], int(name[1])
    cid = None
    if len(name) == 1 and name.isascii() and name.isalpha():
        own = key_for(rs, name)  # (a capital is a box's own key past z: Maxi Yatzy)
        cid = own or key_for(rs, name.lower())
        if cid is not None and own is None and name.isupper() and column is None \
                and len(rs.columns) > 1:
            column = 2
    if cid is None:
        cid = _category(rs, name)
    if cid is None:
        raise _no_box(rs, name, f"{rs.name} has no box {shown(name)} (boxes: "
                      f"{', '.join(c.label for c in rs.categories)}; or their letters)")
    if column is None:
        return ScoreBox(cid)
    if not 1 <= column <= len(rs.columns):
        raise _no_column(rs, str(column))
    return Score(cid, column - 1)


def parse_command(text: str, state: State) -> list[Command]:
    """The commands ``text`` stands for (see the module's table); raises ActionError.

    Only the form is checked here, and the die positions and box names against
    the variant; whether the rules allow it now is the table's answer.
    """
    raw = " ".join(text.strip().split())
    low = raw.lower()
    word, _, rest = low.partition(" ")
    rs = state.ruleset
    if low in ("", "r", "roll"):
        return [Roll()]
    if len(raw) == 1 and raw.isupper() and key_for(rs, raw) is not None:
        return [_box(rs, raw)]  # a capital that is a box's own key (Maxi Yatzy's O), not o
    if word == "roll":
        n = len(state.to_roll())
        if n == 0:
            try:  # (no roll left, or a rule stops the rolling: the rules' reason)
                state.check(Roll())
            except IllegalAction as e:
                if not state.may_reroll() or state.is_terminal():
                    raise ActionError(str(e)) from None
            raise ActionError("no dice are chosen to roll: choose some first, e.g. choose 1,3")
        try:
            values = parse_dice(rest, rs, count=n)
        except InputError:
            what = "1 value" if n == 1 else f"{n} values"
            dice = "die" if n == 1 else "dice"
            raise ActionError(f"roll needs {what} 1-{rs.faces} for the {dice} rolled, "
                              f"not {shown(rest)}") from None
        return [Roll(values)]
    if word == "choose":
        return [Choose(_positions(rest, rs))]
    if low in ("a", "all"):
        return [Choose(tuple(range(rs.dice))), Roll()]
    if low in ("s", "singlets"):
        found = singlets(state.dice)
        if not found:
            raise ActionError("No unmatched die: every face shows at least twice"
                              if state.dice else "roll first: there are no dice to choose")
        return [Choose(found), Roll()]
    if _digits(low.replace(",", "").replace(" ", "")):
        return [Choose(_positions(low, rs)), Roll()]
    if word == "score":
        if not rest:
            # (an example of the variant's own: Tommy's Crag has no Chance)
            last = rs.categories[-1]
            raise ActionError(f"score needs a box: its name or its letter, e.g. score "
                              f"{last.label.lower()} or score {category_keys(rs)[last.id]}")
        return [_box(rs, raw.partition(" ")[2])]
    if low in ("give-back", "give back", "giveback", "give_back"):
        return [GiveBack()]
    if low in ("take-back", "take back", "takeback", "take_back", "o", "oops"):
        return [TakeBack()]
    if low == "computer":
        return [ComputerMove()]
    try:
        return [_box(rs, raw)]
    except _NoColumn:
        raise  # the box is known: its column is what is wrong
    except ActionError:
        # (two sentences: NOTATION's example in brackets inside brackets read badly)
        raise _no_box(rs, raw, f"unknown action {shown(raw)}. Accepted: {NOTATION}, or a "
                      "box's letter") from None


def resolve(cmd: Command, state: State) -> list[Action]:
    """The engine actions a command stands for in ``state`` (none: nothing to do).

    Raises IllegalAction (a user-ready message) when the command cannot apply now.
    """
    rs = state.ruleset
    if isinstance(cmd, Toggle):
        if not state.dice:
            raise IllegalAction("roll first: there are no dice to choose")
        if not 0 <= cmd.position < len(state.dice):
            raise IllegalAction(f"there is no die {cmd.position + 1} (accepted: 1-{rs.dice})")
        return resolve(Choose(tuple(sorted(set(state.chosen) ^ {cmd.position}))), state)
    if isinstance(cmd, Select):
        if not state.dice:
            raise IllegalAction("roll first: there are no dice to choose")
        if cmd.which == "all":
            wanted: tuple[int, ...] = tuple(range(rs.dice))
        elif cmd.which == "singlets":
            wanted = singlets(state.dice)
            if not wanted and state.may_reroll():
                raise IllegalAction("No unmatched die: every face shows at least twice")
        else:
            wanted = ()
        return resolve(Choose(wanted), state)
    if isinstance(cmd, Choose):
        wanted = tuple(sorted(cmd.dice))
        if not wanted:
            return [GiveBack()] if state.chosen else []
        if state.dice and frozenset(wanted) == state.chosen and len(set(wanted)) == len(wanted):
            return []
        return [Choose(wanted)]
    if isinstance(cmd, ScoreBox):
        here = [p for p in state.placements() if p.category == cmd.category]
        if cmd.column is None:
            return [Score(cmd.category, here[0].column if here else 0)]
        if here and len(rs.columns) > 1 and all(p.column != cmd.column for p in here):
            label = rs.category(cmd.category).label
            cols = " or ".join(str(p.column + 1) for p in here)
            boxes = state.card(state.current).boxes
            points = (boxes[cmd.column][rs.index(cmd.category)]
                      if 0 <= cmd.column < len(boxes) else None)
            # (filled: said as the rules say it of a box with one column, with its points)
            taken = "not open" if points is None else "filled already"
            raise IllegalAction(f"{label} is {taken} in column {cmd.column + 1}"
                                + ("" if points is None else f" ({points})")
                                + f"; it is open in column {cols}")
        return [Score(cmd.category, cmd.column)]
    if isinstance(cmd, Score) and len(rs.columns) > 1:
        return resolve(ScoreBox(cmd.category, cmd.column), state)
    if isinstance(cmd, GoOn | ComputerMove):
        raise IllegalAction("this is for the table, not the dice")  # the table handles them
    return [cmd]


def held_dice(state: State, held: frozenset[int] | None) -> frozenset[int]:
    """The dice kept out of the next roll: the table's holds, or when it holds none (a
    choice made in the notation's terms, a computer's) every die not chosen to roll."""
    if held is not None:
        return held
    chosen = state.chosen
    return frozenset(range(len(state.dice))) - chosen if chosen else frozenset()


def held_in_log(state: State) -> frozenset[int] | None:
    """Every die, when the log's last word on the dice showing is a choice of none
    (``Choose(())``: how a seat that holds every die is saved, since the engine's chosen
    dice cannot tell it from a choice not made yet); None otherwise: the engine's chosen
    dice say which are held (:func:`held_dice`). A scoring taken back is passed over.

    >>> import random
    >>> from yacht.engine import Player
    >>> from yacht.rules import get
    >>> s = State(get("yatzy"), [Player("Ann")], rng=random.Random(1))
    >>> s.apply(Roll((6, 6, 6, 6, 6))); s.apply(Choose(()))
    >>> sorted(held_in_log(s))
    [0, 1, 2, 3, 4]
    >>> s.apply(Score("yatzy")); s.apply(TakeBack()); sorted(held_in_log(s))
    [0, 1, 2, 3, 4]
    """
    log = state.log
    i = len(log) - 1
    while i >= 1 and isinstance(log[i], TakeBack) and isinstance(log[i - 1], Score):
        i -= 2
    last = log[i] if i >= 0 else None
    if (isinstance(last, Choose) and not last.dice and state.dice
            and not state.is_terminal() and state.may_reroll()):
        return frozenset(range(len(state.dice)))
    return None


def hold_action(state: State, held: frozenset[int] | None) -> Action | None:
    """The engine action that makes ``state`` (and so its saved log) say that the dice
    ``held`` are held (None: the engine's chosen dice say it already; see
    :func:`held_dice`): a choice of every other die (of none when every die is held), or
    a give-back when none is; None when nothing is to be done (it says so already, or no
    die may be chosen now). Holds saved so survive a quit or a kill like marks to roll
    again, and the record says which dice rolled again, as always.

    >>> import random
    >>> from yacht.engine import Player
    >>> from yacht.rules import get
    >>> s = State(get("yatzy"), [Player("Ann")], rng=random.Random(1))
    >>> s.apply(Roll((6, 6, 1, 2, 3)))
    >>> hold_action(s, frozenset({0, 1})), hold_action(s, frozenset(range(5)))
    (Choose(dice=(2, 3, 4)), Choose(dice=()))
    >>> hold_action(s, frozenset())
    >>> s.apply(Choose((2, 3, 4))); hold_action(s, frozenset()), hold_action(s, None)
    (GiveBack(), None)
    """
    if not state.dice or state.is_terminal() or not state.may_reroll():
        return None
    everything = frozenset(range(len(state.dice)))
    now = held_in_log(state)
    if now is None:
        now = held_dice(state, None)
    want = held_dice(state, None) if held is None else held & everything
    if want == now:
        return None
    if not want and state.chosen:
        return GiveBack()
    return Choose(tuple(sorted(everything - want)))


def dice_to_roll(state: State, held: frozenset[int] | None, mark: DiceMark) -> tuple[int, ...]:
    """What a Roll rolls now for a seat whose clicks ``mark`` dice: every die at the start
    of a turn; then, holding, every die not held (all of them when none is); marking,
    the dice marked to roll again (none: a roll is refused).

    >>> import random
    >>> from yacht.engine import Player
    >>> from yacht.rules import get
    >>> s = State(get("yatzy"), [Player("Ann")], rng=random.Random(1))
    >>> s.apply(Roll((6, 6, 1, 2, 3)))
    >>> dice_to_roll(s, frozenset({0, 1}), "hold"), dice_to_roll(s, None, "hold")
    ((2, 3, 4), (0, 1, 2, 3, 4))
    >>> dice_to_roll(s, None, "reroll")
    ()
    """
    everything = range(len(state.dice) or state.ruleset.dice)
    if not state.dice:
        return tuple(everything)
    if mark == "hold":
        kept = held_dice(state, held)
        return tuple(i for i in everything if i not in kept)
    if held is None:
        return tuple(sorted(state.chosen))
    return tuple(i for i in everything if i not in held) if held else ()


def resolve_marked(cmd: Command, state: State, held: frozenset[int] | None,
                   mark: DiceMark) -> tuple[list[Action], frozenset[int] | None]:
    """:func:`resolve` for a seat whose clicks ``mark`` dice, at a table that holds the
    dice ``held`` (None: none held by the table): the engine actions, and the table's
    holds once they are played.

    Holding, a die held or released is the table's alone (no action); a roll is the
    choice of every die not held and its roll at once, and the holds stay for the
    turn's next roll; "all" / "none" hold every die / none, "singlets" every die but the
    singlets (they roll again). An engine action's own choice (``choose``) is taken as it
    is: the dice it does not choose are held.

    >>> import random
    >>> from yacht.engine import Player
    >>> from yacht.rules import get
    >>> s = State(get("yatzy"), [Player("Ann")], rng=random.Random(1))
    >>> s.apply(Roll((6, 6, 1, 2, 3)))
    >>> resolve_marked(Toggle(0), s, None, "hold")
    ([], frozenset({0}))
    >>> resolve_marked(Roll(), s, frozenset({0, 1}), "hold")
    ([Choose(dice=(2, 3, 4)), Roll(result=None)], frozenset({0, 1}))
    """
    if isinstance(cmd, Roll) and state.dice:
        if not state.may_reroll():
            return [cmd], None  # (the engine's reason: no roll left)
        want = dice_to_roll(state, held, mark)
        if not want:
            if mark == "hold":
                raise IllegalAction("every die is held: release one to roll it again"
                                    + (", or score" if state.placements() else ""))
            return [cmd], None  # the engine's reason (choose at least one die)
        everything = frozenset(range(len(state.dice)))
        kept = everything - frozenset(want) if mark == "hold" else None
        return [*resolve(Choose(want), state), cmd], kept
    if mark == "hold" and isinstance(cmd, Toggle | Select | GiveBack):
        if not state.dice:
            raise IllegalAction("roll first: there are no dice to hold")
        if not state.may_reroll():  # (the engine's words for a roll or a choice then)
            why = state.ruleset.stop_reason(state.context(),
                                            counts_of(state.dice, state.ruleset.faces))
            raise IllegalAction(("no roll left in this turn" if why is None else
                                 f"{why}, so this turn's rolling stops here")
                                + ": score the dice in an open box")
        now = held_dice(state, held)
        everything = frozenset(range(len(state.dice)))
        if isinstance(cmd, GiveBack):
            if not now and not state.chosen:
                raise IllegalAction("no die is held, so none can be given back")
            return ([GiveBack()] if state.chosen else []), None
        if isinstance(cmd, Toggle):
            if not 0 <= cmd.position < len(state.dice):
                raise IllegalAction(f"there is no die {cmd.position + 1} (accepted: "
                                    f"1-{state.ruleset.dice})")
            return [], now ^ {cmd.position}
        if cmd.which == "singlets":
            found = singlets(state.dice)
            if not found:
                raise IllegalAction("No unmatched die: every face shows at least twice")
            return [], everything - frozenset(found)
        return [], everything if cmd.which == "all" else frozenset()
    if held is not None and isinstance(cmd, Toggle) and state.dice:
        # marking, at a table that holds dice (another seat of the player holds): the
        # dice that would roll, with this one marked or not
        if not 0 <= cmd.position < len(state.dice):
            raise IllegalAction(f"there is no die {cmd.position + 1} (accepted: "
                                f"1-{state.ruleset.dice})")
        mine = frozenset(dice_to_roll(state, held, mark)) ^ {cmd.position}
        return resolve(Choose(tuple(sorted(mine))), state), None
    return resolve(cmd, state), None


def command_text(action: Action, rs: Ruleset) -> str:
    """An engine action in the notation (positions and columns 1-based).

    >>> from yacht.rules import get
    >>> command_text(Choose((0, 2)), get("yatzy")), command_text(Score("chance"), get("yatzy"))
    ('choose 1,3', 'score chance')
    """
    if isinstance(action, Roll):
        return "roll" + (" " + ",".join(map(str, action.result)) if action.result else "")
    if isinstance(action, Choose):
        return "choose " + ",".join(str(p + 1) for p in action.dice)
    if isinstance(action, Score):
        col = f" {action.column + 1}" if len(rs.columns) > 1 else ""
        return f"score {action.category}{col}"
    if isinstance(action, GiveBack):
        return "give-back"
    return "take-back"


def own_score_open(state: State) -> bool:
    """Whether the last score may be taken back (Oops): the engine allows it (a person's,
    until the next roll) and the computer did not make it for the person (standing in
    for them while they were away or a demo had taken over, or when their clock ran
    out: ``Score.by``)."""
    if not state.can_take_back():
        return False
    scored = next((a for a in reversed(state.log) if isinstance(a, Score)), None)
    return scored is None or scored.by is None


def legal_texts(state: State) -> list[str]:
    """What may be done now, in the notation (scorings with their points). On a
    computer's turn only what a person may do: have it move, or take back their last
    scoring while it may be taken back."""
    rs = state.ruleset
    out: list[str] = []
    if state.is_terminal():
        return ["take-back"] if own_score_open(state) else []
    if state.players[state.current].is_computer:
        return ["computer"] + (["take-back"] if own_score_open(state) else [])
    if not state.dice:
        out.append("roll")
    else:
        if state.may_reroll():
            out.append(f"choose POSITIONS (1-{rs.dice})")
            if state.chosen:
                out.append("roll")
        scorings = (command_text(Score(pl.category, pl.column), rs) + f" ({pl.total})"
                    for pl in state.placements())
        out.extend(dict.fromkeys(scorings))  # once each, in order
    if state.can_give_back():
        out.append("give-back")
    if own_score_open(state):
        out.append("take-back")
    return out
