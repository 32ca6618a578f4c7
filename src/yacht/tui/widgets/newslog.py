"""The table's last messages, the newest kept: as many whole messages as the lines it is
given hold (a long one wraps), the oldest left out first."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widget import Widget

from .cells import cell_len, cut, wrap_cells

__all__ = ["NewsLog", "news_lines"]


def news_lines(news: Sequence[str], width: int, height: int,
               names: Sequence[str] = ()) -> list[str]:
    """The lines of the newest messages of ``news`` (oldest first) that fit ``height``
    lines of ``width`` cells, in their order; a newest message longer than all the lines
    is cut: first the player's name it begins with (one of ``names``), else at the end
    ("…").

    >>> news_lines(["Ann: Choice for 25", "Expert keeps 4 5 3", "Expert: Ones for 2"],
    ...            12, 4)
    ['Expert keeps', '4 5 3', 'Expert: Ones', 'for 2']
    >>> news_lines(["Ann: Chance for 19"], 12, 1)
    ['Ann: Chance…']
    >>> news_lines(["Bartholomew-Maximili: Chance for 19"], 24, 1, ["Bartholomew-Maximili"])
    ['Bartholo…: Chance for 19']
    """
    if height <= 0 or width <= 0:
        return []
    out: list[str] = []
    for message in reversed(news):
        lines = [line.rstrip() for line in wrap_cells(message, width)]
        if len(out) + len(lines) > height and not out:
            # the newest alone does not fit: a long name it begins with is cut (else a
            # line said the name alone, as "漢漢漢漢漢漢漢漢漢漢漢漢漢漢漢…")
            lines = _name_cut(message, names, width, height) or lines
        if len(out) + len(lines) > height:
            if not out:  # the newest alone does not fit: its beginning
                head = lines[:height]
                head[-1] = cut(head[-1] + " …", width) if len(lines) > height else head[-1]
                out = head
            break
        out = lines + out
    return out


def _name_cut(message: str, names: Sequence[str], width: int, height: int) -> list[str]:
    """The lines of ``message`` in ``height`` lines of ``width`` cells with the name it
    begins with (one of ``names``) cut as little as needed ("Bartholo…: Chance for 19"),
    keeping at least a letter of it; none when no such name or cut makes it fit."""
    for name in sorted(names, key=len, reverse=True):
        if name and message.startswith(name) and len(message) > len(name):
            rest = message[len(name):]
            for room in range(cell_len(name) - 1, 1, -1):
                lines = [line.rstrip() for line in wrap_cells(cut(name, room) + rest, width)]
                if len(lines) <= height:
                    return lines
            return []
    return []


class NewsLog(Widget):
    """The last messages of the table (the newest at the bottom), in the lines left to it;
    ``gap``: a blank line first (under the players' list), when there is a message."""

    DEFAULT_CSS = """
    NewsLog { height: 1fr; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.news: tuple[str, ...] = ()
        #: the players' names (a long one a message begins with is cut first)
        self.names: tuple[str, ...] = ()
        self.gap = False

    def show(self, news: Sequence[str], names: Sequence[str] = ()) -> None:
        news, names = tuple(news), tuple(names)
        if (news, names) != (self.news, self.names):
            self.news, self.names = news, names
            self.refresh()

    def render(self) -> Text:
        size = self.content_size
        lines = news_lines(self.news, size.width, size.height - self.gap, self.names)
        if lines and self.gap:
            lines.insert(0, "")
        return Text("\n".join(lines), no_wrap=True, overflow="crop")
