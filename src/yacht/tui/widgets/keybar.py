"""The keys of a screen in a line at the bottom (or two, where a screen allows it); a click
on a key does what the key does."""

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

    def __init__(self, *, id: str | None = None, lines: int = 1) -> None:
        super().__init__(id=id)
        #: the most lines the bar takes: a second one only when the keys do not fit one
        #: (a screen whose keys are nowhere else, as the setup's F3, F4 and F6 at 45
        #: columns; the game's stay on one line: its help lists them all)
        self.lines = lines
        if lines > 1:
            self.styles.height = "auto"
        #: (key as shown, description, action, the node whose binding it is)
        self.keys: list[tuple[str, str, str, Any]] = []
        #: where each key shown is drawn: (start, end, the key's index, its line)
        self._spans: list[tuple[int, int, int, int]] = []
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
        self.refresh(layout=self.lines > 1)  # (the keys may take another line)

    def say(self, action: str, words: str) -> None:
        """The key of ``action`` says ``words`` (what it does now: a key that toggles, or
        does another thing in a pause)."""
        if self.words.get(action) == words:
            return
        self.words[action] = words
        self.keys = [(key, words if act == action else said, act, node)
                     for key, said, act, node in self.keys]
        self.refresh(layout=self.lines > 1)  # (the keys may take another line)

    def hide(self, actions: frozenset[str]) -> None:
        """Leave out the keys of ``actions`` (none: every key shown), e.g. the keys of a
        person's turn while a computer plays."""
        if actions != self.hidden:
            self.hidden = actions
            self.refresh(layout=self.lines > 1)

    def visible_keys(self) -> list[int]:
        """The keys not hidden now, by index."""
        return [i for i, (*_, action, _node) in enumerate(self.keys)
                if action not in self.hidden]

    def _gap_after(self, k: int, shown: list[int]) -> bool:
        """A key left out for room follows key ``k``."""
        later = [i for i in self.visible_keys() if i > k]
        return bool(later) and later[0] not in shown

    def shown(self, width: int) -> list[int]:
        """The keys that fit ``width`` cells, by index (on the bar's lines, in order)."""
        return [i for row in self.rows(width) for i in row]

    def rows(self, width: int) -> list[list[int]]:
        """The keys shown on each line of ``width`` cells, by index: all of them (but the
        hidden ones), on one line if they fit it, else on up to ``lines`` lines; if they
        do not fit those either, the first (the screen's main key), help and quit are
        kept and the others left out from the right (a "…" then says keys are left out:
        the help lists them all)."""
        sizes = [cell_len(f" {key} {description} ") for key, description, *_ in self.keys]
        shown = self.visible_keys()
        kept = {i for i, (_key, _words, action, _node) in enumerate(self.keys)
                if i == 0 or "help" in action or "quit" in action}

        def pack(lines: int) -> list[list[int]]:
            """The keys shown, a line filled before the next (a "…" after each one
            followed by a gap); the last line takes the rest."""
            rows: list[list[int]] = [[]]
            used = 0
            for k in shown:
                size = sizes[k] + (len(MORE) if self._gap_after(k, shown) else 0)
                if rows[-1] and used + size > width and len(rows) < lines:
                    rows.append([])
                    used = 0
                rows[-1].append(k)
                used += size
            return rows

        def fits(rows: list[list[int]]) -> bool:
            return all(sum(sizes[k] for k in row)
                       + len(MORE) * sum(1 for k in row if self._gap_after(k, shown))
                       <= width for row in rows)

        for i in reversed(shown[:]):
            if fits(pack(self.lines)):
                break
            if i not in kept:
                shown.remove(i)
        return pack(self.lines)

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return len(self.rows(width)) if self.lines > 1 else 1

    def render(self) -> Text:
        key_style = self.get_component_rich_style("keybar--key")
        text_style = self.get_component_rich_style("keybar--description")
        hover_style = self.get_component_rich_style("keybar--hover")
        out = Text(no_wrap=True, overflow="crop", end="")
        self._spans = []
        rows = self.rows(self.content_size.width)
        shown = [i for row in rows for i in row]
        left_out = len(shown) < len(self.visible_keys())
        for line, row in enumerate(rows):
            if line:
                out.append("\n")
            column = 0  # (where the line's next key starts)
            for i in row:
                key, description, _action, _node = self.keys[i]
                start = len(out)
                out.append(f" {key} ", key_style)
                out.append(f"{description} ", text_style)
                if i == self.hover:
                    out.stylize(hover_style, start, len(out))
                width = cell_len(f" {key} {description} ")
                self._spans.append((column, column + width, i, line))
                column += width
                if left_out and self._gap_after(i, shown):
                    out.append(MORE, text_style)  # (keys left out here)
                    column += len(MORE)
        return out

    def key_at(self, x: int, y: int = 0) -> int:
        """The index of the key drawn at column ``x`` of line ``y`` (-1 for none)."""
        for start, end, i, line in self._spans:
            if line == y and start <= x < end:
                return i
        return -1

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self.hover = self.key_at(event.x, event.y)

    def on_leave(self) -> None:
        self.hover = -1

    async def on_click(self, event: events.Click) -> None:
        event.stop()
        i = self.key_at(event.x, event.y)
        if i >= 0:
            _key, _description, action, node = self.keys[i]
            await self.app.run_action(action, node)
