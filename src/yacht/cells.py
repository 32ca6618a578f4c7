"""Text measured in the cells of a terminal, not in characters: a wide letter (Chinese,
Japanese, Korean) or an emoji takes two cells, a combining accent none ("山田太郎" is 4
characters and 8 cells; a name of 20 characters may take 40). Every text interface (the
terminal game, the line game, the ``yacht`` commands) lines its columns up with these;
the measure is rich's, as Textual's.
"""

from __future__ import annotations

import re

from rich.cells import cell_len, chop_cells, set_cell_size

__all__ = ["cell_len", "cut", "ljust", "rjust", "wrap", "wrap_cells"]


def ljust(text: str, width: int) -> str:
    """``text`` and blanks up to ``width`` cells (as it is when it is wider).

    >>> [ljust(name, 6) + "|" for name in ("Ann", "山田", "Zoë 🎲", "Bartholomew")]
    ['Ann   |', '山田  |', 'Zoë 🎲|', 'Bartholomew|']
    """
    return text + " " * max(0, width - cell_len(text))


def rjust(text: str, width: int) -> str:
    """Blanks and ``text`` up to ``width`` cells.

    >>> rjust("山田", 6) + "|", rjust("e\\u0301", 3) == "  e\\u0301"  # (an accent: no cell)
    ('  山田|', True)
    """
    return " " * max(0, width - cell_len(text)) + text


def cut(text: str, width: int) -> str:
    """``text`` in at most ``width`` cells: cut with "…" when it is wider.

    >>> cut("Bartholomew-Maximili", 8), cut("Zoë 🎲🎲", 6), cut("Ann", 8)
    ('Barthol…', 'Zoë…', 'Ann')
    """
    if cell_len(text) <= width:
        return text
    if width <= 1:
        return "…"[:width]
    return set_cell_size(text, width - 1).rstrip() + "…"


def wrap(text: str, width: int, initial_indent: str = "",
         subsequent_indent: str = "", keep_blanks: bool = False) -> list[str]:
    """``text`` in lines of at most ``width`` cells (indents included), broken at blanks
    (runs of blanks are one; with ``keep_blanks`` the blanks before its first word and
    between words on a line are kept as they are, as a help text's columns need); a word
    wider than a line is cut in pieces (``textwrap.wrap`` counts characters: a line of
    wide letters took twice its room).

    >>> wrap("山田太郎 花子 Bob", 10)
    ['山田太郎', '花子 Bob']
    >>> wrap("山田太郎山田太郎, Bob", 10, "  ", "    ")
    ['  山田太郎', '    山田太', '    郎,', '    Bob']
    >>> wrap("  山田   roll the dice", 13, subsequent_indent="       ", keep_blanks=True)
    ['  山田   roll', '       the', '       dice']
    """
    if keep_blanks:
        body = text.lstrip(" ")
        initial_indent += text[:len(text) - len(body)]
        pieces = [(" " * len(gap), word) for gap, word in re.findall(r"(\s*)(\S+)", body)]
    else:
        pieces = [(" ", word) for word in text.split()]
    lines: list[str] = []
    line = initial_indent
    empty = True  # (nothing but the indent on the line so far)
    for gap, word in pieces:
        sep = "" if empty else gap
        if cell_len(line + sep + word) <= width:
            line, empty = line + sep + word, False
            continue
        if not empty:
            lines.append(line)
            line, empty = subsequent_indent, True
        room = max(1, width - cell_len(line))
        while cell_len(word) > room:  # (a word wider than a line: cut)
            head = chop_cells(word, room)[0]
            lines.append(line + head)
            word = word[len(head):]
            line = subsequent_indent
            room = max(1, width - cell_len(line))
        line, empty = line + word, False
    if not empty:
        lines.append(line)
    return lines


def wrap_cells(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` cells: broken at blanks where it can be, a
    word wider than a line cut in pieces; the blanks kept (a name is shown as typed).

    >>> wrap_cells("Zoë 🎲 <b>[red]x[/]", 10)
    ['Zoë 🎲 ', '<b>[red]x[', '/]']
    """
    width = max(1, width)
    lines: list[str] = []
    line = ""
    for word in _words(text):
        if cell_len(line + word.rstrip()) <= width:
            line += word
            continue
        if line:
            lines.append(line)
            line = ""
        while cell_len(word.rstrip()) > width:
            head, *_ = chop_cells(word, width)
            lines.append(head)
            word = word[len(head):]
        line = word
    if line or not lines:
        lines.append(line)
    return lines


def _words(text: str) -> list[str]:
    """The words of ``text``, each with the blanks after it."""
    out: list[str] = []
    word = ""
    for ch in text:
        if ch != " " and word.endswith(" "):
            out.append(word)
            word = ""
        word += ch
    if word:
        out.append(word)
    return out
