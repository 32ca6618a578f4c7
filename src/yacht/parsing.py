"""One parser per kind of input a person can type, shared by every command and interface.

Each parser accepts exactly the documented forms and raises :class:`InputError`
(a ``ValueError``) for anything else: one line naming the problem and what is
accepted. Digits are ASCII digits only; separators are commas (spaces around
them are fine) or spaces; an empty item between commas is refused. Text typed
by a person is shown back with :func:`shown` (quoted, control characters
escaped, long text cut), so an error is always one printable line.

=====================  =====================================================
kind                   parser
=====================  =====================================================
dice                   :func:`parse_dice` (``2,4,4,2,2``, ``2 4 4 2 2``, ``24422``)
die positions          :func:`parse_positions` (``1,3``, ``1 3``, ``13``; 0 = die 10)
whole numbers          :func:`parse_whole` (``--seed``, ``--games``, ``--turn`` ...)
variant and options    :func:`parse_options` (``KEY=VALUE`` items), :func:`parse_ruleset`
card notation          :func:`parse_card` (``ones=3,col2:chance=20,extra=100``; ``saved=2``:
                       rolls saved for later turns, Maxi Yatzy)
situation notation     :func:`parse_situation` (``13356 r2 [t5] [CARD]``)
action text            the line game's notation: the session's own, in
                       :func:`yacht.session.commands.parse_command`
player lists, names    :func:`parse_players`, :func:`check_name`, :func:`check_names`
ids                    :func:`parse_game_id` (a prefix), :func:`parse_table_id`
days                   :func:`parse_day` (``2026-12-01``)
paths                  :func:`parse_out_path`, :func:`parse_in_path`, :func:`read_record`
addresses              :func:`parse_redis_url` (``redis://HOST:PORT``)
=====================  =====================================================

>>> from yacht.rules import get
>>> rs = get("yatzy")
>>> parse_dice("2, 4,4,2,2", rs), parse_dice("24422", rs)
((2, 4, 4, 2, 2), (2, 4, 4, 2, 2))
>>> parse_dice("1,,2,3,4,5", rs)
Traceback (most recent call last):
...
yacht.parsing.InputError: dice '1,,2,3,4,5' have an empty item (write them like 2,4,4,2,2 or 24422)
>>> parse_positions("3,1", rs)
(0, 2)
>>> parse_options(["joker=free", "bonus=off"])
{'joker': 'free', 'bonus': 'off'}
>>> check_name("  Ann  Lee ")
'Ann Lee'
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Sequence
from math import gcd
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from yacht.rules import (
    MAX_PLAYERS,
    OptionError,
    Ruleset,
    Scorecard,
    UnknownVariant,
    YachtError,
    counts_of,
    get,
    ids,
)

if TYPE_CHECKING:
    from yacht.engine import Record

__all__ = [
    "InputError", "SituationText", "check_name", "check_names", "for_option", "name_key",
    "parse_card", "parse_day", "parse_dice", "parse_game_id", "parse_in_path", "parse_options",
    "parse_out_path",
    "parse_players", "parse_positions", "parse_redis_url", "parse_ruleset", "parse_situation",
    "parse_table_id", "parse_whole", "printable", "read_json", "read_record", "shown",
    "turns_possible",
]

#: the longest record file `yacht replay` reads, and the deepest nesting of its JSON
RECORD_BYTES = 16 * 2**20
JSON_DEPTH = 32
#: game and table ids: 12 hex digits (``secrets.token_hex(6)``)
ID_LENGTH = 12
_HEX = frozenset("0123456789abcdef")
_BLANKS = " \t"


class InputError(YachtError, ValueError):
    """Input that is not one of the accepted forms: one line saying what is wrong and what
    is accepted."""

    #: a refusal written as a sentence (:func:`_sentence`): its problem and what to do
    parts: tuple[str, str] | None = None


def _sentence(problem: str, then: str) -> InputError:
    """A refusal in one sentence, as every interface shows it alone (``The name is empty:
    give a name of 1-20 characters.``); its two parts kept for :func:`for_option`."""
    error = InputError(f"{problem}: {then}")
    error.parts = (problem, then)
    return error


def for_option(option: str, error: Exception) -> str:
    """A refusal said after the option it refuses, in one line that reads on: a sentence's
    problem follows the option's colon with a small letter and ends in a full stop, and
    what to do is a sentence of its own (not a colon after the option's colon).

    >>> for_option("--name", _sentence("The name is empty", "give a name of 1-20."))
    '--name: the name is empty. Give a name of 1-20.'
    >>> for_option("--web", ValueError("not a URL (accepted: https://HOST)"))
    '--web: not a URL (accepted: https://HOST)'
    """
    parts = getattr(error, "parts", None)
    if not isinstance(error, InputError) or parts is None:
        return f"{option}: {error}"
    problem, then = parts
    if problem[1:2].islower():  # (a capital word: "The", not a name in capitals or U+...)
        problem = problem[:1].lower() + problem[1:]
    then = then[:1].upper() + then[1:]
    return f"{option}: {problem}. {then}" + ("" if then.endswith((".", "?", "!")) else ".")


# --- showing what was typed -------------------------------------------------------------

def printable(text: str) -> str:
    """``text`` with every character that is not printable escaped (``\\x1b``, ``\\n``...).

    >>> printable("Ann\\x1b[2J"), printable("Zoë")
    ('Ann\\\\x1b[2J', 'Zoë')
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def shown(text: str, limit: int = 40) -> str:
    """``text`` quoted for a message: one line, control characters escaped, cut at ``limit``.

    >>> shown("a\\nb"), shown("x" * 50, limit=5)
    ("'a\\\\nb'", "'xxxxx'...")
    """
    if len(text) > limit:
        return repr(text[:limit]) + "..."
    return repr(text)


def blank(text: str) -> str | None:
    """"empty" or "blank" when ``text`` has nothing but white space (a message says so:
    between quotes a blank shows as nothing), else None.

    >>> blank(""), blank(" \t"), blank(" a ")
    ('empty', 'blank', None)
    """
    if text.strip():
        return None
    return "blank" if text else "empty"


def _is_digits(text: str) -> bool:
    """ASCII digits only (``str.isdigit`` also takes ``²``, ``①`` and other scripts')."""
    return bool(text) and all("0" <= ch <= "9" for ch in text)


def _strip(text: str) -> str:
    return text.strip(_BLANKS)


def _is_number(text: str) -> bool:
    """A whole number as a person writes one: ASCII digits, ``-`` in front or not."""
    return _is_digits(text[1:] if text.startswith("-") else text)


# --- numbers ------------------------------------------------------------------------------

def parse_whole(text: str, what: str, lo: int | None = 0, hi: int | None = None) -> int:
    """A whole number in ASCII digits (``-`` in front when ``lo`` allows negatives),
    within ``lo``-``hi``.

    >>> parse_whole("12", "games", 1, 100)
    12
    >>> parse_whole("１２", "games", 1, 100)
    Traceback (most recent call last):
    ...
    yacht.parsing.InputError: games '１２' is not a whole number (accepted: 1-100)
    >>> parse_whole("-1", "games", 1, 100)
    Traceback (most recent call last):
    ...
    yacht.parsing.InputError: games -1 is out of range (accepted: 1-100)
    """
    accepted = _range_text(lo, hi)
    raw = _strip(text)
    if not _is_number(raw):
        raise InputError(f"{what} {shown(text)} is not a whole number{accepted}")
    if len(raw.lstrip("-")) > 19:  # a number, far out of any range
        raise InputError(f"{what} {shown(text, 24)} is out of range{accepted}")
    n = int(raw)
    if (lo is not None and n < lo) or (hi is not None and n > hi):
        raise InputError(f"{what} {n} is out of range{accepted}")
    return n


def _range_text(lo: int | None, hi: int | None) -> str:
    if lo is not None and hi is not None:
        return f" (accepted: {lo}-{hi})"
    if lo is not None:
        return f" (accepted: {lo} or more)"
    if hi is not None:
        return f" (accepted: up to {hi})"
    return ""


# --- comma lists --------------------------------------------------------------------------

def _items(text: str, what: str, example: str, compact: bool) -> list[str]:
    """The items of ``1,3`` / ``1 3`` / (``compact``) ``13``; an empty item is refused."""
    raw = _strip(text)
    if not raw:
        return []
    if "," in raw:
        parts = [_strip(p) for p in raw.split(",")]
        if any(not p for p in parts):
            raise InputError(f"{what} {shown(text)} have an empty item (write them like "
                             f"{example})")
        return parts
    parts = [p for p in re.split(r"[ \t]+", raw) if p]
    if compact and len(parts) == 1 and len(parts[0]) > 1 and _is_digits(parts[0]):
        return list(parts[0])
    return parts


def _small(token: str) -> int | None:
    """A small whole number in ASCII digits, or None."""
    return int(token) if _is_digits(token) and len(token) <= 6 else None


def parse_dice(text: str, rs: Ruleset, count: int | None = None, what: str = "dice"
               ) -> tuple[int, ...]:
    """Dice as ``2,4,4,2,2``, ``2 4 4 2 2`` or ``24422`` (``count`` of them, default all),
    each a face of ``rs``.

    >>> from yacht.rules import get
    >>> parse_dice("6,6,1", get("crag"))
    (6, 6, 1)
    >>> parse_dice("²2345", get("yatzy"))
    Traceback (most recent call last):
    ...
    yacht.parsing.InputError: die value '²2345' is not a number (accepted: 1-6)
    """
    n = rs.dice if count is None else count
    example = ",".join(["1"] * n) if n else "nothing"
    accepted = f"accepted: 1-{rs.faces}"
    sample = "2,4,4,2,2 or 24422" if rs.faces < 10 else "2,4,4,2,2"
    parts = _items(text, what, sample, rs.faces < 10)
    if not parts:
        if n == 0:
            return ()
        raise InputError(f"no dice given (give {n} values 1-{rs.faces}, e.g. {example})")
    values = []
    for p in parts:
        v = _small(p)
        if v is None:
            if _is_number(p):  # -1, or a number of many digits: a number, not a face
                raise InputError(f"die value {shown(p, 12)} is not a face ({accepted})")
            raise InputError(f"die value {shown(p)} is not a number ({accepted})")
        if not 1 <= v <= rs.faces:
            raise InputError(f"die value {v} is not a face ({accepted})")
        values.append(v)
    if len(values) != n:
        if count is None:
            raise InputError(f"{rs.id} uses {rs.dice} dice, but {len(values)} were given")
        raise InputError(f"{n} dice are rolled, but {len(values)} values were given "
                         f"(give {n} values 1-{rs.faces})")
    return tuple(values)


def parse_positions(text: str, rs: Ruleset) -> tuple[int, ...]:
    """Die positions ``1,3``, ``1 3`` or ``13`` (1-based; ``0`` is die 10) -> sorted
    0-based positions, each named once.

    >>> from yacht.rules import get
    >>> parse_positions("1,1", get("yatzy"))
    Traceback (most recent call last):
    ...
    yacht.parsing.InputError: die 1 is named twice (name each die once, e.g. 1,3)
    """
    ten = rs.dice >= 10
    # (no brackets of its own: it goes inside the messages')
    accepted = f"1-{rs.dice}" + (", or 0 for die 10" if ten else "")
    parts = _items(text, "positions", "1,3" if ten else "1,3 or 13", not ten)
    if not parts:
        raise InputError(f"give the dice by position: {accepted}, e.g. 1,3")
    out: list[int] = []
    for part in parts:
        n = _small(part)
        if n is None:
            if _is_number(part):  # -1, or a number of many digits: there is no such die
                raise InputError(f"there is no die {shown(part, 12)} (accepted: positions "
                                 f"{accepted})")
            raise InputError(f"die position {shown(part)} is not a whole number "
                             f"(accepted: positions {accepted})")
        p = 9 if n == 0 and ten else n - 1
        if not 0 <= p < rs.dice:
            raise InputError(f"there is no die {n} (accepted: positions {accepted})")
        if p in out:
            raise InputError(f"die {p + 1} is named twice (name each die once, e.g. 1,3)")
        out.append(p)
    return tuple(sorted(out))


# --- variants and options -----------------------------------------------------------------

_WORD = re.compile(r"[a-z0-9][a-z0-9_-]*")
_VALUE = re.compile(r"[a-z0-9][a-z0-9_@-]*")  # (Maxi Yatzy's bonus=50@75: 50 at 75)


def parse_options(items: Sequence[str] | None) -> dict[str, str]:
    """``["joker=free", "bonus=off"]`` -> ``{"joker": "free", "bonus": "off"}``; each key once.

    >>> parse_options(["joker=free", "Joker=none"])
    Traceback (most recent call last):
    ...
    yacht.parsing.InputError: option joker is given twice ('joker=free' and 'Joker=none'); ...
    >>> parse_options(["bonus=50@75"])
    {'bonus': '50@75'}
    """
    out: dict[str, str] = {}
    given: dict[str, str] = {}
    for item in items or ():
        key, sep, value = item.partition("=")
        key, value = _strip(key), _strip(value)
        if not sep or not key or not value:
            raise InputError(f"option {shown(item)} is not KEY=VALUE (for example rolls=3)")
        plain = key.isascii() and value.isascii()  # (lower() makes the Kelvin sign a k)
        key, value = key.lower(), value.lower()
        if not plain or not _WORD.fullmatch(key) or not _VALUE.fullmatch(value):
            raise InputError(f"option {shown(item)}: names and values are plain words "
                             "(letters, digits, - and _; @ in a value), e.g. rolls=3; see "
                             "`yacht variants`")
        if key in out:
            raise InputError(f"option {key} is given twice ({shown(given[key])} and "
                             f"{shown(item)}); give each option once")
        out[key] = value
        given[key] = item
    return out


def parse_ruleset(variant: str, options: Sequence[str] | dict[str, str] | None = None
                  ) -> Ruleset:
    """The variant called ``variant`` (id or alias) with ``options`` (``KEY=VALUE`` items or
    a mapping), or InputError naming what is wrong.

    >>> parse_ruleset("crag").id
    'tommys-crag'
    """
    opts = dict(options) if isinstance(options, dict) else parse_options(options)
    if said := blank(variant):
        raise InputError(f"the variant is {said} (accepted: {', '.join(ids())})")
    if not variant.isascii() or not variant.isprintable():
        raise InputError(f"unknown variant {shown(variant)} (accepted: {', '.join(ids())})")
    try:
        return get(variant, opts)
    except (UnknownVariant, OptionError) as e:
        raise InputError(str(e)) from None


# --- the card notation --------------------------------------------------------------------

def _probe(rs: Ruleset, col: int, i: int, value: int) -> list[Any]:
    """The placements of every yacht on a card holding only ``value`` in box ``(col, i)``:
    what a filled box makes possible (bonuses, repeats), whatever rule does it."""
    card = rs.new_card().with_box(col, i, value)
    ctx = rs.context(card, 1, 1)
    out = []
    for face in range(rs.faces):
        counts = tuple(rs.dice if f == face else 0 for f in range(rs.faces))
        out += rs.placements(ctx, counts)
    return out


_POSSIBLE: dict[int, tuple[Ruleset, dict[int, frozenset[int]]]] = {}
_NAMES: dict[int, tuple[Ruleset, dict[str, tuple[int, int, frozenset[int]]]]] = {}


def _per_ruleset(cache: dict[int, tuple[Ruleset, Any]], rs: Ruleset, make: Any) -> Any:
    hit = cache.get(id(rs))
    if hit is None or hit[0] is not rs:
        if len(cache) > 64:
            cache.clear()
        hit = cache[id(rs)] = (rs, make(rs))
    return hit[1]


def possible_values(rs: Ruleset, i: int) -> frozenset[int]:
    """Every value box ``i`` of ``rs`` can hold: its scorer's values, 0, and what the
    special rules can put there (:meth:`~yacht.rules.hooks.SpecialRule.box_values`).

    >>> from yacht.rules import get
    >>> sorted(possible_values(get("tommys-crag"), 0))
    [0, 1, 2, 3]
    """
    table: dict[int, frozenset[int]] = _per_ruleset(_POSSIBLE, rs, lambda _: {})
    values = table.get(i)
    if values is None:
        from itertools import combinations_with_replacement

        cat = rs.categories[i]
        found = {cat.score_counts(counts_of(d, rs.faces))
                 for d in combinations_with_replacement(range(1, rs.faces + 1), rs.dice)}
        found.add(0)
        for rule in rs.special:
            found |= rule.box_values(rs, cat.id)
        values = table[i] = frozenset(found)
    return values


def _names(rs: Ruleset) -> dict[str, tuple[int, int, frozenset[int]]]:
    """Every box's name in the card notation -> (column, index, possible values)."""
    out: dict[str, tuple[int, int, frozenset[int]]] = {}
    for col in range(len(rs.columns)):
        for i, cat in enumerate(rs.categories):
            allowed = possible_values(rs, i)
            for name in ((f"col{col + 1}:{cat.id}", f"{cat.id}@{col + 1}") if col
                         else (cat.id, f"col1:{cat.id}", f"{cat.id}@1")):
                out[name] = (col, i, allowed)
    return out


def _quick_card(rs: Ruleset, text: str) -> Scorecard | None:
    """The card of well-formed text as :func:`card_text` writes it (any order), or None
    for anything else, which the full parser then reads or explains."""
    names: dict[str, tuple[int, int, frozenset[int]]] = _per_ruleset(_NAMES, rs, _names)
    boxes = [list(c) for c in rs.new_card().boxes]
    if not text:
        return Scorecard(tuple(tuple(c) for c in boxes), 0)
    for item in text.split(","):
        name, sep, value_text = item.partition("=")
        if not sep or not _is_digits(value_text) or len(value_text) > 6:
            return None
        slot = names.get(name)
        if slot is None:
            return None
        col, i, allowed = slot
        value = int(value_text)
        if boxes[col][i] is not None or value not in allowed:
            return None
        boxes[col][i] = value
    return Scorecard(tuple(tuple(c) for c in boxes), 0)


def parse_card(rs: Ruleset, text: str) -> Scorecard:
    """A card from ``"ones=3,fours=12,col2:chance=20,extra=100"``.

    Items are ``BOX=POINTS`` (box ids as in ``yacht rules``, any case), separated by
    commas, spaces or line breaks; ``col2:BOX=POINTS`` or ``BOX@2=POINTS`` for the second column;
    ``extra=N`` for points in no box (Yahtzee bonuses: only once the box that earns them
    holds its points, in steps of the bonus); ``saved=N`` for the rolls the player has
    saved for later turns (Maxi Yatzy's pool, ``Scorecard.saved``: only in a variant whose
    rules save rolls). Boxes not named are open; an empty text is an empty card. Each box
    can only hold what the rules can put there.

    >>> from yacht.rules import get
    >>> parse_card(get("yatzy"), "ones=3, fours=12").boxes[0][:4]
    (3, None, None, 12)
    >>> parse_card(get("yahtzee"), "extra=50")
    Traceback (most recent call last):
    ...
    yacht.parsing.InputError: card item 'extra=50': no box on this card earns extra points ...
    """
    quick = _quick_card(rs, text)
    if quick is not None:
        return quick
    names: dict[str, tuple[int, int, frozenset[int]]] = _per_ruleset(_NAMES, rs, _names)
    boxes = [list(c) for c in rs.new_card().boxes]
    extra: int | None = None
    extra_item = ""
    saved: int | None = None
    # (line breaks too: a long situation is printed over lines, broken after its commas)
    for item in re.split(r"[, \t\r\n]+", text.strip(", \t\r\n")):
        if not item:
            continue
        name, sep, value_text = item.partition("=")
        if not sep:
            raise InputError(f"card item {shown(item)} is not BOX=POINTS (e.g. fours=12)")
        key = name.lower().replace("-", "_") if name.isascii() else name
        value_text = _strip(value_text)
        negative = value_text.startswith("-") and _is_digits(value_text[1:])
        if not (_is_digits(value_text) or negative) or len(value_text) > 7:
            raise InputError(f"card item {shown(item)}: {shown(value_text)} is not a whole "
                             "number of points")
        value = int(value_text)
        if key == "extra":
            if value < 0:
                raise InputError("extra points cannot be negative")
            if extra is not None:
                raise InputError(f"card item {shown(item)}: extra is given twice")
            extra, extra_item = value, item
            continue
        if key == "saved":
            if saved is not None:
                raise InputError(f"card item {shown(item)}: saved is given twice")
            if not any(rule.saves_rolls(rs) for rule in rs.special):
                raise InputError(f"card item {shown(item)}: {rs.id} saves no rolls for later "
                                 "turns (leave saved out)")
            if value < 0:
                raise InputError("saved rolls cannot be negative")
            saved = value
            continue
        slot = names.get(key)
        if slot is None:
            box, column = _column_of(key)
            if column is not None and box in {c.id for c in rs.categories}:
                raise InputError(f"card item {shown(item)}: column must be "
                                 f"1-{len(rs.columns)} (col2:BOX=POINTS or BOX@2=POINTS)")
            more = ", saved" if any(rule.saves_rolls(rs) for rule in rs.special) else ""
            raise InputError(f"card item {shown(item)}: unknown box {shown(name)} (accepted: "
                             f"{', '.join(c.id for c in rs.categories)}, extra{more})")
        col, i, allowed = slot
        if boxes[col][i] is not None:
            raise InputError(f"card item {shown(item)}: that box is given twice")
        if value not in allowed:
            few = sorted(allowed)
            more = "" if len(few) <= 12 else ", ..."
            raise InputError(f"card item {shown(item)}: {rs.categories[i].id} cannot hold "
                             f"{value} (possible: {', '.join(map(str, few[:12]))}{more})")
        boxes[col][i] = value
    card = Scorecard(tuple(tuple(c) for c in boxes), 0)
    if extra:
        _check_extra(rs, card, extra, extra_item)
    return Scorecard(card.boxes, extra or 0, saved or 0)


def _column_of(key: str) -> tuple[str, str | None]:
    """``col2:ones`` / ``ones@2`` -> (``ones``, ``2``); (key, None) without a column."""
    if key.startswith("col") and ":" in key:
        prefix, _, box = key.partition(":")
        return box, prefix[3:]
    if "@" in key:
        box, _, suffix = key.partition("@")
        return box, suffix
    return key, None


def _check_extra(rs: Ruleset, card: Scorecard, extra: int, item: str) -> None:
    """Extra points are bonuses some filled box earns (whatever rule gives them)."""
    label = next((t for t in (r.extra_label(rs) for r in rs.special) if t), None)
    if label is None:
        raise InputError(f"card item {shown(item)}: {rs.id} has no points outside the boxes "
                         "(extra=0 or leave it out)")
    steps: set[int] = set()
    for col, boxes in enumerate(card.boxes):
        for i, value in enumerate(boxes):
            if value:
                steps |= extra_steps(rs, col, i, value)
    if not steps:
        raise InputError(f"card item {shown(item)}: no box on this card earns extra points "
                         f"({label})")
    step = 0
    for s in steps:
        step = gcd(step, s)
    most = max(steps) * max(0, rs.turns - 1)
    if extra % step or extra > most:
        raise InputError(f"card item {shown(item)}: extra points ({label}) come in steps of "
                         f"{step}, at most {most}")


_EARNS: dict[int, tuple[Ruleset, dict[tuple[int, int, int], frozenset[int]]]] = {}


def extra_steps(rs: Ruleset, col: int, i: int, value: int) -> frozenset[int]:
    """The steps of the extra points box ``(col, i)`` earns once it holds ``value``
    (whatever rule gives them), worked out once per ruleset, box and value.

    >>> from yacht.rules import get
    >>> extra_steps(get("yahtzee"), 0, 11, 50), extra_steps(get("yahtzee"), 0, 11, 0)
    (frozenset({100}), frozenset())
    """
    memo: dict[tuple[int, int, int], frozenset[int]] = _per_ruleset(_EARNS, rs,
                                                                    lambda _: {})
    key = (col, i, value)
    steps = memo.get(key)
    if steps is None:
        steps = memo[key] = frozenset(p.bonus for p in _probe(rs, col, i, value)
                                      if p.bonus > 0) if value else frozenset()
    return steps


_REPEATS: dict[int, tuple[Ruleset, dict[tuple[int, int], int]]] = {}


def _repeat_points(rs: Ruleset) -> dict[tuple[int, int], int]:
    """(column, box) -> the points of one repeat, for the boxes a rule lets a yacht add to
    once filled (a repeat fills no box, so it costs a turn of its own)."""
    out: dict[tuple[int, int], int] = {}
    for col in range(len(rs.columns)):
        for i, cat in enumerate(rs.categories):
            value = max(possible_values(rs, i))
            each = [p.points for p in _probe(rs, col, i, value)
                    if p.repeat and p.category == cat.id and p.column == col and p.points > 0]
            if each:
                out[(col, i)] = min(each)
    return out


def turns_possible(rs: Ruleset, card: Scorecard) -> range:
    """The numbers of turns a player can have taken to fill ``card``: the filled boxes,
    plus one for each repeat a box holds (a repeat fills no box): a box of Tommy's
    Yahtzee holding 150 took 3 turns (50 and two repeats) or 4 (a 0 and three repeats).

    >>> from yacht.rules import get
    >>> rs = get("tommys-yahtzee")
    >>> turns_possible(rs, parse_card(rs, "ones=3"))
    range(1, 2)
    >>> turns_possible(rs, parse_card(rs, "ones=3,yahtzee=150"))
    range(4, 6)
    >>> turns_possible(get("kismet"), parse_card(get("kismet"), "ones=0,twos=6"))
    range(1, 3)
    """
    repeats = surely = 0
    if len(card.boxes) != len(rs.columns) or any(len(c) != len(rs.categories)
                                                 for c in card.boxes):
        return range(card.filled, card.filled + 1)  # not this variant's card
    points: dict[tuple[int, int], int] = _per_ruleset(_REPEATS, rs, _repeat_points)
    for (col, i), each in points.items():
        value = card.boxes[col][i]
        if value:
            repeats += value // each
            # (the box's first points are at most one repeat's: a yacht's 50, or a 0)
            surely += value // each - 1
    least = card.filled + surely
    if any(rule.penalty_reason(rs) for rule in rs.special):
        # (Kismet: another player's second Kismet writes a 0 here, no turn taken)
        least -= sum(1 for column in card.boxes for value in column if value == 0)
    return range(max(0, least), card.filled + repeats + 1)


# --- the situation notation ---------------------------------------------------------------

class SituationText(NamedTuple):
    """What :func:`parse_situation` read (``rolls_left`` / ``turn`` None: not given)."""

    dice: tuple[int, ...]
    rolls_left: int | None
    turn: int | None
    card: Scorecard


_COUNT = re.compile(r"([rRtT])([0-9]{1,4})")


def parse_situation(rs: Ruleset, text: str) -> SituationText:
    """``DICE rN [tN] [CARD]``: the dice showing (``13356``, ``1,3,3,5,6``, or ``-`` before
    the first roll), the rolls left, the turns taken, the card.

    >>> from yacht.rules import get
    >>> parse_situation(get("yatzy"), "1,3,3,5,6 r2 ones=3, fours=12")[:3]
    ((1, 3, 3, 5, 6), 2, None)
    """
    tokens = [t for t in re.split(r"[ \t\r\n]+", text) if t]  # (see parse_card)
    if not tokens:
        raise InputError('an empty situation (write DICE rN [tN] [CARD], e.g. "13356 r2 '
                         'ones=3")')
    head = tokens[0]
    if head == "-":
        dice: tuple[int, ...] = ()
    else:
        if " " in head or not (_is_digits(head.replace(",", "")) or "," in head):
            raise InputError(f"dice {shown(head)} are not numbers (e.g. {'1' * rs.dice}, or - "
                             "before the first roll)")
        dice = parse_dice(head, rs)
    rolls: int | None = None
    turn: int | None = None
    rest: list[str] = []
    for tok in tokens[1:]:
        m = _COUNT.fullmatch(tok)
        if m and not rest:
            what, n = m.group(1).lower(), int(m.group(2))
            if what == "r":
                if rolls is not None:
                    raise InputError(f"rolls left given twice ({shown(tok)})")
                rolls = n
            else:
                if turn is not None:
                    raise InputError(f"turn given twice ({shown(tok)})")
                turn = n
        elif not rest and _counts_like(tok):
            if tok[0] in "rR":
                raise InputError(f"rolls left {shown(tok, 12)}: write r and the rolls left "
                                 f"(accepted: r0-r{rs.rolls - 1}; r0: the dice must be "
                                 "scored)")
            raise InputError(f"turns taken {shown(tok, 12)}: write t and the turns already "
                             "taken, e.g. t5 (accepted: t0 or more)")
        else:
            rest.append(tok)
    return SituationText(dice, rolls, turn, parse_card(rs, " ".join(rest)))


def _counts_like(token: str) -> bool:
    """``r-1``, ``rx``, ``t12345``: meant as the rolls left or the turns taken (a card
    item has an ``=``; a box's name is a word)."""
    tail = token[1:]
    return (token[:1] in ("r", "R", "t", "T") and bool(tail) and "=" not in token
            and (len(tail) <= 2 or not tail.isalpha()))


# --- players and names --------------------------------------------------------------------

#: characters that show nothing but are not marked so by Unicode's categories (fillers
#: of Hangul and Khitan, the blank Braille pattern, the grapheme joiner, Khmer's inherent
#: vowels, the null notehead, the object replacement): refused wherever they are
_BLANK_CHARS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5"
                         "\U0001d159\U00016fe4\ufffc")
#: combining marks (accents, vowel signs, variation selectors...) on one character at
#: most, once composed (NFC): pointed Hebrew and stacked Tibetan take 3 (སྒྲོལ་མ, Drolma);
#: more is text piled up to blot out the lines around it
NAME_MARKS = 3


def check_name(text: str) -> str:
    """A player's name as typed: trimmed, inner runs of spaces made one, composed (NFC),
    1-20 characters that show: no control, format, zero-width or blank characters, no
    combining mark first (a mark goes on its letter), at most :data:`NAME_MARKS` marks on
    a character.
    Every interface takes a player's name through this (the web's seats too).

    Names of every script are taken (``Zoë``, ``王小明``, ``Łukasz 🎲``). Letters that look
    like others (a Cyrillic ``А`` in ``Аnn`` beside a Latin ``Ann``) cannot be told from
    a real name in general and are taken: two players of one game still differ in
    writing (:func:`check_names`).

    >>> check_name("Ann\\x1b[31m")
    Traceback (most recent call last):
    ...
    yacht.parsing.InputError: The name 'Ann[31m' has an invisible character (U+001B, a control ...
    >>> check_name("\\u3164")
    Traceback (most recent call last):
    ...
    yacht.parsing.InputError: The name has an invisible character (U+3164 HANGUL FILLER): a name ...
    >>> check_name("Zoe\\u0308"), check_name("  Ann   Lee ")
    ('Zoë', 'Ann Lee')

    Each refusal is one sentence, as every interface shows it (the web under the name's
    field, the terminal game in its notice, a command after ``yacht: error:``): it starts
    with a capital, quotes the name as it shows (what shows nothing left out) and names
    a character that shows nothing by its code and Unicode name, never as an escape.
    """
    import unicodedata

    from yacht.engine import NAME_LENGTH

    accepted = (f"a name is 1-{NAME_LENGTH} visible characters (letters, digits, "
                "punctuation, symbols; single spaces).")
    bad = next((ch for ch in text if (not ch.isprintable() and ch != " ")
                or ch in _BLANK_CHARS), None)
    if bad is not None:
        raise _sentence(f"The name {_name_shown(text)}has an invisible character "
                        f"({_char_shown(bad)})", accepted)
    name = unicodedata.normalize("NFC", re.sub(" +", " ", text.strip(" ")))
    if not name:
        raise _sentence("The name is empty", f"give a name of 1-{NAME_LENGTH} characters.")
    if len(name) > NAME_LENGTH:
        raise _sentence(f"The name {_name_shown(name)}is longer than {NAME_LENGTH} "
                        f"characters (it has {len(name)})", accepted)
    marks = 0
    for i, ch in enumerate(name):
        if not unicodedata.category(ch).startswith("M"):
            marks = 0
            continue
        marks += 1
        if i == 0:
            raise _sentence(f"The name {_name_shown(name)}starts with a combining mark "
                            f"({_char_shown(ch)})", "a mark goes after its letter.")
        if marks > NAME_MARKS:
            raise _sentence(f"The name {_name_shown(name, 0)}piles more than {NAME_MARKS} "
                            "accents or other marks on one character", accepted)
    return name  # (so something shows: its first character, neither a mark nor a blank)


def _char_shown(ch: str) -> str:
    """A character a message names, in words: ``U+3164 HANGUL FILLER``, ``U+001B, a
    control character`` (never an escape such as ``\\x1b``)."""
    import unicodedata

    code = f"U+{ord(ch):04X}"
    if unicodedata.category(ch) == "Cc":
        return f"{code}, a control character"
    return f"{code} {unicodedata.name(ch, '')}".rstrip()


def _name_shown(text: str, marks: int = NAME_MARKS) -> str:
    """A refused name quoted for its message, and a space: what of it shows, without
    what would not (control, format and blank characters; a mark with no letter under
    it, or past ``marks`` on one letter), at most 40 characters; "" when nothing shows."""
    import unicodedata

    out: list[str] = []
    on = -1  # marks on the last character kept (-1: none kept, a mark has nothing under it)
    for ch in text:
        if ch != " " and (not ch.isprintable() or ch in _BLANK_CHARS):
            continue
        if unicodedata.category(ch).startswith("M"):
            if 0 <= on < marks:
                out.append(ch)
                on += 1
            continue
        out.append(ch)
        on = 0
    shown = "".join(out).strip(" ")
    if not shown:
        return ""
    return f"'{shown[:40]}{'...' if len(shown) > 40 else ''}' "


#: letters of other scripts drawn like Latin ones (Cyrillic, Greek), and the Latin
#: letters and digits drawn like each other in many fonts (``l``, ``I``, ``1``; ``0``,
#: ``O``): what a name is read as, to tell apart the players of one table
_LOOKS = str.maketrans(
    "АВЕЅІЈКМНОРСТХУҮԚԜӀ" "аеорсухѕіјԁһԛԝӏүɡ" "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ" "αικνορυı" "‐‑‒–—―−’‘`´",
    "ABESIJKMHOPCTXYYQWI" "aeopcyxsijdhqwlyg" "ABEZHIKMNOPTYX" "aikvopui" "-------" + "'" * 4)
_ALIKE = str.maketrans("l1|0", "iiio")
#: variation selectors: they change how an emoji is drawn, and nothing after a letter
_SELECTORS = re.compile("[\u180b-\u180d\u180f\ufe00-\ufe0f\U000e0100-\U000e01ef]")


def name_key(name: str) -> str:
    """How a name reads: its compatibility form (a full-width ``Ａ``, a mathematical
    ``𝐀`` are ``A``), letters of other scripts that are drawn like Latin ones as those
    (a Cyrillic ``А``), any case, and ``l``, ``I``, ``1`` alike (``0`` and ``O`` too). Two
    players of one table never have names of one key: the others could not tell them
    apart (marks still count: ``Zoë`` is not ``Zoe``; a variation selector, which draws
    nothing after a letter, does not).

    >>> name_key("Ann") == name_key("\\uff21nn") == name_key("\\u0410NN")
    True
    >>> name_key("Al") == name_key("AI"), name_key("Zoë") == name_key("Zoe")
    (True, False)
    """
    import unicodedata

    folded = unicodedata.normalize("NFKC", _SELECTORS.sub("", name)).translate(_LOOKS)
    return unicodedata.normalize("NFC", folded.casefold()).translate(_ALIKE)


def check_names(names: Iterable[str]) -> list[str]:
    """Names of one game: each checked, none twice (in any case).

    >>> check_names(["Ann", "ann"])
    Traceback (most recent call last):
    ...
    yacht.parsing.InputError: Two players are called 'ann': give each player a different name.
    """
    out: list[str] = []
    seen: set[str] = set()
    for raw in names:
        name = check_name(raw)
        key = name.casefold()
        if key in seen:
            raise _sentence(f"Two players are called {shown(name)}",
                            "give each player a different name.")
        seen.add(key)
        out.append(name)
    return out


def parse_players(text: str) -> list[tuple[str, str]]:
    """``"Ann,Bob,cpu:expert,Max=cpu:beginner"`` -> ``[(name, kind), ...]`` with kind
    ``person`` or a computer level; 1-8 players, names checked by :func:`check_name` and
    none twice. A computer without a name is called after its level (numbered when
    there are more of one level). ``Max:beginner`` (a name, a colon, a level or ``cpu``)
    is the computer ``Max=cpu:beginner`` too: a person called "Max:beginner" was
    always a computer meant.

    >>> parse_players("Ann, cpu:expert, cpu:expert")
    [('Ann', 'person'), ('Expert', 'expert'), ('Expert 2', 'expert')]
    >>> parse_players("Ann, Bob:expert, Cy:cpu")
    [('Ann', 'person'), ('Bob', 'expert'), ('Cy', 'intermediate')]
    """
    from yacht.engine import DEFAULT_LEVEL, PLAYER_LEVELS

    items = [_strip(t) for t in text.split(",")]
    if not _strip(text) or any(not t for t in items):
        raise InputError(f"players {shown(text)}: give names separated by commas, "
                         "e.g. Ann,Bob,cpu:expert")
    if len(items) > MAX_PLAYERS:
        raise InputError(f"{len(items)} players is not allowed (accepted: 1-{MAX_PLAYERS})")
    levels = f"cpu, cpu:{', cpu:'.join(PLAYER_LEVELS)}"
    seats: list[tuple[str | None, str]] = []
    for item in items:
        name, sep, kind = item.partition("=")
        low = item.lower()
        if not sep:
            head, colon, tail = item.rpartition(":")
            tail = _strip(tail).lower()
            if low == "cpu" or low.startswith("cpu:"):
                name, kind = "", item
            elif colon and _strip(head) and (tail in PLAYER_LEVELS or tail in ("cpu",
                                                                               "random")):
                name, kind = head, "cpu" if tail == "cpu" else f"cpu:{tail}"
            else:
                name, kind = item, "person"
        kind = _strip(kind).lower()
        if kind == "cpu" or kind.startswith("cpu:"):
            level = _strip(kind[4:]) if kind != "cpu" else DEFAULT_LEVEL
            if level not in PLAYER_LEVELS and level != "random":
                raise InputError(f"unknown computer level {shown(level)} (accepted: {levels})")
            kind = level
        elif kind != "person":
            raise InputError(f"player {shown(item)}: a kind is person or cpu:LEVEL "
                             f"({levels})")
        seats.append((check_name(name) if _strip(name) else None, kind))
    taken = {n.casefold() for n, _ in seats if n is not None}
    out: list[tuple[str, str]] = []
    for given, kind in seats:
        if given is None:
            base = given = kind.capitalize()
            k = 2
            while given.casefold() in taken:
                given, k = f"{base} {k}", k + 1
            taken.add(given.casefold())
        out.append((given, kind))
    check_names(n for n, _ in out)
    return out


# --- ids ------------------------------------------------------------------------------------

def parse_game_id(text: str) -> str:
    """A game id or the start of one: 1-12 hex digits, any case -> lower case.

    >>> parse_game_id(" 3F2a ")
    '3f2a'
    """
    if said := blank(text):  # (quoted, it showed as a blank: "'  ' is not a game id")
        raise InputError(f"the game id is {said}: a game id is "
                         f"1-{ID_LENGTH} hex digits, or the start of one (e.g. 3f2a; "
                         "`yacht resume` lists the games)")
    p = _strip(text).lower() if text.isascii() else text
    if not p or len(p) > ID_LENGTH or not all(c in _HEX for c in p):
        raise InputError(f"{shown(text)} is not a game id (1-{ID_LENGTH} hex digits, see "
                         "`yacht resume`)")
    return p


def parse_table_id(text: str, what: str = "table id") -> str:
    """A table id (or, ``what``, another id of its form: a duplicate table's group id):
    exactly 12 hex digits, any case -> lower case.

    >>> parse_table_id("0123456789AB")
    '0123456789ab'
    >>> parse_table_id("nope", "group id")
    Traceback (most recent call last):
    ...
    yacht.parsing.InputError: 'nope' is not a group id (12 hex digits)
    """
    p = _strip(text).lower() if text.isascii() else text
    if len(p) != ID_LENGTH or not all(c in _HEX for c in p):
        raise InputError(f"{shown(text)} is not a {what} ({ID_LENGTH} hex digits)")
    return p


def parse_day(text: str, what: str = "date") -> str:
    """A calendar day as ``YYYY-MM-DD`` (ASCII digits; no other form of ISO 8601).

    >>> parse_day(" 2026-12-01")
    '2026-12-01'
    >>> parse_day("20261201")
    Traceback (most recent call last):
    ...
    yacht.parsing.InputError: date '20261201' is not a day: give YYYY-MM-DD, e.g. 2026-12-01
    """
    from datetime import date

    p = _strip(text)
    if p.isascii() and re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", p):
        try:
            return date.fromisoformat(p).isoformat()
        except ValueError:
            pass
    raise InputError(f"{what} {shown(text, 20)} is not a day: give YYYY-MM-DD, e.g. 2026-12-01")


# --- paths ----------------------------------------------------------------------------------

def parse_in_path(text: str, what: str = "file") -> Path:
    """A file to read: not empty, no NUL character.

    >>> parse_in_path("game.json")
    PosixPath('game.json')
    """
    if (said := blank(text)) and not _exists(text):  # (a file may have a blank name)
        raise InputError(f"the {what} name is {said}: give the path of a {what}")
    if "\x00" in text:
        raise InputError(f"{what} {shown(text)} is not a file name")
    return Path(text)


def _exists(text: str) -> bool:
    try:
        return bool(text) and Path(text).exists()
    except (OSError, ValueError):
        return False


def parse_out_path(text: str, what: str = "--out") -> Path:
    """A file to write: a name of its own (not empty, not a folder, no control characters)
    where there is no file yet: a command never overwrites a file (nor a link).

    >>> parse_out_path("")
    Traceback (most recent call last):
    ...
    yacht.parsing.InputError: --out '': give a file name, e.g. game.json
    """
    if not _strip(text):
        raise InputError(f"{what} {shown(text)}: give a file name, e.g. game.json")
    bad = next((ch for ch in text if ch != " " and not ch.isprintable()
                and not 0xDC80 <= ord(ch) <= 0xDCFF), None)
    if bad is not None:
        raise InputError(f"{what} {shown(text)}: a file name without control characters "
                         f"({repr(bad)[1:-1]})")
    path = Path(text)
    try:
        folder = path.is_dir()
    except OSError:  # a name too long, a loop of links: writing it says so
        folder = False
    if text.endswith(("/", os.sep)) or path.name in ("", ".", "..") or folder:
        raise InputError(f"{what} {shown(text)} is a folder; give a file name, e.g. game.json")
    if len(os.fsencode(path.name)) > 255:
        raise InputError(f"{what} {shown(text)}: the file name is longer than 255 bytes")
    try:
        there = path.exists() or path.is_symlink()
    except OSError:  # a name too long, a loop of links: writing it says so
        there = False
    if there:
        raise InputError(f"{what} {shown(text, 60)}: that file exists; give another name "
                         "(a file is never overwritten)")
    return path


# --- addresses ------------------------------------------------------------------------------

#: the Redis URLs a server takes (those of redis-py: ``redis.connection.parse_url``)
REDIS_FORMS = "redis://HOST[:PORT][/DB], rediss://HOST[:PORT][/DB] (TLS), unix://PATH"


def parse_redis_url(text: str, what: str = "--redis") -> str:
    """A Redis URL (``redis://``, ``rediss://`` or ``unix://``), checked as the Redis client
    reads it, before a server starts with it.

    >>> parse_redis_url("redis://localhost:6379/0")
    'redis://localhost:6379/0'
    >>> parse_redis_url("localhost")
    Traceback (most recent call last):
    ...
    yacht.parsing.InputError: --redis 'localhost' is not a Redis URL (accepted: redis://HOST...
    """
    from urllib.parse import urlsplit

    url = _strip(text)
    accepted = f"(accepted: {REDIS_FORMS})"
    bad = next((ch for ch in url if not ch.isprintable() or ch == " "), None)
    if not url.startswith(("redis://", "rediss://", "unix://")) or bad is not None:
        raise InputError(f"{what} {shown(text, 60)} is not a Redis URL {accepted}")
    parts = urlsplit(url)
    if parts.scheme == "unix":
        if not parts.path:
            raise InputError(f"{what} {shown(text, 60)}: give the socket's path, e.g. "
                             "unix:///run/redis.sock")
    else:
        try:
            port = parts.port
        except ValueError:  # not a number, or past 65535
            port = -1
        if port is not None and not 1 <= port <= 65535:
            raise InputError(f"{what} {shown(text, 60)}: the port is a number 1-65535, "
                             "e.g. redis://localhost:6379")
        db = parts.path.strip("/")
        if db and not _is_digits(db):
            raise InputError(f"{what} {shown(text, 60)}: the database after the / is a "
                             f"number, e.g. redis://localhost:6379/0")
    try:  # the client's own reading (its query arguments: ?socket_timeout=5 ...)
        from redis.connection import parse_url
    except ImportError:  # (the server says so when it starts)
        return url
    try:
        parse_url(url)  # type: ignore[no-untyped-call]
    except (ValueError, TypeError) as e:
        raise InputError(f"{what} {shown(text, 60)}: {printable(str(e))[:100]}") from None
    return url


_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def _depth_ok(text: str, limit: int) -> bool:
    """Whether JSON ``text`` nests arrays and objects at most ``limit`` deep."""
    if text.count("[") + text.count("{") <= limit:
        return True
    depth = 0
    for m in _JSON_TOKEN.finditer(text):
        ch = m.group()
        if ch in "[{":
            depth += 1
            if depth > limit:
                return False
        elif ch in "]}":
            depth -= 1
    return True


def read_json(path: Path, what: str = "file", max_bytes: int = RECORD_BYTES,
              max_depth: int = JSON_DEPTH) -> Any:
    """The JSON value in ``path`` (UTF-8, at most ``max_bytes``, nested at most
    ``max_depth`` deep); InputError naming the problem otherwise."""
    name = shown(str(path), 80)
    try:
        with open(path, "rb") as f:
            data = f.read(max_bytes + 1)
    except OSError as e:
        raise InputError(f"cannot read {name}: {e.strerror or e}") from None
    except ValueError:
        raise InputError(f"{what} {name} is not a file name") from None
    if len(data) > max_bytes:
        raise InputError(f"{name} is larger than {max_bytes // 2**20} MB: not a {what}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{name} is not a text file") from None
    if not _depth_ok(text, max_depth):
        raise InputError(f"{name} nests deeper than {max_depth} levels: not a {what}")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"{name}: not valid JSON ({e.msg} at line {e.lineno})") from None
    except (ValueError, RecursionError) as e:
        raise InputError(f"{name}: not valid JSON ({printable(str(e))[:80]})") from None


def read_record(text: str) -> Record:
    """The game record in the file ``text`` names (``yacht replay FILE``), checked: it
    replays."""
    from yacht.engine import Record

    path = parse_in_path(text, "game record file")
    obj = read_json(path, "game record")
    try:
        return Record.from_json(obj)
    except (ValueError, LookupError, TypeError, AttributeError, RecursionError) as e:
        raise InputError(f"{shown(str(path), 80)}: {printable(str(e))[:200]}") from None
