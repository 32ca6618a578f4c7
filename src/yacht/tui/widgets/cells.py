"""Text measured in terminal cells, not characters: an emoji or a wide letter takes two
cells, a combining accent none (a name of 20 characters may take 40 cells)."""

from __future__ import annotations

from rich.cells import cell_len, chop_cells, set_cell_size

__all__ = ["cell_len", "cut", "ljust", "rjust", "wrap_cells"]


def ljust(text: str, width: int) -> str:
    """``text`` and blanks up to ``width`` cells (as it is when it is wider).

    >>> ljust("Zoë 🎲", 8) + "|"
    'Zoë 🎲  |'
    """
    return text + " " * max(0, width - cell_len(text))


def rjust(text: str, width: int) -> str:
    """Blanks and ``text`` up to ``width`` cells."""
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
