"""The table: dice, every player's card, the roll button and a help bar that says what to do.

The screen fits the card to the terminal (see :meth:`GameScreen.choose_layout`): big
dice when there is room, a tighter card and small dice when there is not, and at
last the cards of only some players (the one on turn first) with every player in
the players' list beside it.
"""

from __future__ import annotations

import math
import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.notifications import SeverityLevel
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Button, DataTable, ProgressBar, Static

from yacht.engine import Roll, Score, TakeBack
from yacht.render import verb, wrap_text
from yacht.session import SPEEDS, HintUnavailable, SessionError, category_keys, key_for
from yacht.session.commands import (
    Command,
    GoOn,
    ScoreBox,
    Select,
    Toggle,
    resume_command,
    resume_hint,
    start_command,
)
from yacht.session.keys import COMMAND_KEYS, letter_notes
from yacht.session.present import (
    TERMINAL,
    clock_line,
    help_line,
    hint_notice,
    marks,
    no_hint_text,
    no_roll_text,
    possessive,
)
from yacht.session.table import LOCAL, Event, Refused, Table, TableView, ThreadDriver

from ..widgets import DiceRow, KeyBar, NewsLog, ScoreCard, Standings
from ..widgets.card import CardStyle, card_width, split_points
from ..widgets.cells import cell_len, cut, wrap_cells
from ..widgets.dice import dice_per_line
from .base import AppScreen
from .dialogs import ChoiceDialog, HelpScreen, TextDialog

if TYPE_CHECKING:
    from yacht.rules import Ruleset

__all__ = ["GameScreen", "KEYS", "KEYS_HELP", "OLD_KEYS_HELP", "TOMMYS_KEYS_HELP",
           "choose_layout", "fit_help", "marks_help", "needed_size",
           "no_box_text", "old_keys_help", "oops_reasons", "too_small_text"]

#: the keys and what they do (in the help a key's words go on under its words)
KEYS = (
    ("Tab / Shift+Tab", "move between the dice, the Roll button and the scorecard"),
    ("arrows", "move among the dice or the boxes"),
    ("Space", "hold the die, or mark it to roll again (on the dice; the setup's "
              "\"Clicking a die\" says which, and so does the help line)"),
    ("Enter", "roll (on the dice or the button), score (on a box)"),
    ("1-9, 0", "the same for dice 1-10 (0 is none when there is no tenth die)"),
    ("a / s / n", "all dice / the unmatched dice, a face showing once (holding: the matched "
                  "dice) / none"),
    ("r", "roll (or go on to the next player)"),
    ("letters", "score the box with that letter (underlined at the left of the card); "
                "Shift+letter scores its second column in two-column games, the box itself "
                "in the others"),
    ("capitals", "a capital command letter (A, S, N, R, O, H, B, Q) works as its small "
                 "one: Caps Lock or Shift does no harm (where a capital is a box's own "
                 "letter, it scores that box)"),
    ("< / >", "look at the card of the previous / next player, when the screen is too "
              "small to show every card"),
    ("PgUp / PgDn", "scroll the card when its rows do not all fit (its heading then says "
                    "PgUp or PgDn; Home / End: its top / bottom)"),
    ("o", "the Oops menu"),
    ("h", "hint (the game is then marked assisted)"),
    ("b", "bell on/off"),
    ("+ / -", "computer speed"),
    ("?, F1 or F5", "this help"),
    ("F2", "demo: the computer plays every seat (again: the people play)"),
    ("Esc", "back to the setup (asks first)"),
    ("q or F7", "quit (asks first; the game is saved)"),
)
KEYS_HELP = ("Keys\n" + "".join(f"  {key:<16}  {what}\n" for key, what in KEYS)
             + "Mouse: click a die to hold it or mark it, click Roll, click a box on your card "
               "to score it.\n")

#: the old programs' keys: the ones that work here, and where ours kept its meaning
OLD_KEYS_HELP = (
    "Keys of the old programs\n"
    "Windows Yacht's Tab, arrows, Space and Enter work as they did. Esc goes back to the "
    "setup here, as in Yatcy (q or F7 quits).\n")

#: Tommy's keys, in the help of his variants only (the ones whose boxes have his board
#: names): the ones that work here, and where ours kept its meaning
TOMMYS_KEYS_HELP = (
    "Tommy's keys\n"
    "Tommy's F2 (demo), F5 (these instructions), F7 (quit), his A (all), N and 0 (none) "
    "and S (the unmatched dice) work as his did.\n"
    "Where his key means something else here, ours stays: Tommy's F1 (sound) is this "
    "help here (b is the bell); his up and down arrows (speed) move on the card here (use "
    "+ and -); Esc goes back to the setup here (q or F7 quits); his board "
    "numbers 1-9 choose dice here and his board letters A-D (shown as #A-#D before the "
    "names) are all dice, the bell and letters kept free (use the box letters); his 5 "
    "(re-roll all five) chooses "
    "die 5 here (a is all); his Enter (re-roll none) rolls the chosen dice here (to keep "
    "them all, score a box). His left and right arrows (the pitch of the dice's sound) and "
    "F10 (the border's colour) do nothing here.\n")


def old_keys_help(rs: Ruleset) -> str:
    """The old programs' keys for the help of ``rs``: Tommy's only in his variants (the
    ones whose boxes carry his board names)."""
    tommys = any(c.board for c in rs.categories)
    return OLD_KEYS_HELP + ("\n" + TOMMYS_KEYS_HELP if tommys else "")


class TableChanged(Message):
    """Something happened at the table (posted from whichever thread it happened in)."""

    def __init__(self, event: Event) -> None:
        super().__init__()
        self.event = event


class Acted(Message):
    """A person's command that waited for the database has been played (and saved, or
    its save given up): its outcome (None, a Refused), posted from the thread that
    played it."""

    def __init__(self, refused: Exception | None, commands: tuple[Command, ...]) -> None:
        super().__init__()
        self.refused = refused
        self.commands = commands


#: how often the screen looks whether a person's command it waits for is played, or its
#: save waits for the database (then the command goes on behind the screen, which says
#: so and answers meanwhile); a command merely slow (a loaded machine) holds the screen,
#: as any step of the game does, and no key typed meanwhile is lost
HOLD_SCREEN = 0.05
#: what a key gets while a move waits for the database
SAVING_TEXT = ("The game waits for the database (another program is writing to it) and "
               "goes on once it is saved; Ctrl+C quits now, the last move unsaved")

#: what the terminal says when the table refuses a person's command, by the refusal's code
REFUSALS = {
    "paused": "Press Enter or r to go on first",
    "computer_turn": "Wait: the computer is playing",
}

#: the width of the left side (dice, Roll, players) in each layout (see app.tcss; a
#: narrow one only for a line of three small dice: left_width)
LEFT = {"big": 62, "normal": 33, "small": 21, "narrow": 15}
#: the lines that are not the table: the title, the help (two) and the key bar
CHROME = 4

#: events after which the keys typed before them are not carried over: a new turn, a
#: pause or its end
STAGES = frozenset({"turn_passed", "paused", "went_on", "took_back", "demo", "reloaded"})


def preview_room(rs: Any) -> int:
    """The width a preview of the variant may take ("(100)"): the card keeps it for the
    player on turn, so that it does not change its layout in the middle of a turn."""
    most = rs.dice * rs.faces
    for c in rs.categories:
        points = c.parameters.get("points")
        if isinstance(points, int):
            most = max(most, points)
    return len(f"({most})")


def left_width(name: str, dice: int) -> int:
    """The width of the left side in layout ``name`` for a game of ``dice`` dice (a narrow
    one only when a line of small dice fits it: six dice in lines of three)."""
    if name == "narrow" and 4 * dice_per_line(dice) + 2 > LEFT["narrow"]:
        return 10**6
    return LEFT[name]


def choose_layout(snap: Mapping[str, Any], width: int, height: int, preview: int,
                  first: tuple[int, ...] = ()) -> tuple[str, CardStyle]:
    """The left side's size ("big", "normal", "small", "narrow") and the card's style that
    fit a terminal of ``width`` x ``height``: the roomiest that shows every card, all its
    rows in view (else leaner, then folded in two halves side by side, else scrolling),
    else the cards of as many players as fit, ``first`` (players by priority) first."""
    room_h = height - CHROME
    dice = int(snap["ruleset"]["dice"])

    def fits(left: str, style: CardStyle, scroll: bool = True) -> bool:
        w, h = card_width(snap, style)
        if h > room_h and not scroll:
            return False
        return w + (1 if h > room_h else 0) <= width - left_width(left, dice)

    candidates: list[tuple[str, CardStyle]] = []
    if width >= 110 and height >= 32:
        candidates.append(("big", CardStyle(preview=preview)))
    candidates += [
        ("normal", CardStyle(preview=preview)),
        ("normal", CardStyle(compact=True, preview=preview)),
        ("normal", CardStyle(compact=True, numbers=True, preview=preview)),
        ("small", CardStyle(compact=True, preview=preview)),
        ("small", CardStyle(compact=True, short=True, preview=preview)),
        ("small", CardStyle(compact=True, numbers=True, preview=preview)),
        ("small", CardStyle(compact=True, numbers=True, short=True, preview=preview)),
    ]
    # every row in view: as drawn, without the totals a short card may leave out, folded
    # (the narrow left side last: its dice and words are the tightest)
    shorter = [(left, replace(style, lean=True)) for left, style in candidates]
    folded = [(left, replace(style, lean=lean, split=split))
              for lean in (False, True) for split in split_points(snap, lean)
              for left, style in [*candidates,
                                  ("narrow", CardStyle(compact=True, numbers=True, short=True,
                                                       preview=preview))]]

    def done(left: str, style: CardStyle) -> tuple[str, CardStyle]:
        # (a card whose rows do not all fit says so: PgUp / PgDn)
        return left, replace(style, scrolls=card_width(snap, style)[1] > room_h)

    for left, style in [*candidates, *shorter, *folded]:
        if fits(left, style, scroll=False):
            return done(left, style)
    for left, style in candidates:
        if fits(left, style):
            return done(left, style)
    n = len(snap["players"])
    order = list(dict.fromkeys([*first, *range(n)]))
    for k in range(n - 1, 0, -1):
        players = tuple(sorted(order[:k]))
        # as many cards as fit, every row in view if they can be (a short card leaves
        # some totals out), else scrolling
        styles = [CardStyle(compact=True, numbers=numbers, short=True, players=players,
                            preview=preview, lean=lean)
                  for lean in (False, True) for numbers in (False, True)]
        for style in styles:
            if fits("small", style, scroll=False):
                return done("small", style)
        for style in styles[:2]:
            if fits("small", style):
                return done("small", style)
    return done("small", CardStyle(compact=True, numbers=True, short=True,
                                   players=(order[0],), preview=preview))


def needed_size(snap: Mapping[str, Any], preview: int, first: tuple[int, ...] = ()
                ) -> tuple[int, int]:
    """The smallest terminal (width, height) the table is drawn in without hiding
    anything silently: every die and the Roll button (the small left side, dice lines of
    4 lines), and beside them the leanest card of one player, the first of ``first`` (its
    rows may scroll: its heading says so). A smaller terminal is told so instead.

    >>> from yacht.engine import Player
    >>> from yacht.rules import get
    >>> from yacht.session.table import LOCAL, Table
    >>> eight = [Player(name) for name in ("Ann Bob Cyd Dan Eve Fay Gus Hal".split())]
    >>> t = Table.new(get("ancient-yacht-10-double"), eight)
    >>> needed_size(t.snapshot(LOCAL), preview_room(t.ruleset))
    (52, 18)
    """
    dice = int(snap["ruleset"]["dice"])
    left = left_width("small", dice)
    lines = -(-dice // dice_per_line(dice)) * 4  # (a line of dice: 3 of pips, 1 of keys)
    style = CardStyle(compact=True, numbers=True, short=True, players=first[:1] or (0,),
                      preview=preview, lean=True)
    card_w = card_width(snap, style)[0]
    # the left side: the dice, the rolls, a blank line and a Roll button of one line, and
    # with several players a blank line and two of the players' list (one of them, and
    # how many more); the card beside it may scroll (a column more for its bar)
    several = 3 if len(snap["players"]) > 1 else 0
    return left + card_w + 1, CHROME + lines + 1 + 2 + several


def fit_help(text: str, width: int, lines: int = 2) -> str:
    """The help line in ``lines`` lines of ``width`` cells: as it is when it fits, else
    shortened by what matters least first - its asides in brackets, the alternatives
    after the first sentence (" - or hold dice and roll the others"), the sentences after
    the first (a special rule's words come first), the first one's alternatives - and at
    last cut ("…").

    >>> text = ("A second Kismet: once it is scored, every other player writes 0 in their "
    ...         "topmost open box. Score: a letter or a click - or hold dice and roll the "
    ...         "others.")
    >>> fit_help(text, 78)[-32:]
    'box. Score: a letter or a click.'
    >>> fit_help("Choose dice to re-roll (1-9/0, click; a all, s unmatched), then r - or "
    ...          "score: a box's letter or click it (Shift+letter: column 2).", 40)
    "Choose dice to re-roll, then r - or score: a box's letter or click it."
    """
    def fits(parts: list[str]) -> bool:
        return len(wrap_cells(" ".join(parts), width)) <= lines

    sentences = [x for x in re.split(r"(?<=[.!?]) (?=\S)", text) if x]
    if fits(sentences):
        return text
    for i in range(len(sentences) - 1, -1, -1):  # the asides in brackets, the last first
        while (found := list(re.finditer(r" \([^()]*\)", sentences[i]))):
            last = found[-1]
            sentences[i] = sentences[i][:last.start()] + sentences[i][last.end():]
            if fits(sentences):
                return " ".join(sentences)

    def drop_alternatives(i: int) -> bool:
        while " - or " in sentences[i]:
            sentences[i] = sentences[i].rpartition(" - or ")[0].rstrip(".:;, ") + "."
            if fits(sentences):
                return True
        return False

    for i in range(len(sentences) - 1, 0, -1):
        if drop_alternatives(i):
            return " ".join(sentences)
    while len(sentences) > 1:
        sentences.pop()
        if fits(sentences):
            return " ".join(sentences)
    if drop_alternatives(0):
        return sentences[0]
    shown = wrap_cells(sentences[0], width)[:lines]
    shown[-1] = cut(shown[-1].rstrip() + " …", width)
    return " ".join(part.strip() for part in shown)


def too_small_text(need: tuple[int, int], size: tuple[int, int], dice: int,
                   players: int, over: bool = False) -> str:
    """What a terminal too small for the table shows instead of it (``over``: the game is
    over, its results a key away: they fit any window).

    >>> too_small_text((52, 18), (50, 12), 10, 8)[:60]
    'Terminal too small: need 52x18 for 10 dice and 8 players (no'
    >>> too_small_text((52, 15), (45, 14), 10, 1, over=True)[-50:]
    'Enter shows the results, q quits, ? shows the help.'
    """
    who = f" and {players} players" if players > 1 else ""
    keys = ("Enter shows the results, q quits, ? shows the help." if over
            else "q quits (the game is saved), ? shows the help.")
    return (f"Terminal too small: need {need[0]}x{need[1]} for {dice} dice{who} (now "
            f"{size[0]}x{size[1]}).\n\nMake the window bigger: the table comes back at "
            f"once. {keys}")


def as_sentence(text: str, names: Sequence[str]) -> str:
    """A refusal as a message of its own: a capital first (the table's words are made to
    follow 'Not now: ' in the line game; alone they read 'roll first: there are no dice
    to hold'), unless it begins with a player's name, kept as typed.

    >>> as_sentence("roll first: there are no dice to hold", ["ann"])
    'Roll first: there are no dice to hold'
    >>> as_sentence("ann has rolled since the last score", ["ann"])
    'ann has rolled since the last score'
    """
    if any(name and text.startswith(name) for name in names):
        return text
    return text[:1].upper() + text[1:]


def time_left_words(seconds: float) -> str:
    """The time a wait still takes, in round numbers.

    >>> [time_left_words(s) for s in (4, 12, 41)]
    ['a few seconds left', 'about 15 s left', 'about 45 s left']
    >>> [time_left_words(s) for s in (58, 75, 170)]
    ['about a minute left', 'about a minute left', 'about 3 minutes left']
    """
    if seconds < 10:
        return "a few seconds left"
    if seconds < 55:
        return f"about {5 * math.ceil(seconds / 5)} s left"
    if seconds < 90:
        return "about a minute left"
    return f"about {max(2, round(seconds / 60))} minutes left"


class WaitEstimate:
    """How far a wait is (a table being built for the advisor or a computer), and how
    long it still takes, in words a player can trust: the time left is worked out from
    the average pace since the wait began (not the last steps', which jumped about, the
    build going faster or slower as it goes), said only once the wait has run
    :attr:`SETTLE` seconds, in round numbers, and never a little more than it said."""

    #: no guess of the time left before this many seconds (the first steps tell little)
    SETTLE = 2.0

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.what: str | None = None
        self.since = 0.0
        self.first = 0.0  # (how far it was when first seen: a build may start half done)
        self.said: float | None = None  # (the time left it said last)

    def words(self, what: str, done: int, total: int) -> str:
        """'34%', then '34% - about 15 s left'; nothing when how far is not known."""
        now = self.clock()
        far = done / total if total > 0 else 0.0
        if what != self.what:  # a new wait
            self.what, self.since, self.first, self.said = what, now, far, None
        if total <= 0:
            return ""
        percent = f"{100 * done // total}%"
        elapsed, gone = now - self.since, far - self.first
        if elapsed < self.SETTLE or gone <= 0 or done >= total:
            return percent
        left = elapsed * (1 - far) / gone
        if self.said is None or left < self.said or left > 1.5 * self.said:
            self.said = left  # (less, or much more: a little more keeps what it said)
        return f"{percent} - {time_left_words(self.said)}"

    def reset(self) -> None:
        self.what = None


def no_box_text(rs: Any, keys: Mapping[str, str], ch: str) -> str:
    """What a letter that is no box's key gets: the letter to press where it is the
    original's board name of a box (Tommy's D for Thirteen), else where the letters are.

    >>> from yacht.rules import get
    >>> from yacht.session import category_keys
    >>> rs = get("tommys-crag")
    >>> no_box_text(rs, category_keys(rs), "D")
    "D is the original's board name of Thirteen: press v here (the underlined letter)"
    """
    board = next((c for c in rs.categories if c.board and c.board.lower() == ch.lower()),
                 None)
    if board is not None and not board.board.isdigit():
        return (f"{board.board} is the original's board name of {board.label}: press "
                f"{keys[board.id]} here (the underlined letter)")
    return (f"{ch}: no box has this letter (each box's letter is underlined at the left "
            "of the card; ? shows the keys)")


def oops_reasons(view: TableView, snap: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """Why the Oops menu's two undos are not possible now: (give back the dice, take back
    the last score), each None where it is possible."""
    st = view.state
    can = snap["can"]
    give: str | None = None
    if not can["give_back"]:
        if view.over:
            give = "the game is over"
        elif view.pause is not None:
            give = "the turn is over"
        elif view.computer_turn:
            give = f"it is {st.players[st.current].name}'s turn"
        elif not st.dice:
            give = "no roll yet this turn"
        elif not st.may_reroll():
            give = no_roll_text(st, short=True)  # (used up, or a rule stopped them)
        elif snap["dice_mark"] == "hold":
            give = "no dice are held"
        else:
            give = "no dice are chosen to roll again"
    take: str | None = None
    if not can["take_back"]:
        at = next((i for i in range(len(st.log) - 1, -1, -1)
                   if isinstance(st.log[i], Score)), None)
        scored = None if at is None else st.log[at]
        last = view.last_score
        if view.over or view.finished:
            take = "the game is over (its scores stand)"
        elif not isinstance(scored, Score):
            take = "nothing has been scored yet"
        elif scored.by is not None:
            take = "the computer made the last score"
        elif last is None:  # (a score was made: it is gone from the undo)
            take = ("the last score was taken back already"
                    if any(isinstance(a, TakeBack) for a in st.log[at or 0:])
                    else f"{verb(st.players[st.current].name, 'has', 'have')} rolled "
                         "since the last score")
        elif not snap["players"][last.player]["mine"]:
            take = f"the last score is {st.players[last.player].name}'s"
        else:
            who = st.players[st.current].name
            take = f"{verb(who, 'has', 'have')} rolled since the last score"
    return give, take


def marks_help(rs: Ruleset) -> str:
    """What the dice's pip shapes and the card's marks mean, in the game's help ("" for a
    variant without them): Kismet's colours are drawn as shapes too, and Generala's
    served boxes carry an "s" (25s); neither was said anywhere in the game."""
    from yacht.render import marks_lines

    lines = marks_lines(rs)
    return "What the marks mean\n" + "\n".join(lines) + "\n\n" if lines else ""


class GameScreen(AppScreen):
    """One game in progress: a view of a :class:`~yacht.session.table.Table`."""

    #: on_mount focuses the Roll button. (Textual's own first focus went to the first focusable
    #: widget - a scrolling container - and styled all of it again before the first paint.)
    AUTO_FOCUS = ""
    BINDINGS = [
        Binding("r", "roll", "Roll"),
        Binding("o", "oops", "Oops"),
        Binding("h", "hint", "Hint"),
        Binding("b", "bell", "Bell"),
        Binding("plus", "faster", "Speed", key_display="+/-"),
        Binding("minus", "slower", "Slower", key_display="-", show=False),
        Binding("f2", "demo", "Demo"),
        Binding("question_mark", "help", "Help", key_display="?"),
        Binding("f1", "help", "Help", show=False),
        Binding("f5", "help", "Help", show=False),
        Binding("a", "choose_all", "All dice", show=False),
        Binding("s", "choose_singlets", "Unmatched", show=False),
        Binding("n", "choose_none", "None", show=False),
        Binding("less_than_sign", "look(-1)", "Previous card", show=False),
        Binding("greater_than_sign", "look(1)", "Next card", show=False),
        Binding("escape", "leave", "Setup"),
        Binding("q", "quit_game", "Quit"),
        Binding("f7", "quit_game", "Quit", show=False),
    ]

    #: the table's sizes (app.tcss): the help line's height in a wide terminal.
    #: Only this screen has them: a class set on a screen restyles all of it.
    HORIZONTAL_BREAKPOINTS = [(0, "-normal-width"), (110, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (32, "-tall")]

    def __init__(self, table: Table) -> None:
        super().__init__()
        # the size classes from the start (Textual sets them on the first resize, after
        # the table is styled once: it was all styled again before the first paint)
        width, height = self.app.size
        for size, points in ((width, self.HORIZONTAL_BREAKPOINTS),
                             (height, self.VERTICAL_BREAKPOINTS)):
            self.add_class([name for least, name in points if size >= least][-1])
        self.table = table
        self.driver = ThreadDriver(table)
        # the person's choices (the setup's): what a die's click or key does, and whether
        # a computer waits for Go on after their score
        config = self.yacht_app.config
        table.set_prefs(LOCAL, dice_mark=config.dice_mark, pause=config.computer_pause)
        self.view: TableView = table.view()
        self.snap: dict[str, Any] = table.snapshot(LOCAL, TERMINAL)
        self._unsubscribe: Any = None
        self._hinting = False
        self._ended = False
        self._keys = category_keys(table.ruleset)
        self._shown: dict[str, str] = {}  # what put() shows in each line
        self._preview = preview_room(table.ruleset)
        self._layout_key: tuple[Any, ...] | None = None
        self._need: tuple[tuple[Any, ...], tuple[int, int]] | None = None  # needed_size's
        self.layout_name = ""
        self.card_style = CardStyle()
        #: the player whose card the person asked to look at (< and >), until the turn ends
        self.looking: int | None = None
        #: when the table last moved to a new turn or pause: keys typed before that are
        #: not carried over (the monotonic clock of the key events)
        self.stage_at = 0.0
        #: where the focus went when the disabled Roll button let it go (see keep_roll_focus)
        self._focus_left_to: tuple[Widget | None] | None = None
        self._clock_tick: Timer | None = None  # the turn clock's second
        #: a person's command still being played on a thread of its own (its save waits
        #: for the database), and the store telling that a save waits: the table is not
        #: asked meanwhile (the thread that saves holds it), keys are answered instead
        self._acting = False
        self._db_waiting = False
        #: set from the thread that saves when the store says a save waits for the database
        self._store_waits = threading.Event()
        self._told_saving = False  # (a key was answered so meanwhile)
        self._toast_kept = False  # the last message is a warning the end keeps
        #: how far a wait is and the time it still takes (the line under its words)
        self.wait_estimate = WaitEstimate()
        self.set_layout(*self.choose_layout(self.snap))

    @property
    def paused(self) -> bool:
        """The table waits for a person to go on (the next player, or the results)."""
        return self.view.pause is not None

    @property
    def messages(self) -> list[str]:
        """The last lines of the table's news, as the log shows them."""
        return list(self.view.news[-4:])

    @property
    def cpu_busy(self) -> bool:
        """The table has a step of its own due or under way (a computer's, a demo's end)."""
        return not self.driver.idle()

    # --- layout -------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        rs = self.table.ruleset
        # names and messages are shown as typed (a "[" in a name is no markup)
        yield Static(id="title", markup=False)
        with Horizontal(id="table"):
            with Vertical(id="left"):
                yield DiceRow(rs.dice, id="dice")
                yield Static(id="rolls", markup=False)
                yield Button("Roll", id="roll", variant="primary",
                             compact=self.has_class("-tight"))
                with Vertical(id="below"):
                    yield Standings(id="players", fit=True)
                    yield NewsLog(id="log")
            yield ScoreCard(id="card")
        yield Static(id="too-small", markup=False)  # (shown instead of the table)
        with Vertical(id="busy"):
            # what the wait is for, then how far (a build can take a minute)
            yield Static(id="busy-what", markup=False)
            with Horizontal(id="busy-line"):
                yield ProgressBar(id="busy-bar", show_percentage=False, show_eta=False)
                yield Static(id="busy-far", markup=False)
        yield Static(id="helpbar", markup=False)
        yield KeyBar()

    def on_mount(self) -> None:
        several = len(self.table.players) > 1
        self.query_one("#players", Standings).display = several
        self.query_one("#log", NewsLog).gap = several
        self.refresh_all()
        roll = self.query_one("#roll", Button)
        if roll.disabled:  # a computer plays first: the focus is the button's once enabled
            self._focus_left_to = (None,)
        else:
            roll.focus()
        self.call_after_refresh(self.yacht_app.first_screen_drawn)
        warning = self.table.take_warning()
        if warning:
            self.notify(warning, severity="warning")
        self._unsubscribe = self.table.subscribe(self._on_event)
        self.table.set_speed(self.yacht_app.config.speed)
        if self.table.meta.get("speed") != self.yacht_app.config.speed:
            self.keep_speed()  # (resumed with --speed, or a game from before speeds were kept)
        self.driver.start()

    def on_unmount(self) -> None:
        self.leave_table()

    def leave_table(self) -> None:
        """Stop driving the table and listening to it (the screen goes away)."""
        if self.saving and self._unsubscribe is not None:
            # (a save waits for the database and its thread holds the table, which letting
            # go of it needs: done behind, so that quitting now does not wait for it)
            unsubscribe, self._unsubscribe = self._unsubscribe, None
            driver = self.driver

            def let_go() -> None:
                driver.stop(join=False)  # (its stop is set before it waits)
                unsubscribe()

            threading.Thread(target=let_go, name="yacht-leave", daemon=True).start()
            return
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self.driver.stop(join=False)

    def notify(self, message: str, *, title: str = "",
               severity: SeverityLevel = "information", timeout: float | None = None,
               markup: bool = False) -> None:
        """One message at a time (the app replaces the last one), as plain text: the
        messages hold names and the rules' own words. It shows in the help line's place
        (app.tcss), as high as the help line is."""
        self._toast_kept = False  # (see on_table_changed: the end clears the others)
        racks = self.query("#textual-toastrack")
        if racks:
            lines = max(self.query_one(s).outer_size.height for s in ("#helpbar", "#busy"))
            racks.first().set_class(lines >= 2, "-two")
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    def priority(self, snap: Mapping[str, Any]) -> tuple[int, ...]:
        """The players whose cards matter most now, first: the one the person asked to
        look at, the one who just scored (in a pause), the one on turn, then the people
        and the others in the order of their turns."""
        n = len(snap["players"])
        current = int(snap["current"])
        first: list[int] = []
        if self.looking is not None:
            first.append(self.looking)
        last = snap.get("last_score")
        if snap["pause"] is not None and last is not None:
            first.append(int(last["player"]))
        first.append(current)
        order = [(current + k) % n for k in range(n)]
        people = [i for i in order if snap["players"][i]["kind"] != "computer"]
        return tuple(dict.fromkeys([*first, *people, *order]))

    def choose_layout(self, snap: Mapping[str, Any]) -> tuple[str, CardStyle]:
        width, height = self.app.size
        key = (width, height, snap["ruleset"]["key"], repr(snap["players"]),
               repr([c["cells"] for c in snap["cards"]]), self.priority(snap))
        if key == self._layout_key:
            return self.layout_name, self.card_style
        self._layout_key = key
        return choose_layout(snap, width, height, self._preview, self.priority(snap))

    def set_layout(self, name: str, style: CardStyle) -> None:
        """Size the left side (a class on the screen: only when it changes, since that
        restyles all of it) and keep the card's style. The left side is tight (a Roll
        button of one line) when the dice, Roll and the players' list need every line."""
        self.card_style = style
        rs = self.table.ruleset
        lines = -(-rs.dice // 5) * (6 if name == "big" else 4) + 2 + 4
        if name == "narrow":
            lines += 1  # the saved rolls on a line of their own
        n = len(self.table.players)
        if n > 1:
            lines += n + 1
        tight = lines > self.app.size.height - CHROME
        if (name, tight) != (self.layout_name, self.has_class("-tight")):
            for other in LEFT:
                self.set_class(other == name, f"-{other}")
            self.set_class(tight, "-tight")
            self.layout_name = name
            if self.is_mounted:
                self.query_one("#roll", Button).compact = tight

    # --- the table's events ---------------------------------------------------------
    def _on_event(self, event: Event) -> None:
        """From whichever thread the table changed in: to the screen's own queue."""
        if event.kind == "store_waiting" and event.data["waiting"]:
            self._store_waits.set()  # (a command's thread: send stops holding the screen)
        if event.kind in STAGES:
            from textual._time import get_time

            self.stage_at = get_time()  # (the key events' clock)
        self.post_message(TableChanged(event))

    def on_table_changed(self, message: TableChanged) -> None:
        message.stop()
        if self._ended or not self.is_attached:
            return
        event = message.event
        kind = event.kind
        if kind == "store_waiting":
            self.store_waiting(bool(event.data["waiting"]), bool(event.data.get("saved")),
                               event.text)
            return
        if self.saving:
            return  # (drawn once the save is through: the table is busy saving)
        if kind in ("rolled", "scored"):
            self.yacht_app.sound()
        elif kind in ("computer_failed", "store_warning"):
            self.notify(event.text, severity="warning")
            self._toast_kept = True  # (kept at the game's end, unlike a refusal)
        elif kind == "game_over" and not self._toast_kept:
            # (a refusal said before the last score - "Choose the dice to roll again
            # first" - stayed on screen over "Game over")
            self.app.clear_notifications()
        elif kind == "elsewhere":
            self.offer_reload(event.text)
        elif kind == "demo":
            self.notify(event.text, timeout=3)
        elif kind in ("computer_thinking", "computer_progress"):
            view = self.table.view()
            self.show_busy(view)
            self.put("#helpbar", fit_help(help_line(view, TERMINAL, view.dice_mark(LOCAL)),
                                          max(20, self.app.size.width - 2)))
            return  # only the help line changes (it says how far the build is)
        if kind == "turn_passed":
            self.looking = None
        if kind == "went_on" and event.data.get("pause") == "game_over":
            self.show_results()
            return
        self.refresh_all()

    @staticmethod
    def keys_left_out(view: TableView, snap: Mapping[str, Any],
                      too_small: bool = False) -> frozenset[str]:
        """The keys the bar leaves out now, the ones that would only say why not: a
        person's (roll, hint, and Oops unless a score may still be taken back) while a
        computer plays; the hint and Oops (the same unless) in a pause and at the game's
        end, and the demo there; roll once the turn has no roll left; the computers'
        speed in a game without computers (unless the demo plays every seat); the demo
        where every seat is a computer's; and what plays while the terminal is too small
        for the table (r goes on to the results at the game's end all the same)."""
        out: set[str] = set()
        over = view.over
        undo = snap["can"]["take_back"] or snap["can"]["give_back"]
        if view.pause is not None or over:
            out.add("hint")
            if not undo:
                out.add("oops")
            if over:
                out.add("demo")
        elif view.computer_turn:
            out |= {"roll", "hint"}
            if not undo:
                out.add("oops")
        elif view.state.dice and not view.state.may_reroll():
            out.add("roll")  # (the Roll button says "Score a box")
        if too_small:
            out |= {"hint", "oops"}
            if not over:
                out.add("roll")
        if not any(p.is_computer for p in view.state.players) and not view.taken_over:
            out.add("faster")
        if all(p.is_computer for p in view.state.players):
            out.add("demo")  # (it only said the demo plays on: every seat is a computer's)
        return frozenset(out)

    @staticmethod
    def roll_words(view: TableView, snap: Mapping[str, Any]) -> str:
        """What r does now, in the key bar: roll, or in a pause and at the game's end what
        the main button says (Next player, See results)."""
        if view.pause is not None or view.over:
            return str(snap["button"]["label"])
        return "Roll"

    @property
    def saving(self) -> bool:
        """A save waits for the database: the screen does not ask the table meanwhile."""
        return self._acting or self._db_waiting

    def store_waiting(self, waiting: bool, saved: bool, text: str) -> None:
        """Say that a save waits for the database (another program holds it) for as long
        as it does, and that it went through."""
        self._db_waiting = waiting
        self._told_saving = False
        if waiting:
            self.notify(f"{text}. The game goes on once it is saved (Ctrl+C quits now, "
                        "the last move unsaved)", severity="warning", timeout=24 * 3600)
            return
        self.app.clear_notifications()
        if saved:
            self.notify("The database is free again: saved", timeout=3)
        if not self.saving and not self._ended:
            self.catch_up()

    def answer_while_saving(self) -> bool:
        """While a save waits, a key or a click is answered (True) without asking the
        table."""
        if self.saving:
            self.notify(SAVING_TEXT, severity="warning", timeout=24 * 3600)
            self._told_saving = True
            return True
        return False

    def offer_reload(self, why: str) -> None:
        """The game went on in another window: reload it from the store, or go on here
        without saving."""
        game_id = self.table.view().game_id

        def done(choice: str | None) -> None:
            if choice == "reload" and game_id is not None:
                try:
                    self.table.reload()
                except SessionError as e:
                    self.notify(f"It cannot be reloaded: {e}", severity="error", markup=False)
                    return
                if self.table.view().finished:  # (finished elsewhere: its results)
                    self.show_results()
                else:
                    self.refresh_all()
            elif choice == "quit":
                self.leave_table()
                self.app.exit(0, message=self.closing_words())
            else:
                self.refresh_all()

        self.app.push_screen(ChoiceDialog(
            "This game went on elsewhere",
            f"{why[0].upper()}{why[1:]}. What you play here from now on is not saved.",
            [("reload", "Reload it as it is now", game_id is not None),
             ("stay", "Go on here (not saved)", True),
             ("quit", "Quit", True)]), done)

    def show_results(self) -> None:
        if not self._ended:
            self._ended = True
            self.leave_table()
            self.table.finish()  # once: the table records a finished game a single time
            self.yacht_app.show_end(self.table)

    # --- drawing --------------------------------------------------------------------
    def put(self, selector: str, text: str, layout: bool = True) -> None:
        """Show ``text`` in a line of the table; nothing to do when it shows that already.

        ``layout=False`` for the lines of one fixed height (no new layout of the screen).
        """
        if self._shown.get(selector) != text:
            self._shown[selector] = text
            self.query_one(selector, Static).update(text, layout=layout)

    def waiting_for_next(self) -> bool:
        return self.paused

    def show_busy(self, view: TableView) -> None:
        """What the table is waiting for (a computer thinking, tables being built, the
        advisor), with a progress bar: how far, or a moving one when that is not known."""
        busy = self.query_one("#busy")
        if self.too_small:  # (the message in the table's place says what to do)
            busy.display = self.query_one("#helpbar").display = False
            return
        thinking = view.thinking
        busy.display = thinking is not None
        self.query_one("#helpbar").display = thinking is None
        if thinking is None:
            self.wait_estimate.reset()
            return
        self.put("#busy-what", f"{thinking.what}…", layout=False)
        self.put("#busy-far", self.wait_estimate.words(thinking.what, thinking.done,
                                                       thinking.total), layout=False)
        bar = self.query_one("#busy-bar", ProgressBar)
        if thinking.total > 0:
            bar.update(total=thinking.total, progress=thinking.done)
        else:
            bar.update(total=None)

    def refresh_all(self) -> None:
        if self.saving:
            return  # (the thread that saves holds the table: drawn once it is through)
        view = self.view = self.table.view()
        snap = self.snap = self.table.snapshot(LOCAL, TERMINAL)
        st = view.state
        rs = st.ruleset
        me = st.players[st.current]
        over = st.is_terminal()
        bits = [rs.name]
        if view.demo:
            bits.append("demo")
        bits += marks(view.assisted, view.dice_entered)
        bits.append("♪ on" if self.yacht_app.config.sound else "♪ off")
        if any(p.is_computer for p in st.players) or view.taken_over:
            bits.append(f"speed {self.yacht_app.config.speed}")
        level = f" ({me.level})" if me.is_computer else ""
        turn = f"{level} - turn {st.turns_taken(st.current) + 1}"
        # (a name too wide for the line is cut, not the turn: 20 wide letters at 45
        # columns left '▶ 漢漢…漢 -')
        name = cut(me.name, max(4, self.app.size.width - 3 - cell_len(turn)))
        who = "Game over" if over else f"▶ {name}{turn}"
        clock = clock_line(snap["clock"], [p.name for p in st.players]) if not over else ""
        if clock:  # (a game with a turn clock: an online table's, resumed here)
            who = f"{who} · {clock}"
            if self._clock_tick is None:
                self._clock_tick = self.set_interval(1, self.refresh_all)
        elif self._clock_tick is not None:
            self._clock_tick.stop()
            self._clock_tick = None
        # who is on turn first: a narrow terminal cuts the end of the line; the variant's
        # name loses its part after a comma first ("Ancient Yacht Challenge, two columns")
        title = f" {who}   {' · '.join(bits)}"
        if cell_len(title) > self.app.size.width and "," in rs.name:  # (an emoji: 2 cells)
            bits[0] = rs.name.split(",")[0]
            title = f" {who}   {' · '.join(bits)}"
        # then the settings the key bar names too (speed, then sound) go whole: not
        # "speed" cut from its value
        settings = len(bits) - sum(b.startswith(("♪", "speed ")) for b in bits)
        while cell_len(title) > self.app.size.width and len(bits) > settings:
            bits.pop()
            title = f" {who}   {' · '.join(bits)}"
        self.put("#title", title, layout=False)
        cramped = self.show_too_small(snap)
        bar = self.query_one(KeyBar)
        bar.hide(self.keys_left_out(view, snap, cramped))
        bar.say("roll", self.roll_words(view, snap))
        bar.say("demo", "Stop demo" if view.taken_over else "Demo")  # (F2 gives seats back)
        if cramped:
            return
        self.set_layout(*self.choose_layout(snap))
        small = self.layout_name in ("small", "narrow")
        narrow = self.layout_name == "narrow"
        dice_row = self.query_one("#dice", DiceRow)
        pips = tuple(snap["ruleset"]["colour_marks"])
        colours = tuple(snap["ruleset"]["die_colours"])
        if st.dice:
            dice_row.show(st.dice, snap["marks"], pips=pips, colours=colours)
        elif view.last_score is not None and (view.pause is not None
                                              or view.last_score.player == st.current):
            # the pause after a score, or a player's own last turn (alone): the dice it was
            # scored with, dimmed (the help line says who scored what). Another player's
            # turn starts with no dice: the last player's are not theirs
            dice_row.show(view.last_score.dice, dim=True, pips=pips, colours=colours)
        else:
            dice_row.show((), pips=pips, colours=colours)
        if over or not st.dice:
            used, most = 0, st.max_rolls
        else:
            used, most = st.rolls, st.max_rolls
        # (a narrow left side: "Rolls" and the saved ones on a line of their own)
        words = "Rolls" if narrow else "Rolls left"
        if over:  # no rolls to count: the game is over
            self.put("#rolls", "Game over", layout=narrow)
        elif snap["saved_rolls"]:  # saved rolls to use: "3 + 4 saved"
            text = snap["rolls_text"]
            room = LEFT[self.layout_name] - 2  # the left side less its padding
            if not narrow and len(f"{words} {text}") > room:
                words = "Rolls"  # "3 + 4 saved" whole rather than "saved" cut off
            self.put("#rolls", f"{words} {text.replace(' + ', chr(10) + '+ ', 1)}" if narrow
                     else f"{words} {text}", layout=narrow)
        elif most <= 6:
            dots = ("" if small else " ").join("○" if i < used else "●" for i in range(most))
            self.put("#rolls", f"{words} {dots}", layout=narrow)
        else:
            self.put("#rolls", f"Roll {used} of {most}" if small
                     else f"Roll {used} of up to {most}", layout=False)
        button = self.query_one("#roll", Button)
        had_focus = button.has_focus
        button.label = snap["button"]["label"]  # (the table's words: session.present)
        button.disabled = not snap["button"]["enabled"]
        self.keep_roll_focus(button, had_focus)
        card = self.query_one("#card", ScoreCard)
        card.show(snap, style=self.card_style, marker=not over)  # (no one on turn)
        players = self.query_one("#players", Standings)
        if players.display:
            hidden = card.shown if len(card.shown) < len(snap["players"]) else None
            players.show(snap, hidden)
        self.query_one("#log", NewsLog).show(view.news[-4:],
                                             [str(p["name"]) for p in snap["players"]])
        self.put("#helpbar", self.help_text())
        self.show_busy(view)

    @property
    def too_small(self) -> bool:
        """The terminal is too small for the table: a message says so in its place."""
        return self.has_class("-too-small")

    def show_too_small(self, snap: Mapping[str, Any]) -> bool:
        """The table, or in a terminal too small for it the size it needs (``True``)."""
        width, height = self.app.size
        first = self.priority(snap)
        key = (snap["ruleset"]["key"], repr(snap["players"]),
               repr([c["cells"] for c in snap["cards"]]), first[:1])
        if self._need is None or self._need[0] != key:  # (worked out once a change)
            self._need = (key, needed_size(snap, self._preview, first))
        need = self._need[1]
        small = width < need[0] or height < need[1]
        if small:
            self.put("#too-small", too_small_text(
                need, (width, height), self.table.ruleset.dice, len(snap["players"]),
                over=bool(snap["over"])))
        if small != self.too_small:
            self.set_class(small, "-too-small")
            for selector in ("#table", "#helpbar"):
                self.query_one(selector).display = not small
            self.query_one("#too-small").display = small
            if not small:
                self.show_busy(self.view)
        return small

    def rolls_first(self) -> bool:
        """A person's turn that starts with a roll (no dice showing, no pause)."""
        view = self.table.view()
        return not (view.state.dice or view.pause is not None or view.over
                    or view.computer_turn)

    def keep_roll_focus(self, button: Button, had_focus: bool) -> None:
        """Disabled (a computer's turn, no roll left), the Roll button lets the focus go
        (to a neighbour, or to nothing): it takes it back when it is enabled again, unless
        the person moved it meanwhile. So Enter rolls whenever the help line says so."""
        if button.disabled:
            if had_focus:
                self._focus_left_to = (self.focused,)
        elif self._focus_left_to is not None:
            left_to, self._focus_left_to = self._focus_left_to[0], None
            if self.focused is None or self.focused is left_to:
                button.focus(scroll_visible=False)

    def on_resize(self) -> None:
        self.call_after_refresh(self.refresh_all)

    def help_text(self) -> str:
        """The table's help line (in the words of the seat's way with the dice), shortened
        where it would need more than its two lines."""
        width = max(20, self.app.size.width - 2)  # (less the help bar's padding)
        return fit_help(str(self.snap["help"]), width)

    # --- person's input -------------------------------------------------------------
    def send(self, *commands: Command) -> bool:
        """Ask the table; a refusal is shown (one line) and changes nothing. The command
        is played on a thread the screen waits for, until the store says its save waits
        for the database (another program writing to it: after a few seconds); then it
        goes on behind the screen (its outcome comes as :class:`Acted`), and the screen
        says so instead of freezing."""
        if self.answer_while_saving():
            return False
        outcome: list[Exception | None] = []
        held = threading.Event()  # (the screen has stopped waiting for it)
        lock = threading.Lock()
        table = self.table

        def play() -> None:
            try:
                table.act(LOCAL, *commands)
                got: Exception | None = None
            except Exception as e:  # (a refusal; anything else is raised on the screen)
                got = e
            with lock:
                outcome.append(got)
                behind = held.is_set()
            if behind:
                self.post_message(Acted(got, commands))

        thread = threading.Thread(target=play, name="yacht-move", daemon=True)
        self._store_waits.clear()
        thread.start()
        while thread.is_alive() and not self._store_waits.is_set():
            thread.join(HOLD_SCREEN)
        with lock:
            if not outcome:
                held.set()
                self._acting = True
                return True
        return self.acted(outcome[0], commands)

    def on_acted(self, message: Acted) -> None:
        message.stop()
        self._acting = False
        if self._db_waiting:
            return  # (drawn when the store says the save is through)
        if self._told_saving:  # (it said to wait: no longer true)
            self._told_saving = False
            self.app.clear_notifications()
        if self._ended or not self.is_attached:
            return
        self.acted(message.refused, message.commands)
        if message.refused is None:
            self.catch_up()

    def catch_up(self) -> None:
        """Draw the table after a save that waited (its events were not drawn meanwhile):
        the results, when the game went on from its end."""
        view = self.table.view()
        if view.over and view.pause is None:
            self.show_results()
        else:
            self.refresh_all()

    def acted(self, refused: Exception | None, commands: tuple[Command, ...]) -> bool:
        """Show what became of a person's command (a refusal: one line)."""
        if refused is not None:
            if not isinstance(refused, Refused):
                raise refused
            if commands and isinstance(commands[0], GoOn):
                if self.table.view().over:
                    self.show_results()  # (the game had gone on: its results)
                return False
            e = refused
            st = self.table.view().state
            said = REFUSALS.get(e.code) or as_sentence(str(e), [p.name for p in st.players])
            if (e.code == "illegal" and st.dice and not st.may_reroll() and st.rolls_left > 0
                    and any(isinstance(c, (Roll, Toggle, Select)) for c in commands)):
                # (the engine says "no roll left", but a rule stopped the rolling: say it)
                said = f"{no_roll_text(st)} Score the dice in an open box"
            self.notify(said, severity="warning", timeout=4)
            self.refresh_all()
            return False
        return True

    def action_roll(self) -> None:
        view = self.table.view()
        if view.pause is not None:
            self.go_on()
            return
        if view.over:
            self.show_results()
            return
        st = view.state
        snap = self.table.snapshot(LOCAL, TERMINAL)
        if st.dice and st.may_reroll() and not snap["to_roll"] and not view.computer_turn:
            keys = f"1-{len(st.dice)}" if len(st.dice) < 10 else "1-9/0"
            self.notify(f"Every die is held: release one to roll it ({keys}, n, or click it)"
                        if snap["dice_mark"] == "hold" else
                        f"Choose the dice to roll again first ({keys}, a, s, or click them)",
                        severity="warning", timeout=4)
            return
        self.send(Roll())

    def go_on(self) -> None:
        """Leave the Next Player pause (or the game-over pause: the game is recorded as
        finished, a write that may wait for the database, so played as every command)."""
        self.send(GoOn())

    def toggle_die(self, index: int) -> None:
        self.send(Toggle(index))

    def action_choose_all(self) -> None:
        self.send(Select("all"))

    def action_choose_singlets(self) -> None:
        self.send(Select("singlets"))

    def action_choose_none(self) -> None:
        self.send(Select("none"))

    def score(self, category: str, column: int | None) -> None:
        # (a filled box: the table's refusal says so, its points and the boxes open to
        # the dice; this screen's own copy of it said less)
        self.send(ScoreBox(category, column))

    def on_dice_row_toggle(self, message: DiceRow.Toggle) -> None:
        message.stop()
        if not self.answer_while_saving():
            self.toggle_die(message.index)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "roll":
            event.stop()
            if not self.answer_while_saving():
                self.action_roll()

    def on_data_table_cell_selected(self, event: DataTable.CellSelected) -> None:
        event.stop()
        if self.answer_while_saving():
            return
        card = self.query_one("#card", ScoreCard)
        cell = card.cell_at(event.coordinate)
        view = self.table.view()
        if view.pause is not None or view.over:
            self.go_on()  # Enter on the card also leaves the Next Player pause
            return
        if cell is None or cell.category is None:
            return
        st = view.state
        column = cell.column if cell.player == st.current else None
        if cell.player is not None and cell.player != st.current:
            self.notify("That is another player's card: score on your own", timeout=3)
            return
        self.score(cell.category, column)

    #: keys handled as they arrive, in order (bindings run later, when the key has
    #: bubbled up to the app, so a fast typist's next key could overtake them)
    DIRECT = {"r": "roll", "a": "choose_all", "s": "choose_singlets", "n": "choose_none",
              "o": "oops", "h": "hint", "b": "bell", "question_mark": "help", "f1": "help",
              "f5": "help", "f2": "demo", "escape": "leave", "q": "quit_game",
              "f7": "quit_game", "plus": "faster", "minus": "slower", "equals_sign": "faster"}
    #: keys that change nothing at the table: never dropped (see on_key)
    HARMLESS = frozenset({"question_mark", "f1", "f5", "escape", "q", "f7", "b", "plus",
                          "minus", "equals_sign", "tab", "shift+tab", "up", "down", "left",
                          "right", "less_than_sign", "greater_than_sign", "f2", "pageup",
                          "pagedown", "home", "end"})
    #: keys that scroll the card whatever has the focus (on the card: they move its cursor)
    PAGES = {"pageup": "scroll_page_up", "pagedown": "scroll_page_down",
             "home": "scroll_home", "end": "scroll_end"}

    def command_key(self, event: events.Key) -> str:
        """The key's name, a command's capital (Caps Lock, Shift) as its small letter,
        unless the capital is a box's own letter (Maxi Yatzy's O)."""
        ch = event.character
        if (ch and len(ch) == 1 and ch.isascii() and ch.isupper() and event.key == ch
                and ch.lower() in self.DIRECT and key_for(self.table.ruleset, ch) is None):
            return ch.lower()
        return event.key

    def on_key(self, event: events.Key) -> None:
        key = self.command_key(event)
        if self.saving and key not in ("question_mark", "f1", "f5"):
            # (a save waits for the database: the table is busy until it is through)
            event.stop()
            event.prevent_default()
            self.answer_while_saving()
            return
        if event.time < self.stage_at and key not in self.HARMLESS:
            # typed before the table moved on (while a computer played, or before the
            # pause showed): not carried over into the next turn
            event.stop()
            event.prevent_default()
            return
        if self.too_small and key not in self.HARMLESS:
            # (the dice and the card are not shown: a key would play blind; at the game's
            # end Enter or r goes to the results, which fit any window)
            event.stop()
            event.prevent_default()
            if key in ("enter", "r") and self.table.view().over:
                self.action_roll()
                return
            self.notify("The table is not shown: make the window bigger first",
                        severity="warning", timeout=3)
            return
        action = self.DIRECT.get(key)
        if action is not None:
            event.stop()
            event.prevent_default()
            getattr(self, f"action_{action}")()
            return
        if event.key in ("less_than_sign", "greater_than_sign"):
            event.stop()
            self.action_look(-1 if event.key == "less_than_sign" else 1)
            return
        card = self.query_one("#card", ScoreCard)
        if event.key in self.PAGES and self.focused is not card:
            event.stop()
            event.prevent_default()
            getattr(card, self.PAGES[event.key])(animate=False)
            return
        ch = event.character
        if not ch or len(ch) != 1 or not ch.isprintable():
            # Enter on the dice, on the Roll button (at once: the button drops a press
            # within 0.2 s of the last), on nothing, or on the card before the turn's first
            # roll (no dice to score): as r
            if event.key == "enter" and (self.focused is None
                                         or isinstance(self.focused, DiceRow)
                                         or self.focused.id == "roll"
                                         or (isinstance(self.focused, ScoreCard)
                                             and self.rolls_first())):
                event.stop()
                self.action_roll()
            return
        rs = self.table.ruleset
        if ch == "0" and rs.dice < 10:
            event.stop()  # Tommy's 0: none (there is no tenth die)
            self.action_choose_none()
            return
        if "0" <= ch <= "9":
            event.stop()
            self.toggle_die(int(ch) - 1 if ch != "0" else 9)
            return
        if ch.isalpha() and ch.isascii():
            event.stop()
            cid = key_for(rs, ch) or key_for(rs, ch.lower())  # (capitals: boxes past z)
            if cid is None:
                self.notify(no_box_text(rs, self._keys, ch), severity="warning", timeout=4)
                return
            self.score(cid, 1 if ch.isupper() and len(rs.columns) > 1 else None)

    # --- menus ----------------------------------------------------------------------
    def action_look(self, step: int) -> None:
        """Look at the previous or next player's card (when not every card is shown)."""
        n = len(self.table.players)
        card = self.query_one("#card", ScoreCard)
        if len(card.shown) >= n:
            self.notify("Every card is on the screen", timeout=2)
            return
        # to the next card not on the screen: a step to a card shown already (the next
        # player's, most often) said "Looking at ..." and changed nothing
        look = self.looking if self.looking is not None else self.view.state.current
        for _ in range(n):
            look = (look + step) % n
            if look not in card.shown:
                break
        self.looking = look
        self._layout_key = None
        self.refresh_all()
        self.notify(f"Looking at {possessive(self.table.players[self.looking].name)} card "
                    "(< and > for the others)", timeout=2)

    def action_oops(self) -> None:
        snap = self.table.snapshot(LOCAL, TERMINAL)
        give, take = oops_reasons(self.table.view(), snap)
        if give is not None and take is not None:
            # nothing to undo: said at once, no menu of impossible choices
            self.notify(f"Nothing to undo: no score to take back ({take}), no dice to "
                        f"give back ({give})", severity="warning", timeout=5)
            return

        def done(choice: str | None) -> None:
            if choice == "give":
                self.send(Select("none"))
            elif choice == "take":
                self.send(TakeBack())
            self.refresh_all()

        why = {"give": f"No dice to give back: {give}." if give else "",
               "take": f"No score to take back: {take}." if take else ""}
        text = " ".join(["Undo a slip (a roll can never be taken back).",
                         *(w for w in why.values() if w)])
        self.app.push_screen(ChoiceDialog(
            "Oops", text,
            [("give", "Give me back my dice" + (" (hold none)" if snap["dice_mark"] == "hold"
                                                 else ""), give is None),
             ("take", "I scored the wrong box", take is None),
             ("cancel", "Never mind", True)], why=why), done)

    def action_hint(self) -> None:
        view = self.table.view()
        if view.over:  # (it said 'A hint is for your own turn' when no turn was left)
            self.notify("The game is over: no turn is left to hint at", severity="warning",
                        timeout=3)
            return
        if view.pause is not None or view.computer_turn:
            self.notify("A hint is for your own turn", severity="warning", timeout=3)
            return
        if not view.state.dice:
            self.notify("Roll first: the hint is about the dice showing", timeout=3)
            return
        if self._hinting:
            self.notify("The advisor is still working: one hint at a time", timeout=2)
            return
        if view.assisted:
            self.ask_hint()
            return
        # the game's first hint: what it does to the game is said before, not after
        self._hinting = True
        name = view.state.players[view.state.current].name

        def done(choice: str | None) -> None:
            self._hinting = False
            if choice == "ask":
                self.ask_hint()

        self.app.push_screen(ChoiceDialog(
            "Hint", hint_notice(name),
            [("ask", "Show the hint (the game is marked assisted)", True),
             ("cancel", "Never mind", True)]), done)

    def ask_hint(self) -> None:
        """Ask the advisor (off the screen's thread); the ranking shows when it comes."""
        if self._hinting:
            return
        self._hinting = True
        # in the help line (a wait longer than a moment shows there with a progress bar)
        self.put("#helpbar", "Asking the advisor…")
        table = self.table
        asked = self.hint_position()

        def work() -> None:
            try:
                moves: Any = table.hint(LOCAL)
                error = None
            except (HintUnavailable, Refused) as e:
                moves, error = None, str(e)
            self.app.call_from_thread(self._show_hint, moves, error, asked)

        self.run_worker(work, thread=True, group="hint")

    def hint_position(self) -> tuple[Any, ...]:
        """What a hint is about: whose turn, which, the dice showing and the rolls made."""
        st = self.table.view().state
        return st.current, st.turns_taken(st.current), st.dice, st.rolls

    def _show_hint(self, moves: Any, error: str | None,
                   asked: tuple[Any, ...] | None = None) -> None:
        self._hinting = False
        if self._ended or not self.is_attached:
            return  # the screen went away meanwhile
        if error is not None:
            # (the line game's sentence: "No hint: roll first: ..." had two colons)
            names = [p.name for p in self.table.view().state.players]
            self.notify(no_hint_text(error, names), severity="warning")
            return
        if asked is not None and asked != self.hint_position():
            # rolled or scored while the advisor got ready: its ranking ("Keep 6 6") was
            # for dice no longer showing
            self.refresh_all()
            self.notify("The hint was for the dice before: they changed while the advisor "
                        "worked. Press h for a hint on the dice now.", timeout=6)
            return
        lines = [f"{i}. {m.text}   (expect {m.expected:.1f}"
                 + (f", -{m.loss:.1f})" if m.loss > 0.005 else ", best)")
                 for i, m in enumerate(moves, 1)]
        win = getattr(moves, "to_win", None)
        if win is not None and win.differ:
            # the best for the score is not the best to win: both rankings
            lines = ["Best for your score", *lines, "", f"{win.title} ({win.how})"]
            lines += [f"{i}. {m.text}   (chance {100 * chance:.1f}%)"
                      for i, (m, chance) in enumerate(win.moves, 1)]
        elif win is not None:  # the same best move and its chance, the build, or why not
            lines += ["", win.line]
        marked = getattr(moves, "marked_line", None)  # (a player's first hint only)
        if marked:
            lines += ["", marked]
        self.refresh_all()
        if any(s.name == "hint" for s in self.app.screen_stack):
            return  # one hint window at a time (a help open meanwhile does not count:
            # the hint asked for was dropped then, the game marked assisted all the same)
        self.app.push_screen(TextDialog(
            "Hint - the advisor's ranking", "\n".join(lines), name="hint"))

    def action_help(self) -> None:
        from yacht.rules import rules_text

        rs = self.table.ruleset
        letters = "\n".join(
            f"  {k}  {c.label}" + (f" (the original's board {c.board}: #{c.board} on the "
                                   "card)" if c.board else "")
            for c in rs.categories for k in [self._keys[c.id]])
        notes = "\n".join(f"  {line}" for line in letter_notes(rs))
        reserved = ", ".join(f"{k} {what}" for k, what in COMMAND_KEYS.items()
                             if what != "kept free")
        keys = (marks_help(rs) + KEYS_HELP + "\nBox letters\n" + letters + "\n"
                + (notes + "\n" if notes else "") + f"  (letters of their own: {reserved})\n\n"
                + old_keys_help(rs))

        def text(width: int) -> str:  # the rules and the keys, wrapped for the width
            return wrap_text(rules_text(rs, width, ids=False) + "\n" + keys, width)

        self.app.push_screen(HelpScreen("Help", text))

    def change_speed(self, step: int) -> None:
        view = self.table.view()
        if not any(p.is_computer for p in view.state.players) and not view.taken_over:
            # (it said "Computer speed: instant", as if it changed anything here)
            self.notify("No computer plays in this game: + and - set the computers' speed "
                        "(F2, the demo, lets the computer play every seat)", timeout=3)
            return
        names = list(SPEEDS)  # slowest first
        cfg = self.yacht_app.config
        i = names.index(cfg.speed) if cfg.speed in names else 1
        new = names[max(0, min(len(names) - 1, i + step))]
        if new == cfg.speed:
            edge = "fastest" if step > 0 else "slowest"
            other = "- slows down" if step > 0 else "+ speeds up"
            self.notify(f"Computer speed: {new} (the {edge}; {other})", timeout=2)
            return
        cfg.speed = new
        self.yacht_app.remember(cfg)
        self.table.set_speed(cfg.speed)
        self.keep_speed()
        self.notify(f"Computer speed: {cfg.speed}", timeout=2)
        self.refresh_all()

    def keep_speed(self) -> None:
        """Keep the table's speed with its game, so that the game resumed goes on at it
        (the last speed chosen; --speed given with --resume says otherwise). On a thread:
        it writes to the store, which may wait for the database (the app's worker: done
        even when the screen goes away meanwhile)."""
        self.app.run_worker(self.table.keep_speed, thread=True, group="speed")

    def action_faster(self) -> None:
        self.change_speed(1)

    def action_slower(self) -> None:
        self.change_speed(-1)

    def action_demo(self) -> None:
        """Tommy's F2: the computer plays every seat, or gives the people their turns back."""
        view = self.table.view()
        if view.over:  # (F2 did nothing, and said nothing)
            self.notify("The game is over: the demo has nothing left to play (Enter or r: "
                        "the results)", timeout=3)
            return
        if all(p.is_computer for p in self.table.players):
            self.notify("Every seat is a computer player: the demo plays on", timeout=3)
            return
        try:
            self.table.set_demo(not view.taken_over)
        except Refused as e:
            self.notify(str(e), severity="warning")

    def action_bell(self) -> None:
        self.yacht_app.toggle_sound()
        self.refresh_all()

    def _ask_leave(self, then: Any, question: str, quitting: bool = False) -> None:
        table = self.table
        view = table.view()
        if view.over:
            self.leave_table()
            table.finish()  # the game counts, even when its end screen is skipped
            then()
            return
        if not view.state.log:  # nothing played yet: nothing to keep or lose
            self.leave_table()
            then()
            return
        if view.saved or view.elsewhere is not None or not table.has_store:
            self._leave_dialog(then, question)  # (nothing to write first)
            return
        # what a failed save left out: once more, before saying whether the game is saved;
        # on a thread (a write can wait for the database: the screen answers meanwhile)
        self._acting = True
        self.notify("Saving the game before leaving…", timeout=24 * 3600)

        def save() -> None:
            table.save_unsaved()
            self.app.call_from_thread(self._saved_to_leave, then, question)

        self.run_worker(save, thread=True, group="save")

    def _saved_to_leave(self, then: Any, question: str) -> None:
        self._acting = False
        self.app.clear_notifications()
        if self.is_attached:
            self._leave_dialog(then, question)

    def _leave_dialog(self, then: Any, question: str) -> None:
        """Ask whether to leave, saying truthfully whether the game is saved."""
        table = self.table
        view = table.view()
        saved = view.saved
        partly = self._partly_saved(view)
        command = resume_command(str(view.game_id))
        if saved:
            text = f"The game is saved. To go on with it later:\n\n    {command}\n\n" \
                   f"(or start {start_command()}: it offers unfinished games)"
        elif view.elsewhere is not None:
            text = (f"What was played here is not saved: the game went on elsewhere. "
                    f"To go on with it from there:\n\n    {command}")
        elif partly:
            text = ("The game is not saved: saving failed, and it failed again now. Only "
                    "the moves up to where saving failed are kept: the ones after are "
                    f"lost when you leave. To go on from there later:\n\n    {command}")
        else:
            text = "This game is not saved and will be lost."

        def done(choice: str | None) -> None:
            if choice == "leave":
                self.leave_table()
                then()
            elif choice == "abandon":
                self.leave_table()
                table.abandon()
                then()

        self.app.push_screen(ChoiceDialog(question, text, [
            ("leave", "Yes, leave" + (" (keep it saved)" if saved else ""), True),
            ("abandon", "Yes, and delete this game", saved or partly),
            ("stay", "No, keep playing", True)]), done)

    def action_leave(self) -> None:
        self._ask_leave(self.yacht_app.show_setup, "Leave this game for the setup?")

    def action_quit_game(self) -> None:
        def quit_now() -> None:
            self.app.exit(0, message=self.closing_words())

        self._ask_leave(quit_now, "Quit the game?", quitting=True)

    def closing_words(self) -> str | None:
        """What the terminal is left with when the app ends during this game, whichever
        way (q, Ctrl+C, Ctrl+Q): how to go on with it (None: nothing to go on with). A
        game over counts as finished, even with its end screen skipped."""
        if self.saving:  # (the thread that saves holds the table: not asked)
            gid = self.view.game_id
            return ("The last move was not saved: the database was busy (another program "
                    "was writing to it)." + (f" {resume_hint(gid)} from before it."
                                             if gid is not None else ""))
        view = self.table.view()
        if view.over:
            if not self._ended:
                self._ended = True
                self.leave_table()
                self.table.finish()
            return None
        gid = view.game_id
        if gid is None:
            return None
        if view.elsewhere is None and not view.saved:
            self.table.save_unsaved()  # (what a failed save left out: once more now)
            view = self.table.view()
        if view.elsewhere is not None:
            return (f"What was played here is not saved: the game went on elsewhere. "
                    f"{resume_hint(gid)} (from there).")
        if view.saved:
            return (f"The game is saved. {resume_hint(gid)} (or start {start_command()}: "
                    "it offers unfinished games).")
        if self._partly_saved(view):
            return ("The game is not saved: saving failed (the moves after that are lost). "
                    f"{resume_hint(gid)} from where saving failed.")
        return None

    def _partly_saved(self, view: TableView) -> bool:
        """The store has the game only up to where a save failed (it still fails)."""
        return (not view.saved and view.game_id is not None and view.elsewhere is None
                and self.table.has_store)
