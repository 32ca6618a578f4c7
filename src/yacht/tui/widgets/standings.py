"""The players in one list: number, full name and total (the card may show them by
number only, or not all of them, in a small terminal)."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget

__all__ = ["Standings", "standing_lines"]


def standing_lines(snap: Mapping[str, Any], width: int,
                   shown: Sequence[int] | None = None) -> list[Text]:
    """A line per player (more when a long name wraps): ``▶`` on turn, ``★`` a winner,
    the number the card uses, the whole name and the total; the players whose cards are
    not on the card are dimmed.

    >>> snap = {"players": [{"name": "Ann", "total": 12}, {"name": "Intermediate",
    ...         "total": 7}], "current": 1, "over": False, "winners": []}
    >>> [line.plain for line in standing_lines(snap, 16)]
    [' 1 Ann        12', '▶2 Intermediate', '               7']
    """
    over = bool(snap["over"])
    winners = set(snap.get("winners") or ())
    current = int(snap["current"])
    out: list[Text] = []
    for i, p in enumerate(snap["players"]):
        mark = "★" if over and i in winners else "▶" if not over and i == current else " "
        head = f"{mark}{i + 1} "
        total = str(p["total"])
        room = max(1, width - len(head) - len(total) - 1)
        name = str(p["name"])
        parts = textwrap.wrap(name, room, break_long_words=True,
                              drop_whitespace=False) or [name]
        if len(name) > room and len(name) <= width - len(head):
            parts = [name]  # the whole name on its line, the total under it
        style = "bold" if mark != " " else ""
        if shown is not None and i not in shown:
            style += " dim"
        lines = [f"{head}{parts[0]}", *(" " * len(head) + part for part in parts[1:])]
        last = lines[-1]
        if len(last) + 1 + len(total) <= width:
            lines[-1] = last + " " * (width - len(last) - len(total)) + total
        else:
            lines.append(" " * (width - len(total)) + total)
        out += [Text(line.rstrip() if not line.endswith(total) else line, style=style.strip())
                for line in lines]
    if shown is not None:
        others = [str(i + 1) for i in range(len(snap["players"])) if i not in shown]
        hint = f"(< > shows {', '.join(others)})"
        out.append(Text(hint if len(hint) <= width else "(< > the others)", style="dim"))
    return out


class Standings(Widget):
    """Every player with their total; shown beside a card that cannot show them all by
    name."""

    DEFAULT_CSS = """
    Standings { height: auto; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._snap: Mapping[str, Any] | None = None
        self._shown: tuple[int, ...] | None = None

    def show(self, snap: Mapping[str, Any], shown: Sequence[int] | None = None) -> None:
        key = (repr(snap["players"]), snap["current"], snap["over"], repr(snap["winners"]),
               None if shown is None else tuple(shown))
        if self._snap is not None and key == self._key():
            return
        self._snap = snap
        self._shown = None if shown is None else tuple(shown)
        self.refresh(layout=True)

    def _key(self) -> tuple[Any, ...]:
        snap = self._snap
        assert snap is not None
        return (repr(snap["players"]), snap["current"], snap["over"], repr(snap["winners"]),
                self._shown)

    def _lines(self, width: int) -> list[Text]:
        if self._snap is None:
            return []
        return standing_lines(self._snap, max(8, width), self._shown)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._lines(width))

    def render(self) -> Text:
        return Text("\n").join(self._lines(self.content_size.width))
