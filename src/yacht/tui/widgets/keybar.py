"""The keys of a screen in one line at the bottom; a click on a key does what the key does."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events
from textual.reactive import reactive
from textual.widget import Widget

__all__ = ["KeyBar"]


class KeyBar(Widget):
    """What Textual's ``Footer`` shows (the bindings marked ``show``), as one widget.

    The game's screens show the same keys whatever has the focus, so the bar is
    worked out once. (The ``Footer`` rebuilds a widget per key on every focus
    change: a click on a die or a box cost more than the game's own work, and the
    setup screen rebuilt it five times before it was first shown.)
    """

    ALLOW_SELECT = False
    COMPONENT_CLASSES = {"keybar--key", "keybar--description", "keybar--hover"}
    DEFAULT_CSS = """
    KeyBar {
        dock: bottom;
        height: 1;
        width: 1fr;
        text-wrap: nowrap;
        text-overflow: clip;
        color: $footer-foreground;
        background: $footer-background;
        & > .keybar--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        & > .keybar--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        & > .keybar--hover {
            color: $footer-key-foreground;
            background: $block-hover-background;
        }
    }
    """

    hover: reactive[int] = reactive(-1)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        #: (key as shown, description, action, the node whose binding it is)
        self.keys: list[tuple[str, str, str, Any]] = []
        self._spans: list[tuple[int, int]] = []
        #: the words of a key that says something else than its binding now, by action
        self.words: dict[str, str] = {}

    def on_mount(self) -> None:
        seen: set[str] = set()
        for node, binding, _enabled, _tip in self.screen.active_bindings.values():
            if binding.show and binding.action not in seen:
                seen.add(binding.action)
                self.keys.append((self.app.get_key_display(binding),
                                  self.words.get(binding.action, binding.description),
                                  binding.action, node))
        self.refresh()

    def say(self, action: str, words: str) -> None:
        """The key of ``action`` says ``words`` (what it does now: a key that toggles)."""
        self.words[action] = words
        self.keys = [(key, words if act == action else said, act, node)
                     for key, said, act, node in self.keys]
        self.refresh()

    def render(self) -> Text:
        key_style = self.get_component_rich_style("keybar--key")
        text_style = self.get_component_rich_style("keybar--description")
        hover_style = self.get_component_rich_style("keybar--hover")
        out = Text(no_wrap=True, overflow="crop", end="")
        self._spans = []
        for i, (key, description, _action, _node) in enumerate(self.keys):
            start = out.cell_len
            out.append(f" {key} ", key_style)
            out.append(f"{description} ", text_style)
            if i == self.hover:
                out.stylize(hover_style, start, out.cell_len)
            self._spans.append((start, out.cell_len))
        return out

    def key_at(self, x: int) -> int:
        """The index of the key drawn at column ``x`` (-1 for none)."""
        for i, (start, end) in enumerate(self._spans):
            if start <= x < end:
                return i
        return -1

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self.hover = self.key_at(event.x)

    def on_leave(self) -> None:
        self.hover = -1

    async def on_click(self, event: events.Click) -> None:
        event.stop()
        i = self.key_at(event.x)
        if i >= 0:
            _key, _description, action, node = self.keys[i]
            await self.app.run_action(action, node)
