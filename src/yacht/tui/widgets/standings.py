"""The players in one list: number, full name and total (the card may show them by
number only, or not all of them, in a small terminal)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget

from .cells import cell_len, cut, ljust, wrap_cells

__all__ = ["Standings", "standing_lines"]


def _player_lines(head: str, name: str, total: str, width: int) -> list[str]:
    """A player's lines: the head, the whole name (wrapped when it must) and the total."""
    pad = " " * cell_len(head)
    room = max(1, width - cell_len(head) - cell_len(total) - 1)
    if cell_len(name) <= room:
        parts = [name]
    elif cell_len(name) <= width - cell_len(head):
        parts = [name]  # the whole name on its line, the total under it
    else:
        parts = wrap_cells(name, width - cell_len(head))
    lines = [f"{head}{parts[0]}", *(pad + part for part in parts[1:])]
    last = lines[-1].rstrip()
    if cell_len(last) + 1 + cell_len(total) <= width:
        lines[-1] = ljust(last, width - cell_len(total)) + total
    else:
        lines[-1] = last
        lines.append(" " * (width - cell_len(total)) + total)
    return [line.rstrip() for line in lines[:-1]] + [lines[-1]]


def standing_lines(snap: Mapping[str, Any], width: int,
                   shown: Sequence[int] | None = None, room: int | None = None
                   ) -> list[Text]:
    """A line per player (more when a long name wraps): ``▶`` on turn, ``★`` a winner,
    the number the card uses, the whole name and the total; the players whose cards are
    not on the card are dimmed. Widths are terminal cells (an emoji takes two).

    ``room``: the lines there are. When the names do not all fit whole, a name is cut
    to its line ("Bartholomew-Maxi…", the first ones kept whole while they fit) and the
    line that says how to see the other cards goes (the card's heading says it too):
    every player keeps a line with their total.

    >>> snap = {"players": [{"name": "Ann", "total": 12}, {"name": "Intermediate",
    ...         "total": 7}], "current": 1, "over": False, "winners": []}
    >>> [line.plain for line in standing_lines(snap, 16)]
    [' 1 Ann        12', '▶2 Intermediate', '               7']
    >>> [line.plain for line in standing_lines(snap, 16, room=2)]
    [' 1 Ann        12', '▶2 Intermedia… 7']
    >>> [line.plain for line in standing_lines(snap, 16, room=1)]
    ['(+2 more)']
    >>> snap["players"].append({"name": "Cyd", "total": 3})
    >>> [line.plain for line in standing_lines(snap, 16, room=2)]
    ['▶2 Intermedia… 7', '(+2 more)']
    """
    over = bool(snap["over"])
    winners = set(snap.get("winners") or ())
    current = int(snap["current"])
    whole: list[list[str]] = []
    single: list[list[str]] = []
    styles: list[str] = []
    for i, p in enumerate(snap["players"]):
        mark = "★" if over and i in winners else "▶" if not over and i == current else " "
        head = f"{mark}{i + 1} "
        total = str(p["total"])
        name = str(p["name"])
        whole.append(_player_lines(head, name, total, width))
        short = cut(name, max(1, width - cell_len(head) - cell_len(total) - 1))
        single.append(_player_lines(head, short, total, width))
        style = "bold" if mark != " " else ""
        if shown is not None and i not in shown:
            style += " dim"
        styles.append(style.strip())
    hint: list[Text] = []
    if shown is not None:
        others = [str(i + 1) for i in range(len(snap["players"])) if i not in shown]
        # (the first words that fit: a line wider than the list was wrapped, its end
        # hidden under the next widget - '(< > the' at 45x14)
        said = [f"(< > shows {', '.join(others)})", "(< > the others)", "(< > others)"]
        words = next((w for w in said if cell_len(w) <= width), cut(said[-1], width))
        hint.append(Text(words, style="dim"))
    chosen = whole
    if room is not None and sum(map(len, whole)) + len(hint) > room:
        chosen = list(single)
        if sum(map(len, chosen)) + len(hint) > room:
            hint = []
        for i, lines in enumerate(whole):  # the whole names that still fit, first ones first
            if sum(map(len, chosen)) - len(chosen[i]) + len(lines) + len(hint) <= room:
                chosen[i] = lines
    players = list(range(len(chosen)))
    if room is not None and sum(map(len, chosen)) + len(hint) > room:
        # not a line for everyone: the one on turn and the next ones in seat order, and a
        # last line that says how many are left out (never a list cut silently)
        keep = max(0, room - 1)
        order = sorted(players, key=lambda i: (i != current, i))
        players = sorted(order[:keep])
        hint = [Text(f"(+{len(chosen) - len(players)} more)", style="dim")]
    out = [Text(line, style=styles[i]) for i in players for line in chosen[i]]
    return out + hint


class Standings(Widget):
    """Every player with their total; shown beside a card that cannot show them all by
    name. ``fit``: every player keeps a line in the height the list is given (names cut
    when they must be), rather than the list growing past it."""

    DEFAULT_CSS = """
    Standings { height: auto; }
    """

    def __init__(self, *, id: str | None = None, fit: bool = False) -> None:
        super().__init__(id=id)
        self.fit = fit
        self._snap: Mapping[str, Any] | None = None
        self._shown: tuple[int, ...] | None = None
        self._room: int | None = None

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
        return standing_lines(self._snap, max(8, width), self._shown, self._room)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        # (the container: the room below the Roll button, whatever this list takes)
        self._room = max(1, container.height) if self.fit else None
        return len(self._lines(width))

    def render(self) -> Text:
        return Text("\n").join(self._lines(self.content_size.width))
