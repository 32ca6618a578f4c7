"""One value out of a list, on one line: a light stand-in for Textual's ``Select``.

A ``Select`` builds its drop-down list (a scrolling ``OptionList``) with itself; the
setup screen has five or more of them and they were most of its start-up time. A
``Choice`` is one widget; its list is built when it is opened.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.screen import ModalScreen
from textual.widget import Widget

if TYPE_CHECKING:
    from textual.timer import Timer
    from textual.widgets import OptionList

__all__ = ["Choice", "ChoiceList"]


class Choice(Widget, can_focus=True):
    """A value out of ``options`` (label, value); Enter, Space or a click opens the list.

    A long label wraps (as a ``Select``'s does). Left and right step to the previous
    and next value without opening it. A new value posts :class:`Choice.Changed`.
    """

    DEFAULT_CSS = """
    Choice {
        width: 1fr;
        height: auto;
        padding: 0 1 0 0;
        color: $foreground;
        background: $surface;
        pointer: pointer;
        &:focus { background-tint: $foreground 5%; }
        & > .choice--arrow { color: $foreground 50%; }
    }
    """
    COMPONENT_CLASSES = {"choice--arrow"}
    BINDINGS = [
        Binding("enter,space,down,up", "open", "Show the choices", show=False),
        Binding("left", "step(-1)", "Previous", show=False),
        Binding("right", "step(1)", "Next", show=False),
    ]

    value: reactive[str] = reactive("", init=False)

    class Changed(Message):
        """The value changed (by the list, the arrows or the program)."""

        def __init__(self, choice: Choice, value: str) -> None:
            super().__init__()
            self.choice = choice
            self.value = value

        @property
        def control(self) -> Choice:
            return self.choice

    def __init__(self, options: Sequence[tuple[str, str]], value: str, *,
                 id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        if not options:
            raise ValueError("a Choice needs at least one option")
        self.options = list(options)
        values = [v for _, v in self.options]
        self.set_reactive(Choice.value, value if value in values else values[0])

    @property
    def values(self) -> list[str]:
        return [v for _, v in self.options]

    @property
    def label(self) -> str:
        return next(label for label, v in self.options if v == self.value)

    def validate_value(self, value: str) -> str:
        return value if value in self.values else self.value

    def watch_value(self, value: str) -> None:
        self.post_message(self.Changed(self, value))

    def _lines(self, width: int) -> list[Text]:
        """The label wrapped to ``width`` less the arrow's room."""
        room = max(1, width - 2)
        lines = list(Text(self.label).wrap(self.app.console, room))
        for line in lines:
            line.rstrip()
            line.truncate(room, pad=True)
        return lines or [Text(" " * room)]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._lines(width))

    def render(self) -> Text:
        lines = self._lines(self.content_size.width)
        lines[0].append(" ▼", self.get_component_rich_style("choice--arrow"))
        return Text("\n").join(lines)

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.action_open()

    def action_open(self) -> None:
        def chosen(value: str | None) -> None:
            if value is not None:
                self.value = value
            self.focus()

        self.app.push_screen(ChoiceList(self), chosen)

    def action_step(self, step: int) -> None:
        values = self.values
        self.value = values[(values.index(self.value) + step) % len(values)]


class ChoiceList(ModalScreen[str | None]):
    """The list of a :class:`Choice`, over its place on the screen.

    Enter or a click chooses; Esc or a click beside the list keeps the value.
    """

    DEFAULT_CSS = """
    ChoiceList {
        background: transparent;
        & > OptionList {
            height: auto;
            max-height: 14;
            border: tall $border;
            background: $surface;
            padding: 0;
            & > .option-list--option { padding: 0 1; }
        }
    }
    """
    BINDINGS = [Binding("escape", "keep", "Keep", show=False)]

    def __init__(self, choice: Choice) -> None:
        super().__init__()
        self.choice = choice
        self._placed = Region()  # (the choice's place the list was put under)
        self._follow: Timer | None = None

    def compose(self) -> ComposeResult:
        from textual.widgets import OptionList

        yield OptionList(*[label for label, _ in self.choice.options])

    def on_mount(self) -> None:
        from textual.widgets import OptionList

        self.place()
        listing: OptionList = self.query_one(OptionList)
        listing.highlighted = self.choice.values.index(self.choice.value)
        listing.focus()

    def on_resize(self) -> None:
        """The window changed while the list was open: over its choice's new place (it
        stayed where the old layout had it, cut by a narrower window). The screen under
        it may move its choices once more after that (the setup's narrow form): the list
        follows its choice while it is open."""
        self.call_after_refresh(self.place)
        if self._follow is None:
            self._follow = self.set_interval(0.1, self.follow)

    def follow(self) -> None:
        if self.choice.region != self._placed:
            self.place()

    def place(self) -> None:
        """The list under its choice (over it when there is no room below), as wide."""
        from textual.widgets import OptionList

        listing: OptionList = self.query_one(OptionList)
        place = self._placed = self.choice.region
        room = max(1, place.width - 4)  # less the border and the padding
        lines = sum(len(Text(label).wrap(self.app.console, room))
                    for label, _ in self.choice.options)
        height = min(lines, 12) + 2
        y = place.y + 1
        if y + height > self.size.height:  # no room below: over it
            y = max(0, place.y - height)
        listing.styles.offset = (place.x, y)
        listing.styles.width = place.width  # as a Select's list: long labels wrap

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.choice.values[event.option_index])

    def on_click(self, event: events.Click) -> None:
        if event.widget is self:  # beside the list
            self.dismiss(None)

    def action_keep(self) -> None:
        self.dismiss(None)
