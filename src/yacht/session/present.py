"""What a table says to the people at it: the help line, the scoring note, results.

One place for each sentence, so the terminal game, the line game and the
browser say the same things. Where the words depend on the interface (a key
in the terminal, a button's name in the browser) they come from a :class:`Words`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from yacht.engine import State
from yacht.render import entry_note, possessive, verb
from yacht.rules import DiceMark, counts_of

from .commands import own_score_open

if TYPE_CHECKING:
    from .game import LastScore
    from .table import TableView

__all__ = ["BROWSER", "DICE_MARK_LABEL", "DICE_MARK_WORDS", "PLAIN", "TERMINAL", "Words",
           "dice_mark_words", "entry_note", "game_note", "help_line", "hint_notice",
           "main_button", "marks", "new_entry_text", "no_roll_text", "own_score_open", "possessive",
           "result_text", "scored_text", "scoring_note", "verb"]
__all__ += ["because", "clock_line", "no_hint_text"]

#: the setting of what clicking a die (or its key) does, as every interface offers it:
#: its values (``Config.dice_mark``, the browser's) and their words
DICE_MARK_LABEL = "Clicking a die"
DICE_MARK_WORDS: dict[str, str] = {"variant": "as the variant", "hold": "holds it",
                                   "reroll": "marks it to roll again"}


def dice_mark_words(value: str, variant_mark: str | None = None) -> str:
    """A value of the setting in words; "variant" with what the variant does, when known
    (in full: "marks it" alone would not say what for).

    >>> dice_mark_words("variant", "reroll"), dice_mark_words("hold")
    ('as the variant (marks it to roll again)', 'holds it')
    """
    if value == "variant" and variant_mark is not None:
        return f"{DICE_MARK_WORDS['variant']} ({DICE_MARK_WORDS[variant_mark]})"
    return DICE_MARK_WORDS[value]


@dataclass(frozen=True)
class Words:
    """How an interface names its controls in the help line. ``{keys}`` stands for the
    keys of the dice (1-5, or 1-9/0 with ten dice)."""

    go_on: str          # leave a pause
    roll_first: str     # roll at the start of a turn
    no_box_yet: str     # no box takes the dice: choose and roll again (after a colon)
    choose_then: str    # choose dice to roll again, then roll
    roll_chosen: str    # roll the chosen dice
    score: str          # score a box
    score_short: str    # the same, after a note that took most of the line
    score_now: str      # score, when no roll is left
    column2: str        # score in the second column (two-column variants)
    none: str           # give back every chosen die
    oops: str           # the Oops menu
    waiting: str        # what a person may do while a computer plays
    demo_off: str = ""  # how to take the turns back from a demo (a sentence; "" none)
    hold_then: str = ""     # holding: hold dice, then roll the others
    hold_no_box: str = ""   # holding: no box takes the dice yet (after a colon)
    hold_none: str = ""     # holding: let go of every held die ("": as ``none``)
    # the main button (:func:`main_button`): in a pause before the next player, at the
    # game over pause, once the game is over (and whether it still does something), and
    # while a computer plays ({who_is}: "Max is", "You are")
    button_next: str = "Go on"
    button_results: str = "See the results"
    button_over: str = "Game over"
    over_enabled: bool = False
    button_computer: str = "{who_is} playing"


TERMINAL = Words(
    go_on="Enter or r",
    roll_first="press r or Enter, or click Roll, to roll the dice",
    no_box_yet="choose dice ({keys}, a, s, or click) and roll again (r).",
    choose_then="Choose dice to re-roll ({keys}, click; a all, s unmatched), then r",
    roll_chosen="r or Enter",
    score="a box's letter or click it",
    score_short="a letter or a click",
    score_now="press a box's letter or click it",
    column2=" (Shift+letter: column 2)",
    none="n: none",
    oops="o: Oops",
    waiting="b: bell, ?: help, q: quit",
    demo_off="F2 gives the people their turns back.",
    button_next="Next player",
    button_results="See results",
    button_over="See results",
    over_enabled=True,
    button_computer="Computer plays",
    hold_then="Hold dice ({keys} or click; a all, s matched), then r",
    hold_no_box="hold dice ({keys}, a, s, or click) and roll the others (r).",
    hold_none="n: hold none",
)

#: the browser's: its buttons' names, and no key or click (the same words on a desktop and
#: a phone: the page's keys are in its Keys dialog, and a finger taps)
BROWSER = Words(
    go_on="Go on",
    roll_first="press Roll to roll the dice",
    no_box_yet="choose the dice to roll again, then Roll.",
    choose_then="Choose the dice to roll again, then Roll",
    roll_chosen="Roll",
    score="choose a box on your card",
    score_short="choose a box",
    score_now="choose a box on your card",
    column2="",
    none="",
    oops="Oops",
    waiting="Watch, or open the rules",
    hold_then="Choose the dice to hold, then Roll the others",
    hold_no_box="choose the dice to hold, then Roll the others.",
)

PLAIN = Words(
    go_on="Enter",
    roll_first="press Enter to roll",
    no_box_yet="give the dice to roll again (e.g. 1 5).",
    choose_then="Give the dice to roll again (e.g. 1 5)",
    roll_chosen="r",
    score="a box's letter or id",
    score_short="a letter or id",
    score_now="give a box's letter or id",
    column2=" (add the column: f 2)",
    none="",
    oops="o: Oops",
    waiting="wait",
)


def main_button(view: TableView, mine: frozenset[int], can: Mapping[str, bool],
                to_roll: int, mark: DiceMark, words: Words = TERMINAL) -> dict[str, Any]:
    """The table's main button as a seat holding players ``mine`` sees it: its ``label``
    and whether it is ``enabled`` (``can``: what the seat may do; ``to_roll``: the dice a
    roll would roll). The one rule for the terminal's Roll button and the browser's.

    >>> from yacht.engine import Player, Roll
    >>> from yacht.rules import get
    >>> from .table import LOCAL, Table
    >>> t = Table.new(get("yatzy"), [Player("Ann"), Player("Max", "computer", "expert")],
    ...               real_dice=True)
    >>> t.snapshot(LOCAL)["button"], t.snapshot(None)["button"]
    ({'label': 'Roll', 'enabled': True}, {'label': "Ann's turn", 'enabled': False})
    >>> _ = t.act(LOCAL, Roll((1, 2, 3, 4, 4)))
    >>> t.snapshot(LOCAL, TERMINAL)["button"]
    {'label': 'Roll again', 'enabled': True}
    """
    st = view.state
    over = st.is_terminal()
    if view.pause is not None:
        return {"label": words.button_results if over else words.button_next,
                "enabled": bool(can.get("go_on"))}
    if over:
        return {"label": words.button_over, "enabled": words.over_enabled}
    me = st.players[st.current]
    if view.computer_turn:
        return {"label": words.button_computer.format(who_is=verb(me.name, "is", "are")),
                "enabled": False}
    if st.current not in mine:
        return {"label": f"{possessive(me.name, start=True)} turn", "enabled": False}
    if not st.dice:
        return {"label": "Roll", "enabled": bool(can.get("roll"))}
    if can.get("choose"):  # (with no die to roll yet, pressing it says so)
        some = to_roll and (mark != "hold" or to_roll < len(st.dice))
        label = f"Roll {to_roll} {'die' if to_roll == 1 else 'dice'}" if some else "Roll again"
        return {"label": label, "enabled": True}
    return {"label": "Score a box", "enabled": False}


def scoring_note(state: State) -> str:
    """Why only some of the open boxes take these dice, and what a bonus adds ("" if
    nothing needs saying). The special rules explain themselves."""
    rs = state.ruleset
    places = state.placements()
    if not places:
        return ""
    card = state.card(state.current)
    open_boxes = {(col, cat.id) for col, boxes in enumerate(card.boxes)
                  for cat, box in zip(rs.categories, boxes, strict=True) if box is None}
    restricted = bool(open_boxes - {(p.column, p.category) for p in places})
    counts = counts_of(state.dice, rs.faces)
    ctx = state.context()
    for rule in rs.special:
        why = rule.explain(rs, ctx, counts, places, restricted)
        if why:
            return why
    if not restricted:
        return ""
    bonus = max(p.bonus for p in places)
    labels = [label for rule in rs.special if (label := rule.extra_label(rs))]
    plus = f" (+{bonus} {labels[0] if labels else 'bonus'})" if bonus else ""
    wanted = {p.category for p in places}
    names = [c.label for c in rs.categories if c.id in wanted]
    where = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
    return f"Only {where} can take these dice now{plus}."


def help_line(view: TableView, words: Words = TERMINAL, mark: DiceMark = "reroll") -> str:
    """One line that says what to do next, to a seat whose clicks ``mark`` dice (hold
    them, or mark them to roll again)."""
    from .commands import dice_to_roll, held_dice

    st = view.state
    two = len(st.ruleset.columns) > 1
    col_tip = words.column2 if two else ""
    n_dice = st.ruleset.dice
    keys = f"1-{n_dice}" if n_dice < 10 else "1-9/0"
    hold = mark == "hold" and bool(words.hold_then)
    if view.thinking is not None:
        t = view.thinking
        far = f" {100 * t.done // t.total}%" if t.total > 0 else ""
        return f"{t.what}…{far}"
    if st.is_terminal():
        return (f"Game over. {words.go_on}: the results. {words.oops} takes back your last "
                "score." if own_score_open(st) and not view.finished
                else f"Game over. {words.go_on}: see the results.")
    me = st.players[st.current]
    last = view.last_score
    done = f"{scored_text(st, last)} " if last is not None else ""
    if view.pause is not None:
        return f"{done}{words.go_on}: {possessive(me.name)} turn. {words.oops}."
    if view.taken_over:
        off = f" {words.demo_off}" if words.demo_off else ""
        return f"Demo: the computer plays {possessive(me.name)} turn.{off}"
    if view.played_for:
        why = "is away" if st.current in view.stand_ins else "ran out of time"
        return f"{me.name} {why}: the computer plays {possessive(me.name)} turn."
    if me.is_computer:
        if own_score_open(st) and last is not None and not st.dice:
            # (the score a person just made, until the computer rolls)
            who = st.players[last.player].name
            return (f"{verb(me.name, 'is', 'are')} playing. {words.oops} takes back "
                    f"{possessive(who)} score until {me.name} rolls.")
        return f"{verb(me.name, 'is', 'are')} playing. {words.waiting}."
    if not st.dice:
        # (what the last score was, and in which column: the dice it was scored with are
        # no longer shown)
        return f"{done}{me.name}: {words.roll_first}."
    places = st.placements()
    note = scoring_note(st)
    stopped = not st.may_reroll() and st.rolls_left > 0  # (a rule ends the rolling)
    if note:
        again = ((" - or hold dice and roll the others" if hold
                  else " - or choose dice and roll again") if st.may_reroll() else "")
        # (why there is no roll, where the turn had more than the usual: Tommy's Yacht's
        # first turn stopped by its yacht, or at roll 32)
        longer = not st.may_reroll() and st.max_rolls > st.ruleset.rolls
        stop = f" {no_roll_text(st)}" if stopped or longer else ""
        return f"{note}{stop} Score: {words.score_short}{again}."
    if st.may_reroll() and hold:
        if not places:
            return f"{no_box_text(st)}: {words.hold_no_box.format(keys=keys)}"
        kept = held_dice(st, view.held)
        free = len(st.dice) - len(kept)
        if not kept:
            return f"{words.hold_then.format(keys=keys)} - or score: {words.score}{col_tip}."
        if not free:
            return f"Every die is held: release one to roll it - or score: {words.score}{col_tip}."
        what = "the die not held" if free == 1 else f"the {free} dice not held"
        let_go = words.hold_none or words.none
        none = f" {let_go}." if let_go else ""
        return f"{words.roll_chosen}: roll {what} - or score: {words.score}{col_tip}.{none}"
    if st.may_reroll():
        if not places:
            return f"{no_box_text(st)}: {words.no_box_yet.format(keys=keys)}"
        marked = dice_to_roll(st, view.held, "reroll")
        if marked:
            n = len(marked)
            what = "the chosen die" if n == 1 else f"the {n} chosen dice"
            none = f" {words.none}." if words.none else ""
            return f"{words.roll_chosen}: roll {what} - or score: {words.score}{col_tip}.{none}"
        return f"{words.choose_then.format(keys=keys)} - or score: {words.score}{col_tip}."
    if stopped:
        return f"{no_roll_text(st)} Score the dice - {words.score_now}{col_tip}."
    return f"No roll left: score the dice - {words.score_now}{col_tip}."


def no_box_text(state: State) -> str:
    """Why no box takes the dice showing, a sentence's start: a rule that keeps them out
    says so (Tommy's Yacht's first turn is the Yacht box's alone), else they fit no
    open box yet.

    >>> from yacht.engine import Player, Roll
    >>> from yacht.rules import get
    >>> st = State(get("tommys-yacht"), [Player("Ann")])
    >>> st.apply(Roll((1, 2, 3, 4, 6)))
    >>> no_box_text(st)
    'The first turn goes to the Yacht box, which takes only 5 matching dice'
    """
    rs = state.ruleset
    why = rs.no_box_reason(state.context(), counts_of(state.dice, rs.faces))
    return f"{why[0].upper()}{why[1:]}" if why else "No box takes these dice yet"


def no_roll_text(state: State, short: bool = False) -> str:
    """Why the dice showing cannot be rolled again, in a sentence (``short``: a clause):
    the turn's rolls are used up, or a rule ends the rolling before them - Tommy's
    Yacht's first turn rolls until all five dice match, up to 32 rolls, so a match on
    roll 24 leaves 8 of them unused, and its roll 32 is the last even without a match.

    >>> from yacht.engine import Player, Roll, Choose
    >>> from yacht.rules import get
    >>> st = State(get("tommys-yacht"), [Player("Ann")])
    >>> st.apply(Roll((1, 2, 3, 4, 6)))
    >>> for _ in range(22):
    ...     st.apply(Choose((4,))); st.apply(Roll((6,)))
    >>> st.apply(Choose((0, 1, 2, 3))); st.apply(Roll((6, 6, 6, 6)))
    >>> no_roll_text(st)
    "All 5 dice match on roll 24: the turn's rolling stops there (8 of its 32 rolls unused)."
    >>> no_roll_text(st, short=True)
    'all 5 dice match: the rolling stops there'
    >>> st = State(get("yatzy"), [Player("Ann")])
    >>> st.apply(Roll((1, 2, 3, 4, 6)))
    >>> for _ in range(2):
    ...     st.apply(Choose((4,))); st.apply(Roll((5,)))
    >>> no_roll_text(st), no_roll_text(st, short=True)
    ("No roll left: roll 3 was this turn's last.", 'no roll is left in this turn')
    """
    rs = state.ruleset
    used, left, most = state.rolls, state.rolls_left, state.max_rolls
    if left > 0:
        why = rs.stop_reason(state.context(), counts_of(state.dice, rs.faces)) \
            or "the rules end the rolling"
        if short:
            return f"{why}: the rolling stops there"
        return (f"{why[0].upper()}{why[1:]} on roll {used}: the turn's rolling stops there "
                f"({left} of its {most} rolls unused).")
    saves = any(rule.saves_rolls(rs) for rule in rs.special)
    if short:
        return "no roll is left in this turn" + (" (none saved)" if saves else "")
    return (f"No roll left: roll {used} was this turn's last"
            + (" (and no saved roll is left)." if saves else "."))


def scored_text(state: State, last: LastScore) -> str:
    """The last scoring in a sentence: who, which box (and its column in a two-column
    game) and the points.

    >>> from yacht.engine import Player
    >>> from yacht.rules import get
    >>> from .game import LastScore
    >>> st = State(get("ancient-yacht-double"), [Player("Ann")])
    >>> scored_text(st, LastScore(0, (3, 3, 3, 5, 5), 1, "choice", 1, 19))
    'Ann scored Choice (column 2) for 19.'
    """
    rs = state.ruleset
    col = f" (column {last.column + 1})" if len(rs.columns) > 1 else ""
    return (f"{state.players[last.player].name} scored {rs.category(last.category).label}"
            f"{col} for {last.points}.")


def hint_notice(name: str) -> str:
    """What the first hint of a game says before it is given (the game is then marked).

    >>> hint_notice("Ann")
    "A hint marks the game assisted: Ann's score goes to the list apart from the top ten."
    """
    return (f"A hint marks the game assisted: {possessive(name)} score goes to the list "
            "apart from the top ten.")


def because(lead: str, why: str, names: Sequence[str] = ()) -> str:
    """``lead`` and why, one sentence ("Not now: choose at least one die to roll
    again."), or two when the why has a colon of its own ("Not now. Roll first: there
    are no dice to score.", not two colons in a row; a colon in brackets is apart).
    After a colon the why begins in lower case unless it begins with one of ``names``
    (a box's label, a player's name), kept as written.

    >>> because("No hint", "roll first: the advice is about the dice showing.")
    'No hint. Roll first: the advice is about the dice showing.'
    >>> because("No hint", "A hint is for your own turn")
    'No hint: a hint is for your own turn.'
    >>> because("Not now", "Full House cannot be scored now", ["Full House"])
    'Not now: Full House cannot be scored now.'
    """
    why = why.strip().removesuffix(".")
    if not why:
        return f"{lead}."
    if ": " in re.sub(r"\([^()]*\)", "", why):  # (one in brackets is apart)
        return f"{lead}. {why[:1].upper()}{why[1:]}."
    if not any(n and why.startswith(n) and why[len(n):len(n) + 1] in ("", " ", ":", ",", "'")
               for n in names):
        why = why[:1].lower() + why[1:]
    return f"{lead}: {why}."


def no_hint_text(why: str, names: Sequence[str] = ()) -> str:
    """Why there is no hint, as every interface says it (the browser's ``noHintText``
    is its copy in table.js): see :func:`because`.

    >>> no_hint_text("roll first: the advice is about the dice showing")
    'No hint. Roll first: the advice is about the dice showing.'
    >>> no_hint_text("the advisor is not available in this installation")
    'No hint: the advisor is not available in this installation.'
    """
    return because("No hint", why, names)


def result_text(state: State) -> str:
    """Who won (or the score of a game alone), one sentence.

    >>> from yacht.engine import Player, Roll, Score
    >>> from yacht.rules import get
    >>> st = State(get("tommys-crag"), [Player("You"), Player("Bob")])
    >>> for i in range(26):
    ...     st.apply(Roll((6, 6, 1) if i % 2 == 0 else (1, 2, 4)))
    ...     st.apply(Score(st.placements()[0].category))
    >>> result_text(st)
    'You win with 89.'
    """
    totals = state.returns()
    winners = state.winners()
    names = [p.name for p in state.players]
    if len(names) == 1:
        return f"{names[0]} scored {totals[0]}."
    if state.ended_by is not None:
        w = state.ended_by
        return (f"{verb(names[w], 'wins', 'win')} at once with "
                f"{state.ruleset.end_reason()}.")
    if len(winners) > 1:
        return f"A tie at {totals[winners[0]]}: " + " and ".join(names[i] for i in winners) + "."
    w = winners[0]
    return f"{verb(names[w], 'wins', 'win')} with {totals[w]}."


def new_entry_text(apart: bool) -> str:
    """Where a finished game's score went in, when it went in: the top ten, or the list
    apart from it (an assisted game's, or one of dice entered by hand).

    >>> new_entry_text(False)
    'A new entry in the top ten'
    """
    if apart:
        return "A new entry in the list apart from the top ten (assisted or dice entered)"
    return "A new entry in the top ten"


def marks(assisted: bool, dice_entered: bool) -> list[str]:
    """The words that set a game's scores apart from the top ten, in the order shown.

    >>> marks(True, True), marks(False, False)
    (['assisted', 'dice entered'], [])
    """
    return [word for word, on in (("assisted", assisted), ("dice entered", dice_entered))
            if on]


def game_note(assisted: bool, dice_entered: bool) -> str:
    """What follows a game's title: ``" (assisted, dice entered)"``, or nothing."""
    found = marks(assisted, dice_entered)
    return f" ({', '.join(found)})" if found else ""


def clock_line(clock: Mapping[str, Any] | None, names: list[str],
               left_ms: int | None = None) -> str:
    """The snapshot's turn clock in a few words (the terminal's title): whose time and
    how much is left (``left_ms``: counted on since the snapshot; default its ``left``).

    >>> c = {"text": "30 s a turn", "player": 1, "left": 65_000, "out": False}
    >>> clock_line(c, ["Ann", "Bob"]), clock_line(c, ["Ann", "Bob"], 0)
    ('⏱ Bob 1:05', "⏱ Bob's time is up")
    >>> clock_line({**c, "player": None}, ["Ann", "Bob"]), clock_line(None, [])
    ('⏱ 30 s a turn', '')
    """
    if not clock:
        return ""
    if clock["player"] is None:
        return f"⏱ {clock['text']}"
    name = names[clock["player"]]
    left = clock["left"] if left_ms is None else left_ms
    if clock["out"] or not left or left <= 0:
        return f"⏱ {possessive(name)} time is up"
    seconds = -(-left // 1000)
    return f"⏱ {name} {seconds // 60}:{seconds % 60:02d}"
