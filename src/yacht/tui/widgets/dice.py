"""Dice drawn as faces with pips; the ones held, or marked to roll again, are set apart
(by a word or a sign under the face, not by colour alone)."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

__all__ = ["DiceRow", "Die", "dice_per_line", "face_lines"]


def dice_per_line(count: int) -> int:
    """How many of ``count`` dice go on a line: at most five, the lines as even as can be.

    >>> [dice_per_line(n) for n in (5, 6, 10)]
    [5, 3, 5]
    """
    lines = -(-count // 5)
    return -(-count // lines)

_PIPS: dict[int, tuple[int, ...]] = {  # cells of a 3x3 grid, row by row
    1: (4,), 2: (2, 6), 3: (2, 4, 6), 4: (0, 2, 6, 8), 5: (0, 2, 4, 6, 8),
    6: (0, 2, 3, 5, 6, 8),
}


def face_lines(value: int, gap: int = 1, pip: str = "●") -> list[str]:
    """Three lines of pips for ``value`` (0 = no die yet), ``gap`` spaces between columns;
    ``pip``: the mark of a pip (coloured dice: the colour's own shape)."""
    width = 3 + 2 * gap
    if value == 0:
        return [" " * width, "?".center(width), " " * width]
    cells = _PIPS.get(value)
    if cells is None:
        return [" " * width, str(value).center(width), " " * width]
    return [(" " * gap).join(pip if r * 3 + c in cells else " " for c in range(3))
            for r in range(3)]


class Die(Static):
    """One die: its face, and under it the key that chooses it (▲ either side when it is
    marked to roll again, HOLD beside it when it is held)."""

    value: reactive[int] = reactive(0)
    #: "roll" (marked to roll again), "held", or ""
    mark: reactive[str] = reactive("")
    cursor: reactive[bool] = reactive(False)

    class Clicked(Message):
        def __init__(self, index: int) -> None:
            self.index = index
            super().__init__()

    def __init__(self, index: int, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.index = index
        #: each face's pip mark and colour, ones first (coloured dice: Kismet), or ()
        self.pips: tuple[str, ...] = ()
        self.colours: tuple[str, ...] = ()

    @property
    def pip(self) -> str:
        """The mark of this die's pips: its colour's shape on coloured dice."""
        return self.pips[self.value - 1] if 0 < self.value <= len(self.pips) else "●"

    @property
    def chosen(self) -> bool:
        """Marked to roll again."""
        return self.mark == "roll"

    def render(self) -> str:
        key = str((self.index + 1) % 10)
        held = self.mark == "held"
        side = "▲" if self.chosen else " "
        shown = f"[{key}]" if self.cursor else f" {key} "
        width = self.content_size.width
        if width >= 9 and self.content_size.height >= 6:  # a big die for a big terminal
            face = [line.center(width) for line in face_lines(self.value, 3, self.pip)]
            line = f"HOLD{shown}" if held else f"{side}{shown}{side}"
            return "\n".join(["", *face, "", line.center(width)])
        if width < 5:  # a small die beside a crowded card: the cursor is its style
            return "\n".join([*face_lines(self.value, 0, self.pip),
                              "HLD" if held else f"{side}{key}{side}"])
        return "\n".join([*face_lines(self.value, 1, self.pip),
                          "HOLD" if held else f"{side}{shown}{side}"])

    def watch_mark(self, mark: str) -> None:
        self.set_class(mark == "roll", "-chosen")
        self.set_class(mark == "held", "-held")

    def watch_value(self, value: int) -> None:
        self.set_class(value == 0, "-blank")
        colour = self.colours[value - 1] if 0 < value <= len(self.colours) else ""
        for name in ("black", "red", "green"):
            self.set_class(colour == name, f"-{name}")

    def watch_cursor(self, cursor: bool) -> None:
        self.set_class(cursor, "-cursor")

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Clicked(self.index))


class DiceRow(Widget, can_focus=True):
    """All the dice; focus it to move among them with the arrows and choose with Space."""

    BINDINGS = [
        Binding("left", "move(-1)", "Previous die", show=False),
        Binding("right", "move(1)", "Next die", show=False),
        Binding("space", "toggle_die", "Choose die", show=False),
    ]

    class Toggle(Message):
        """The player asks to hold or release die ``index`` (or to mark it to roll
        again, or not)."""

        def __init__(self, index: int) -> None:
            self.index = index
            super().__init__()

    cursor: reactive[int] = reactive(0)

    def __init__(self, count: int, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.count = count

    @property
    def per_row(self) -> int:
        """The dice on a line: at most five, as many on each line (six dice: two lines of
        three, as high as five and one and narrower)."""
        return dice_per_line(self.count)

    def compose(self) -> ComposeResult:
        per_row = self.per_row
        for start in range(0, self.count, per_row):
            with Horizontal(classes="dice-line"):
                for i in range(start, min(self.count, start + per_row)):
                    yield Die(i, id=f"die-{i}")

    def show(self, dice: tuple[int, ...], marks: list[str] | tuple[str, ...] = (),
             dim: bool = False, pips: tuple[str, ...] = (),
             colours: tuple[str, ...] = ()) -> None:
        """Show ``dice``, each with its mark (the snapshot's ``marks``: "held", "roll"
        or ""); ``pips`` and ``colours``: each face's (coloured dice)."""
        for die in self.query(Die):
            die.pips, die.colours = pips, colours
            die.value = dice[die.index] if die.index < len(dice) else 0
            die.mark = marks[die.index] if die.index < len(marks) else ""
        self.set_class(dim, "-previous")

    def _paint_cursor(self, focused: bool | None = None) -> None:
        focused = self.has_focus if focused is None else focused
        for die in self.query(Die):
            die.cursor = focused and die.index == self.cursor

    def watch_cursor(self) -> None:
        self._paint_cursor()

    def on_focus(self) -> None:
        self._paint_cursor(True)

    def on_blur(self) -> None:
        self._paint_cursor(False)

    def on_key(self, event: events.Key) -> None:
        # handled here rather than by bindings, so keys keep their order
        if event.key in ("left", "right"):
            event.stop()
            self.action_move(-1 if event.key == "left" else 1)
        elif event.key == "space":
            event.stop()
            self.action_toggle_die()

    def action_move(self, step: int) -> None:
        self.cursor = (self.cursor + step) % self.count

    def action_toggle_die(self) -> None:
        self.post_message(self.Toggle(self.cursor))

    def on_die_clicked(self, message: Die.Clicked) -> None:
        message.stop()
        self.cursor = message.index
        self.post_message(self.Toggle(message.index))
