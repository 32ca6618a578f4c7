"""A top ten on a page of its own: from the end of a game (the new entries set apart)
and from the setup (the chosen variant's)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Button, Label, Static

from yacht.session.present import entry_note

from ..widgets.cells import cell_len, cut, ljust
from ..widgets.keybar import KeyBar
from .base import page_title

__all__ = ["TopTenScreen", "top_ten_text"]


def top_ten_text(entries: Sequence[Any], fresh: set[tuple[Any, ...]] | None = None,
                 width: int | None = None) -> Text:
    """The entries as a table of text: rank, name (whole, or cut to fit ``width`` cells:
    at 45 columns a name of 20 wide letters broke every line in three), score, date;
    the new ones marked with ``*`` (and set apart in reverse)."""
    if not entries:
        return Text("(no scores yet)")
    fresh = fresh or set()
    name_w = max(4, *(cell_len(e.name) for e in entries))  # (an emoji takes two cells)
    if width is not None:  # (the rank, score and date: 24 cells with their gaps)
        name_w = max(4, min(name_w, width - 24))
    out = Text()
    out.append(f"{'#':>3}  {'Name':<{name_w}}  {'Score':>5}  Date\n", style="bold")
    for e in entries:
        new = (e.game_id, e.name, e.score, e.rank) in fresh
        line = (f"{e.rank:>2}{'*' if new else ' '}  {ljust(cut(e.name, name_w), name_w)}  "
                f"{e.score:>5}  "
                f"{e.date.astimezone().strftime('%Y-%m-%d')}"
                f"{entry_note(False, e.dice_entered, e.ended_early)}")
        out.append(line + "\n", style="bold reverse" if new else "")
    out.rstrip()
    return out


class TopTenScreen(Screen[None]):
    """The top ten of one kind of game; ``a`` shows the list of assisted games instead."""

    AUTO_FOCUS = ""
    BINDINGS = [
        Binding("escape", "close", "Back"),
        Binding("t", "close", "Back", show=False),
        Binding("f6", "close", "Back", show=False),  # (the key that opened it)
        Binding("a", "assisted", "Assisted games"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, name: str, fetch: Callable[[bool], Sequence[Any]] | None,
                 assisted: bool = False, new_entries: Sequence[Any] = (), *,
                 kind: str | None = None, note: str = "") -> None:
        """``fetch(assisted)``: the entries (None: there is no store to read); ``kind``:
        the kind of game in words with its options (:func:`yacht.render.variant_title`),
        when they are not the variant's usual ones (each kind has its own list);
        ``note``: why the game just played is not in it (a demo, computers alone)."""
        super().__init__()
        self.game_name = name
        self.kind = kind if kind is not None and kind != name else None
        self.note = note
        self.fetch = fetch
        self.assisted = assisted
        self.fresh = {(e.game_id, e.name, e.score, e.rank) for e in new_entries}

    def compose(self) -> ComposeResult:
        yield Static(page_title("Top ten - ", self.game_name, self.app.size.width),
                     id="title", markup=False)
        with Vertical(id="topten-page"):
            yield Label("", id="topten-head", classes="section")
            yield Static(id="topten", markup=False)
            yield Static("* a new entry (from this game)", id="topten-new",
                         classes="comment")
            yield Static(self.note, id="topten-note", classes="comment", markup=False)
            yield Button("Back (Esc)", id="back", variant="primary", compact=True)
        yield KeyBar()

    def on_resize(self) -> None:
        self.query_one("#title", Static).update(
            page_title("Top ten - ", self.game_name, self.app.size.width))
        self.show_list()  # (its names cut to the width, or whole again)

    def on_mount(self) -> None:
        self.show_list()
        self.query_one("#back", Button).focus()

    def show_list(self) -> None:
        head = ("Assisted games (the advisor was asked, the computer played a person's "
                "turns, or dice entered by hand)" if self.assisted else "Top ten")
        if self.kind is not None:  # (the options' list: not the usual game's)
            head += f" of {self.kind}"
        self.query_one("#topten-head", Label).update(head)
        fresh = False  # a new entry in the list shown (its mark then explained)
        if self.fetch is None:
            text = Text("The high scores cannot be read: games are not saved here.")
        else:
            try:
                entries = list(self.fetch(self.assisted))
                # (the page's padding: two columns each side)
                text = top_ten_text(entries, self.fresh, self.app.size.width - 4)
                fresh = any((e.game_id, e.name, e.score, e.rank) in self.fresh
                            for e in entries)
            except Exception as e:  # the store's one line
                text = Text(f"The high scores cannot be read: {e}")
        self.query_one("#topten", Static).update(text)
        self.query_one("#topten-new").display = fresh
        self.query_one("#topten-note").display = bool(self.note)
        # the key bar says where a goes: the other list
        self.query_one(KeyBar).say("assisted", "Top ten" if self.assisted
                                   else "Assisted games")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_close()

    def action_assisted(self) -> None:
        self.assisted = not self.assisted
        self.show_list()

    def action_close(self) -> None:
        self.dismiss(None)
