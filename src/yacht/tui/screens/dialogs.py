"""Small modal screens: confirm, the Oops menu, the hint, the help."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.geometry import Size
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Label, Static

from yacht.render import wrap_text

__all__ = ["ChoiceDialog", "HelpScreen", "TextDialog", "Wrapped"]

#: the width a text is first made for, before it is shown (the help at 80 columns)
FIRST_WIDTH = 64


class Wrapped(Widget):
    """Text made for the width it is shown at (``make(width)``, each line fitting), and
    never wrapped again: a resized window makes it again for its new width."""

    DEFAULT_CSS = "Wrapped { height: auto; }"

    def __init__(self, make: Callable[[int], str], *, classes: str | None = None) -> None:
        super().__init__(classes=classes)
        self.make = make
        self._made: tuple[int, str] | None = None

    def text_for(self, width: int) -> str:
        width = max(20, width)
        if self._made is None or self._made[0] != width:
            self._made = (width, self.make(width))
        return self._made[1]

    @property
    def text(self) -> str:
        """The text as last made (for the first width before it is shown)."""
        return self._made[1] if self._made is not None else self.text_for(FIRST_WIDTH)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self.text_for(width).count("\n") + 1

    def render(self) -> Text:
        return Text(self.text_for(self.content_size.width), no_wrap=True, overflow="crop",
                    end="")


class ChoiceDialog(ModalScreen[str | None]):
    """A question with buttons; dismisses with the chosen button's id (None on Esc)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    #: a window under 24 rows gives the question every line it can (no frame padding,
    #: app.tcss), one under 20 flat buttons: the last choice ("No, keep playing") was cut
    #: off at 60x20
    VERTICAL_BREAKPOINTS = [(0, "-tiny"), (20, "-short"), (24, "-tall")]

    def __init__(self, title: str, text: str, choices: list[tuple[str, str, bool]],
                 why: dict[str, str] | None = None, **kw: str) -> None:
        """``choices``: (id, label, enabled); keys 1-9 press them in order. ``why``: by
        id, why a choice is not possible (said when its key is pressed)."""
        super().__init__(**kw)
        # (the size class from the start, as the game screen sets its own)
        height = self.app.size.height
        self.add_class([name for least, name in self.VERTICAL_BREAKPOINTS
                        if height >= least][-1])
        self.title_text = title
        self.text = text
        self.choices = choices
        self.why = why or {}

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            if self.text:
                yield Static(self.text, classes="dialog-text")
            with Vertical(classes="dialog-buttons"):
                for n, (cid, label, enabled) in enumerate(self.choices, 1):
                    yield Button(f"{n}  {label}", id=f"choice-{cid}", disabled=not enabled,
                                 variant="primary" if n == 1 and enabled else "default",
                                 compact=self.has_class("-tiny"))

    def on_mount(self) -> None:
        for b in self.query(Button):
            if not b.disabled:
                b.focus()
                break

    def on_resize(self) -> None:
        for b in self.query(Button):
            b.compact = self.has_class("-tiny")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id:
            self.dismiss(event.button.id.removeprefix("choice-"))

    def on_key(self, event: events.Key) -> None:
        ch = event.character
        if ch and ch.isdigit() and ch != "0":
            n = int(ch)
            if n <= len(self.choices):
                cid, _, enabled = self.choices[n - 1]
                if enabled:
                    self.dismiss(cid)
                else:
                    self.notify(self.why.get(cid) or "that choice is not possible now",
                                severity="warning")

    def action_cancel(self) -> None:
        self.dismiss(None)


class TextDialog(ModalScreen[None]):
    """A title and scrollable text; any of Esc, Enter or q closes it.

    ``text``: the text, or what makes it for a width (a help with columns of its own);
    either way it is wrapped once, for the width it is shown at (:class:`Wrapped`).
    """

    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("enter", "close", "Close", show=False),
        Binding("q", "close", "Close", show=False),
        Binding("up", "scroll(-1)", "Up", show=False),
        Binding("down", "scroll(1)", "Down", show=False),
        Binding("pageup", "scroll(-10)", "Page up", show=False),
        Binding("pagedown", "scroll(10)", "Page down", show=False),
        Binding("home", "scroll(-10000)", "Top", show=False),
        Binding("end", "scroll(10000)", "End", show=False),
    ]

    #: a short terminal (80x24) gives the text every line it can: no frame padding, no
    #: margins (app.tcss); the hint with both rankings then shows whole, unscrolled
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]

    def __init__(self, title: str, text: str | Callable[[int], str], **kw: str) -> None:
        super().__init__(**kw)
        # (the size class from the start, as the game screen sets its own)
        height = self.app.size.height
        self.add_class([name for least, name in self.VERTICAL_BREAKPOINTS
                        if height >= least][-1])
        self.title_text = title
        make = text if callable(text) else None
        self.body = Wrapped(make or (lambda width: wrap_text(str(text), width)),
                            classes="dialog-text")

    @property
    def text(self) -> str:
        """The text as it is shown."""
        return self.body.text

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Label(self.title_text, classes="dialog-title")
            with VerticalScroll(classes="dialog-scroll"):
                yield self.body
            with Horizontal(classes="dialog-buttons-row"):
                yield Button("Close (Esc)", id="close", variant="primary", compact=True)

    def on_mount(self) -> None:
        # the text scrolls by the keys above; the one Tab stop is the Close button
        self.query_one(VerticalScroll).can_focus = False
        self.query_one("#close", Button).focus()

    def action_scroll(self, lines: int) -> None:
        scroll = self.query_one(VerticalScroll)
        scroll.scroll_to(y=max(0, scroll.scroll_y + lines), animate=False)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)


class HelpScreen(TextDialog):
    """The variant's rules (as `yacht rules` prints them) and the keys."""
