"""The table's last messages, the newest kept: as many whole messages as the lines it is
given hold (a long one wraps), the oldest left out first."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widget import Widget

from .cells import cut, wrap_cells

__all__ = ["NewsLog", "news_lines"]


def news_lines(news: Sequence[str], width: int, height: int) -> list[str]:
    """The lines of the newest messages of ``news`` (oldest first) that fit ``height``
    lines of ``width`` cells, in their order; a newest message longer than all the lines
    is cut at the end ("…").

    >>> news_lines(["Ann: Choice for 25", "Expert keeps 4 5 3", "Expert: Ones for 2"],
    ...            12, 4)
    ['Expert keeps', '4 5 3', 'Expert: Ones', 'for 2']
    >>> news_lines(["Ann: Chance for 19"], 12, 1)
    ['Ann: Chance…']
    """
    if height <= 0 or width <= 0:
        return []
    out: list[str] = []
    for message in reversed(news):
        lines = [line.rstrip() for line in wrap_cells(message, width)]
        if len(out) + len(lines) > height:
            if not out:  # the newest alone does not fit: its beginning
                head = lines[:height]
                head[-1] = cut(head[-1] + " …", width) if len(lines) > height else head[-1]
                out = head
            break
        out = lines + out
    return out


class NewsLog(Widget):
    """The last messages of the table (the newest at the bottom), in the lines left to it;
    ``gap``: a blank line first (under the players' list), when there is a message."""

    DEFAULT_CSS = """
    NewsLog { height: 1fr; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.news: tuple[str, ...] = ()
        self.gap = False

    def show(self, news: Sequence[str]) -> None:
        news = tuple(news)
        if news != self.news:
            self.news = news
            self.refresh()

    def render(self) -> Text:
        size = self.content_size
        lines = news_lines(self.news, size.width, size.height - self.gap)
        if lines and self.gap:
            lines.insert(0, "")
        return Text("\n".join(lines), no_wrap=True, overflow="crop")
