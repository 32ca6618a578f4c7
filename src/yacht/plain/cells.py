"""Text measured in the cells of a terminal, not in characters: a wide letter (Chinese,
Japanese, Korean) or an emoji takes two cells, a combining accent none ("山田太郎" is 4
characters and 8 cells). The line game and the `yacht` commands line their columns up
with it; the measure is rich's, as the terminal game's (``yacht.tui.widgets.cells``).
"""

from __future__ import annotations

from rich.cells import cell_len, chop_cells

__all__ = ["cell_len", "ljust", "rjust", "wrap"]


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


def wrap(text: str, width: int, initial_indent: str = "",
         subsequent_indent: str = "") -> list[str]:
    """``text`` in lines of at most ``width`` cells (indents included), broken at blanks;
    a word wider than a line is cut in pieces (``textwrap.wrap`` counts characters: a
    line of wide letters took twice its room).

    >>> wrap("山田太郎 花子 Bob", 10)
    ['山田太郎', '花子 Bob']
    >>> wrap("山田太郎山田太郎, Bob", 10, "  ", "    ")
    ['  山田太郎', '    山田太', '    郎,', '    Bob']
    """
    lines: list[str] = []
    line = initial_indent
    empty = True  # (nothing but the indent on the line so far)
    for word in text.split():
        sep = "" if empty else " "
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
