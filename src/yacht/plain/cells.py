"""Text measured in the cells of a terminal, not in characters: a wide letter (Chinese,
Japanese, Korean) or an emoji takes two cells, a combining accent none ("山田太郎" is 4
characters and 8 cells). The line game and the `yacht` commands line their columns up
with it; the measure is rich's, as the terminal game's (``yacht.tui.widgets.cells``).
"""

from __future__ import annotations

from rich.cells import cell_len

__all__ = ["cell_len", "ljust", "rjust"]


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
