"""How a scorecard is laid out and shown: the one place for it, used by every interface.

:func:`card_layout` says which rows a variant's card has (boxes by section,
the totals, a bonus row); :func:`card_cells` fills them for one player;
:func:`card_table` prints every player's card side by side as plain text (the
commands and the line game); the terminal game and the browser draw the same
rows from the table snapshot.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from yacht.cells import cell_len, ljust, rjust, wrap
from yacht.rules import Placement, Ruleset, Scorecard, Totals

__all__ = ["COLOUR_MARKS", "CardRow", "ENDED_EARLY", "LEAN_LEAVES", "LOSS", "SERVED_MARK",
           "accuracy_text", "bonus_progress", "box_text", "card_cells", "card_layout",
           "card_table", "colour_marks", "decisions_text", "dice_text", "entry_note", "is_you",
           "key_title", "loss_text", "luck_sentence", "luck_text", "marks_lines", "option_words",
           "possessive",
           "preview_text", "progress_line", "rolls_split", "rolls_text", "saved_game_text",
           "saved_games",
           "situation_lines", "variant_title", "verb", "wrap_text"]

RowKind = Literal["box", "total"]


@dataclass(frozen=True)
class CardRow:
    """One row of a scorecard: a box (``category``) or a total."""

    id: str                 # the category id, or upper_total, upper_bonus, lower_total,
                            # column_total, extra, grand_total
    label: str
    kind: RowKind
    category: str | None = None
    section: str = ""


def is_you(name: str) -> bool:
    """A player called "You" (the setup's first name) is spoken to."""
    return name.strip().casefold() == "you"


def possessive(name: str, start: bool = False) -> str:
    """``Ann's``, and ``your`` for a player called You (``Your`` at the ``start`` of a
    sentence).

    >>> possessive("Ann"), possessive("You"), possessive("You", start=True)
    ("Ann's", 'your', 'Your')
    """
    if is_you(name):
        return "Your" if start else "your"
    return f"{name}'s"


def verb(name: str, third: str, plain: str) -> str:
    """``name`` and the verb agreeing with it: "Ann wins", "You win".

    >>> verb("Ann", "wins", "win"), verb("You", "wins", "win")
    ('Ann wins', 'You win')
    """
    return f"{name} {plain if is_you(name) else third}"


#: the one word for the points a player's decisions lost against the expert's, in every
#: interface (shown as an amount, never signed: :func:`loss_text`)
LOSS = "Loss"


def loss_text(loss: float, digits: int = 1) -> str:
    """The points lost, unsigned: ``27.4``; a loss too small to show is ``0.0``.

    >>> loss_text(27.44), loss_text(1e-9), loss_text(3.14159, 2)
    ('27.4', '0.0', '3.14')
    """
    return f"{max(0.0, loss):.{digits}f}"


def luck_text(luck: float, digits: int = 1) -> str:
    """What the dice gave (``+3.8``) or took (``-3.8``); nothing shown as a signed zero.

    >>> luck_text(3.84), luck_text(-3.84), luck_text(-0.001)
    ('+3.8', '-3.8', '0.0')
    """
    text = f"{abs(luck):.{digits}f}"
    if float(text) == 0:
        return text
    return ("+" if luck > 0 else "-") + text


def accuracy_text(accuracy: float) -> str:
    """The share of the expert's expected score a player's decisions kept, as a
    percentage: ``93.4%``.

    >>> accuracy_text(93.44), accuracy_text(100)
    ('93.4%', '100.0%')
    """
    return f"{accuracy:.1f}%"


#: the mark of a top-ten entry whose game ended at once with its win (a served Generala):
#: the card counts as it stood, short of the full game's boxes
ENDED_EARLY = "won at once"


def ended_text(rs: Ruleset, winner: str) -> str:
    """Why a game ended before the cards were full, one sentence: ``winner``'s roll ended
    it at once and won it (what the analysis and ``yacht replay --json`` say).

    >>> from yacht.rules import get
    >>> ended_text(get("generala"), "Ann")  # doctest: +ELLIPSIS
    'The game ended at once: Ann won with a served Generala (...); the cards count as they stood.'
    """
    return (f"The game ended at once: {winner} won with {rs.end_reason()}; the cards "
            "count as they stood.")


def entry_note(assisted: bool, dice_entered: bool, ended_early: bool = False) -> str:
    """What follows a top-ten line: why it is listed apart (dice entered by hand says
    more than assisted: such a list holds both), that its game ended at once with this
    win (``ended_early``: the card as it stood), or nothing.

    >>> entry_note(True, True), entry_note(True, False), entry_note(False, False)
    (' (dice entered)', ' (assisted)', '')
    >>> entry_note(False, False, ended_early=True), entry_note(True, False, True)
    (' (won at once)', ' (assisted, won at once)')
    """
    words = ["dice entered" if dice_entered else "assisted" if assisted else "",
             ENDED_EARLY if ended_early else ""]
    said = ", ".join(w for w in words if w)
    return f" ({said})" if said else ""


def decisions_text(name: str, mistakes: int, decisions: int, loss: float) -> str:
    """How many of a player's decisions lost points against the expert's, and how many
    points they lost in all (one sentence).

    >>> decisions_text("You", 19, 35, 104.24)
    '19 of your 35 decisions lost points (104.2 points in all).'
    >>> decisions_text("Ann", 0, 35, 0.0)
    "Every one of Ann's 35 decisions was as good as the expert's."
    """
    if decisions == 0:
        return f"{verb(name, 'has', 'have')} made no decision yet."
    if mistakes == 0:
        every = "" if decisions == 1 else f"Every one of {possessive(name)} {decisions} "
        if not every:
            return f"{possessive(name, start=True)} one decision was as good as the expert's."
        return f"{every}decisions was as good as the expert's."
    of = "decision" if decisions == 1 else "decisions"
    return (f"{mistakes} of {possessive(name)} {decisions} {of} lost points "
            f"({loss_text(loss)} points in all).")


def luck_sentence(name: str, luck: float, loss: float) -> str:
    """How much of a result the dice decided, and what the decisions lost (the game's
    analysis: score = the expert's expected score + luck - loss).

    >>> luck_sentence("You", 3.84, 27.43)
    'Luck: the dice gave you 3.8 points more than the expert expects; your decisions lost 27.4.'
    >>> luck_sentence("Ann", -30, 0)
    "Luck: the dice gave Ann 30.0 points fewer than the expert expects; Ann's decisions lost 0.0."
    """
    whom = "you" if is_you(name) else name
    if abs(luck) < 0.05:
        gave = f"the dice gave {whom} what the expert expects"
    else:
        more = "more" if luck > 0 else "fewer"
        gave = f"the dice gave {whom} {abs(luck):.1f} points {more} than the expert expects"
    return f"Luck: {gave}; {possessive(name)} decisions lost {loss_text(loss)}."


def dice_text(dice: Sequence[int], rs: Ruleset | None = None) -> str:
    """The dice as words show them: ``2 4 1``; on coloured dice each with its colour's
    mark (``2◆ 4■ 1●``), so that a line of text tells the colours too.

    >>> from yacht.rules import get
    >>> dice_text((2, 4, 1)), dice_text((2, 4, 1), get("kismet"))
    ('2 4 1', '2◆ 4■ 1●')
    """
    marks = colour_marks(rs) if rs is not None else []
    return " ".join(f"{d}{marks[d - 1]}" if 0 < d <= len(marks) else str(d) for d in dice)


def option_words(rs: Ruleset) -> list[str]:
    """The options chosen other than the variant's usual ones, in words.

    >>> from yacht.rules import get
    >>> option_words(get("ancient-yacht-10", {"rolls": "3"}))
    ['Rolls per turn: 3 (hard)']
    >>> option_words(get("yahtzee"))
    []
    """
    values = rs.option_values
    out = []
    for o in rs.options:
        v = values.get(o.id, o.default)
        if v == o.default:
            continue
        i = o.values.index(v) if v in o.values else -1
        what = f" ({o.value_help[i]})" if 0 <= i < len(o.value_help) else ""
        out.append(f"{o.label}: {v}{what}")
    return out


def variant_title(rs: Ruleset) -> str:
    """A kind of game in words: the variant's name, then the options that differ from
    its usual ones (a ruleset key such as ``yahtzee;joker=free;bonus=on``, said).

    >>> from yacht.rules import get
    >>> variant_title(get("yahtzee", {"bonus": "off"}))
    'Yahtzee - Yahtzee bonus: off (no bonus)'
    >>> variant_title(get("tommys-crag"))
    "Tommy's Crag"
    """
    words = option_words(rs)
    return rs.name + (" - " + "; ".join(words) if words else "")


def key_title(key: str) -> str:
    """A kind of game given by its ruleset key (``kismet;straight=30;...``, as the store
    keeps it) in words, as :func:`variant_title` says it; the key itself for a variant
    or option this version does not know.

    >>> key_title("kismet;straight=30;second_kismet=penalty")
    'Kismet'
    >>> key_title("yahtzee;bonus=off"), key_title("nosuch;x=1")
    ('Yahtzee - Yahtzee bonus: off (no bonus)', 'nosuch;x=1')
    """
    from yacht.rules import OptionError, UnknownVariant, get

    variant, *opts = key.split(";")
    try:
        return variant_title(get(variant, dict(o.split("=", 1) for o in opts)))
    except (UnknownVariant, OptionError, ValueError):
        return key


def saved_game_text(info: Any, totals: Sequence[int] | None = None, with_id: bool = True
                    ) -> str:
    """A saved game in a list (the store's ``GameInfo``, with each player's points so far
    when known): what tells two games apart - the points and the id (``with_id``: unless
    the line says it otherwise) - beside the variant, the players, the turn and when it
    was last played.

    >>> from datetime import datetime, timezone
    >>> from types import SimpleNamespace as Info
    >>> from yacht.engine import Player
    >>> info = Info(id="1ab3af1a2d7d", variant="yahtzee", options={}, turn=3, turns=13,
    ...             players=[Player("Ann"), Player("Bob")],
    ...             last_played=datetime(2026, 12, 2, 1, 29, tzinfo=timezone.utc))
    >>> saved_game_text(info, [37, 52])[32:]
    'Yahtzee, turn 3 of 13: Ann 37, Bob 52'
    >>> saved_game_text(info, with_id=False)[:48]
    'Yahtzee, turn 3 of 13 (Ann, Bob), last played 20'
    """
    from yacht.rules import get

    try:
        name = get(info.variant, info.options).name
    except Exception:  # a variant or option this version does not know
        name = str(info.variant)
    names = [p.name for p in info.players]
    players = ", ".join(names if totals is None
                        else [f"{n} {t}" for n, t in zip(names, totals, strict=False)])
    when = info.last_played.astimezone().strftime("%Y-%m-%d %H:%M")
    game = f"{name}, turn {info.turn} of {info.turns}"
    # (an id and a time are of one length: in a list they make columns; the players last,
    # where a narrow window breaks the line)
    return (f"{info.id}  {when}  {game}: {players}" if with_id
            else f"{game} ({players}), last played {when}")


def saved_games(store: Any, limit: int) -> list[tuple[Any, list[int] | None]]:
    """The store's unfinished games (most recently played first, at most ``limit``), each
    with its players' points so far (None for a game that cannot be read back), as
    :func:`saved_game_text` shows them. Raises what the store's listing raises."""
    out: list[tuple[Any, list[int] | None]] = []
    for info in list(store.unfinished_games())[:limit]:
        try:
            totals: list[int] | None = list(store.load_state(info.id).returns())
        except Exception:  # listed all the same, without its points
            totals = None
        out.append((info, totals))
    return out


#: where a long line's next lines start: after its indent and a first column ("Tab  move",
#: two spaces or more apart) or a number ("1. "); else under its indent
_HANG = re.compile(r" *(?:\d+\. +|\S.*?  +(?=\S))?")


def wrap_text(text: str, width: int) -> str:
    """``text`` wrapped to ``width`` columns line by line (the one wrapping of a help text:
    a line that fits stays as it is); a longer line goes on under its own words.

    >>> print(wrap_text("  r / Enter   roll the dice, or go on to the next player", 32))
      r / Enter   roll the dice, or
                  go on to the next
                  player
    >>> print(wrap_text("1. Keep 6 6 and roll again   (expect 240.1)", 24))
    1. Keep 6 6 and roll
       again   (expect
       240.1)
    >>> print(wrap_text("山田太郎 scored 32 in Chance and 50 in Yahtzee", 24))
    山田太郎 scored 32 in
    Chance and 50 in Yahtzee
    >>> print(wrap_text("  山田太郎   roll the dice, or go on", 30))
      山田太郎   roll the dice, or
                 go on

    Its width is in the cells of a terminal (:mod:`yacht.cells`): a wide letter takes two.
    A command in backquotes is not broken where it fits a line: copied from two lines, a
    path in quotes would hold a line break.

    >>> print(wrap_text("Game saved. `yacht resume 1ab3 --db 'my games.db'` continues it.", 40))
    Game saved.
    `yacht resume 1ab3 --db 'my games.db'`
    continues it.
    """
    out: list[str] = []
    for line in text.split("\n"):
        if cell_len(line) <= width:
            out.append(line)
            continue
        found = _HANG.match(line)
        hang = cell_len(found.group()) if found else 0
        if hang > width // 2:  # a first column too wide to hang under: under the indent
            hang = len(line) - len(line.lstrip(" "))
        glued = _glued(line, width - hang)
        out += [piece.replace(_GLUE, " ") for piece in
                wrap(glued, width, subsequent_indent=" " * hang, keep_blanks=True)] or [""]
    return "\n".join(out)


#: a command in backquotes, and what holds its words together while a line is wrapped
_COMMAND = re.compile(r"`[^`\n]+`")
_GLUE = "\ue000"  # (a private character: one cell, no blank)


def _glued(line: str, room: int) -> str:
    """``line`` with each command in it as one word where it fits in ``room`` cells (a
    longer one as it is: broken at its blanks rather than cut)."""

    def glue(found: re.Match[str]) -> str:
        command = found.group()
        return command.replace(" ", _GLUE) if cell_len(command) <= room else command

    return _COMMAND.sub(glue, line)


def situation_lines(head: str, situation: str, width: int) -> list[str]:
    """``head`` and a situation in the notation of `yacht advise` on one line when they
    fit; else the situation under it (indented by 4), its card broken after commas where
    a line is full (the notation reads it so too: a line break is a blank).

    >>> situation_lines("  turn 7:", "13 r1 ones=1,twos=2,threes=3", 22)
    ['  turn 7:', '    13 r1 ones=1,', '    twos=2,threes=3']
    """
    if len(head) + 1 + len(situation) <= width:
        return [f"{head} {situation}"]
    lines = [head.rstrip(), "   "]
    for word in situation.split(" "):
        for i, piece in enumerate(pieces := word.split(",")):
            piece += "," if i < len(pieces) - 1 else ""
            glue = "" if i else " "
            if len(lines[-1]) + len(glue) + len(piece) > width and lines[-1].strip():
                lines.append("    " + piece)
            else:
                lines[-1] += glue + piece
    return lines



@lru_cache(maxsize=64)
def card_layout(rs: Ruleset) -> tuple[CardRow, ...]:
    """The rows of ``rs``'s card, top to bottom.

    >>> from yacht.rules import get
    >>> [r.id for r in card_layout(get("yahtzee"))][-4:]
    ['chance', 'lower_total', 'extra', 'grand_total']
    >>> [r.label for r in card_layout(get("yatzy")) if r.kind == "total"]
    ['Upper total', 'Bonus (≥63)', 'Lower total', 'Grand total']
    """
    rows: list[CardRow] = []
    for section in ("upper", "lower"):
        cats = [c for c in rs.categories if c.section == section]
        if not cats:
            continue
        rows += [CardRow(c.id, c.label, "box", c.id, section) for c in cats]
        if section == "upper":
            rows.append(CardRow("upper_total", f"{rs.section_names[0]} total", "total", None,
                                section))
            if rs.upper_bonus:
                steps = "/".join(str(n) for n, _ in rs.upper_bonus.steps)
                rows.append(CardRow("upper_bonus", f"Bonus (≥{steps})", "total", None,
                                    section))
                if rs.upper_bonus.tiers:  # a bonus by steps: how far the next one is
                    rows.append(CardRow("bonus_next", "Next bonus", "total", None, section))
        else:
            rows.append(CardRow("lower_total", "Lower total", "total", None, section))
    if len(rs.columns) > 1:
        rows.append(CardRow("column_total", "Column total", "total"))
    extra = [label for rule in rs.special if (label := rule.extra_label(rs))]
    if extra:
        rows.append(CardRow("extra", " / ".join(extra), "total"))
    rows.append(CardRow("grand_total", "Grand total", "total"))
    return tuple(rows)


#: the rows a short card may leave out: the lower section's total (the grand total less
#: the upper section's total and its bonus, which stay)
LEAN_LEAVES = frozenset({"lower_total"})


def _total_cell(rs: Ruleset, row: CardRow, totals: Totals, col: int, card: Scorecard
                ) -> str:
    c = totals.columns[col]
    last = col == len(rs.columns) - 1
    if row.id == "upper_total":
        return str(c.upper)
    if row.id == "upper_bonus":
        return str(c.bonus)
    if row.id == "bonus_next":
        closed = all(
            card.boxes[col][i] is not None
            for i, cat in enumerate(rs.categories) if cat.section == "upper")
        return bonus_progress(rs, c.upper, closed)
    if row.id == "lower_total":
        return str(c.lower)
    if row.id == "column_total":
        return f"{c.subtotal}" + (f"×{c.multiplier}" if c.multiplier != 1 else "")
    if row.id == "extra":
        return str(totals.extra) if col == 0 else ""
    return str(totals.grand) if last else ""


def bonus_progress(rs: Ruleset, upper: int, closed: bool = False) -> str:
    """How far a bonus by steps is from its next step, as a card's cell: ``8→55`` (8
    more points for 55), ``max`` once the top step is earned; "" without steps, and
    "" below the top step once the section's boxes are all filled (``closed``: no step is
    left to reach).

    >>> from yacht.rules import get
    >>> bonus_progress(get("kismet"), 63), bonus_progress(get("kismet"), 80)
    ('8→55', 'max')
    >>> bonus_progress(get("kismet"), 63, closed=True)
    ''
    """
    if rs.upper_bonus is None or not rs.upper_bonus.tiers:
        return ""
    step = rs.upper_bonus.next_step(upper)
    if step is None:
        return "max"
    return "" if closed else f"{step[0] - upper}→{step[1]}"


#: the mark after a value scored from the turn's first roll (Generala's servida)
SERVED_MARK = "s"

#: each colour of coloured dice as a mark, so that no one needs the colour to tell them
#: apart (Kismet: black, red, green)
COLOUR_MARKS = {"black": "●", "red": "◆", "green": "■"}


def marks_lines(rs: Ruleset) -> list[str]:
    """What the dice's marks and the card's mean, a sentence each ([] for a variant
    without them): Kismet's colours as shapes, Generala's served boxes (25s).

    >>> from yacht.rules import get
    >>> marks_lines(get("kismet"))[0][-54:]
    '● black (1 and 6), ◆ red (2 and 5), ■ green (3 and 4).'
    >>> marks_lines(get("yahtzee"))
    []
    """
    lines = []
    if rs.die_colours:
        faces: dict[str, list[str]] = {}
        for face, colour in enumerate(rs.die_colours, 1):
            faces.setdefault(colour, []).append(str(face))
        lines.append("On the dice each colour has pips of its own shape: " + ", ".join(
            f"{COLOUR_MARKS.get(c, c[:1].upper())} {c} ({' and '.join(f)})"
            for c, f in faces.items()) + ".")
    if any(rule.box_mark(rs, c.id, v) == "served" for rule in rs.special
           for c in rs.categories for v in rule.box_values(rs, c.id)):
        lines.append(f"On the card an {SERVED_MARK} after the points (25{SERVED_MARK}) marks "
                     "a box scored served: with the dice of the turn's first roll.")
    return lines


def colour_marks(rs: Ruleset) -> list[str]:
    """The mark of each face's colour, ones first ([] for plain dice).

    >>> from yacht.rules import get
    >>> colour_marks(get("kismet"))
    ['●', '◆', '■', '■', '◆', '●']
    """
    return [COLOUR_MARKS.get(c, c[:1].upper()) for c in rs.die_colours]


def rolls_split(rs: Ruleset, rolls_made: int, rolls_left: int) -> tuple[int, int]:
    """The rolls left as (the turn's own, from the player's saved rolls): a turn uses its
    own rolls first (Maxi Yatzy). Without a rule that saves rolls, every roll left is the
    turn's own, however many (Tommy's Yacht's first turn).

    >>> from yacht.rules import get
    >>> rolls_split(get("maxi-yatzy"), 0, 7), rolls_split(get("maxi-yatzy"), 4, 3)
    ((3, 4), (0, 3))
    >>> rolls_split(get("tommys-yacht"), 1, 31)
    (31, 0)
    """
    if not any(rule.saves_rolls(rs) for rule in rs.special):
        return rolls_left, 0
    own = max(0, min(rolls_left, rs.rolls - rolls_made))
    return own, rolls_left - own


def rolls_text(rs: Ruleset, rolls_made: int, rolls_left: int) -> str:
    """The rolls left in words: ``3``, or ``3 + 4 saved`` with saved rolls to use.

    >>> from yacht.rules import get
    >>> rolls_text(get("maxi-yatzy"), 0, 7), rolls_text(get("yatzy"), 1, 2)
    ('3 + 4 saved', '2')
    """
    own, saved = rolls_split(rs, rolls_made, rolls_left)
    return f"{own} + {saved} saved" if saved else str(own)


def box_text(rs: Ruleset, category: str, value: int) -> str:
    """A filled box's value as the card shows it: ``25s`` when it was served."""
    return f"{value}{SERVED_MARK}" if rs.box_mark(category, value) == "served" else str(value)


def preview_text(pl: Placement) -> str:
    """What a box would score, as the cards show it: ``25``, or ``25+100`` with a bonus
    (shown apart from the box's points); ``25s`` when the dice are served."""
    text = f"{pl.points}+{pl.bonus}" if pl.bonus else str(pl.points)
    return text + SERVED_MARK if pl.served else text


@lru_cache(maxsize=4096)
def card_cells(rs: Ruleset, card: Scorecard) -> dict[str, list[str]]:
    """Row id -> the text of each column's cell ("" for an open box or no value).

    Kept per card (a table server sends every card to every browser after each move):
    the answer is shared, read it, never change it.

    >>> from yacht.rules import get
    >>> rs = get("yatzy")
    >>> cells = card_cells(rs, rs.new_card().with_box(0, 5, 18))
    >>> cells["sixes"], cells["ones"], cells["upper_total"], cells["grand_total"]
    (['18'], [''], ['18'], ['18'])
    """
    totals = rs.totals(card)
    out: dict[str, list[str]] = {}
    for row in card_layout(rs):
        if row.kind == "box":
            i = rs.index(row.category or "")
            out[row.id] = ["" if (v := card.boxes[c][i]) is None else box_text(rs, row.id, v)
                           for c in range(len(rs.columns))]
        else:
            out[row.id] = [_total_cell(rs, row, totals, c, card)
                           for c in range(len(rs.columns))]
    return out


def card_table(rs: Ruleset, names: Sequence[str], cards: Sequence[Scorecard],
               preview: Mapping[tuple[str, int], Placement] | None = None,
               width: int | None = None) -> str:
    """Every player's card side by side; ``preview`` (the first player's open boxes)
    shows what they would score, in brackets. Where they are wider than ``width``, in
    blocks of as many players as fit, one under the other (a player's columns together).

    >>> from yacht.rules import get
    >>> rs = get("tommys-crag")
    >>> print(card_table(rs, ["Ann"], [rs.new_card()]).splitlines()[0])
    Box                Ann
    >>> wide = card_table(rs, ["Ann", "Bob", "Cy"], [rs.new_card()] * 3, width=30)
    >>> [line for line in wide.splitlines() if line.startswith("Box")]
    ['Box                Ann    Bob', 'Box                 Cy']
    """
    from rich.cells import set_cell_size

    # (widths in terminal cells: "山田太郎" is 4 characters and 8 cells)
    ncol = len(rs.columns)
    layout = card_layout(rs)
    label_w = max([cell_len(r.label) for r in layout] + [14])
    heads: list[str] = []
    for name in names:
        for col in range(ncol):
            short = name if cell_len(name) <= 8 else set_cell_size(name, 8).rstrip()
            heads.append(name if ncol == 1 else f"{short} {col + 1}")
    cell_w = max([6] + [cell_len(h) for h in heads])

    def row(label: str, cells: Sequence[str]) -> str:
        return ljust(label, label_w) + " " + " ".join(rjust(c, cell_w) for c in cells)

    grid = [heads]
    filled = [card_cells(rs, card) for card in cards]
    # a total with nothing to say for anyone (a bonus by steps out of reach on closed
    # sections) is left out, not shown as an empty row
    layout = tuple(r for r in layout
                   if r.kind == "box" or any(any(values[r.id]) for values in filled))
    for r in layout:
        cells = []
        for p, values in enumerate(filled):
            for col in range(ncol):
                text = values[r.id][col]
                if r.kind == "box" and not text:
                    pl = (preview or {}).get((r.category or "", col)) if p == 0 else None
                    text = f"[{preview_text(pl)}]" if pl is not None else "-"
                cells.append(text)
        grid.append(cells)
    labels = ["Box"] + [r.label for r in layout]
    fit = len(names) if width is None else (width - label_w - 1) // ((cell_w + 1) * ncol)
    blocks_n = -(-len(names) // max(1, fit))  # as few blocks as fit, as even as can be
    per = -(-len(names) // blocks_n) * ncol
    blocks = ["\n".join(row(label, cells[i:i + per]) for label, cells in zip(labels, grid,
                                                                            strict=True))
              for i in range(0, len(heads), per)]
    return "\n\n".join(blocks)


def progress_line(label: str, done: int, total: int, columns: int, after: str = "",
                  bar: int = 30) -> str:
    """A progress bar's line for a terminal ``columns`` wide, shorter than that (a line as
    wide as the terminal wraps, and a carriage return then redraws only its end): the
    label, shortened with an ellipsis when it must, the bar (at most ``bar`` wide, down
    to 10) and ``after`` (the counts, the time left).

    >>> progress_line("solving Yatzy", 5, 20, 80, "5/20")
    'solving Yatzy [#######.......................] 5/20'
    >>> line = progress_line("solving Maxi Yatzy - Saved rolls: off", 5, 20, 40, "5/20")
    >>> line, len(line) < 40
    ('solving Maxi Ya… [###............] 5/20', True)
    """
    tail = f" {after}" if after else ""
    width = max(10, min(bar, columns - 1 - len(tail) - 3 - 16))
    room = max(1, columns - 1 - len(tail) - width - 3)
    if len(label) > room:
        label = label[:max(0, room - 1)] + "…"
    fill = width * max(0, min(done, total)) // max(total, 1)
    return f"{label} [{'#' * fill}{'.' * (width - fill)}]{tail}"
