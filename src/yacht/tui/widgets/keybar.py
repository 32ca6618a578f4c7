"""The keys of a screen in one line at the bottom; a click on a key does what the key does."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events
from textual.reactive import reactive
from textual.widget import Widget

from .cells import cell_len

__all__ = ["KeyBar"]

#: where keys that do not fit the bar are left out
MORE = "… "


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
        self._spans: list[tuple[int, int, int]] = []  # (start, end, the key's index)
        #: the words of a key that says something else than its binding now, by action
        self.words: dict[str, str] = {}
        #: the actions whose keys are left out now (they do nothing at this moment)
        self.hidden: frozenset[str] = frozenset()

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

    def hide(self, actions: frozenset[str]) -> None:
        """Leave out the keys of ``actions`` (none: every key shown), e.g. the keys of a
        person's turn while a computer plays."""
        if actions != self.hidden:
            self.hidden = actions
            self.refresh()

    def visible_keys(self) -> list[int]:
        """The keys not hidden now, by index."""
        return [i for i, (*_, action, _node) in enumerate(self.keys)
                if action not in self.hidden]

    def _gap_after(self, k: int, shown: list[int]) -> bool:
        """A key left out for room follows key ``k``."""
        later = [i for i in self.visible_keys() if i > k]
        return bool(later) and later[0] not in shown

    def shown(self, width: int) -> list[int]:
        """The keys that fit ``width`` cells, by index: all of them (but the hidden ones),
        else the first (the screen's main key), help and quit kept and the others left
        out from the right (a "…" then says keys are left out: the help lists them all)."""
        sizes = [cell_len(f" {key} {description} ") for key, description, *_ in self.keys]
        shown = self.visible_keys()
        kept = {i for i, (_key, _words, action, _node) in enumerate(self.keys)
                if i == 0 or "help" in action or "quit" in action}

        def total() -> int:  # the keys, and a "…" after each one followed by a gap
            gaps = sum(1 for k in shown if self._gap_after(k, shown))
            return sum(sizes[k] for k in shown) + gaps * len(MORE)

        for i in reversed(shown[:]):
            if total() <= width:
                break
            if i not in kept:
                shown.remove(i)
        return shown

    def render(self) -> Text:
        key_style = self.get_component_rich_style("keybar--key")
        text_style = self.get_component_rich_style("keybar--description")
        hover_style = self.get_component_rich_style("keybar--hover")
        out = Text(no_wrap=True, overflow="crop", end="")
        self._spans = []
        shown = self.shown(self.content_size.width)
        left_out = len(shown) < len(self.visible_keys())
        for i in shown:
            key, description, _action, _node = self.keys[i]
            start = out.cell_len
            out.append(f" {key} ", key_style)
            out.append(f"{description} ", text_style)
            if i == self.hover:
                out.stylize(hover_style, start, out.cell_len)
            self._spans.append((start, out.cell_len, i))
            if left_out and self._gap_after(i, shown):
                out.append(MORE, text_style)  # (keys left out here)
        return out

    def key_at(self, x: int) -> int:
        """The index of the key drawn at column ``x`` (-1 for none)."""
        for start, end, i in self._spans:
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
